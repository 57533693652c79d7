// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A plan's decisions as a rewrite cache entry keeps them (cache_plan.h):
 *
 *	struct rec_hdr, then per extern a struct rec_entry followed by
 *	its names (name, kernel name, hidden name, flavored name: lengths
 *	in the record, NONE for none, no terminating NUL), then per
 *	static function renamed a struct rec_rename followed by its new
 *	name, then the kernel types the prototypes take (raw BTF, types_sz
 *	bytes)
 *
 * in this machine's byte order: an entry is read where it was written.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf_util.h"
#include "cache_plan.h"
#include "object.h"
#include "plan.h"

#define NONE 0xffffffffu
#define HIDDEN_PREFIX "mkf_hidden_"
#define LOCAL_PREFIX "mkf_local_"
#define IMPL "_impl"

struct rec_hdr {
	__u32 entry_cnt;
	__u32 rename_cnt;
	__u32 types_sz;
	__u32 pad;
	__u64 sym_cnt;
};

/* Which of its names an extern has in the output (out_name). */
enum out_kind { OUT_NAME, OUT_KERNEL, OUT_FLAVORED, OUT_HIDDEN, OUT_MERGED };

struct rec_rename {
	__u64 sym_idx;		/* UINT64_MAX for a BTF FUNC or VAR */
	__u32 btf_id;
	__u32 entry;		/* the extern whose output name it held */
	__u32 name_len;
	__u32 pad;
};

struct rec_entry {
	__u64 sym_idx;
	__u64 call_cnt;
	__s64 merged_into;
	__u32 func_id;
	__s32 nparams;
	__u32 decision;
	__u32 change;
	__s32 delta;
	__u32 set_regs;
	__u32 extra_proto;
	__u32 weak;
	__u32 keep_name;
	__u32 out_kind;
	__u32 name_len, kernel_name_len, hidden_name_len, flavored_name_len;
};

struct buf {
	char *p;
	size_t len, cap;
	bool failed;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->failed || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 512) + n;
		char *p = realloc(b->p, cap);

		if (!p) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static __u32 len_of(const char *s)
{
	return s ? (__u32)strlen(s) : NONE;
}

static enum out_kind out_kind(const struct mkf_plan_entry *e)
{
	if (e->merged_into >= 0)
		return OUT_MERGED;
	if (e->hidden_name && e->out_name == e->hidden_name)
		return OUT_HIDDEN;
	if (e->flavored_name && e->out_name == e->flavored_name)
		return OUT_FLAVORED;
	if (e->kernel_name && e->out_name == e->kernel_name)
		return OUT_KERNEL;
	return OUT_NAME;
}

/* The entry whose output name a rename's old name is. */
static __u32 rename_entry(const struct mkf_plan *plan, const struct mkf_plan_rename *r)
{
	size_t i;

	for (i = 0; i < plan->entry_cnt; i++)
		if (plan->entries[i].out_name == r->old_name ||
		    !strcmp(plan->entries[i].out_name, r->old_name))
			return (__u32)i;
	return NONE;
}

int mkf_cache_plan_encode(const struct mkf_plan *plan, void **out, size_t *out_sz)
{
	struct rec_hdr h = { .entry_cnt = (__u32)plan->entry_cnt,
			     .rename_cnt = (__u32)plan->rename_cnt, .sym_cnt = plan->sym_cnt };
	const void *types = NULL;
	struct buf b = {};
	__u32 types_sz = 0;
	size_t i;

	if (plan->types) {
		types = btf__raw_data(plan->types, &types_sz);
		if (!types)
			return -ENOMEM;
	}
	h.types_sz = types_sz;
	put(&b, &h, sizeof(h));
	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];
		struct rec_entry r = {
			.sym_idx = e->sym_idx, .call_cnt = e->call_cnt, .merged_into = e->merged_into,
			.func_id = e->func_id, .nparams = e->nparams, .decision = e->decision,
			.change = e->change, .delta = e->delta, .set_regs = e->set_regs,
			.extra_proto = e->extra_proto, .weak = e->weak, .keep_name = e->keep_name,
			.out_kind = out_kind(e),
			.name_len = len_of(e->name), .kernel_name_len = len_of(e->kernel_name),
			.hidden_name_len = len_of(e->hidden_name),
			.flavored_name_len = len_of(e->flavored_name),
		};

		put(&b, &r, sizeof(r));
		put(&b, e->name, r.name_len);
		if (e->kernel_name)
			put(&b, e->kernel_name, r.kernel_name_len);
		if (e->hidden_name)
			put(&b, e->hidden_name, r.hidden_name_len);
		if (e->flavored_name)
			put(&b, e->flavored_name, r.flavored_name_len);
	}
	for (i = 0; i < plan->rename_cnt; i++) {
		const struct mkf_plan_rename *rn = &plan->renames[i];
		struct rec_rename r = {
			.sym_idx = rn->sym_idx == SIZE_MAX ? UINT64_MAX : rn->sym_idx,
			.btf_id = rn->btf_id, .entry = rename_entry(plan, rn),
			.name_len = len_of(rn->name),
		};

		put(&b, &r, sizeof(r));
		put(&b, rn->name, r.name_len);
	}
	put(&b, types, types_sz);
	if (b.failed) {
		free(b.p);
		return -ENOMEM;
	}
	*out = b.p ? b.p : malloc(1);
	*out_sz = b.len;
	return *out ? 0 : -ENOMEM;
}

/* The next N bytes of the record as a string (NONE: NULL); false past its end. */
static bool take_str(const char **p, const char *end, __u32 n, char **s)
{
	*s = NULL;
	if (n == NONE)
		return true;
	if ((size_t)(end - *p) < n)
		return false;
	*s = strndup(*p, n);
	if (!*s || strlen(*s) != n)
		return false;
	*p += n;
	return true;
}

/* PREFIX + NAME, or with "_N" after it: what the planner's fresh names look like. */
static bool fresh_name_of(const char *s, const char *prefix, const char *name)
{
	size_t pl = strlen(prefix), nl = strlen(name);

	if (strncmp(s, prefix, pl) || strncmp(s + pl, name, nl))
		return false;
	s += pl + nl;
	return !*s || (s[0] == '_' && s[1] && strspn(s + 1, "0123456789") == strlen(s + 1));
}

/* The names the planner may bind NAME to: B or B_impl, B being its essential name without _impl. */
static bool bindable(const char *name, const char *kname)
{
	size_t e = mkf_essential_name_len(name), b = e, il = strlen(IMPL), klen = strlen(kname);

	if (b >= il && !strncmp(name + b - il, IMPL, il))
		b -= il;
	if (!b || strncmp(kname, name, b))
		return false;
	return klen == b || (klen == b + il && !strcmp(kname + b, IMPL));
}

/* The FUNC_PROTO of types an extended or retyped prototype takes its params from. */
static bool proto_ok(const struct mkf_plan *plan, const struct mkf_plan_entry *e, int want)
{
	const struct btf_type *t;

	if (!plan->types || !e->extra_proto)
		return false;
	t = btf__type_by_id(plan->types, e->extra_proto);
	return t && btf_is_func_proto(t) && btf_vlen(t) >= want;
}

static bool entry_ok(const struct mkf_plan *plan, const struct mkf_plan_entry *e, bool weaken)
{
	__u32 extra;
	int i;

	if (e->nparams < 0 || e->nparams > 5)
		return false;
	if (e->hidden_name) {
		if (e->decision != MKF_DECISION_LEAVE_WEAK && e->decision != MKF_DECISION_WEAKEN)
			return false;
		if (!fresh_name_of(e->hidden_name, HIDDEN_PREFIX, e->name))
			return false;
	}
	/* The flavored name: the kernel's, then the extern's own ___flavor. */
	if (e->flavored_name) {
		size_t el = mkf_essential_name_len(e->name), kl;

		if (!e->kernel_name || el == strlen(e->name))
			return false;
		kl = strlen(e->kernel_name);
		if (strncmp(e->flavored_name, e->kernel_name, kl) ||
		    strcmp(e->flavored_name + kl, e->name + el))
			return false;
	}
	switch (e->decision) {
	case MKF_DECISION_WEAKEN:
		if (!weaken || e->weak)
			return false;
		/* fall through */
	case MKF_DECISION_LEAVE_WEAK:
	case MKF_DECISION_UNRESOLVED:
	case MKF_DECISION_LEAVE:
		return !e->kernel_name && !e->flavored_name && !e->keep_name && e->merged_into < 0 &&
		       e->change == MKF_PROTO_SAME && !e->delta && !e->set_regs && !e->extra_proto &&
		       (e->decision != MKF_DECISION_LEAVE_WEAK || e->weak);
	case MKF_DECISION_BIND:
		break;
	default:
		return false;
	}
	if (!e->kernel_name || !bindable(e->name, e->kernel_name))
		return false;
	if (e->merged_into >= 0) {
		const struct mkf_plan_entry *k;

		if ((size_t)e->merged_into >= plan->entry_cnt)
			return false;
		k = &plan->entries[e->merged_into];
		if (k == e || k->decision != MKF_DECISION_BIND || k->merged_into >= 0 ||
		    !k->kernel_name || strcmp(k->kernel_name, e->kernel_name))
			return false;
	}
	switch (e->change) {
	case MKF_PROTO_SAME:
		if (e->delta || e->extra_proto)
			return false;
		break;
	case MKF_PROTO_EXTEND:
		if (e->delta < 1 || e->nparams + e->delta > 5 ||
		    !proto_ok(plan, e, e->nparams + e->delta))
			return false;
		break;
	case MKF_PROTO_SHRINK:
		if (e->delta > -1 || e->nparams + e->delta < 0 || e->extra_proto)
			return false;
		break;
	case MKF_PROTO_RETYPE:
		if (e->delta || !proto_ok(plan, e, e->nparams))
			return false;
		break;
	default:
		return false;
	}
	/* R1..R5: only registers of parameters appended, never one the program passes. */
	extra = 0;
	if (e->change == MKF_PROTO_EXTEND)
		for (i = e->nparams; i < e->nparams + e->delta; i++)
			extra |= 1u << (i + 1);
	return !(e->set_regs & ~extra);
}

/* e->out_name from its kind; false if that name is not there. */
static bool set_out_name(const struct mkf_plan *plan, struct mkf_plan_entry *e, __u32 kind)
{
	switch (kind) {
	case OUT_NAME:
		e->out_name = e->name;
		/* Bound under its own name: libbpf finds the function so. */
		return e->decision != MKF_DECISION_BIND || e->keep_name;
	case OUT_KERNEL:
		e->out_name = e->kernel_name;
		return e->kernel_name && !e->keep_name;
	case OUT_FLAVORED:
		e->out_name = e->flavored_name;
		return e->flavored_name && !e->keep_name;
	case OUT_HIDDEN:
		e->out_name = e->hidden_name;
		return e->hidden_name != NULL;
	case OUT_MERGED:
		e->out_name = e->name;	/* the joined extern's, once all are set */
		return e->merged_into >= 0 && e->decision == MKF_DECISION_BIND &&
		       (size_t)e->merged_into < plan->entry_cnt;
	default:
		return false;
	}
}

struct mkf_plan *mkf_cache_plan_decode(const void *buf, size_t sz, bool weaken)
{
	const char *p = buf, *end = p + sz;
	struct mkf_plan *plan = NULL;
	__u32 *out_kinds = NULL, *rename_of = NULL;
	struct rec_hdr h;
	size_t i;

	if (sz < sizeof(h))
		goto inval;
	memcpy(&h, p, sizeof(h));
	p += sizeof(h);
	if (h.entry_cnt > (size_t)(end - p) / sizeof(struct rec_entry) ||
	    h.rename_cnt > (size_t)(end - p) / sizeof(struct rec_rename))
		goto inval;
	plan = calloc(1, sizeof(*plan));
	out_kinds = calloc(h.entry_cnt + 1, sizeof(*out_kinds));
	rename_of = calloc(h.rename_cnt + 1, sizeof(*rename_of));
	if (!plan || !out_kinds || !rename_of)
		goto nomem;
	plan->entries = calloc(h.entry_cnt + 1, sizeof(*plan->entries));
	if (!plan->entries)
		goto nomem;
	plan->sym_cnt = h.sym_cnt;
	for (i = 0; i < h.entry_cnt; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];
		struct rec_entry r;

		if ((size_t)(end - p) < sizeof(r))
			goto bad;
		memcpy(&r, p, sizeof(r));
		p += sizeof(r);
		plan->entry_cnt++;
		e->merged_into = -1;
		if (!take_str(&p, end, r.name_len, &e->name) || !e->name ||
		    !take_str(&p, end, r.kernel_name_len, &e->kernel_name) ||
		    !take_str(&p, end, r.hidden_name_len, &e->hidden_name) ||
		    !take_str(&p, end, r.flavored_name_len, &e->flavored_name) || r.weak > 1 ||
		    r.keep_name > 1 || r.merged_into < -1 || r.merged_into >= (__s64)h.entry_cnt ||
		    r.out_kind > OUT_MERGED)
			goto bad;
		out_kinds[i] = r.out_kind;
		e->keep_name = r.keep_name;
		e->sym_idx = r.sym_idx;
		e->call_cnt = r.call_cnt;
		e->merged_into = (long)r.merged_into;
		e->func_id = r.func_id;
		e->nparams = r.nparams;
		e->decision = (enum mkf_decision)r.decision;
		e->change = (enum mkf_proto_change)r.change;
		e->delta = r.delta;
		e->set_regs = r.set_regs;
		e->extra_proto = r.extra_proto;
		e->weak = r.weak;
	}
	if (h.rename_cnt) {
		plan->renames = calloc(h.rename_cnt, sizeof(*plan->renames));
		if (!plan->renames)
			goto nomem;
	}
	for (i = 0; i < h.rename_cnt; i++) {
		struct mkf_plan_rename *rn = &plan->renames[i];
		struct rec_rename r;

		if ((size_t)(end - p) < sizeof(r))
			goto bad;
		memcpy(&r, p, sizeof(r));
		p += sizeof(r);
		plan->rename_cnt++;
		if (!take_str(&p, end, r.name_len, &rn->new_name) || !rn->new_name ||
		    r.entry >= h.entry_cnt || (r.sym_idx == UINT64_MAX) == !r.btf_id ||
		    (r.sym_idx != UINT64_MAX && r.sym_idx >= h.sym_cnt))
			goto bad;
		rn->name = rn->new_name;
		rn->sym_idx = r.sym_idx == UINT64_MAX ? SIZE_MAX : (size_t)r.sym_idx;
		rn->btf_id = r.btf_id;
		rename_of[i] = r.entry;
	}
	if ((size_t)(end - p) != h.types_sz)
		goto bad;
	if (h.types_sz) {
		plan->types = btf__new(p, h.types_sz);
		if (!plan->types || mkf_btf_check(plan->types, "a rewrite cache entry's types"))
			goto bad;
	}
	/* Output names first: a merged extern takes the one of the extern it joins. */
	for (i = 0; i < plan->entry_cnt; i++)
		if (!set_out_name(plan, &plan->entries[i], out_kinds[i]))
			goto bad;
	for (i = 0; i < plan->entry_cnt; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];

		if (e->merged_into >= 0) {
			const struct mkf_plan_entry *k = &plan->entries[e->merged_into];

			if (k->merged_into >= 0)
				goto bad;
			e->merged_name = k->name;
			e->out_name = k->out_name;
		}
	}
	for (i = 0; i < plan->entry_cnt; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];

		if (!entry_ok(plan, e, weaken))
			goto bad;
		if (e->decision == MKF_DECISION_UNRESOLVED)
			plan->unresolved_cnt++;
		if (mkf_entry_changes(e))
			plan->change_cnt++;
	}
	/* A static function gives up its name only to an extern renamed to it. */
	for (i = 0; i < plan->rename_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[rename_of[i]];

		if (e->decision != MKF_DECISION_BIND || !strcmp(e->name, e->out_name) ||
		    !fresh_name_of(plan->renames[i].name, LOCAL_PREFIX, e->out_name))
			goto bad;
		plan->renames[i].old_name = e->out_name;
	}
	free(out_kinds);
	free(rename_of);
	return plan;
nomem:
	free(out_kinds);
	free(rename_of);
	mkf_plan__free(plan);
	errno = ENOMEM;
	return NULL;
bad:
	free(out_kinds);
	free(rename_of);
	mkf_plan__free(plan);
inval:
	errno = EINVAL;
	return NULL;
}
