// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btf_edit.h"
#include "btf_util.h"

/* Bounds pointer chains, as in btf_util.c (libbpf uses the same depth). */
#define MAX_DEPTH 32

static char *str_dup(const char *s)
{
	return strdup(s ? s : "");
}

int mkf_btf_add_proto(struct btf *btf, __u32 local_proto, int keep,
		      const struct btf *src, __u32 src_proto, int from, int to)
{
	const struct btf_type *t = btf__type_by_id(btf, local_proto);
	int i, id, err = 0, nparams = keep + (to - from);
	__u32 *types, ret;
	char **names;

	if (!t || !btf_is_func_proto(t) || keep < 0 || keep > btf_vlen(t) || from > to)
		return -EINVAL;
	if (from < to) {
		const struct btf_type *st = src ? btf__type_by_id(src, src_proto) : NULL;

		if (!st || !btf_is_func_proto(st) || from < 0 || to > btf_vlen(st))
			return -EINVAL;
	}
	types = calloc(nparams + 1, sizeof(*types));
	names = calloc(nparams + 1, sizeof(*names));
	if (!types || !names) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * Copy ids and names first: adding types and strings moves this
	 * BTF's data, and libbpf reads a new string after growing its
	 * buffer, so a name must not point into that buffer.
	 */
	ret = t->type;
	for (i = 0; i < keep; i++) {
		types[i] = btf_params(t)[i].type;
		names[i] = str_dup(btf__name_by_offset(btf, btf_params(t)[i].name_off));
		if (!names[i]) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (i = from; i < to; i++) {
		const struct btf_param *p = btf_params(btf__type_by_id(src, src_proto)) + i;

		/* Keep the kernel's name: bpftool dumps then show what the
		 * verifier will provide. */
		names[keep + i - from] = str_dup(btf__name_by_offset(src, p->name_off));
		if (!names[keep + i - from]) {
			err = -ENOMEM;
			goto out;
		}
		id = mkf_btf_import_type(btf, src, p->type);
		if (id < 0) {
			err = id;
			goto out;
		}
		types[keep + i - from] = id;
	}
	id = btf__add_func_proto(btf, ret);
	if (id < 0) {
		err = id;
		goto out;
	}
	for (i = 0; i < nparams; i++) {
		err = btf__add_func_param(btf, names[i], types[i]);
		if (err)
			goto out;
	}
out:
	for (i = 0; names && i < nparams; i++)
		free(names[i]);
	free(types);
	free(names);
	return err ? err : id;
}

int mkf_btf_set_func(struct btf *btf, __u32 func_id, __u32 name_off, __u32 proto_id)
{
	/* libbpf hands out const types; the BTF is ours and modifiable. */
	struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, func_id);
	const struct btf_type *p = btf__type_by_id(btf, proto_id);

	if (!t || !btf_is_func(t) || !p || !btf_is_func_proto(p))
		return -EINVAL;
	t->name_off = name_off;
	t->type = proto_id;
	return 0;
}


static int find_named(const struct btf *dst, const char *name, __u32 kind, __u32 size)
{
	__u32 i, n = btf__type_cnt(dst);

	if (!*name)
		return -ENOENT;
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(dst, i);

		if (btf_kind(t) != kind || strcmp(mkf_btf_name(dst, t), name))
			continue;
		if (kind == BTF_KIND_INT && t->size != size)
			continue;
		return i;
	}
	return -ENOENT;
}

static int import_type(struct btf *dst, const struct btf *src, __u32 src_id, int depth)
{
	const struct btf_type *t;
	const char *name;
	int id, ret_id;

	if (depth <= 0)
		return -ELOOP;
	t = mkf_skip_mods_typedefs(src, src_id, &src_id);
	if (!t)
		return -EINVAL;
	if (!src_id)
		return 0; /* void */
	name = mkf_btf_name(src, t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		id = find_named(dst, name, BTF_KIND_INT, t->size);
		if (id > 0)
			return id;
		return btf__add_int(dst, name, t->size, btf_int_encoding(t));
	case BTF_KIND_FLOAT:
		return btf__add_float(dst, name, t->size);
	case BTF_KIND_PTR:
		id = import_type(dst, src, t->type, depth - 1);
		if (id < 0)
			return id;
		return btf__add_ptr(dst, id);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		/* libbpf compares kinds only below the top level, so an
		 * empty type of the same kind and name is enough. Reuse
		 * the program's own definition when it has one. */
		id = find_named(dst, name, btf_kind(t), 0);
		if (id > 0)
			return id;
		return btf_is_struct(t) ? btf__add_struct(dst, name, 0)
					: btf__add_union(dst, name, 0);
	case BTF_KIND_FWD:
		id = find_named(dst, name, BTF_KIND_FWD, 0);
		if (id > 0)
			return id;
		return btf__add_fwd(dst, name, btf_kflag(t) ? BTF_FWD_UNION : BTF_FWD_STRUCT);
	case BTF_KIND_ENUM:
		return btf__add_enum(dst, name, t->size);
	case BTF_KIND_ENUM64:
		return btf__add_enum64(dst, name, t->size, false);
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		int elem = import_type(dst, src, a->type, depth - 1);
		int index;

		if (elem < 0)
			return elem;
		index = import_type(dst, src, a->index_type, depth - 1);
		if (index < 0)
			return index;
		return btf__add_array(dst, index, elem, a->nelems);
	}
	case BTF_KIND_FUNC_PROTO: {
		__u16 i, vlen = btf_vlen(t);
		int *param_ids, err = 0;

		/* Types first: a FUNC_PROTO's params must follow it directly. */
		ret_id = import_type(dst, src, t->type, depth - 1);
		if (ret_id < 0)
			return ret_id;
		param_ids = calloc(vlen + 1, sizeof(*param_ids));
		if (!param_ids)
			return -ENOMEM;
		for (i = 0; i < vlen && !err; i++) {
			const struct btf_param *p = btf_params(t) + i;

			param_ids[i] = import_type(dst, src, p->type, depth - 1);
			if (param_ids[i] < 0)
				err = param_ids[i];
		}
		id = err ? err : btf__add_func_proto(dst, ret_id);
		for (i = 0; i < vlen && id > 0; i++) {
			const struct btf_param *p = btf_params(t) + i;

			err = btf__add_func_param(dst, btf__name_by_offset(src, p->name_off),
						  param_ids[i]);
			if (err)
				id = err;
		}
		free(param_ids);
		return id;
	}
	default:
		return -EOPNOTSUPP;
	}
}

int mkf_btf_import_type(struct btf *dst, const struct btf *src, __u32 src_id)
{
	return import_type(dst, src, src_id, MAX_DEPTH);
}
