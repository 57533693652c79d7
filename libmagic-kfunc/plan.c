// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Compute a plan for an object (resolve every kfunc extern, merge
 * externs ending on one kernel function) and report it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "btf_edit.h"
#include "btf_util.h"
#include "log.h"
#include "object.h"
#include "opts.h"
#include "plan.h"
#include "resolve.h"
#include "strbuf.h"

bool mkf_entry_changes(const struct mkf_plan_entry *e)
{
	if (e->decision == MKF_DECISION_WEAKEN || e->hidden_name)
		return true;
	if (e->decision != MKF_DECISION_BIND)
		return false;
	return e->merged_into >= 0 || e->change != MKF_PROTO_SAME ||
	       strcmp(e->name, e->kernel_name) || (e->set_regs && e->call_cnt);
}

static int fill_entry(struct mkf_plan *plan, struct mkf_plan_entry *e,
		      const struct mkf_kernel *kernel, const struct mkf_obj *obj,
		      const struct mkf_extern *ext)
{
	struct mkf_resolution res;
	const char *mod;
	int err, id;

	e->merged_into = -1;
	e->name = strdup(ext->name);
	if (!e->name)
		return -ENOMEM;
	e->weak = ext->weak;
	e->sym_idx = ext->sym_idx;
	e->func_id = ext->func_id;
	e->nparams = btf_vlen(btf__type_by_id(obj->btf, ext->proto_id));

	err = mkf_resolve(kernel, obj->btf, ext, &res);
	if (err)
		return err;
	e->decision = res.decision;
	e->rule = res.rule;
	e->change = res.change;
	e->delta = res.delta;
	e->set_regs = res.set_regs;
	e->call_cnt = ext->call_cnt;
	e->libbpf = res.libbpf;
	e->reason = res.reason;
	res.reason = NULL;
	if (res.target) {
		e->kernel_name = strdup(res.target->name);
		mod = res.target->module_name;
		e->module = mod ? strdup(mod) : NULL;
		if (!e->kernel_name || (mod && !e->module))
			err = -ENOMEM;
	}
	if (!err && (res.change == MKF_PROTO_EXTEND || res.change == MKF_PROTO_RETYPE)) {
		id = mkf_btf_import_type(plan->imports, res.target->btf, res.target->proto);
		if (id < 0)
			err = id;
		else
			e->extra_proto = id;
	}
	mkf_resolution_free(&res);
	return err;
}

/* Add a line to an entry's reason. */
__attribute__((format(printf, 2, 3)))
static int append_reason(struct mkf_plan_entry *e, const char *fmt, ...)
{
	struct mkf_sb sb = {};
	va_list args;
	char *r;

	mkf_sb_printf(&sb, "%s", e->reason);
	va_start(args, fmt);
	mkf_sb_vprintf(&sb, fmt, args);
	va_end(args);
	r = mkf_sb_steal(&sb);
	if (!r)
		return -ENOMEM;
	free(e->reason);
	e->reason = r;
	return 0;
}

/*
 * A weak extern (or one weaken_unresolved made weak) that nothing in the
 * kernel fits, under a name libbpf still finds there: with an incompatible prototype (libbpf 1.1 refuses
 * the whole object) or one the verifier will not call (libbpf binds it,
 * and bpf_ksym_exists() is true). Renamed to a name no kernel has,
 * libbpf resolves it to 0 and the program takes its fallback.
 */
static int hide_weak(struct mkf_plan_entry *e)
{
	static const char prefix[] = "mkf_hidden_";
	size_t len = sizeof(prefix) + strlen(e->name);

	if ((e->decision != MKF_DECISION_LEAVE_WEAK && e->decision != MKF_DECISION_WEAKEN) ||
	    (e->libbpf != MKF_LIBBPF_INCOMPATIBLE && e->libbpf != MKF_LIBBPF_BINDS_UNCALLABLE))
		return 0;
	e->hidden_name = malloc(len);
	if (!e->hidden_name)
		return -ENOMEM;
	mkf_snprintf(e->hidden_name, len, "%s%s", prefix, e->name);
	return append_reason(e, "  hidden: renamed to '%s' in the object, a name no kernel has, so "
			     "that libbpf resolves the weak extern to 0 instead of %s\n",
			     e->hidden_name, e->libbpf == MKF_LIBBPF_INCOMPATIBLE
			     ? "refusing its prototype (libbpf 1.1 fails the whole object)"
			     : "binding a function the verifier will not call");
}

struct bound_entry {
	const char *kname;	/* the kernel function's name */
	size_t idx;		/* the entry's position */
};

/* Bound entries ordered by kernel function name, then by position. */
static int cmp_bound(const void *a, const void *b)
{
	const struct bound_entry *x = a, *y = b;
	int c = strcmp(x->kname, y->kname);

	return c ? c : x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Two externs bound to one kernel function: keep one, point the rest at
 * it. Sorted by kernel name, each such group is a run (a quadratic scan
 * compared names 4000 times for 64 externs).
 */
static int merge_entries(struct mkf_plan *plan)
{
	struct bound_entry *b;
	size_t n = 0, i, j, end;
	int err = 0;

	b = malloc((plan->entry_cnt + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (i = 0; i < plan->entry_cnt; i++) {
		if (plan->entries[i].decision != MKF_DECISION_BIND)
			continue;
		b[n].kname = plan->entries[i].kernel_name;
		b[n++].idx = i;
	}
	qsort(b, n, sizeof(*b), cmp_bound);
	for (i = 0; i < n && !err; i = end) {
		const char *kname = b[i].kname;
		size_t keep = b[i].idx;

		for (end = i + 1; end < n && !strcmp(b[end].kname, kname); end++)
			;
		if (end - i == 1)
			continue;
		/* Prefer the extern already named like the kernel function. */
		for (j = i; j < end; j++) {
			if (!strcmp(plan->entries[b[j].idx].name, kname)) {
				keep = b[j].idx;
				break;
			}
		}
		for (j = i; j < end && !err; j++) {
			struct mkf_plan_entry *o = &plan->entries[b[j].idx];

			if (b[j].idx == keep)
				continue;
			/* One module per name in the index: same name, same function. */
			o->merged_into = (long)keep;
			o->merged_name = plan->entries[keep].name;
			err = append_reason(o, "  merged: its calls now go through extern '%s' "
					    "(one extern per kernel function)\n",
					    plan->entries[keep].name);
		}
	}
	free(b);
	return err;
}

/*
 * An extern left alone keeps its name; if another extern is renamed to
 * that very name, libbpf sees two externs of one name. Only say so: the
 * one left alone has no fit, so libbpf would not accept it anyway. The
 * same for a rename to a name the object has for something else (a
 * variable, a function, a non-kfunc extern).
 */
static int note_name_clashes(struct mkf_plan *plan, const struct mkf_obj *obj)
{
	size_t i, j;
	int err = 0;

	for (i = 0; i < plan->entry_cnt && !err; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];

		if (e->decision == MKF_DECISION_BIND) {
			/* Renamed to a name the object uses for something else. */
			if (e->merged_into < 0 && strcmp(e->kernel_name, e->name) &&
			    mkf_obj_name_taken(obj, e->kernel_name)) {
				e->name_clash = true;
				err = append_reason(e, "  name clash: the object has a symbol or "
						    "BTF type named '%s' already; libbpf will not "
						    "find the renamed extern\n", e->kernel_name);
			}
			continue;
		}
		for (j = 0; j < plan->entry_cnt && !err; j++) {
			const struct mkf_plan_entry *o = &plan->entries[j];

			if (o->decision == MKF_DECISION_BIND && o->merged_into < 0 &&
			    !strcmp(o->kernel_name, e->name) && strcmp(o->name, e->name)) {
				e->name_clash = true;
				err = append_reason(e, "  name clash: extern '%s' is renamed to '%s' "
						    "as well; libbpf will see two externs of that name\n",
						    o->name, e->name);
			}
		}
	}
	return err;
}

/* On request: strong externs that fit nothing become weak ones. */
static int weaken_unresolved(struct mkf_plan *plan)
{
	size_t i;
	int err = 0;

	for (i = 0; i < plan->entry_cnt && !err; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];

		if (e->decision != MKF_DECISION_UNRESOLVED)
			continue;
		e->decision = MKF_DECISION_WEAKEN;
		err = append_reason(e, "  weakened (weaken_unresolved): the extern is made weak, so "
				    "libbpf resolves it to 0 and the program must reach it only "
				    "behind bpf_ksym_exists()\n");
		if (!err)
			err = hide_weak(e);
	}
	return err;
}

static void log_entry(const char *obj_name, const struct mkf_plan_entry *e)
{
	/*
	 * Warn about what will fail: an unresolved strong extern, a name
	 * clash, and a weak extern left alone that libbpf 1.1 refuses
	 * (with the whole object) instead of resolving it to 0.
	 */
	if (e->decision == MKF_DECISION_UNRESOLVED || e->name_clash ||
	    (e->decision == MKF_DECISION_LEAVE_WEAK && e->libbpf == MKF_LIBBPF_INCOMPATIBLE &&
	     !e->hidden_name))
		pr_warn("%s: extern '%s' %s", obj_name, e->name, e->reason);
	else if (mkf_entry_changes(e) || e->decision == MKF_DECISION_LEAVE_WEAK ||
		 e->decision == MKF_DECISION_WEAKEN)
		pr_info("%s: extern '%s' %s", obj_name, e->name, e->reason);
	else
		pr_debug("%s: extern '%s' %s", obj_name, e->name, e->reason);
}

/* The kernel types the entries imported, as libbpf reads them back. */
static int parse_imports(struct mkf_plan *plan)
{
	void *raw;
	__u32 sz;
	int err = 0;

	if (mkf_btf_out__type_cnt(plan->imports) > 1) {
		raw = mkf_btf_out__finish(plan->imports, &sz);
		if (!raw)
			return -errno;
		plan->types = btf__new(raw, sz);
		if (!plan->types)
			err = -errno;
		free(raw);
	}
	mkf_btf_out__free(plan->imports);
	plan->imports = NULL;
	return err;
}

static struct mkf_plan *compute(const void *obj_buf, size_t obj_buf_sz,
				const struct mkf_kernel *kernel, const struct mkf_plan_opts *opts)
{
	struct mkf_plan *plan = NULL;
	const char *obj_name;
	struct mkf_obj *obj;
	size_t i;
	int err;

	if (!OPTS_VALID(opts, mkf_plan_opts))
		return mkf_err_ptr(-EINVAL);
	if (!obj_buf || !kernel) {
		pr_err("mkf_plan__compute: no %s given\n", obj_buf ? "kernel" : "object");
		return mkf_err_ptr(-EINVAL);
	}
	obj_name = OPTS_GET(opts, object_name, NULL);
	if (!obj_name)
		obj_name = "object";

	obj = calloc(1, sizeof(*obj));
	if (!obj)
		return mkf_err_ptr(-ENOMEM);
	err = mkf_obj_read(obj, obj_buf, obj_buf_sz);
	if (err) {
		free(obj);
		pr_err("%s: cannot read the object: %s\n", obj_name, strerror(-err));
		return mkf_err_ptr(err);
	}
	plan = calloc(1, sizeof(*plan));
	if (!plan) {
		err = -ENOMEM;
		goto out;
	}
	plan->sym_cnt = obj->sym_cnt;
	plan->imports = mkf_btf_out__new(NULL);
	plan->entries = calloc(obj->extern_cnt + 1, sizeof(*plan->entries));
	if (!plan->imports || !plan->entries) {
		err = -ENOMEM;
		goto out;
	}
	err = mkf_resolve_prefetch(kernel, obj->externs, obj->extern_cnt);
	if (err)
		goto out;
	for (i = 0; i < obj->extern_cnt; i++) {
		err = fill_entry(plan, &plan->entries[i], kernel, obj, &obj->externs[i]);
		plan->entry_cnt++;
		if (!err)
			err = hide_weak(&plan->entries[i]);
		if (err)
			goto out;
	}
	err = merge_entries(plan);
	if (!err)
		err = note_name_clashes(plan, obj);
	if (!err && OPTS_GET(opts, weaken_unresolved, false))
		err = weaken_unresolved(plan);
	if (!err)
		err = parse_imports(plan);
	if (err)
		goto out;
	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];

		plan->unresolved_cnt += e->decision == MKF_DECISION_UNRESOLVED;
		plan->change_cnt += mkf_entry_changes(e);
		log_entry(obj_name, e);
	}
out:
	if (err) {
		mkf_plan_obj_free(obj);
		mkf_plan__free(plan);
		return mkf_err_ptr(err);
	}
	plan->obj = obj;
	return plan;
}

struct mkf_plan *mkf_plan__compute(const void *obj_buf, size_t obj_buf_sz,
				   const struct mkf_kernel *kernel,
				   const struct mkf_plan_opts *opts)
{
	struct mkf_diag_scope scope;
	struct mkf_plan *plan;
	int err;

	mkf_diag_enter(&scope, OPTS_GET(opts, err_buf, NULL), OPTS_GET(opts, err_buf_sz, 0));
	plan = compute(obj_buf, obj_buf_sz, kernel, opts);
	err = plan ? 0 : errno;
	mkf_diag_leave(&scope, err);
	return plan ? plan : mkf_err_ptr(-err);
}

struct mkf_obj *mkf_plan_take_obj(const struct mkf_plan *plan, const void *buf, size_t sz)
{
	/* A const plan may be shared: whoever takes the view owns it. */
	struct mkf_obj *obj = __atomic_exchange_n(&((struct mkf_plan *)plan)->obj, NULL,
						  __ATOMIC_ACQ_REL);

	/*
	 * The view is of a private copy of the bytes planned for: it
	 * serves only an object with the same bytes, but for the DWARF
	 * that neither the plan nor the rewrite reads (obj_image.h).
	 */
	if (obj && !mkf_obj_image_same(&obj->img, buf, sz)) {
		mkf_plan_obj_free(obj);
		obj = NULL;
	}
	return obj;
}

void mkf_plan_drop_obj(struct mkf_plan *plan)
{
	mkf_plan_obj_free(__atomic_exchange_n(&plan->obj, NULL, __ATOMIC_ACQ_REL));
}

void mkf_plan_obj_free(struct mkf_obj *obj)
{
	if (!obj)
		return;
	mkf_obj_release(obj);
	free(obj);
}

void mkf_plan__free(struct mkf_plan *plan)
{
	size_t i;

	if (!plan)
		return;
	for (i = 0; i < plan->entry_cnt; i++) {
		free(plan->entries[i].name);
		free(plan->entries[i].kernel_name);
		free(plan->entries[i].hidden_name);
		free(plan->entries[i].module);
		free(plan->entries[i].reason);
	}
	free(plan->entries);
	mkf_btf_out__free(plan->imports);
	btf__free(plan->types);
	mkf_plan_obj_free(plan->obj);
	free(plan);
}

size_t mkf_plan__entry_cnt(const struct mkf_plan *plan)
{
	return MKF_GET(plan, plan->entry_cnt, 0);
}

const struct mkf_plan_entry *mkf_plan__entry(const struct mkf_plan *plan, size_t idx)
{
	if (!plan)
		return mkf_err_ptr(-EINVAL);
	if (idx >= plan->entry_cnt)
		return mkf_err_ptr(-ENOENT);
	return &plan->entries[idx];
}

const struct mkf_plan_entry *mkf_plan__find_entry(const struct mkf_plan *plan, const char *name)
{
	size_t i;

	if (!plan || !name)
		return mkf_err_ptr(-EINVAL);
	for (i = 0; i < plan->entry_cnt; i++)
		if (!strcmp(plan->entries[i].name, name))
			return &plan->entries[i];
	return mkf_err_ptr(-ENOENT);
}

size_t mkf_plan__unresolved_cnt(const struct mkf_plan *plan)
{
	return MKF_GET(plan, plan->unresolved_cnt, 0);
}

size_t mkf_plan__change_cnt(const struct mkf_plan *plan)
{
	return MKF_GET(plan, plan->change_cnt, 0);
}

const char *mkf_plan_entry__name(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->name, NULL);
}

bool mkf_plan_entry__is_weak(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->weak, false);
}

enum mkf_decision mkf_plan_entry__decision(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->decision, 0);
}

enum mkf_rule mkf_plan_entry__rule(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->rule, MKF_RULE_NONE);
}

const char *mkf_plan_entry__kernel_name(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->kernel_name, NULL);
}

const char *mkf_plan_entry__module(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->module, NULL);
}

enum mkf_proto_change mkf_plan_entry__proto_change(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->change, MKF_PROTO_SAME);
}

int mkf_plan_entry__param_delta(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->delta, 0);
}

const char *mkf_plan_entry__merged_into(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->merged_into >= 0 ? e->merged_name : NULL, NULL);
}

__u32 mkf_plan_entry__set_regs(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->set_regs, 0);
}

size_t mkf_plan_entry__call_site_cnt(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->call_cnt, 0);
}

enum mkf_libbpf_outcome mkf_plan_entry__libbpf_outcome(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->libbpf, MKF_LIBBPF_BINDS);
}

const char *mkf_plan_entry__reason(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->reason, NULL);
}

/* Names for the enums, as the CLI and its JSON print them. */
const char *mkf_decision_str(enum mkf_decision d)
{
	switch (d) {
	case MKF_DECISION_BIND: return "bind";
	case MKF_DECISION_LEAVE_WEAK: return "leave-weak";
	case MKF_DECISION_UNRESOLVED: return "unresolved";
	case MKF_DECISION_WEAKEN: return "weaken";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_rule_str(enum mkf_rule rule)
{
	switch (rule) {
	case MKF_RULE_NONE: return "none";
	case MKF_RULE_SAME: return "same";
	case MKF_RULE_EXTEND: return "extend";
	case MKF_RULE_SHRINK: return "shrink";
	case MKF_RULE_IMPL_EXTEND: return "impl-extend";
	case MKF_RULE_IMPL_SAME: return "impl-same";
	case MKF_RULE_RETYPE: return "retype";
	case MKF_RULE_IMPL_RETYPE: return "impl-retype";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_proto_change_str(enum mkf_proto_change change)
{
	switch (change) {
	case MKF_PROTO_SAME: return "same";
	case MKF_PROTO_EXTEND: return "extend";
	case MKF_PROTO_SHRINK: return "shrink";
	case MKF_PROTO_RETYPE: return "retype";
	}
	return mkf_err_ptr(-EINVAL);
}

const char *mkf_libbpf_outcome_str(enum mkf_libbpf_outcome outcome)
{
	switch (outcome) {
	case MKF_LIBBPF_BINDS: return "binds";
	case MKF_LIBBPF_BINDS_UNCALLABLE: return "binds-uncallable";
	case MKF_LIBBPF_NOT_FOUND: return "not-found";
	case MKF_LIBBPF_INCOMPATIBLE: return "incompatible";
	}
	return mkf_err_ptr(-EINVAL);
}
