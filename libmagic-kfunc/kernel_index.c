// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The kernel index (see kernel_index.h for why it is lazy): one pass
 * over each BTF object's types when it is added, the name cache that
 * lookups fill, and the public accessors of kernels and functions. BTF
 * comes in already parsed (kernel_load.c reads files).
 *
 * The pass checks what the index hands out: every FUNC's name and
 * prototype id, every decl tag's name and target. Other types are read
 * only through libbpf's bounds-checked btf__type_by_id() and
 * btf__name_by_offset() by the code that needs them, which copes with
 * NULL; checking every type up front cost more than the parse itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magic_kfunc_introspect.h"
#include "btf_util.h"
#include "kernel_index.h"
#include "kernel_view.h"
#include "log.h"

#define KFUNC_TAG "bpf_kfunc"
/* Our series' tag on each verifier-filled parameter of a legacy _impl. */
#define MAGIC_TAG_PREFIX "bpf_magic:"
#define FUNCS_PER_CHUNK 256
/* One-name scans before indexing every name pays off. */
#define SINGLE_SCAN_LIMIT 16

/* FNV-1a: cheap, and good enough for identifiers. */
static __u32 name_hash(const char *s)
{
	__u32 h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/*
 * A scan's filter key: the name's first eight bytes (fewer if it is
 * shorter), mixed down to one of MKF_FUNC_KEYS (kernel_view.h). Eight,
 * because kfunc names share their first four ("bpf_", "scx_") with
 * thousands of kernel functions, each of which would then be hashed in
 * full. ROOM is how many bytes may be read at s (the rest of its
 * string table); with eight or more, one unaligned load and a mask at
 * the first NUL do it.
 */
static __u32 prefix_key(const char *s, size_t room)
{
	__u64 v = 0;
	int i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (room >= sizeof(v)) {
		__u64 nul;

		memcpy(&v, s, sizeof(v));
		/* The lowest bit set is the first NUL byte's top bit. */
		nul = (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;
		if (nul)
			v &= (nul & -nul) - 1;
		goto mix;
	}
#else
	(void)room;
#endif
	for (i = 0; i < 8 && s[i]; i++)
		v |= (__u64)(unsigned char)s[i] << (8 * i);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
mix:
#endif
	return mkf_func_key(v);
}

unsigned char *mkf_func_filter_new(const char *const *names, size_t cnt)
{
	unsigned char *filter;
	size_t i;

	errno = 0;
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return NULL;
	for (i = 0; i < cnt; i++)
		if (strnlen(names[i], sizeof(__u64)) < sizeof(__u64))
			return NULL;
	filter = calloc(MKF_FUNC_KEYS, 1);
	for (i = 0; filter && i < cnt; i++)
		filter[prefix_key(names[i], 0)] = 1;
	return filter;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* --- the describing pass --------------------------------------------- */

/*
 * Point p->strs at the part's own strings where libbpf reads them, in
 * its copy of the raw BTF, and only if btf__name_by_offset() agrees at
 * both ends: then a name is an addition away. A BTF edited through
 * libbpf (its strings moved out of that copy) or of the other byte
 * order keeps strs NULL, and its names go through libbpf. For edited
 * BTF, btf__raw_data() first lays out a copy (libbpf keeps it until the
 * next edit): libbpf 1.1 has no cheaper way to tell the two apart, and
 * kernel BTF is read from bytes, so only hand-built BTF pays it.
 */
static void map_strings(const struct mkf_kernel *k, struct mkf_btf_part *p)
{
	enum btf_endianness host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
				   BTF_LITTLE_ENDIAN : BTF_BIG_ENDIAN;
	__u32 start = 0, sz;
	const struct btf_header *hdr;
	const char *raw, *strs;

	if (p->view) {
		p->strs = p->view->strs;
		p->str_start = p->view->str_start;
		p->str_len = p->view->str_len;
		return;
	}
	if (btf__endianness(p->btf) != host)
		return;
	if (btf__base_btf(p->btf)) {
		/* Split BTF: offsets below the base's string size are its. */
		if (p == k->parts || !k->parts[0].strs)
			return;
		start = k->parts[0].str_len;
	}
	raw = btf__raw_data(p->btf, &sz);
	if (!raw || sz < sizeof(*hdr))
		return;
	hdr = (const struct btf_header *)raw;
	if (hdr->hdr_len > sz || hdr->str_off > sz - hdr->hdr_len ||
	    hdr->str_len > sz - hdr->hdr_len - hdr->str_off || !hdr->str_len)
		return;
	strs = raw + hdr->hdr_len + hdr->str_off;
	if (btf__name_by_offset(p->btf, start) != strs ||
	    btf__name_by_offset(p->btf, start + hdr->str_len - 1) != strs + hdr->str_len - 1 ||
	    btf__name_by_offset(p->btf, start + hdr->str_len))
		return;
	p->strs = strs;
	p->str_start = start;
	p->str_len = hdr->str_len;
}

/*
 * The string at OFF of part p (a split BTF's offsets below its own
 * strings are its base's, part 0), or NULL past the end; *room gets
 * how many bytes may be read there (0: through libbpf, unknown).
 */
static const char *part_str(const struct mkf_kernel *k, const struct mkf_btf_part *p,
			    __u32 off, size_t *room)
{
	*room = 0;
	if (!p->strs)
		return btf__name_by_offset(p->btf, off);
	if (off < p->str_start)
		p = k->parts;
	off -= p->str_start;
	if (off >= p->str_len)
		return NULL;
	*room = p->str_len - off;
	return p->strs + off;
}

/* Type ID of part p (its base's below its own), NULL past the end. */
static const struct btf_type *part_type(const struct mkf_btf_part *p, __u32 id)
{
	return p->view ? mkf_btf_view_type(p->view, id) : btf__type_by_id(p->btf, id);
}

/* The part whose FUNC k->refs[ref] is. */
static size_t ref_part(const struct mkf_kernel *k, size_t ref)
{
	size_t i = k->part_cnt;

	while (i > 1 && ref < k->parts[i - 1].first_ref)
		i--;
	return i ? i - 1 : 0;
}

const char *mkf_ref_name(const struct mkf_kernel *k, size_t ref)
{
	size_t room;

	return part_str(k, &k->parts[ref_part(k, ref)], k->refs[ref].name_off, &room);
}

static int push_ref(struct mkf_kernel *k, __u32 name_off, __u32 id)
{
	if (k->ref_cnt == k->ref_cap) {
		size_t ncap = k->ref_cap ? k->ref_cap * 2 : 1024;
		struct mkf_func_ref *r = realloc(k->refs, ncap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		k->refs = r;
		k->ref_cap = ncap;
	}
	k->refs[k->ref_cnt].name_off = name_off;
	k->refs[k->ref_cnt].id = id;
	k->ref_cnt++;
	return 0;
}

static int push_tag(struct mkf_btf_part *p, size_t *cap, __u32 id)
{
	if (p->tagged_cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		__u32 *t = realloc(p->tagged, ncap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		p->tagged = t;
		*cap = ncap;
	}
	p->tagged[p->tagged_cnt++] = id;
	return 0;
}

static int push_magic(struct mkf_btf_part *p, size_t *cap, __u32 id, __u32 idx, bool off)
{
	if (p->magic_cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct mkf_magic_tag *t = realloc(p->magic, ncap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		p->magic = t;
		*cap = ncap;
	}
	p->magic[p->magic_cnt].id = id;
	p->magic[p->magic_cnt].idx = idx;
	p->magic[p->magic_cnt++].off = off;
	return 0;
}

static int cmp_magic(const void *a, const void *b)
{
	const struct mkf_magic_tag *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Sections only a BPF object's BTF has (libbpf's .maps, .ksyms,
 * .kconfig, license): a kernel's has none of them.
 */
static bool is_object_datasec(const struct mkf_kernel *k, const struct mkf_btf_part *p,
			      const struct btf_type *t)
{
	static const char *const names[] = { "license", ".maps", ".ksyms", ".kconfig" };
	const char *name;
	size_t i, room;

	name = part_str(k, p, t->name_off, &room);
	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * A FUNC named in the part's own strings, whose prototype id is in
 * range and which is not extern: nearly every FUNC, checked inline.
 */
static inline bool plain_func(const struct mkf_btf_part *p, const struct btf_type *t, __u32 end)
{
	return (t->name_off - p->str_start < p->str_len) & (t->type < end) &
	       (btf_vlen(t) != BTF_FUNC_EXTERN);
}

/* The bounds and lists describe_type() works with. */
struct describe_ctx {
	const char *what;
	__u32 start, end;
	size_t tag_cap, magic_cap;
};

/* Any FUNC, DECL_TAG or DATASEC that plain_func() did not take. */
static int describe_type(struct mkf_kernel *k, struct mkf_btf_part *p, struct describe_ctx *c,
			 const struct btf_type *t, __u32 id)
{
	const char *name;
	size_t room;

	if (btf_is_datasec(t) && is_object_datasec(k, p, t)) {
		pr_err("%s: has DATASEC '%s': the BTF of a BPF object, not a kernel's\n",
		       c->what, part_str(k, p, t->name_off, &room));
		return -EINVAL;
	}
	if (!btf_is_func(t) && !btf_is_decl_tag(t))
		return 0;
	name = part_str(k, p, t->name_off, &room);
	if (!name) {
		pr_err("%s: BTF type [%u] has a name offset past the end of the strings\n",
		       c->what, id);
		return -EINVAL;
	}
	if (t->type >= c->end) {
		pr_err("%s: BTF type [%u] refers to type [%u], past the last one [%u]\n",
		       c->what, id, t->type, c->end - 1);
		return -EINVAL;
	}
	if (btf_is_decl_tag(t)) {
		int cidx = btf_decl_tag(t)->component_idx;

		if (cidx >= 0 && t->type >= c->start &&
		    !strncmp(name, MAGIC_TAG_PREFIX, strlen(MAGIC_TAG_PREFIX)))
			return push_magic(p, &c->magic_cap, t->type, (__u32)cidx,
					  !strcmp(name + strlen(MAGIC_TAG_PREFIX), "off"));
		if (cidx != -1 || strcmp(name, KFUNC_TAG))
			return 0;
		k->tag_cnt++;
		return t->type >= c->start ? push_tag(p, &c->tag_cap, t->type) : 0;
	}
	if (btf_vlen(t) == BTF_FUNC_EXTERN) {
		pr_err("%s: FUNC '%s' [%u] is extern: the BTF of a BPF object, not a kernel's\n",
		       c->what, name, id);
		return -EINVAL;
	}
	return push_ref(k, t->name_off, id);
}

/* Room in k->refs for cnt more. 0 or -ENOMEM. */
static int refs_reserve(struct mkf_kernel *k, size_t cnt)
{
	struct mkf_func_ref *r;

	if (k->ref_cap - k->ref_cnt >= cnt)
		return 0;
	r = realloc(k->refs, (k->ref_cnt + cnt) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	k->refs = r;
	k->ref_cap = k->ref_cnt + cnt;
	return 0;
}

/*
 * A view lists its FUNCs apart from the few DECL_TAGs and DATASECs:
 * the FUNCs go to refs in one tight loop, the others, merged in id
 * order, through describe_type().
 */
static int describe_view(struct mkf_kernel *k, struct mkf_btf_part *p, struct describe_ctx *c)
{
	struct mkf_btf_view *v = p->view;
	const __u32 *picks = v->picks, *picks_end = v->pick_cnt ? v->picks + v->pick_cnt : picks;
	struct mkf_func_ref *r;
	size_t i;
	int err = 0;

	/* No FUNC (the list may be NULL then): only the picks. */
	if (!v->func_cnt) {
		for (; picks < picks_end && !err; picks++)
			err = describe_type(k, p, c, mkf_btf_view_type(v, *picks),
					    *picks);
		return err;
	}
	/* The walk saw every FUNC pass plain_func(): none can fail below. */
	if (v->funcs_plain && v->func_max_type < c->end && p->strs == v->strs) {
		if (!k->refs) {
			/* vmlinux: its list becomes the index's. */
			k->refs = v->funcs;
			k->ref_cnt = k->ref_cap = v->func_cnt;
			v->funcs = NULL;
			v->func_cnt = 0;
		} else {
			if (refs_reserve(k, v->func_cnt))
				return -ENOMEM;
			memcpy(k->refs + k->ref_cnt, v->funcs, v->func_cnt * sizeof(*r));
			k->ref_cnt += v->func_cnt;
		}
		for (; picks < picks_end && !err; picks++)
			err = describe_type(k, p, c, mkf_btf_view_type(v, *picks),
					    *picks);
		return err;
	}
	if (refs_reserve(k, v->func_cnt))
		return -ENOMEM;
	r = k->refs + k->ref_cnt;
	for (i = 0; i < v->func_cnt && !err; i++) {
		__u32 id = v->funcs[i].id;
		const struct btf_type *t = mkf_btf_view_type(v, id);

		if (picks < picks_end && *picks < id) {
			k->ref_cnt = (size_t)(r - k->refs);
			while (!err && picks < picks_end && *picks < id) {
				err = describe_type(k, p, c, mkf_btf_view_type(v, *picks),
						    *picks);
				picks++;
			}
			r = k->refs + k->ref_cnt;
		}
		if (plain_func(p, t, c->end)) {
			r->name_off = t->name_off;
			r->id = id;
			r++;
			continue;
		}
		k->ref_cnt = (size_t)(r - k->refs);
		err = describe_type(k, p, c, t, id);
		r = k->refs + k->ref_cnt;
	}
	k->ref_cnt = (size_t)(r - k->refs);
	for (; picks < picks_end && !err; picks++)
		err = describe_type(k, p, c, mkf_btf_view_type(v, *picks), *picks);
	return err;
}

/*
 * Add the FUNCs a BTF object defines itself (for split BTF: not its
 * base's) to kernel->refs, the FUNCs a bpf_kfunc decl tag on the whole
 * function (component_idx -1) points at to the part's list, and the
 * parameters bpf_magic decl tags point at to another.
 */
static int describe_btf(struct mkf_kernel *k, struct mkf_btf_part *p, const char *what)
{
	const struct btf *base = p->view ? NULL : btf__base_btf(p->btf);
	struct describe_ctx c = {
		.what = what,
		.start = p->view ? p->view->start_id : base ? btf__type_cnt(base) : 1,
		.end = p->view ? p->view->end_id : btf__type_cnt(p->btf),
	};
	__u32 id, kind;
	int err = 0;

	map_strings(k, p);
	p->first_ref = k->ref_cnt;
	if (p->view)
		err = describe_view(k, p, &c);
	for (id = c.start; !p->view && id < c.end && !err; id++) {
		const struct btf_type *t = btf__type_by_id(p->btf, id);

		kind = btf_kind(t);
		if (kind != BTF_KIND_FUNC && kind != BTF_KIND_DECL_TAG && kind != BTF_KIND_DATASEC)
			continue;
		if (kind == BTF_KIND_FUNC && p->strs && plain_func(p, t, c.end))
			err = push_ref(k, t->name_off, id);
		else
			err = describe_type(k, p, &c, t, id);
	}
	p->ref_cnt = k->ref_cnt - p->first_ref;
	if (!err && p->tagged_cnt)
		qsort(p->tagged, p->tagged_cnt, sizeof(*p->tagged), cmp_u32);
	if (!err && p->magic_cnt)
		qsort(p->magic, p->magic_cnt, sizeof(*p->magic), cmp_magic);
	return err;
}

/* The params of FUNC id that bpf_magic tags point at (bits), and the offsets. */
static void magic_params(const struct mkf_btf_part *p, __u32 id, __u32 *params, __u32 *offs)
{
	size_t lo = 0, hi = p->magic_cnt;

	*params = *offs = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->magic[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->magic_cnt && p->magic[lo].id == id; lo++) {
		if (p->magic[lo].idx >= 32)
			continue;
		*params |= 1u << p->magic[lo].idx;
		if (p->magic[lo].off)
			*offs |= 1u << p->magic[lo].idx;
	}
}

/* --- FUNCs and the name cache (all under k->lock) ---------------------- */

static bool is_tagged(const struct mkf_btf_part *p, __u32 id)
{
	return p->tagged_cnt &&
	       bsearch(&id, p->tagged, p->tagged_cnt, sizeof(id), cmp_u32) != NULL;
}

/*
 * A FUNC must point at a FUNC_PROTO: the resolver relies on it. Others
 * are not functions to bind (checked only for candidates: reading
 * every FUNC's prototype is a cache miss each).
 */
static bool ref_usable(const struct mkf_kernel *k, size_t part, size_t ref)
{
	const struct mkf_func_ref *r = &k->refs[ref];
	const struct mkf_btf_part *p = &k->parts[part];
	const struct btf_type *proto = part_type(p, part_type(p, r->id)->type);

	return proto && btf_is_func_proto(proto);
}

static const struct mkf_func *make_func(struct mkf_kernel *k, size_t part, size_t ref)
{
	const struct mkf_func_ref *r = &k->refs[ref];
	const struct mkf_btf_part *p = &k->parts[part];
	struct btf *own = NULL;
	__u32 proto = part_type(p, r->id)->type, small_proto = proto;
	struct mkf_func *f;

	/* Read through a view: the FUNC and what the resolver reads of it. */
	if (!p->btf) {
		own = mkf_btf_view_extract(p->view, r->id, &small_proto);
		if (!own) {
			pr_warn("kernel BTF: cannot read FUNC [%u] '%s': %s\n", r->id,
				mkf_ref_name(k, ref), strerror(errno));
			return NULL;
		}
	}
	if (k->func_cnt == k->chunk_cnt * FUNCS_PER_CHUNK) {
		struct mkf_func **c = realloc(k->chunks, (k->chunk_cnt + 1) * sizeof(*c));

		if (!c) {
			btf__free(own);
			return NULL;
		}
		k->chunks = c;
		c[k->chunk_cnt] = malloc(FUNCS_PER_CHUNK * sizeof(**c));
		if (!c[k->chunk_cnt]) {
			btf__free(own);
			return NULL;
		}
		k->chunk_cnt++;
	}
	f = &k->chunks[k->func_cnt / FUNCS_PER_CHUNK][k->func_cnt % FUNCS_PER_CHUNK];
	k->func_cnt++;
	f->kernel = k;
	f->name = mkf_ref_name(k, ref);
	f->btf = own ? own : p->btf;
	f->own_btf = own;
	f->id = r->id;
	f->proto = small_proto;
	f->kproto = proto;
	f->part = part;
	f->module = p->module;
	f->module_name = p->module < 0 ? NULL : k->modules[p->module].name;
	f->tagged = is_tagged(p, r->id);
	magic_params(p, r->id, &f->magic_params, &f->magic_offs);
	f->ref = ref;
	f->unsplit_memo = 0;
	return f;
}

static struct mkf_name *name_lookup(const struct mkf_kernel *k, const char *name, __u32 h)
{
	size_t mask = k->slot_cnt - 1, slot;
	__u32 idx;

	if (!k->slot_cnt)
		return NULL;
	for (slot = h & mask; (idx = k->slots[slot]); slot = (slot + 1) & mask)
		if (k->names[idx - 1].hash == h && !strcmp(k->names[idx - 1].name, name))
			return &k->names[idx - 1];
	return NULL;
}

static void slot_insert(struct mkf_kernel *k, size_t idx)
{
	size_t mask = k->slot_cnt - 1, slot = k->names[idx].hash & mask;

	while (k->slots[slot])
		slot = (slot + 1) & mask;
	k->slots[slot] = (__u32)idx + 1;
}

/*
 * A new cache entry (the caller made sure there is none): fn's name,
 * or a copy of NAME while no FUNC is known to have it.
 */
static struct mkf_name *name_add(struct mkf_kernel *k, const char *name, __u32 h,
				 const struct mkf_func *fn)
{
	struct mkf_name *e;
	size_t i;

	if (2 * (k->name_cnt + 1) > k->slot_cnt) {
		size_t n = k->slot_cnt ? 2 * k->slot_cnt : 256;
		__u32 *s = calloc(n, sizeof(*s));

		if (!s)
			return NULL;
		free(k->slots);
		k->slots = s;
		k->slot_cnt = n;
		for (i = 0; i < k->name_cnt; i++)
			slot_insert(k, i);
	}
	if (k->name_cnt == k->name_cap) {
		size_t n = k->name_cap ? 2 * k->name_cap : 128;

		e = realloc(k->names, n * sizeof(*e));
		if (!e)
			return NULL;
		k->names = e;
		k->name_cap = n;
	}
	e = &k->names[k->name_cnt];
	e->hash = h;
	e->fn = fn;
	e->owned_name = fn ? NULL : strdup(name);
	if (!fn && !e->owned_name)
		return NULL;
	e->name = fn ? fn->name : e->owned_name;
	/* A FUNC comes from index_all(), which searches every part. */
	e->scanned = fn ? k->part_cnt : 0;
	slot_insert(k, k->name_cnt++);
	return e;
}

static void name_found(struct mkf_name *e, const struct mkf_func *fn)
{
	e->fn = fn;
	e->name = fn->name;
	free(e->owned_name);
	e->owned_name = NULL;
}

/*
 * Every FUNC of every part in k->refs, where a filter left some out:
 * for a name the filter does not cover, or for every name. The FUNCs
 * made so far get their new place in the list.
 */
static int complete_refs(struct mkf_kernel *k)
{
	struct mkf_func_ref **lists = calloc(k->part_cnt + 1, sizeof(*lists)), *all;
	size_t *cnts = calloc(k->part_cnt + 1, sizeof(*cnts)), total = 0, i;
	int err = lists && cnts ? 0 : -ENOMEM;

	for (i = 0; i < k->part_cnt && !err; i++) {
		const struct mkf_btf_part *p = &k->parts[i];

		if (p->filtered)
			err = mkf_btf_view_funcs(p->view, &lists[i], &cnts[i]);
		else
			cnts[i] = p->ref_cnt;
		total += cnts[i];
	}
	all = err ? NULL : malloc((total + 1) * sizeof(*all));
	if (!all)
		err = -ENOMEM;
	for (total = 0, i = 0; i < k->part_cnt && !err; i++) {
		struct mkf_btf_part *p = &k->parts[i];

		if (cnts[i])
			memcpy(all + total, p->filtered ? lists[i] : k->refs + p->first_ref,
			       cnts[i] * sizeof(*all));
		p->first_ref = total;
		p->ref_cnt = cnts[i];
		p->filtered = false;
		total += cnts[i];
	}
	for (i = 0; lists && i < k->part_cnt; i++)
		free(lists[i]);
	free(lists);
	free(cnts);
	if (err)
		return err;
	free(k->refs);
	k->refs = all;
	k->ref_cnt = k->ref_cap = total;
	for (i = 0; i < k->func_cnt; i++) {
		struct mkf_func *f = &k->chunks[i / FUNCS_PER_CHUNK][i % FUNCS_PER_CHUNK];
		const struct mkf_btf_part *p = &k->parts[f->part];
		size_t lo = p->first_ref, hi = p->first_ref + p->ref_cnt;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (all[mid].id < f->id)
				lo = mid + 1;
			else
				hi = mid;
		}
		f->ref = lo;
	}
	free(k->func_filter);
	k->func_filter = NULL;
	return 0;
}

/* A name whose FUNCs the filtered parts' refs hold (as mkf_func_filter_new() keys). */
static bool covered(const struct mkf_kernel *k, const char *name)
{
	return strnlen(name, sizeof(__u64)) == sizeof(__u64) &&
	       k->func_filter[prefix_key(name, 0)];
}

/* Entries not yet searched in every part, with no FUNC found. */
static bool pending(const struct mkf_kernel *k, const struct mkf_name *e)
{
	return !e->fn && e->scanned < k->part_cnt;
}

/*
 * Search the parts for every pending entry at once: a name is hashed
 * only when its prefix key matches one of theirs. Refs are in the
 * order libbpf searches (vmlinux first, then modules, ids ascending),
 * so the first FUNC found for a name is the one libbpf binds.
 */
/* k->refs[r] of part, named NAME, passed the filter: the FUNC of its name? */
static int scan_match(struct mkf_kernel *k, size_t part, size_t r, const char *name)
{
	struct mkf_name *e = name_lookup(k, name, name_hash(name));
	const struct mkf_func *fn;

	if (!e || e->fn || e->scanned > part || !ref_usable(k, part, r))
		return 0;
	fn = make_func(k, part, r);
	if (!fn)
		return -ENOMEM;
	name_found(e, fn);
	return 0;
}

static int scan(struct mkf_kernel *k)
{
	size_t i, from = k->part_cnt, min_len = 8;
	unsigned char *filter;
	int err = 0;

	for (i = 0; i < k->name_cnt; i++)
		if (pending(k, &k->names[i]) && k->names[i].scanned < from)
			from = k->names[i].scanned;
	if (from == k->part_cnt)
		return 0;
	for (i = 0; k->func_filter && i < k->name_cnt; i++)
		if (pending(k, &k->names[i]) && !covered(k, k->names[i].name) &&
		    (err = complete_refs(k)))
			return err;
	/* A byte per key: the test in the loop below is one load. */
	filter = calloc(MKF_FUNC_KEYS, 1);
	if (!filter)
		return -ENOMEM;
	for (i = 0; i < k->name_cnt; i++) {
		if (!pending(k, &k->names[i]))
			continue;
		filter[prefix_key(k->names[i].name, 0)] = 1;
		if (strnlen(k->names[i].name, 8) < min_len)
			min_len = strnlen(k->names[i].name, 8);
	}
	for (i = from; i < k->part_cnt && !err; i++) {
		const struct mkf_btf_part *p = &k->parts[i];
		/* A part without FUNCs may come with no list at all (NULL). */
		const struct mkf_func_ref *ref = p->ref_cnt ? k->refs + p->first_ref : NULL;
		const struct mkf_func_ref *ref_end = ref ? ref + p->ref_cnt : NULL;
		const char *strs = p->strs;
		__u32 str_start = p->str_start;
		/*
		 * Names with 8 bytes of the section left after their start
		 * (prefix_key() reads them the same way on little-endian).
		 */
		__u32 fast_len = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && min_len == 8 &&
				 p->strs && p->str_len >= 8 ? p->str_len - 7 : 0;
		const struct mkf_btf_view *v = p->view;

		/*
		 * A view's walk saw every name of this part in its own strings,
		 * none within 8 bytes of their end: no test per FUNC.
		 */
		if (fast_len && v && v->funcs_plain && p->strs == v->strs &&
		    v->func_max_name < fast_len) {
			for (; ref < ref_end; ref++) {
				__u64 key;

				memcpy(&key, strs + (ref->name_off - str_start), sizeof(key));
				if (filter[mkf_func_key(key)] &&
				    (err = scan_match(k, i, (size_t)(ref - k->refs),
						      strs + (ref->name_off - str_start))))
					break;
			}
			continue;
		}
		for (; ref < ref_end; ref++) {
			__u32 off = ref->name_off - str_start;
			const char *name;
			size_t room;

			if (off < fast_len) {
				__u64 v;

				/*
				 * Every name asked for has 8 bytes or more: the
				 * first 8 of a name (NUL or not) are its key.
				 */
				memcpy(&v, strs + off, sizeof(v));
				if (!filter[mkf_func_key(v)])
					continue;
				name = strs + off;
			} else {
				name = part_str(k, p, ref->name_off, &room);
				if (!filter[prefix_key(name, room)])
					continue;
			}
			err = scan_match(k, i, (size_t)(ref - k->refs), name);
			if (err)
				break;
		}
	}
	for (i = 0; i < k->name_cnt && !err; i++)
		k->names[i].scanned = k->part_cnt;
	free(filter);
	return err;
}

/*
 * The whole BTF of part idx, from its view (under k->lock). A module's
 * needs vmlinux's as its base. NULL with errno.
 */
static const struct btf *part_btf(struct mkf_kernel *k, size_t idx)
{
	struct mkf_btf_part *p = &k->parts[idx];
	struct btf *base = NULL, *btf;

	if (p->btf)
		return p->btf;
	if (idx && !(base = (struct btf *)part_btf(k, 0)))
		return NULL;
	btf = mkf_btf_view_parse(p->view, base);
	if (!btf) {
		int err = errno;

		pr_warn("%s BTF: libbpf cannot parse it: %s\n",
			p->module < 0 ? "kernel" : k->modules[p->module].name, strerror(err));
		errno = err;
		return NULL;
	}
	/* Set p->btf last: make_func() reads it without asking. */
	if (p->module < 0) {
		k->vmlinux = btf;
		k->vmlinux_owned = true;
	} else {
		k->modules[p->module].btf = btf;
		k->modules[p->module].owned = true;
	}
	__atomic_store_n(&p->btf, btf, __ATOMIC_RELEASE);
	k->views_unparsed--;
	return btf;
}

const struct btf *mkf_part_btf(const struct mkf_kernel *kernel, size_t idx)
{
	struct mkf_kernel *k = (struct mkf_kernel *)kernel;
	const struct btf *btf;

	pthread_mutex_lock(&k->lock);
	btf = idx < k->part_cnt ? part_btf(k, idx) : (errno = ENOENT, NULL);
	pthread_mutex_unlock(&k->lock);
	return btf;
}

/* Every FUNC name of the parts not yet indexed in full goes in. */
static int index_all(struct mkf_kernel *k)
{
	size_t r, i;

	if (k->full_parts == k->part_cnt)
		return 0;
	if (k->func_filter) {
		int err = complete_refs(k);

		if (err)
			return err;
	}
	/* Every FUNC: libbpf's parse costs less than a small BTF for each. */
	for (i = k->full_parts; i < k->part_cnt; i++)
		if (!k->parts[i].btf && !part_btf(k, i))
			return errno == ENOMEM ? -ENOMEM : -EINVAL;
	for (i = k->full_parts; i < k->part_cnt; i++) {
		const struct mkf_btf_part *p = &k->parts[i];

		for (r = p->first_ref; r < p->first_ref + p->ref_cnt; r++) {
			size_t room;
			const char *name = part_str(k, p, k->refs[r].name_off, &room);
			__u32 h = name_hash(name);
			struct mkf_name *e = name_lookup(k, name, h);
			const struct mkf_func *fn;

			if ((e && (e->fn || e->scanned > i)) || !ref_usable(k, i, r))
				continue;
			fn = make_func(k, i, r);
			if (!fn)
				return -ENOMEM;
			if (e)
				name_found(e, fn);
			else if (!name_add(k, name, h, fn))
				return -ENOMEM;
		}
	}
	for (i = 0; i < k->name_cnt; i++)
		k->names[i].scanned = k->part_cnt;
	k->full_parts = k->part_cnt;
	return 0;
}

/* Make sure NAME is in the cache, searched in every part. */
static struct mkf_name *want(struct mkf_kernel *k, const char *name)
{
	__u32 h = name_hash(name);
	struct mkf_name *e = name_lookup(k, name, h);

	if (e)
		return e;
	return name_add(k, name, h, NULL);
}

const struct mkf_func *mkf_kernel_find(const struct mkf_kernel *kernel, const char *name)
{
	int err;

	return mkf_kernel_find_err(kernel, name, &err);
}

const struct mkf_func *mkf_kernel_find_err(const struct mkf_kernel *kernel, const char *name,
					   int *errp)
{
	struct mkf_kernel *k = (struct mkf_kernel *)kernel;
	const struct mkf_func *fn = NULL;
	struct mkf_name *e;
	int err = 0;

	pthread_mutex_lock(&k->lock);
	e = name_lookup(k, name, name_hash(name));
	if (e && !pending(k, e)) {
		fn = e->fn;
		goto out;
	}
	if (!e && k->full_parts == k->part_cnt)
		goto out;	/* every name is indexed: there is none */
	if (++k->single_scans > SINGLE_SCAN_LIMIT && !k->views_unparsed) {
		err = index_all(k);
		e = err ? NULL : name_lookup(k, name, name_hash(name));
		fn = e ? e->fn : NULL;
		goto out;
	}
	e = want(k, name);
	err = e ? scan(k) : -ENOMEM;
	/* names[] may have moved: look the entry up again. */
	e = err ? NULL : name_lookup(k, name, name_hash(name));
	fn = e ? e->fn : NULL;
out:
	pthread_mutex_unlock(&k->lock);
	if (err)
		pr_warn("kernel index: %s while looking up '%s'\n", strerror(-err), name);
	*errp = err;
	return fn;
}

int mkf_kernel_prefetch(const struct mkf_kernel *kernel, const char *const *names, size_t cnt)
{
	struct mkf_kernel *k = (struct mkf_kernel *)kernel;
	size_t i;
	int err = 0;

	pthread_mutex_lock(&k->lock);
	if (k->full_parts < k->part_cnt) {
		for (i = 0; i < cnt && !err; i++)
			if (!want(k, names[i]))
				err = -ENOMEM;
		if (!err)
			err = scan(k);
	}
	pthread_mutex_unlock(&k->lock);
	return err;
}

int mkf_kernel_index_all(const struct mkf_kernel *kernel)
{
	struct mkf_kernel *k = (struct mkf_kernel *)kernel;
	int err;

	pthread_mutex_lock(&k->lock);
	err = index_all(k);
	pthread_mutex_unlock(&k->lock);
	return err;
}

bool mkf_func_callable(const struct mkf_func *fn)
{
	/* No tags anywhere means an old pahole, not "no kfuncs". */
	return fn->tagged || fn->kernel->tag_cnt == 0;
}

const char *mkf_func__name(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->name, NULL);
}

const struct btf *mkf_func__btf(const struct mkf_func *fn)
{
	if (!fn)
		return mkf_err_ptr(-EINVAL);
	return fn->own_btf ? mkf_part_btf(fn->kernel, fn->part) : fn->btf;
}

__u32 mkf_func__proto_id(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->kproto, 0);
}

const char *mkf_func__module(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->module_name, NULL);
}

bool mkf_func__is_callable(const struct mkf_func *fn)
{
	return MKF_GET(fn, mkf_func_callable(fn), false);
}

/* --- kernels --------------------------------------------------------- */

/*
 * A view over the raw data libbpf keeps of BTF it parsed (BASE: the
 * view of vmlinux's, for a module's), so that describing it is one walk
 * over the records rather than a libbpf call per type; NULL where it
 * cannot be had (the other byte order, BTF built or edited through
 * libbpf's API, no memory), and the part is described through libbpf.
 * libbpf keeps that data until the BTF is edited, which a kernel's BTF
 * is not while an index reads it (map_strings() reads its strings there
 * too).
 */
static struct mkf_btf_view *borrow_view(const struct btf *btf, const struct mkf_btf_view *base)
{
	enum btf_endianness host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
				   BTF_LITTLE_ENDIAN : BTF_BIG_ENDIAN;
	struct mkf_btf_view *v;
	const void *raw;
	__u32 sz;

	if (btf__endianness(btf) != host || (btf__base_btf(btf) && !base))
		return NULL;
	raw = btf__raw_data(btf, &sz);
	v = raw ? malloc(sizeof(*v)) : NULL;
	if (!v)
		return NULL;
	/*
	 * Only where libbpf itself reads types and strings from that data
	 * (BTF it parsed, unedited): BTF built or edited through its API
	 * lives elsewhere, and its raw data is a copy the next edit frees.
	 */
	if (mkf_btf_view_open_mem(v, raw, sz, base) || v->end_id != btf__type_cnt(btf) ||
	    (v->end_id > v->start_id &&
	     btf__type_by_id(btf, v->start_id) != mkf_btf_view_type(v, v->start_id)) ||
	    btf__name_by_offset(btf, v->str_start) != v->strs) {
		mkf_btf_view_close(v);
		free(v);
		return NULL;
	}
	return v;
}

/* Add a part for btf (or view) and describe it; undone on failure. */
static int add_part(struct mkf_kernel *k, const struct btf *btf, struct mkf_btf_view *view,
		    int module, const char *what)
{
	struct mkf_btf_part *parts = realloc(k->parts, (k->part_cnt + 1) * sizeof(*parts));
	struct mkf_btf_part *p;
	size_t tags = k->tag_cnt, refs = k->ref_cnt;
	int err;

	if (!parts)
		return -ENOMEM;
	k->parts = parts;
	p = &parts[k->part_cnt];
	memset(p, 0, sizeof(*p));
	p->btf = btf;
	p->view = view;
	p->module = module;
	p->filtered = view && view->funcs_filtered;
	if (btf && !view && !k->check_all)
		p->view = borrow_view(btf, module < 0 ? NULL : k->parts[0].view);
	err = k->check_all && btf ? mkf_btf_check(btf, what) : 0;
	if (!err)
		err = describe_btf(k, p, what);
	if (err) {
		free(p->tagged);
		free(p->magic);
		k->tag_cnt = tags;
		k->ref_cnt = refs;
		if (p->view != view) {
			mkf_btf_view_close(p->view);
			free(p->view);
		}
		return err;
	}
	k->part_cnt++;
	if (view)
		k->views_unparsed++;
	return 0;
}

struct mkf_kernel *mkf_kernel_new(const struct btf *vmlinux, bool owned, bool check_all)
{
	struct mkf_kernel *k = calloc(1, sizeof(*k));
	int err;

	if (!k)
		return NULL;
	pthread_mutex_init(&k->lock, NULL);
	k->vmlinux = vmlinux;
	k->vmlinux_owned = owned;
	k->check_all = check_all;
	err = add_part(k, vmlinux, NULL, -1, "kernel BTF");
	if (err) {
		/* The caller still owns vmlinux on failure. */
		k->vmlinux_owned = false;
		mkf_kernel__free(k);
		errno = -err;
		return NULL;
	}
	return k;
}

struct mkf_kernel *mkf_kernel_new_view_filtered(struct mkf_btf_view *vmlinux,
						unsigned char *filter)
{
	struct mkf_kernel *k = calloc(1, sizeof(*k));
	int err;

	if (!k) {
		mkf_btf_view_close(vmlinux);
		free(vmlinux);
		free(filter);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&k->lock, NULL);
	k->func_filter = filter;
	err = add_part(k, NULL, vmlinux, -1, "kernel BTF");
	if (err) {
		mkf_btf_view_close(vmlinux);
		free(vmlinux);
		mkf_kernel__free(k);
		errno = -err;
		return NULL;
	}
	return k;
}

struct mkf_kernel *mkf_kernel__new(const struct btf *vmlinux_btf)
{
	if (!vmlinux_btf || btf__base_btf(vmlinux_btf))
		return mkf_err_ptr(-EINVAL);
	return mkf_kernel_new(vmlinux_btf, false, false);
}

static int add_module(struct mkf_kernel *k, const char *name, const struct btf *btf,
		      struct mkf_btf_view *view, bool owned)
{
	struct mkf_module *mods;
	size_t i;
	int err;

	mods = realloc(k->modules, (k->module_cnt + 1) * sizeof(*mods));
	if (!mods)
		return -ENOMEM;
	k->modules = mods;
	mods[k->module_cnt].name = strdup(name);
	if (!mods[k->module_cnt].name)
		return -ENOMEM;
	mods[k->module_cnt].btf = btf;
	mods[k->module_cnt].owned = owned;
	k->module_cnt++;
	pthread_mutex_lock(&k->lock);
	err = add_part(k, btf, view, (int)k->module_cnt - 1, "module BTF");
	pthread_mutex_unlock(&k->lock);
	if (err) {
		k->module_cnt--;
		free(mods[k->module_cnt].name);
		return err;
	}
	/* A module may add pairs: classify again when next asked. */
	mkf_kernel_memo_free(k->kfuncs);
	k->kfuncs = NULL;
	/* ... and _impl twins or the first tags: ask mkf_func_unsplit() again. */
	for (i = 0; i < k->func_cnt; i++)
		k->chunks[i / FUNCS_PER_CHUNK][i % FUNCS_PER_CHUNK].unsplit_memo = 0;
	return 0;
}

int mkf_kernel_add_module(struct mkf_kernel *k, const char *name, const struct btf *btf, bool owned)
{
	if (!name || !*name || !btf || btf__base_btf(btf) != k->vmlinux)
		return -EINVAL;
	return add_module(k, name, btf, NULL, owned);
}

int mkf_kernel_add_module_view(struct mkf_kernel *k, const char *name, struct mkf_btf_view *view)
{
	int err = -EINVAL;

	if (name && *name && k->part_cnt && view->base == k->parts[0].view)
		err = add_module(k, name, NULL, view, false);
	if (err) {
		mkf_btf_view_close(view);
		free(view);
	}
	return err;
}

int mkf_kernel__add_module(struct mkf_kernel *kernel, const char *name,
			   const struct btf *module_btf)
{
	if (!kernel)
		return mkf_err(-EINVAL);
	/* A module from memory: the kernel no longer is only its files. */
	kernel->files_known = false;
	return mkf_err(mkf_kernel_add_module(kernel, name, module_btf, false));
}

int mkf_kernel_files(const struct mkf_kernel *k, struct mkf_kernel_opts *ko)
{
	memset(ko, 0, sizeof(*ko));
	ko->sz = sizeof(*ko);
	if (!k->files_known)
		return -ENOENT;
	if (k->btf_dir) {
		ko->btf_dir = k->btf_dir;
		ko->skip_modules = k->skip_modules;
	} else {
		ko->vmlinux_path = k->vmlinux_path;
		ko->module_paths = (const char *const *)k->module_paths;
		ko->module_cnt = k->module_path_cnt;
	}
	ko->check_all_types = k->check_all;
	return 0;
}

void mkf_kernel__free(struct mkf_kernel *k)
{
	size_t i;

	if (!k)
		return;
	/* Modules first: split BTF refers to its base. */
	for (i = 0; i < k->module_cnt; i++) {
		if (k->modules[i].owned)
			btf__free((struct btf *)k->modules[i].btf);
		free(k->modules[i].name);
	}
	free(k->modules);
	free(k->vmlinux_path);
	for (i = 0; i < k->module_path_cnt; i++)
		free(k->module_paths[i]);
	free(k->module_paths);
	free(k->btf_dir);
	if (k->vmlinux_owned)
		btf__free((struct btf *)k->vmlinux);
	mkf_kernel_memo_free(k->kfuncs);
	/* Views last but one: BTF parsed from a view copied its bytes. */
	for (i = k->part_cnt; i-- > 0;) {
		free(k->parts[i].tagged);
		free(k->parts[i].magic);
		mkf_btf_view_close(k->parts[i].view);
		free(k->parts[i].view);
	}
	free(k->parts);
	free(k->refs);
	free(k->func_filter);
	for (i = 0; i < k->name_cnt; i++)
		free(k->names[i].owned_name);
	free(k->names);
	free(k->slots);
	for (i = 0; i < k->func_cnt; i++)
		btf__free(k->chunks[i / FUNCS_PER_CHUNK][i % FUNCS_PER_CHUNK].own_btf);
	for (i = 0; i < k->chunk_cnt; i++)
		free(k->chunks[i]);
	free(k->chunks);
	pthread_mutex_destroy(&k->lock);
	free(k);
}

bool mkf_kernel__has_kfunc_tags(const struct mkf_kernel *kernel)
{
	return MKF_GET(kernel, kernel->tag_cnt > 0, false);
}

/* Read through views, the BTF is parsed when first asked for. */
const struct btf *mkf_kernel__btf(const struct mkf_kernel *kernel)
{
	if (!kernel)
		return mkf_err_ptr(-EINVAL);
	return mkf_part_btf(kernel, 0);
}

const struct btf *mkf_kernel__module_btf(const struct mkf_kernel *kernel, size_t idx)
{
	size_t i;

	if (!kernel)
		return mkf_err_ptr(-EINVAL);
	if (idx >= kernel->module_cnt)
		return mkf_err_ptr(-ENOENT);
	for (i = 1; i < kernel->part_cnt; i++)
		if (kernel->parts[i].module == (int)idx)
			return mkf_part_btf(kernel, i);
	return kernel->modules[idx].btf;
}

size_t mkf_kernel__module_cnt(const struct mkf_kernel *kernel)
{
	return MKF_GET(kernel, kernel->module_cnt, 0);
}

const char *mkf_kernel__module_name(const struct mkf_kernel *kernel, size_t idx)
{
	if (!kernel)
		return mkf_err_ptr(-EINVAL);
	if (idx >= kernel->module_cnt)
		return mkf_err_ptr(-ENOENT);
	return kernel->modules[idx].name;
}
