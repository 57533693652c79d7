// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Which parameters of a kernel kfunc the verifier fills in itself.
 *
 * A parameter is verifier-provided only where verifier code fills it:
 * every rule below cites that code. A name suffix alone proves nothing
 * ("__ign" only means "type not checked": 6.16's
 * bpf_probe_read_kernel_dynptr(..., const void *unsafe_ptr__ign, ...)
 * takes the program's own pointer). tests/unit/provided-params walks the
 * BTF of every catalogue kernel and compares what these rules say, and
 * every parameter that looks like one of these conventions, with a
 * reviewed list (tests/unit/provided-params.expected): a kernel that
 * brings a new one fails that test until someone reads its source.
 */
#include <errno.h>
#include <string.h>

#include "btf_util.h"
#include "kernel_index.h"
#include "params.h"

#define IMPL_SUFFIX "_impl"

/*
 * Generic conventions, for any kfunc: the verifier recognises the
 * parameter by its name or type, whatever the function.
 */
static const struct {
	const char *suffix;
	enum mkf_param_basis basis;
} provided_suffixes[] = {
	/*
	 * Our series for 6.12 (kernel/patches): resolve_btfids drops the
	 * trailing "__magic" parameters of a KF_MAGIC_ARGS kfunc from its
	 * short prototype ("resolve_btfids: Give magic kfuncs a short
	 * prototype") and the verifier loads the calling program's value
	 * into their registers right before the call ("bpf: Verify kfunc
	 * calls with magic arguments" for struct bpf_prog_aux *, "bpf:
	 * Support magic arguments of type struct btf_struct_meta" for the
	 * meta pointer and the node offset).
	 */
	{ "__magic", MKF_PARAM_BASIS_SUFFIX_MAGIC },
	/*
	 * 6.16 to 6.19: verifier.c's is_kfunc_arg_prog() matches the
	 * "__prog" suffix; check_kfunc_args() skips the argument and
	 * records its register in cur_aux(env)->arg_prog, and
	 * fixup_kfunc_call() loads env->prog->aux into it
	 * (bpf_wq_set_callback_impl, bpf_stream_vprintk[_impl],
	 * bpf_task_work_schedule_*_impl).
	 */
	{ "__prog", MKF_PARAM_BASIS_SUFFIX_PROG },
};

/*
 * 7.0 and later: verifier.c's is_kfunc_arg_prog_aux() matches any
 * parameter of type struct bpf_prog_aux * (KF_ARG_PROG_AUX_ID), and
 * check_kfunc_args() and fixup_kfunc_call() treat it as __prog above;
 * KF_IMPLICIT_ARGS kfuncs leave it out of their public prototype, and
 * keep it in their prototype-only foo_impl twin.
 */
#define PROG_AUX_STRUCT "bpf_prog_aux"

/*
 * The allocator and graph kfuncs, which fixup_kfunc_call() knows by
 * their BTF ids (special_kfunc_list), with the registers it sets.
 * Theirs alone: a kfunc outside this list with such a parameter gets
 * no value from the verifier.
 *
 * Legacy _impl forms (6.2 and later, still callable in 7.x):
 *   "void *meta__ign": the verifier loads the btf_struct_meta
 *     pointer into R2 (obj_new, percpu_obj_new, obj_drop,
 *     percpu_obj_drop, refcount_acquire), R3 (list_push_*) or R4
 *     (rbtree_add), e.g. 6.12's verifier.c fixup_kfunc_call():
 *       BPF_LD_IMM64(BPF_REG_2, (long)kptr_struct_meta)
 *       __fixup_collection_insert_kfunc(..., struct_meta_reg, ...)
 *     check_kfunc_args() ignores the argument (is_kfunc_arg_ignore()).
 *   "u64 off" of list_push_*_impl and rbtree_add_impl: the verifier
 *     sets it (BPF_MOV64_IMM(node_offset_reg, insn_aux->insert_off)),
 *     but only after check_kfunc_args() has required a scalar in the
 *     register ("R4 is not a scalar"): a checked scalar.
 * Linux 7.1's KF_IMPLICIT_ARGS forms (Debian's 7.2, 7.3: bpf_obj_new(),
 *   bpf_list_push_back(), bpf_list_add(), ...): their
 *   "struct btf_struct_meta *meta" and "u64 off" follow the public
 *   prototype's last parameter in the full one (the _impl twin);
 *   is_kfunc_arg_implicit() skips them and fixup_kfunc_call() loads the
 *   same registers. Provided, unchecked.
 * Our series' magic forms of the same are "__magic", above.
 */
static const char *const graph_kfuncs[] = {
	"bpf_obj_new", "bpf_percpu_obj_new", "bpf_obj_drop", "bpf_percpu_obj_drop",
	"bpf_refcount_acquire", "bpf_list_push_front", "bpf_list_push_back", "bpf_list_add",
	"bpf_rbtree_add",
};
/* The legacy _impl forms whose node offset is checked first. */
static const char *const checked_offset_kfuncs[] = {
	"bpf_list_push_front_impl", "bpf_list_push_back_impl", "bpf_rbtree_add_impl",
};
#define META_STRUCT "btf_struct_meta"

/*
 * bpf_wq_set_callback_impl(..., void *aux__ign), 6.10 to 6.15: a
 * special case of fixup_kfunc_call() (6.12: is_bpf_wq_set_callback_impl_kfunc(),
 * BPF_LD_IMM64(BPF_REG_4, (long)env->prog->aux)). 6.16 renamed it
 * aux__prog. Our series keeps this declaration and injects it too.
 */
static const struct {
	const char *func;
	const char *param;
} legacy_provided[] = {
	{ "bpf_wq_set_callback_impl", "aux__ign" },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static bool in_list(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static bool is_impl(const char *func)
{
	size_t n = strlen(func), m = strlen(IMPL_SUFFIX);

	return n > m && !strcmp(func + n - m, IMPL_SUFFIX);
}

/* FUNC name without a trailing "_impl" is one of the graph kfuncs. */
static bool is_graph_kfunc(const char *func)
{
	size_t n = strlen(func), m = strlen(IMPL_SUFFIX), i;

	if (n > m && !strcmp(func + n - m, IMPL_SUFFIX))
		n -= m;
	for (i = 0; i < ARRAY_LEN(graph_kfuncs); i++)
		if (strlen(graph_kfuncs[i]) == n && !strncmp(graph_kfuncs[i], func, n))
			return true;
	return false;
}

/* The struct a parameter points to (modifiers and typedefs skipped), or NULL. */
static const char *pointee_struct(const struct btf *btf, __u32 type)
{
	const struct btf_type *t = mkf_skip_mods_typedefs(btf, type, NULL);

	if (!t || !btf_is_ptr(t))
		return NULL;
	t = mkf_skip_mods_typedefs(btf, t->type, NULL);
	if (!t || !(btf_is_struct(t) || btf_is_fwd(t)))
		return NULL;
	return mkf_btf_name(btf, t);
}

static const char *param_name(const struct btf *btf, const struct btf_param *p)
{
	const char *name = btf__name_by_offset(btf, p->name_off);

	return name ? name : "";
}

struct mkf_param_info mkf_param_info(const struct btf *kern_btf, const char *func_name,
				     __u32 proto, int idx)
{
	struct mkf_param_info info = { MKF_PARAM_NORMAL, MKF_PARAM_BASIS_NONE, false };
	const struct btf_type *t = btf__type_by_id(kern_btf, proto);
	const struct btf_param *p;
	const char *name, *sname;
	size_t i;

	if (!t || !btf_is_func_proto(t) || idx < 0 || idx >= btf_vlen(t))
		return info;
	p = btf_params(t) + idx;
	name = param_name(kern_btf, p);
	sname = pointee_struct(kern_btf, p->type);

	for (i = 0; i < ARRAY_LEN(provided_suffixes); i++) {
		if (ends_with(name, provided_suffixes[i].suffix)) {
			info.kind = MKF_PARAM_PROVIDED;
			info.basis = provided_suffixes[i].basis;
			return info;
		}
	}
	if (sname && !strcmp(sname, PROG_AUX_STRUCT)) {
		info.kind = MKF_PARAM_PROVIDED;
		info.basis = MKF_PARAM_BASIS_TYPE_PROG_AUX;
		info.by_type = true;
		return info;
	}
	for (i = 0; i < ARRAY_LEN(legacy_provided); i++) {
		if (!strcmp(func_name, legacy_provided[i].func) &&
		    !strcmp(name, legacy_provided[i].param)) {
			info.kind = MKF_PARAM_PROVIDED;
			info.basis = MKF_PARAM_BASIS_SUFFIX_IGN;
			return info;
		}
	}
	if (!is_graph_kfunc(func_name))
		return info;
	if (!strcmp(name, "meta__ign")) {
		info.kind = MKF_PARAM_PROVIDED;
		info.basis = MKF_PARAM_BASIS_SUFFIX_IGN;
	} else if (sname && !strcmp(sname, META_STRUCT)) {
		info.kind = MKF_PARAM_PROVIDED;
		info.basis = MKF_PARAM_BASIS_TYPE_STRUCT_META;
		info.by_type = true;
	} else if (!strcmp(name, "off") && idx > 0) {
		/* The node offset follows the meta pointer. */
		const struct btf_param *prev = p - 1;
		const char *pn = param_name(kern_btf, prev), *ps = pointee_struct(kern_btf, prev->type);

		if (in_list(checked_offset_kfuncs, ARRAY_LEN(checked_offset_kfuncs), func_name) &&
		    !strcmp(pn, "meta__ign")) {
			info.kind = MKF_PARAM_CHECKED_SCALAR;
			info.basis = MKF_PARAM_BASIS_KNOWN_SCALAR;
		} else if (ps && !strcmp(ps, META_STRUCT) && is_impl(func_name)) {
			/*
			 * In a short name whose public prototype still lists
			 * it (BTF of a pahole that cannot split it), the
			 * verifier reads the prototype of the legacy _impl,
			 * checks the offset as a scalar and implies nothing:
			 * such a call binds the legacy _impl instead.
			 */
			info.kind = MKF_PARAM_PROVIDED;
			info.basis = MKF_PARAM_BASIS_KNOWN_SCALAR;
			info.by_type = true;
		}
	}
	return info;
}

/*
 * Our series' BTF pass tags each parameter of a legacy _impl that its
 * verifier fills ("bpf_magic:aux|meta|off": kernel/patches,
 * "resolve_btfids: Allow struct btf_struct_meta and node offset magic
 * arguments"), and the verifier injects the value for calls of either
 * name. The node offset of such an _impl is checked as a scalar first
 * when it is called by that name, as stock 6.12 does.
 */
struct mkf_param_info mkf_func_param_info(const struct mkf_func *fn, int idx)
{
	struct mkf_param_info info = mkf_param_info(fn->btf, fn->name, fn->proto, idx);

	if (info.kind != MKF_PARAM_NORMAL || idx < 0 || idx >= 32 ||
	    !(fn->magic_params & (1u << idx)))
		return info;
	info.kind = fn->magic_offs & (1u << idx) ? MKF_PARAM_CHECKED_SCALAR : MKF_PARAM_PROVIDED;
	info.basis = MKF_PARAM_BASIS_MAGIC_TAG;
	return info;
}

enum mkf_param_kind mkf_func__param_kind(const struct mkf_func *fn, int idx,
					 enum mkf_param_basis *basis)
{
	struct mkf_param_info info = { 0, 0, false };

	if (fn)
		info = mkf_func_param_info(fn, idx);
	else
		errno = EINVAL;
	if (basis)
		*basis = info.basis;
	return info.kind;
}

enum mkf_param_kind mkf_btf__param_kind(const struct btf *btf, const char *func_name,
					__u32 proto_id, int idx, enum mkf_param_basis *basis)
{
	struct mkf_param_info info = { 0, 0, false };

	if (btf && func_name)
		info = mkf_param_info(btf, func_name, proto_id, idx);
	else
		errno = EINVAL;
	if (basis)
		*basis = info.basis;
	return info.kind;
}
