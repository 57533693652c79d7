// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "btf_util.h"
#include "params.h"

/*
 * Name suffixes the verifier treats as "fill this in yourself":
 * __ign and __prog since 6.10/6.16 (legacy _impl convention), __magic in
 * our KF_MAGIC_ARGS series, __implicit in upstream's KF_IMPLICIT_ARGS.
 */
static const struct {
	const char *suffix;
	enum mkf_param_basis basis;
} provided_suffixes[] = {
	{ "__magic", MKF_PARAM_BASIS_SUFFIX_MAGIC },
	{ "__prog", MKF_PARAM_BASIS_SUFFIX_PROG },
	{ "__ign", MKF_PARAM_BASIS_SUFFIX_IGN },
	{ "__implicit", MKF_PARAM_BASIS_SUFFIX_IMPLICIT },
};

/*
 * Types the verifier injects: upstream 7.0's KF_IMPLICIT_ARGS keeps the
 * full prototype with a plain "struct bpf_prog_aux *aux"; the
 * btf_struct_meta family (bpf_obj_new & co) gets its meta pointer.
 */
static const struct {
	const char *name;
	enum mkf_param_basis basis;
} provided_structs[] = {
	{ "bpf_prog_aux", MKF_PARAM_BASIS_TYPE_PROG_AUX },
	{ "btf_struct_meta", MKF_PARAM_BASIS_TYPE_STRUCT_META },
};

/*
 * Verifier-filled scalars: the verifier rewrites the register with the
 * node offset in fixup_kfunc_call(), but check_kfunc_args() has already
 * required it to hold a scalar. A call that leaves it unset is refused.
 */
static const struct {
	const char *func;
	const char *param;
} checked_scalars[] = {
	{ "bpf_list_push_front_impl", "off" },
	{ "bpf_list_push_back_impl", "off" },
	{ "bpf_rbtree_add_impl", "off" },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A pointer to void, through modifiers and typedefs. */
static bool is_void_ptr(const struct btf *btf, __u32 type)
{
	const struct btf_type *t = mkf_skip_mods_typedefs(btf, type, NULL);
	__u32 pointee;

	if (!t || !btf_is_ptr(t))
		return false;
	mkf_skip_mods_typedefs(btf, t->type, &pointee);
	return pointee == 0;
}

struct mkf_param_info mkf_param_info(const struct btf *kern_btf, const char *func_name,
				     __u32 proto, int idx)
{
	struct mkf_param_info info = { MKF_PARAM_NORMAL, MKF_PARAM_BASIS_NONE, false };
	const struct btf_type *t = btf__type_by_id(kern_btf, proto);
	const struct btf_param *p;
	const char *name;
	size_t i;

	if (!t || !btf_is_func_proto(t) || idx < 0 || idx >= btf_vlen(t))
		return info;
	p = btf_params(t) + idx;
	name = btf__name_by_offset(kern_btf, p->name_off);
	name = name ? name : "";

	for (i = 0; i < sizeof(checked_scalars) / sizeof(checked_scalars[0]); i++) {
		if (!strcmp(func_name, checked_scalars[i].func) &&
		    !strcmp(name, checked_scalars[i].param)) {
			info.kind = MKF_PARAM_CHECKED_SCALAR;
			info.basis = MKF_PARAM_BASIS_KNOWN_SCALAR;
			return info;
		}
	}
	for (i = 0; i < sizeof(provided_suffixes) / sizeof(provided_suffixes[0]); i++) {
		/*
		 * __ign only means "skip the type check": the legacy aux__ign
		 * and meta__ign are void pointers the verifier fills, but
		 * 6.17's string kfuncs take real pointers as __ign
		 * (bpf_strlen(const char *s__ign)).
		 */
		if (provided_suffixes[i].basis == MKF_PARAM_BASIS_SUFFIX_IGN &&
		    !is_void_ptr(kern_btf, p->type))
			continue;
		if (ends_with(name, provided_suffixes[i].suffix)) {
			info.kind = MKF_PARAM_PROVIDED;
			info.basis = provided_suffixes[i].basis;
			return info;
		}
	}
	t = mkf_skip_mods_typedefs(kern_btf, p->type, NULL);
	if (t && btf_is_ptr(t)) {
		t = mkf_skip_mods_typedefs(kern_btf, t->type, NULL);
		if (t && (btf_is_struct(t) || btf_is_fwd(t))) {
			const char *sname = mkf_btf_name(kern_btf, t);

			for (i = 0; i < sizeof(provided_structs) / sizeof(provided_structs[0]); i++) {
				if (!strcmp(sname, provided_structs[i].name)) {
					info.kind = MKF_PARAM_PROVIDED;
					info.basis = provided_structs[i].basis;
					info.by_type = true;
					return info;
				}
			}
		}
	}
	return info;
}

enum mkf_param_kind mkf_btf__param_kind(const struct btf *btf, const char *func_name,
					__u32 proto_id, int idx, enum mkf_param_basis *basis)
{
	struct mkf_param_info info = { MKF_PARAM_NORMAL, MKF_PARAM_BASIS_NONE, false };

	if (btf && func_name)
		info = mkf_param_info(btf, func_name, proto_id, idx);
	else
		errno = EINVAL;
	if (basis)
		*basis = info.basis;
	return info.kind;
}

const char *mkf_param_basis_str(enum mkf_param_basis basis)
{
	switch (basis) {
	case MKF_PARAM_BASIS_NONE: return "none";
	case MKF_PARAM_BASIS_SUFFIX_MAGIC: return "__magic";
	case MKF_PARAM_BASIS_SUFFIX_PROG: return "__prog";
	case MKF_PARAM_BASIS_SUFFIX_IGN: return "__ign";
	case MKF_PARAM_BASIS_SUFFIX_IMPLICIT: return "__implicit";
	case MKF_PARAM_BASIS_TYPE_PROG_AUX: return "struct bpf_prog_aux *";
	case MKF_PARAM_BASIS_TYPE_STRUCT_META: return "struct btf_struct_meta *";
	case MKF_PARAM_BASIS_KNOWN_SCALAR: return "known scalar";
	}
	errno = EINVAL;
	return NULL;
}
