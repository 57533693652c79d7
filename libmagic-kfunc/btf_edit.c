// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "btf_edit.h"
#include "btf_out.h"
#include "btf_util.h"

/* Bounds pointer chains, as in btf_util.c (libbpf uses the same depth). */
#define MAX_DEPTH 32

int mkf_btf_add_proto(struct mkf_btf_out *out, __u32 local_proto, int keep,
		      const struct btf *src, __u32 src_proto, int from, int to)
{
	const struct btf_type *t = mkf_btf_out__type(out, local_proto), *st = NULL;
	int i, id, err = 0, nparams = keep + (to - from);
	__u32 *types, *names, ret;

	if (!t || !btf_is_func_proto(t) || keep < 0 || keep > btf_vlen(t) || from > to)
		return -EINVAL;
	if (from < to) {
		st = src ? btf__type_by_id(src, src_proto) : NULL;
		if (!st || !btf_is_func_proto(st) || from < 0 || to > btf_vlen(st))
			return -EINVAL;
	}
	types = calloc(nparams + 1, sizeof(*types));
	names = calloc(nparams + 1, sizeof(*names));
	if (!types || !names) {
		err = -ENOMEM;
		goto out;
	}
	/* Read what is kept before appending: appends may move records. */
	ret = t->type;
	for (i = 0; i < keep; i++) {
		types[i] = btf_params(t)[i].type;
		names[i] = btf_params(t)[i].name_off;
	}
	for (i = from; i < to; i++) {
		const struct btf_param *p = btf_params(st) + i;

		/* Keep the kernel's name: bpftool dumps then show what the
		 * verifier will provide. */
		id = mkf_btf_out__add_str(out, btf__name_by_offset(src, p->name_off) ?: "");
		if (id < 0) {
			err = id;
			goto out;
		}
		names[keep + i - from] = id;
		id = mkf_btf_import_type(out, src, p->type);
		if (id < 0) {
			err = id;
			goto out;
		}
		types[keep + i - from] = id;
	}
	id = mkf_btf_out__add_type(out, 0, mkf_btf_info(BTF_KIND_FUNC_PROTO, 0, 0), ret, NULL, 0);
	if (id < 0) {
		err = id;
		goto out;
	}
	for (i = 0; i < nparams && !err; i++)
		err = mkf_btf_out__add_param(out, names[i], types[i]);
out:
	free(types);
	free(names);
	return err ? err : id;
}

static int find_named(const struct mkf_btf_out *dst, const char *name, __u32 kind, __u32 size)
{
	__u32 i, n = mkf_btf_out__type_cnt(dst);

	if (!*name)
		return -ENOENT;
	for (i = 1; i < n; i++) {
		const struct btf_type *t = mkf_btf_out__type(dst, i);

		if (btf_kind(t) != kind || strcmp(mkf_btf_out__str(dst, t->name_off), name))
			continue;
		if (kind == BTF_KIND_INT && t->size != size)
			continue;
		return i;
	}
	return -ENOENT;
}

/* The sizes libbpf's btf__add_int(), _float() and _enum*() accept. */
static bool int_size_ok(__u32 sz)
{
	return sz == 1 || sz == 2 || sz == 4 || sz == 8 || sz == 16;
}

static bool float_size_ok(__u32 sz)
{
	return sz == 2 || sz == 4 || sz == 8 || sz == 12 || sz == 16;
}

static bool enum_size_ok(__u32 sz)
{
	return sz == 1 || sz == 2 || sz == 4 || sz == 8;
}

/* A record with a name (required unless anonymous is allowed). */
static int add_named(struct mkf_btf_out *dst, const char *name, bool anonymous, __u32 info,
		     __u32 size_type, const void *tail, size_t tail_sz)
{
	int off;

	if (!*name && !anonymous)
		return -EINVAL;
	off = mkf_btf_out__add_str(dst, name);
	if (off < 0)
		return off;
	return mkf_btf_out__add_type(dst, off, info, size_type, tail, tail_sz);
}

static int import_type(struct mkf_btf_out *dst, const struct btf *src, __u32 src_id, int depth)
{
	const struct btf_type *t;
	const char *name;
	__u32 kind;
	int id;

	if (depth <= 0)
		return -ELOOP;
	t = mkf_skip_mods_typedefs(src, src_id, &src_id);
	if (!t)
		return -EINVAL;
	if (!src_id)
		return 0; /* void */
	name = mkf_btf_name(src, t);
	kind = btf_kind(t);

	switch (kind) {
	case BTF_KIND_INT: {
		__u32 enc = btf_int_encoding(t);

		id = find_named(dst, name, BTF_KIND_INT, t->size);
		if (id > 0)
			return id;
		if (!int_size_ok(t->size) || (enc & ~(BTF_INT_SIGNED | BTF_INT_CHAR | BTF_INT_BOOL)))
			return -EINVAL;
		enc = mkf_btf_int_word(enc, 0, t->size * 8);
		return add_named(dst, name, false, mkf_btf_info(kind, 0, 0), t->size, &enc,
				 sizeof(enc));
	}
	case BTF_KIND_FLOAT:
		if (!float_size_ok(t->size))
			return -EINVAL;
		return add_named(dst, name, false, mkf_btf_info(kind, 0, 0), t->size, NULL, 0);
	case BTF_KIND_PTR:
		id = import_type(dst, src, t->type, depth - 1);
		if (id < 0)
			return id;
		return mkf_btf_out__add_type(dst, 0, mkf_btf_info(kind, 0, 0), id, NULL, 0);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		/* libbpf compares kinds only below the top level, so an
		 * empty type of the same kind and name is enough. Reuse
		 * the program's own definition when it has one. */
		id = find_named(dst, name, kind, 0);
		if (id > 0)
			return id;
		return add_named(dst, name, true, mkf_btf_info(kind, 0, 0), 0, NULL, 0);
	case BTF_KIND_FWD:
		id = find_named(dst, name, kind, 0);
		if (id > 0)
			return id;
		return add_named(dst, name, false, mkf_btf_info(kind, btf_kflag(t), 0), 0, NULL, 0);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* Without values, unsigned: what btf__add_enum*() start with. */
		if (!enum_size_ok(t->size))
			return -EINVAL;
		return add_named(dst, name, true, mkf_btf_info(kind, 0, 0), t->size, NULL, 0);
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		struct btf_array arr = { .nelems = a->nelems };
		__u32 elem = a->type, index = a->index_type;

		/* a points into src, which imports leave alone. */
		id = import_type(dst, src, elem, depth - 1);
		if (id < 0)
			return id;
		arr.type = id;
		id = import_type(dst, src, index, depth - 1);
		if (id < 0)
			return id;
		arr.index_type = id;
		return mkf_btf_out__add_type(dst, 0, mkf_btf_info(kind, 0, 0), 0, &arr, sizeof(arr));
	}
	case BTF_KIND_FUNC_PROTO: {
		__u16 i, vlen = btf_vlen(t);
		int *param_ids, *name_offs, ret_id, err = 0;

		/* Types first: a FUNC_PROTO's params must follow it directly. */
		ret_id = import_type(dst, src, t->type, depth - 1);
		if (ret_id < 0)
			return ret_id;
		param_ids = calloc(vlen + 1, sizeof(*param_ids));
		name_offs = calloc(vlen + 1, sizeof(*name_offs));
		if (!param_ids || !name_offs)
			err = -ENOMEM;
		for (i = 0; i < vlen && !err; i++) {
			const struct btf_param *p = btf_params(t) + i;

			param_ids[i] = import_type(dst, src, p->type, depth - 1);
			name_offs[i] = mkf_btf_out__add_str(dst, btf__name_by_offset(src, p->name_off) ?: "");
			if (param_ids[i] < 0)
				err = param_ids[i];
			else if (name_offs[i] < 0)
				err = name_offs[i];
		}
		id = err ? err : mkf_btf_out__add_type(dst, 0, mkf_btf_info(kind, 0, 0), ret_id,
							 NULL, 0);
		for (i = 0; i < vlen && id > 0; i++) {
			err = mkf_btf_out__add_param(dst, name_offs[i], param_ids[i]);
			if (err)
				id = err;
		}
		free(param_ids);
		free(name_offs);
		return id;
	}
	default:
		return -EOPNOTSUPP;
	}
}

int mkf_btf_import_type(struct mkf_btf_out *dst, const struct btf *src, __u32 src_id)
{
	return import_type(dst, src, src_id, MAX_DEPTH);
}
