// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <string.h>

#include "btf_util.h"
#include "magic_params.h"

/*
 * Name suffixes the verifier treats as "fill this in yourself":
 * __ign and __prog since 6.10/6.16 (legacy _impl convention), __magic in
 * our KF_MAGIC_ARGS series, __implicit in upstream's KF_IMPLICIT_ARGS.
 */
static const char *const provided_suffixes[] = {
	"__magic", "__prog", "__ign", "__implicit",
};

/*
 * Types the verifier injects: upstream 7.0's KF_IMPLICIT_ARGS keeps the
 * full prototype with a plain "struct bpf_prog_aux *aux"; the
 * btf_struct_meta family (bpf_obj_new & co) gets its meta pointer.
 */
static const char *const provided_structs[] = {
	"bpf_prog_aux", "btf_struct_meta",
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
	struct mkf_param_info info = { MKF_PARAM_NORMAL, false, "an ordinary parameter" };
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
			info.why = "node offset filled by the verifier after a scalar check";
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
		if (!strcmp(provided_suffixes[i], "__ign") && !is_void_ptr(kern_btf, p->type))
			continue;
		if (ends_with(name, provided_suffixes[i])) {
			info.kind = MKF_PARAM_PROVIDED;
			info.why = provided_suffixes[i];
			return info;
		}
	}
	t = mkf_skip_mods_typedefs(kern_btf, p->type, NULL);
	if (t && btf_is_ptr(t)) {
		t = mkf_skip_mods_typedefs(kern_btf, t->type, NULL);
		if (t && (btf_is_struct(t) || btf_is_fwd(t))) {
			const char *sname = mkf_btf_name(kern_btf, t);

			for (i = 0; i < sizeof(provided_structs) / sizeof(provided_structs[0]); i++) {
				if (!strcmp(sname, provided_structs[i])) {
					info.kind = MKF_PARAM_PROVIDED;
					info.by_type = true;
					info.why = i == 0 ? "struct bpf_prog_aux *"
							  : "struct btf_struct_meta *";
					return info;
				}
			}
		}
	}
	return info;
}

enum mkf_param_kind mkf_btf__param_kind(const struct btf *btf, const char *func_name,
					__u32 proto_id, int idx, bool *by_type, const char **why)
{
	struct mkf_param_info info = { MKF_PARAM_NORMAL, false, "an ordinary parameter" };

	if (btf && func_name)
		info = mkf_param_info(btf, func_name, proto_id, idx);
	if (by_type)
		*by_type = info.by_type;
	if (why)
		*why = info.why;
	return info.kind;
}
