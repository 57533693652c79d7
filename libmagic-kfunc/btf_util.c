// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf_util.h"
#include "log.h"
#include "strbuf.h"

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

/* The largest name offset of type t, its members' included. */
static __u32 max_name_off(const struct btf_type *t)
{
	__u16 i, vlen = btf_vlen(t);
	__u32 m = t->name_off;

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < vlen; i++)
			m = btf_members(t)[i].name_off > m ? btf_members(t)[i].name_off : m;
		break;
	case BTF_KIND_ENUM:
		for (i = 0; i < vlen; i++)
			m = btf_enum(t)[i].name_off > m ? btf_enum(t)[i].name_off : m;
		break;
	case BTF_KIND_ENUM64:
		for (i = 0; i < vlen; i++)
			m = btf_enum64(t)[i].name_off > m ? btf_enum64(t)[i].name_off : m;
		break;
	case BTF_KIND_FUNC_PROTO:
		for (i = 0; i < vlen; i++)
			m = btf_params(t)[i].name_off > m ? btf_params(t)[i].name_off : m;
		break;
	default:
		break;
	}
	return m;
}

/* The first type id t refers to that is not a type of btf, or 0. */
static __u32 bad_ref(const struct btf_type *t, __u32 n)
{
	__u16 i, vlen = btf_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return t->type >= n ? t->type : 0;
	case BTF_KIND_FUNC_PROTO:
		if (t->type >= n)
			return t->type;
		for (i = 0; i < vlen; i++)
			if (btf_params(t)[i].type >= n)
				return btf_params(t)[i].type;
		return 0;
	case BTF_KIND_ARRAY:
		if (btf_array(t)->type >= n)
			return btf_array(t)->type;
		return btf_array(t)->index_type >= n ? btf_array(t)->index_type : 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < vlen; i++)
			if (btf_members(t)[i].type >= n)
				return btf_members(t)[i].type;
		return 0;
	case BTF_KIND_DATASEC:
		for (i = 0; i < vlen; i++)
			if (btf_var_secinfos(t)[i].type >= n)
				return btf_var_secinfos(t)[i].type;
		return 0;
	default:
		return 0;
	}
}

/* The first type from id on with a name offset past the strings: say which. */
static int bad_names(const struct btf *btf, __u32 id, __u32 end, const char *what)
{
	for (; id < end; id++) {
		if (names_valid(btf, btf__type_by_id(btf, id)))
			continue;
		pr_err("%s: BTF type [%u] has a name offset past the end of the strings\n", what,
		       id);
		return -EINVAL;
	}
	return 0;
}

int mkf_btf_check(const struct btf *btf, const char *what)
{
	return mkf_btf_check_from(btf, 1, what);
}

int mkf_btf_check_from(const struct btf *btf, __u32 from, const char *what)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 first = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf), id, max_off = 0;

	first = from > first ? from : first;

	/*
	 * libbpf 1.1 checks neither: names are used as C strings, and a
	 * type id past the end crashes libbpf 1.1's own btf_dump and
	 * bpf_object__open() (its type walks index without a bound).
	 * A name offset is good up to one end (the base's strings, then
	 * these), so the largest one tells for all; which type is at
	 * fault is looked for only then.
	 */
	for (id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		__u32 ref, off = max_name_off(t);

		max_off = off > max_off ? off : max_off;
		ref = bad_ref(t, n);
		if (ref) {
			if (!btf__name_by_offset(btf, max_off))
				return bad_names(btf, first, id + 1, what);
			pr_err("%s: BTF type [%u] refers to type [%u], past the last one [%u]\n",
			       what, id, ref, n - 1);
			return -EINVAL;
		}
	}
	if (btf__name_by_offset(btf, max_off))
		return 0;
	return bad_names(btf, first, n, what) ?: -EINVAL;
}

/*
 * The types a declaration of t names, as libbpf's btf_dump writes one:
 * it follows pointers, modifiers, typedefs, array elements, prototypes
 * and the members of an anonymous struct or union (written inline),
 * and stops at a named struct or union ("struct foo"), which is how C
 * and BTF legitimately refer back to a type.
 */
static __u32 ref_cnt(const struct btf *btf, const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 1;
	case BTF_KIND_ARRAY:
		return 2;
	case BTF_KIND_FUNC_PROTO:
		return 1 + (__u32)btf_vlen(t);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return *mkf_btf_name(btf, t) ? 0 : btf_vlen(t);
	case BTF_KIND_DATASEC:
		return btf_vlen(t);
	default:
		return 0;
	}
}

static __u32 ref_at(const struct btf_type *t, __u32 i)
{
	switch (btf_kind(t)) {
	case BTF_KIND_ARRAY:
		return i ? btf_array(t)->index_type : btf_array(t)->type;
	case BTF_KIND_FUNC_PROTO:
		return i ? btf_params(t)[i - 1].type : t->type;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return btf_members(t)[i].type;
	case BTF_KIND_DATASEC:
		return btf_var_secinfos(t)[i].type;
	default:
		return t->type;
	}
}

int mkf_btf_find_cycle(const struct btf *btf, const struct mkf_btf_edges *g, __u32 from,
		       __u32 *cycle)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 first = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf), id;
	unsigned char *colour = calloc(n, 1);	/* 0 new, 1 on the path, 2 done */
	struct frame {
		__u32 id, next;
	} *stack = calloc(n, sizeof(*stack));
	int err = 0;

	*cycle = 0;
	if (!colour || !stack) {
		err = -ENOMEM;
		goto out;
	}
	/* Iterative depth-first search: a kernel's chains can be long. */
	for (id = from > first ? from : first; id < n && !*cycle; id++) {
		size_t depth = 0;

		if (colour[id])
			continue;
		colour[id] = 1;
		stack[depth++] = (struct frame){ id, 0 };
		while (depth && !*cycle) {
			struct frame *f = &stack[depth - 1];
			const struct btf_type *t = btf__type_by_id(btf, f->id);
			__u32 r;

			if (!t || f->next >= g->edge_cnt(btf, t)) {
				colour[f->id] = 2;
				depth--;
				continue;
			}
			r = g->edge(t, f->next++);
			if (r < first || r >= n || colour[r] == 2)
				continue;
			if (colour[r] == 1) {
				size_t k = depth;

				*cycle = r;
				while (k-- && stack[k].id != r)
					*cycle = stack[k].id < *cycle ? stack[k].id : *cycle;
				break;
			}
			colour[r] = 1;
			stack[depth++] = (struct frame){ r, 0 };
		}
	}
out:
	free(colour);
	free(stack);
	return err;
}

int mkf_btf_check_cycles(const struct btf *btf, const char *what)
{
	static const struct mkf_btf_edges refs = { ref_cnt, ref_at };
	__u32 cycle;
	int err = mkf_btf_find_cycle(btf, &refs, 1, &cycle);

	/* Types past the end are mkf_btf_check()'s; a base's were checked with it. */
	if (!err && cycle) {
		pr_err("%s: BTF type [%u] refers back to itself (a cycle of pointers, modifiers, "
		       "typedefs, arrays or prototypes)\n", what, cycle);
		err = -EINVAL;
	}
	return err;
}
