// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "btf_out.h"

/* A repointed FUNC of the base: its record is patched as it is copied. */
struct func_set {
	__u32 off;		/* of the record in the base's type section */
	__u32 name_off;
	__u32 type;
};

struct mkf_btf_out {
	const struct btf *base;
	__u32 base_cnt;		/* type count of the base, void included */
	const char *base_types;
	__u32 base_types_len;
	const char *base_strs;
	__u32 base_strs_len;

	char *types;		/* appended records */
	size_t types_len, types_cap;
	__u32 *offs;		/* of each appended record in types */
	size_t cnt, offs_cap;
	__u32 last_proto;	/* id of the last record if a FUNC_PROTO, else 0 */

	char *strs;		/* appended strings, each with its NUL */
	size_t strs_len, strs_cap;

	struct func_set *sets;
	size_t set_cnt, set_cap;
};

/* Room for add more bytes in *buf (of *len used, *cap allocated). */
static int reserve(void **buf, size_t *cap, size_t len, size_t add, size_t elem)
{
	size_t want = len + add, n;
	void *p;

	if (want <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 64;
	while (n < want)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/* The base's sections, from the raw data btf__new() keeps unmodified. */
static int set_base(struct mkf_btf_out *out, const struct btf *base)
{
	struct btf_header hdr;
	const char *raw;
	__u32 raw_sz;

	raw = btf__raw_data(base, &raw_sz);
	if (!raw || raw_sz < sizeof(hdr))
		return -EINVAL;
	memcpy(&hdr, raw, sizeof(hdr));
	if (hdr.magic != BTF_MAGIC || hdr.hdr_len < sizeof(hdr) ||
	    (__u64)hdr.hdr_len + hdr.type_off + hdr.type_len > raw_sz ||
	    (__u64)hdr.hdr_len + hdr.str_off + hdr.str_len > raw_sz || !hdr.str_len)
		return -EINVAL;
	out->base = base;
	out->base_cnt = btf__type_cnt(base);
	out->base_types = raw + hdr.hdr_len + hdr.type_off;
	out->base_types_len = hdr.type_len;
	out->base_strs = raw + hdr.hdr_len + hdr.str_off;
	out->base_strs_len = hdr.str_len;
	/* Records are patched by their place in these bytes: make sure
	 * they are the very bytes libbpf hands out types from. */
	if (out->base_cnt > 1 && (const char *)btf__type_by_id(base, 1) != out->base_types)
		return -EINVAL;
	return 0;
}

struct mkf_btf_out *mkf_btf_out__new(const struct btf *base)
{
	struct mkf_btf_out *out = calloc(1, sizeof(*out));
	int err;

	if (!out) {
		errno = ENOMEM;
		return NULL;
	}
	if (base) {
		err = set_base(out, base);
		if (err) {
			free(out);
			errno = -err;
			return NULL;
		}
	} else {
		out->base_cnt = 1;
		out->base_strs = "";
		out->base_strs_len = 1;
	}
	return out;
}

void mkf_btf_out__free(struct mkf_btf_out *out)
{
	if (!out)
		return;
	free(out->types);
	free(out->offs);
	free(out->strs);
	free(out->sets);
	free(out);
}

__u32 mkf_btf_out__type_cnt(const struct mkf_btf_out *out)
{
	return out->base_cnt + out->cnt;
}

const struct btf_type *mkf_btf_out__type(const struct mkf_btf_out *out, __u32 id)
{
	if (id < out->base_cnt)
		return out->base ? btf__type_by_id(out->base, id) : NULL;
	id -= out->base_cnt;
	return id < out->cnt ? (const struct btf_type *)(out->types + out->offs[id]) : NULL;
}

const char *mkf_btf_out__str(const struct mkf_btf_out *out, __u32 off)
{
	if (off < out->base_strs_len)
		return out->base_strs + off;
	off -= out->base_strs_len;
	return off < out->strs_len ? out->strs + off : "";
}

int mkf_btf_out__add_str(struct mkf_btf_out *out, const char *s)
{
	size_t len = strlen(s) + 1, off;

	if (len == 1)
		return 0;
	/* A rewrite adds a few dozen strings at most: a scan is enough. */
	for (off = 0; off < out->strs_len; off += strlen(out->strs + off) + 1)
		if (!strcmp(out->strs + off, s))
			return (int)(out->base_strs_len + off);
	if ((__u64)out->base_strs_len + out->strs_len + len > BTF_MAX_NAME_OFFSET)
		return -E2BIG;
	if (reserve((void **)&out->strs, &out->strs_cap, out->strs_len, len, 1))
		return -ENOMEM;
	off = out->strs_len;
	memcpy(out->strs + off, s, len);
	out->strs_len += len;
	return (int)(out->base_strs_len + off);
}

/* Append n raw bytes to the last record (or start one with its header). */
static int put(struct mkf_btf_out *out, const void *p, size_t n)
{
	if (out->types_len + n > (size_t)0x7fffffff - out->base_types_len)
		return -E2BIG;
	if (reserve((void **)&out->types, &out->types_cap, out->types_len, n, 1))
		return -ENOMEM;
	memcpy(out->types + out->types_len, p, n);
	out->types_len += n;
	return 0;
}

int mkf_btf_out__add_type(struct mkf_btf_out *out, __u32 name_off, __u32 info, __u32 size_type,
			  const void *tail, size_t tail_sz)
{
	struct btf_type t = { .name_off = name_off, .info = info, .size = size_type };
	size_t start = out->types_len;
	int err;

	if (tail_sz % 4 || mkf_btf_out__type_cnt(out) > BTF_MAX_TYPE)
		return -EINVAL;
	if (reserve((void **)&out->offs, &out->offs_cap, out->cnt, 1, sizeof(*out->offs)))
		return -ENOMEM;
	err = put(out, &t, sizeof(t));
	if (!err && tail_sz)
		err = put(out, tail, tail_sz);
	if (err) {
		out->types_len = start;
		return err;
	}
	out->offs[out->cnt++] = (__u32)start;
	out->last_proto = BTF_INFO_KIND(info) == BTF_KIND_FUNC_PROTO ?
			  mkf_btf_out__type_cnt(out) - 1 : 0;
	return (int)(mkf_btf_out__type_cnt(out) - 1);
}

int mkf_btf_out__add_param(struct mkf_btf_out *out, __u32 name_off, __u32 type)
{
	struct btf_param p = { .name_off = name_off, .type = type };
	struct btf_type *t;
	int err;

	if (!out->last_proto)
		return -EINVAL;
	t = (struct btf_type *)mkf_btf_out__type(out, out->last_proto);
	if (BTF_INFO_VLEN(t->info) == BTF_MAX_VLEN)
		return -E2BIG;
	err = put(out, &p, sizeof(p));
	if (err)
		return err;
	/* put() may have moved the records. */
	t = (struct btf_type *)mkf_btf_out__type(out, out->last_proto);
	t->info++;		/* vlen is the low 16 bits */
	return 0;
}

int mkf_btf_out__set_func(struct mkf_btf_out *out, __u32 id, __u32 name_off, __u32 proto_id)
{
	const struct btf_type *t = mkf_btf_out__type(out, id);
	const struct btf_type *p = mkf_btf_out__type(out, proto_id);
	struct func_set *s;

	if (!t || !p || BTF_INFO_KIND(t->info) != BTF_KIND_FUNC ||
	    BTF_INFO_KIND(p->info) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	if (id >= out->base_cnt) {
		struct btf_type *w = (struct btf_type *)t;

		w->name_off = name_off;
		w->type = proto_id;
		return 0;
	}
	if (reserve((void **)&out->sets, &out->set_cap, out->set_cnt, 1, sizeof(*out->sets)))
		return -ENOMEM;
	s = &out->sets[out->set_cnt++];
	s->off = (__u32)((const char *)t - out->base_types);
	s->name_off = name_off;
	s->type = proto_id;
	return 0;
}

void *mkf_btf_out__finish(const struct mkf_btf_out *out, __u32 *size, struct btf **parsed)
{
	struct btf_header hdr = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(hdr),
	};
	size_t types_len = out->base_types_len + out->types_len;
	size_t strs_len = out->base_strs_len + out->strs_len, i;
	struct btf *check;
	char *buf, *p;

	hdr.type_len = (__u32)types_len;
	hdr.str_off = (__u32)types_len;
	hdr.str_len = (__u32)strs_len;
	buf = malloc(sizeof(hdr) + types_len + strs_len);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	/* memcpy() with a NULL source is undefined even for 0 bytes. */
	p = buf;
	memcpy(p, &hdr, sizeof(hdr));
	p += sizeof(hdr);
	if (out->base_types_len)
		memcpy(p, out->base_types, out->base_types_len);
	for (i = 0; i < out->set_cnt; i++) {
		struct btf_type t;

		memcpy(&t, p + out->sets[i].off, sizeof(t));
		t.name_off = out->sets[i].name_off;
		t.type = out->sets[i].type;
		memcpy(p + out->sets[i].off, &t, sizeof(t));
	}
	p += out->base_types_len;
	if (out->types_len)
		memcpy(p, out->types, out->types_len);
	p += out->types_len;
	memcpy(p, out->base_strs, out->base_strs_len);
	p += out->base_strs_len;
	if (out->strs_len)
		memcpy(p, out->strs, out->strs_len);

	/* What we laid out by hand must be what libbpf reads. */
	check = btf__new(buf, (__u32)(sizeof(hdr) + types_len + strs_len));
	if (!check) {
		int err = errno;

		free(buf);
		errno = err ? err : EINVAL;
		return NULL;
	}
	if (btf__type_cnt(check) != mkf_btf_out__type_cnt(out)) {
		btf__free(check);
		free(buf);
		errno = EPROTO;
		return NULL;
	}
	if (parsed)
		*parsed = check;
	else
		btf__free(check);
	*size = (__u32)(sizeof(hdr) + types_len + strs_len);
	return buf;
}
