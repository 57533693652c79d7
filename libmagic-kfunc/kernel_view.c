// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The read-only view of kernel BTF (see kernel_view.h). The checks at
 * open are libbpf 1.1's (btf_parse_hdr(), btf_parse_str_sec(),
 * btf_parse_type_sec()), so that a file the view takes is one libbpf
 * would have taken; what it refuses, the caller hands to libbpf, whose
 * words say why. Records are read in place: the type section is 4-byte
 * aligned in the file and the file starts page-aligned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_view.h"

/* libbpf's limit on string offsets (BTF_MAX_STR_OFFSET). */
#define MAX_STR_OFFSET 0x7fffffffu
/* Types one FUNC may reach: a prototype and what its params point at. */
#define MAX_EXTRACT 4096
/* Nesting of pointers, modifiers and prototypes followed from a FUNC. */
#define MAX_DEPTH 64
/*
 * What a reference to no type, or a name offset past the strings,
 * becomes in a small BTF: again nothing, so that readers of either BTF
 * see the same (libbpf's lookups answer NULL, as they do for the file).
 */
#define DANGLING 0x7fffffffu

/* The file's bytes: mapped where the file allows it, else read. */
static int slurp(struct mkf_btf_view *v, const char *path)
{
	size_t cap, len = 0;
	struct stat st;
	char *buf, *tmp;
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EPROTO;
		goto out;
	}
	/*
	 * sysfs gives its BTF files their size; since 6.16 vmlinux's may be
	 * mapped (read-only, private), before that read(2) copies it.
	 */
	if (st.st_size >= (off_t)sizeof(struct btf_header)) {
		v->mem = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (v->mem != MAP_FAILED) {
			v->mem_len = (size_t)st.st_size;
			v->mapped = true;
			goto out;
		}
		v->mem = NULL;
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 16;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (len == cap) {
			tmp = realloc(buf, cap * 2);
			if (!tmp) {
				free(buf);
				err = -ENOMEM;
				goto out;
			}
			buf = tmp;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			free(buf);
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	v->mem = buf;
	v->mem_len = len;
out:
	close(fd);
	return err;
}

/* The size of a type record, as libbpf's btf_type_size(); -1 for an unknown kind. */
static long record_size(const struct btf_type *t)
{
	long vlen = btf_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_FWD:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return sizeof(struct btf_type);
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_type) + sizeof(__u32);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_type) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return sizeof(struct btf_type) + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return sizeof(struct btf_type) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return sizeof(struct btf_type) + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return sizeof(struct btf_type) + vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return sizeof(struct btf_type) + vlen * sizeof(struct btf_var_secinfo);
	default:
		return -1;
	}
}

/* Header and sections, as libbpf 1.1 checks them. */
static int check_layout(struct mkf_btf_view *v)
{
	const struct btf_header *hdr = v->mem;
	size_t meta;

	if (v->mem_len < sizeof(*hdr) || hdr->magic != BTF_MAGIC)
		return -EPROTO;	/* not raw BTF of this byte order */
	if (hdr->hdr_len < sizeof(*hdr) || hdr->hdr_len > v->mem_len)
		return -EINVAL;
	meta = v->mem_len - hdr->hdr_len;
	if ((__u64)hdr->str_off + hdr->str_len > meta ||
	    (__u64)hdr->type_off + hdr->type_len > hdr->str_off || hdr->type_off % 4)
		return -EINVAL;
	v->types = (const char *)v->mem + hdr->hdr_len + hdr->type_off;
	v->types_len = hdr->type_len;
	v->strs = (const char *)v->mem + hdr->hdr_len + hdr->str_off;
	v->str_len = hdr->str_len;
	if (v->base && !v->str_len)
		return 0;
	if (!v->str_len || v->str_len - 1 > MAX_STR_OFFSET || v->strs[v->str_len - 1])
		return -EINVAL;
	if (!v->base && v->strs[0])
		return -EINVAL;
	return 0;
}

/*
 * Room for a walk's list of BYTES, most of which stays untouched: its
 * own mapping, without transparent huge pages. A kernel with THP
 * "always" would otherwise fill a whole 2 MB page with zeroes at the
 * first write wherever one fits, and whether one fits depends on where
 * malloc put the block (ASLR): the cost of an open moved by several ms
 * from one process to the next. A mapping of its own also leaves
 * malloc's mmap threshold, which a freed large block raises, alone.
 */
static void *table_alloc(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_NOHUGEPAGE
	madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
	return p;
}

static void table_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

/*
 * index_types()'s tables, indexed by the info word's top byte (kind
 * and kflag): the size of a record's fixed part, larger than any type
 * section for an unknown kind; the size per vlen in the low byte of
 * the other, with two flags above it.
 */
#define REC_PER_VLEN	0xffu
#define REC_FUNC	0x100u	/* a FUNC */
#define REC_PICK	0x200u	/* a DECL_TAG or a DATASEC */
#define REC_UNKNOWN	0xffffffffu
static __u32 rec_fixed[256], rec_vlen[256];

/*
 * A record's size, from the tables: for records the walk checked (it
 * filled the tables first).
 */
static inline __u32 record_len(const struct btf_type *t)
{
	__u32 top = t->info >> 24;

	return rec_fixed[top] + (__u8)rec_vlen[top] * btf_vlen(t);
}

static void init_tables(void)
{
	__u32 top;

	for (top = 0; top < 256; top++) {
		struct btf_type t = { .info = top << 24 | 1 };
		long one = record_size(&t), kind = top & 0x1f;

		t.info = top << 24;
		/* Every thread that gets here writes the same words; [0] last. */
		if (one < 0) {
			if (top)
				rec_fixed[top] = REC_UNKNOWN;
			continue;
		}
		rec_vlen[top] = (__u32)(one - record_size(&t)) |
				(kind == BTF_KIND_FUNC ? REC_FUNC : 0) |
				(kind == BTF_KIND_DECL_TAG || kind == BTF_KIND_DATASEC ? REC_PICK : 0);
		rec_fixed[top] = (__u32)record_size(&t);
	}
	__atomic_store_n(&rec_fixed[0], REC_UNKNOWN, __ATOMIC_RELEASE);
}

/*
 * Where each record starts; every record's kind known and inside the
 * section. The loop is the whole cost of opening a view (over a
 * hundred thousand records), so it does little: a record's size from
 * two small tables (record_size() says the same), an unknown kind's
 * larger than the section, so that one test after the loop catches it
 * with a record that runs past the end; the kinds the index reads
 * listed on the way: the FUNCs with their names and what the index
 * checks of them (kernel_index.c), apart from the few DECL_TAGs and
 * DATASECs. With a FILTER, a FUNC whose name's key it lacks is checked
 * and not listed: an object's open looks up a few names, and listing
 * tens of thousands of FUNCs to scan them once cost more than the
 * walk's other work.
 */
static int index_types(struct mkf_btf_view *v, const unsigned char *filter)
{
	size_t max = v->types_len / sizeof(struct btf_type) + 1;
	__u64 off = 0, len = v->types_len, last = len - sizeof(struct btf_type);
	__u32 start = v->start_id, str_start = v->str_start, max_name = 0, max_type = 0;
	/* Names at most this far into the strings have eight bytes there. */
	__u32 key_room = v->str_len >= sizeof(__u64) ? v->str_len - (__u32)sizeof(__u64) : 0;
	__u32 linkage = 0;
	const char *types = v->types, *strs = v->strs;
	/* Filtered, a few FUNCs are listed: room grows as they come. */
	size_t fn_cap = filter ? 64 : max;
	struct mkf_func_ref *fn, *fn0, *fn_end;
	__u32 *offs, *picked, *picked0;
	/* Records seen: offs notes where every VIEW_STRIDE-th starts. */
	__u64 n = 0;

	if (__atomic_load_n(&rec_fixed[0], __ATOMIC_ACQUIRE) != REC_UNKNOWN)
		init_tables();
	/* Only sizeof(__u32)-aligned access: the section offset is checked. */
	if ((unsigned long)v->types % sizeof(__u32))
		return -EPROTO;
	/* Pages of these that nothing is written to cost nothing. */
	v->table_len = max * sizeof(__u32);
	v->offs_len = (max / VIEW_STRIDE + 1) * sizeof(__u32);
	v->offs = offs = table_alloc(v->offs_len);
	v->picks = picked = picked0 = table_alloc(v->table_len);
	v->funcs = fn = fn0 = malloc(fn_cap * sizeof(*v->funcs));
	if (!offs || !fn || !picked)
		return -ENOMEM;
	fn_end = fn0 + fn_cap;
	while (len >= sizeof(struct btf_type) && off <= last) {
		const struct btf_type *t = (const void *)(types + off);
		__u32 info = t->info, top = info >> 24, pv = rec_vlen[top];

		if (!(n % VIEW_STRIDE))
			*offs++ = (__u32)off;
		n++;
		off += (__u64)rec_fixed[top] + (__u8)pv * (info & 0xffff);
		if (pv & (REC_FUNC | REC_PICK)) {
			__u32 id = start + (__u32)(n - 1);
			/* Below its own strings wraps around: past them too. */
			__u32 name = t->name_off - str_start;

			if (pv & REC_PICK) {
				*picked++ = id;
				continue;
			}
			max_type = t->type > max_type ? t->type : max_type;
			linkage |= info;
			if (filter && name <= key_room) {
				__u64 key;

				memcpy(&key, strs + name, sizeof(key));
				if (!filter[mkf_func_key(key)])
					continue;
			}
			if (fn == fn_end) {
				size_t used = (size_t)(fn - fn0);
				struct mkf_func_ref *more;

				fn_cap *= 2;
				more = realloc(fn0, fn_cap * sizeof(*fn0));
				if (!more)
					return -ENOMEM;
				v->funcs = fn0 = more;
				fn = fn0 + used;
				fn_end = fn0 + fn_cap;
			}
			fn->name_off = t->name_off;
			fn->id = id;
			fn++;
			max_name = name > max_name ? name : max_name;
		}
	}
	/* A record past the end, or of a kind libbpf does not know. */
	if (off > len)
		return -EINVAL;
	/*
	 * A FUNC left out must be one the index would take as it is: with
	 * a linkage or a prototype id out of range somewhere, list them all
	 * and let the index check each (broken BTF: the rare case).
	 */
	if (filter && ((linkage & 0xfffe) ||
		       (__u64)v->start_id + n <= max_type)) {
		table_free(v->offs, v->offs_len);
		table_free(v->picks, v->table_len);
		free(v->funcs);
		v->offs = NULL;
		v->funcs = NULL;
		v->picks = NULL;
		return index_types(v, NULL);
	}
	v->funcs_filtered = filter != NULL;
	v->func_cnt = (size_t)(fn - fn0);
	/*
	 * Every name in its own strings, every linkage static or global
	 * (the OR of them has no other bit): the index's fast way.
	 */
	v->funcs_plain = !v->func_cnt || (max_name < v->str_len && !(linkage & 0xfffe));
	v->func_max_type = max_type;
	v->func_max_name = max_name;
	v->pick_cnt = (size_t)(picked - picked0);
	if ((__u64)v->start_id + n > 0xffffffffull)
		return -EINVAL;
	v->end_id = v->start_id + (__u32)n;
	return 0;
}

/* The bytes in v checked and indexed; on failure v is closed. */
static int index_view(struct mkf_btf_view *v, const unsigned char *filter)
{
	int err = check_layout(v);

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	filter = NULL;	/* keys are little-endian words */
#endif
	if (!err)
		err = index_types(v, filter);
	if (err)
		mkf_btf_view_close(v);
	return err;
}

int mkf_btf_view_open_filtered(struct mkf_btf_view *v, const char *path,
			       const struct mkf_btf_view *base, const unsigned char *filter)
{
	int err;

	memset(v, 0, sizeof(*v));
	v->path = strdup(path);
	if (!v->path)
		return -ENOMEM;
	v->base = base;
	v->start_id = base ? base->end_id : 1;
	v->str_start = base ? base->str_start + base->str_len : 0;
	err = slurp(v, path);
	if (err) {
		mkf_btf_view_close(v);
		return err;
	}
	return index_view(v, filter);
}

int mkf_btf_view_open_mem(struct mkf_btf_view *v, const void *mem, size_t len,
			  const struct mkf_btf_view *base)
{
	memset(v, 0, sizeof(*v));
	v->base = base;
	v->start_id = base ? base->end_id : 1;
	v->str_start = base ? base->str_start + base->str_len : 0;
	v->mem = (void *)mem;
	v->mem_len = len;
	v->borrowed = true;
	return index_view(v, NULL);
}

void mkf_btf_view_close(struct mkf_btf_view *v)
{
	if (!v)
		return;
	if (v->mapped)
		munmap(v->mem, v->mem_len);
	else if (!v->borrowed)
		free(v->mem);
	table_free(v->offs, v->offs_len);
	table_free(v->picks, v->table_len);
	free(v->funcs);
	free(v->path);
	memset(v, 0, sizeof(*v));
}

int mkf_btf_view_funcs(const struct mkf_btf_view *v, struct mkf_func_ref **out, size_t *cnt)
{
	struct mkf_func_ref *r = NULL;
	size_t n = 0, cap = 0;
	const char *p = v->types;
	__u32 id;

	for (id = v->start_id; id < v->end_id; id++) {
		const struct btf_type *t = (const void *)p;

		p += record_len(t);
		if (btf_kind(t) != BTF_KIND_FUNC)
			continue;
		if (n == cap) {
			struct mkf_func_ref *tmp;

			cap = cap ? 2 * cap : 1024;
			tmp = realloc(r, cap * sizeof(*r));
			if (!tmp) {
				free(r);
				return -ENOMEM;
			}
			r = tmp;
		}
		r[n].name_off = t->name_off;
		r[n].id = id;
		n++;
	}
	*out = r;
	*cnt = n;
	return 0;
}

const struct btf_type *mkf_btf_view_type(const struct mkf_btf_view *v, __u32 id)
{
	const char *p;

	while (v && id < v->start_id)
		v = v->base;
	if (!v || !id || id >= v->end_id)
		return NULL;
	id -= v->start_id;
	p = v->types + v->offs[id / VIEW_STRIDE];
	for (id %= VIEW_STRIDE; id; id--)
		p += record_len((const void *)p);
	return (const void *)p;
}

const char *mkf_btf_view_str(const struct mkf_btf_view *v, __u32 off)
{
	while (v && off < v->str_start)
		v = v->base;
	if (!v || off - v->str_start >= v->str_len)
		return NULL;
	return v->strs + (off - v->str_start);
}

size_t mkf_btf_view_str_room(const struct mkf_btf_view *v, __u32 off)
{
	while (v && off < v->str_start)
		v = v->base;
	if (!v || off - v->str_start >= v->str_len)
		return 0;
	return v->str_len - (off - v->str_start);
}

bool mkf_btf_view_is_complete(const struct mkf_btf_view *v)
{
	return v->str_len > 1 && !v->strs[0];
}

struct btf *mkf_btf_view_parse(const struct mkf_btf_view *v, struct btf *base_btf)
{
	/* libbpf 1.1 parses split BTF from files only. */
	if (v->base)
		return btf__parse_raw_split(v->path, base_btf);
	return btf__new(v->mem, (__u32)v->mem_len);
}

/* --- one FUNC as a small BTF ----------------------------------------- */

struct extract {
	const struct mkf_btf_view *v;
	__u32 *ids;		/* kernel ids; the small BTF's id is the index + 1 */
	size_t cnt, cap;
};

static __u32 new_id(const struct extract *x, __u32 id)
{
	size_t i;

	if (!id)
		return 0;
	for (i = 0; i < x->cnt; i++)
		if (x->ids[i] == id)
			return (__u32)i + 1;
	return DANGLING;
}

static int collect(struct extract *x, __u32 id, int depth)
{
	const struct btf_type *t;
	int err = 0;
	__u16 i;

	if (!id || new_id(x, id) != DANGLING)
		return 0;
	if (depth <= 0 || x->cnt == MAX_EXTRACT)
		return -EINVAL;
	t = mkf_btf_view_type(x->v, id);
	if (!t)
		return 0;	/* stays dangling */
	if (x->cnt == x->cap) {
		size_t ncap = x->cap ? 2 * x->cap : 32;
		__u32 *ids = realloc(x->ids, ncap * sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		x->ids = ids;
		x->cap = ncap;
	}
	x->ids[x->cnt++] = id;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return 0;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return collect(x, t->type, depth - 1);
	case BTF_KIND_ARRAY:
		err = collect(x, btf_array(t)->type, depth - 1);
		return err ? err : collect(x, btf_array(t)->index_type, depth - 1);
	case BTF_KIND_FUNC_PROTO:
		err = collect(x, t->type, depth - 1);
		for (i = 0; i < btf_vlen(t) && !err; i++)
			err = collect(x, btf_params(t)[i].type, depth - 1);
		return err;
	default:
		/* DATASEC: nothing a prototype refers to; copied without entries. */
		return 0;
	}
}

struct blob {
	char *types, *strs;
	size_t types_len, types_cap, strs_len, strs_cap;
};

static int grow(char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 256;
	char *tmp;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	tmp = realloc(*buf, ncap);
	if (!tmp)
		return -ENOMEM;
	*buf = tmp;
	*cap = ncap;
	return 0;
}

static int put_type(struct blob *b, const void *p, size_t sz)
{
	if (grow(&b->types, &b->types_cap, b->types_len + sz))
		return -ENOMEM;
	memcpy(b->types + b->types_len, p, sz);
	b->types_len += sz;
	return 0;
}

/* The offset of a copy of the view's string at OFF ("" shares offset 0). */
static long put_str(struct blob *b, const struct mkf_btf_view *v, __u32 off)
{
	const char *s = mkf_btf_view_str(v, off);
	size_t n;
	long at;

	if (!s)
		return DANGLING;
	if (!*s)
		return 0;
	n = strlen(s) + 1;
	if (grow(&b->strs, &b->strs_cap, b->strs_len + n))
		return -ENOMEM;
	at = (long)b->strs_len;
	memcpy(b->strs + b->strs_len, s, n);
	b->strs_len += n;
	return at;
}

static int put_record(struct blob *b, const struct extract *x, const struct btf_type *t)
{
	struct btf_type h = *t;
	long name = put_str(b, x->v, t->name_off);
	int err;
	__u16 i;

	if (name < 0)
		return (int)name;
	h.name_off = (__u32)name;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_DATASEC:
		h.info &= ~0xffffu;	/* no members: kind and name are what is read */
		return put_type(b, &h, sizeof(h));
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		h.type = new_id(x, t->type);
		err = put_type(b, &h, sizeof(h));
		return err ? err : put_type(b, t + 1, sizeof(__u32));
	case BTF_KIND_INT:
		err = put_type(b, &h, sizeof(h));
		return err ? err : put_type(b, t + 1, sizeof(__u32));
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
		return put_type(b, &h, sizeof(h));
	case BTF_KIND_ARRAY: {
		struct btf_array a = *btf_array(t);

		a.type = new_id(x, a.type);
		a.index_type = new_id(x, a.index_type);
		err = put_type(b, &h, sizeof(h));
		return err ? err : put_type(b, &a, sizeof(a));
	}
	case BTF_KIND_FUNC_PROTO:
		h.type = new_id(x, t->type);
		err = put_type(b, &h, sizeof(h));
		for (i = 0; i < btf_vlen(t) && !err; i++) {
			struct btf_param p = btf_params(t)[i];

			name = put_str(b, x->v, p.name_off);
			if (name < 0)
				return (int)name;
			p.name_off = (__u32)name;
			p.type = new_id(x, p.type);
			err = put_type(b, &p, sizeof(p));
		}
		return err;
	default:	/* a reference: PTR, TYPEDEF, modifiers, TYPE_TAG, FUNC */
		h.type = new_id(x, t->type);
		return put_type(b, &h, sizeof(h));
	}
}

struct btf *mkf_btf_view_extract(const struct mkf_btf_view *v, __u32 func_id, __u32 *proto)
{
	const struct btf_type *fn = mkf_btf_view_type(v, func_id);
	struct btf_header hdr = { .magic = BTF_MAGIC, .version = BTF_VERSION,
				  .hdr_len = sizeof(hdr) };
	struct extract xs = {}, *x = &xs;
	struct blob b = {};
	struct btf *btf = NULL;
	char *raw = NULL;
	size_t i;
	int err = 0;

	x->v = v;
	if (!fn || !btf_is_func(fn)) {
		err = -EINVAL;
		goto out;
	}
	err = collect(x, func_id, MAX_DEPTH);
	if (!err && (!fn->type || !btf_is_func_proto(mkf_btf_view_type(v, fn->type))))
		err = -EINVAL;
	if (err)
		goto out;
	if (grow(&b.strs, &b.strs_cap, 1))
		goto nomem;
	b.strs[b.strs_len++] = '\0';
	for (i = 0; i < x->cnt && !err; i++)
		err = put_record(&b, x, mkf_btf_view_type(v, x->ids[i]));
	if (err)
		goto out;
	hdr.type_len = (__u32)b.types_len;
	hdr.str_off = (__u32)b.types_len;
	hdr.str_len = (__u32)b.strs_len;
	raw = malloc(sizeof(hdr) + b.types_len + b.strs_len);
	if (!raw)
		goto nomem;
	memcpy(raw, &hdr, sizeof(hdr));
	memcpy(raw + sizeof(hdr), b.types, b.types_len);
	memcpy(raw + sizeof(hdr) + b.types_len, b.strs, b.strs_len);
	btf = btf__new(raw, (__u32)(sizeof(hdr) + b.types_len + b.strs_len));
	if (!btf)
		err = -errno;
	else
		*proto = new_id(x, fn->type);
	goto out;
nomem:
	err = -ENOMEM;
out:
	free(raw);
	free(b.types);
	free(b.strs);
	free(x->ids);
	if (err) {
		errno = err == -ENOMEM ? ENOMEM : EINVAL;
		return NULL;
	}
	return btf;
}
