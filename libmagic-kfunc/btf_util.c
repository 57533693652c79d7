// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf_util.h"
#include "log.h"

/* Bounds pointer/modifier chains; libbpf uses the same depth. */
#define MAX_DEPTH 32

const struct btf_type *mkf_skip_mods_typedefs(const struct btf *btf, __u32 id, __u32 *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = MAX_DEPTH;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && depth-- > 0) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

const char *mkf_btf_name(const struct btf *btf, const struct btf_type *t)
{
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

	return name ? name : "";
}

static void type_str(const struct btf *btf, __u32 id, char *buf, size_t sz, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = mkf_btf_name(btf, t);
	char inner[128];

	if (!id) {
		snprintf(buf, sz, "void");
		return;
	}
	if (!t || depth <= 0) {
		snprintf(buf, sz, "?");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPEDEF:
		snprintf(buf, sz, "%s", name);
		break;
	case BTF_KIND_STRUCT:
		snprintf(buf, sz, "struct %s", *name ? name : "(anon)");
		break;
	case BTF_KIND_UNION:
		snprintf(buf, sz, "union %s", *name ? name : "(anon)");
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		snprintf(buf, sz, "enum %s", *name ? name : "(anon)");
		break;
	case BTF_KIND_FWD:
		/* Spelled out: libbpf does not match a forward declaration
		 * with a definition, so the difference matters. */
		snprintf(buf, sz, "%s %s (declaration only)",
			 btf_kflag(t) ? "union" : "struct", name);
		break;
	case BTF_KIND_PTR: {
		const struct btf_type *pt = btf__type_by_id(btf, t->type);

		if (pt && btf_is_func_proto(pt)) {
			snprintf(buf, sz, "function pointer (%u params)", btf_vlen(pt));
			break;
		}
		type_str(btf, t->type, inner, sizeof(inner), depth - 1);
		snprintf(buf, sz, "%s *", inner);
		break;
	}
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		type_str(btf, t->type, inner, sizeof(inner), depth - 1);
		snprintf(buf, sz, "%s %s", btf_is_const(t) ? "const" :
			 btf_is_volatile(t) ? "volatile" : "restrict", inner);
		break;
	case BTF_KIND_TYPE_TAG:
		type_str(btf, t->type, buf, sz, depth - 1);
		break;
	case BTF_KIND_ARRAY:
		type_str(btf, btf_array(t)->type, inner, sizeof(inner), depth - 1);
		snprintf(buf, sz, "%s[%u]", inner, btf_array(t)->nelems);
		break;
	case BTF_KIND_FUNC_PROTO:
		snprintf(buf, sz, "function (%u params)", btf_vlen(t));
		break;
	default:
		snprintf(buf, sz, "kind %u '%s'", btf_kind(t), name);
		break;
	}
}

void mkf_type_str(const struct btf *btf, __u32 id, char *buf, size_t sz)
{
	type_str(btf, id, buf, sz, MAX_DEPTH);
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

void mkf_decl_str(const char *type, const char *name, char *buf, size_t sz)
{
	size_t n = strlen(type);
	bool glue = n && type[n - 1] == '*';

	if (!name || !*name)
		snprintf(buf, sz, "%s", type);
	else
		snprintf(buf, sz, "%s%s%s", type, glue ? "" : " ", name);
}

/* Whether every name offset of type id points into the strings. */
static bool names_valid(const struct btf *btf, const struct btf_type *t)
{
	__u16 i, vlen = btf_vlen(t);

	if (!btf__name_by_offset(btf, t->name_off))
		return false;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < vlen; i++)
			if (!btf__name_by_offset(btf, btf_members(t)[i].name_off))
				return false;
		break;
	case BTF_KIND_ENUM:
		for (i = 0; i < vlen; i++)
			if (!btf__name_by_offset(btf, btf_enum(t)[i].name_off))
				return false;
		break;
	case BTF_KIND_ENUM64:
		for (i = 0; i < vlen; i++)
			if (!btf__name_by_offset(btf, btf_enum64(t)[i].name_off))
				return false;
		break;
	case BTF_KIND_FUNC_PROTO:
		for (i = 0; i < vlen; i++)
			if (!btf__name_by_offset(btf, btf_params(t)[i].name_off))
				return false;
		break;
	default:
		break;
	}
	return true;
}

int mkf_btf_check_names(const struct btf *btf, const char *what)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 id = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf);

	/* libbpf 1.1 does not check them, and names are used as C strings. */
	for (; id < n; id++) {
		if (!names_valid(btf, btf__type_by_id(btf, id))) {
			pr_warn("%s: BTF type [%u] has a name offset past the end of the "
				"strings\n", what, id);
			return -EINVAL;
		}
	}
	return 0;
}
