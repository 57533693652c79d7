// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The words for a resolution (resolve.h): what the resolver decided,
 * the names it tried and why each does not fit, and what plain libbpf
 * would do. Made only when a reason is asked for (explain, the log,
 * mkf_plan_entry__reason()), from the data mkf_resolve() returned, while
 * the kernel it was made on lives.
 */
#include <string.h>

#include "btf_compat.h"
#include "btf_util.h"
#include "kfunc_rules.h"
#include "libbpf_model.h"
#include "params.h"
#include "resolve.h"

/* "vmlinux [id]" or "module NAME [id]". */
static void where(const struct mkf_func *fn, struct mkf_sb *out)
{
	if (fn->module_name)
		mkf_sb_printf(out, "module %s [%u]", fn->module_name, fn->id);
	else
		mkf_sb_printf(out, "vmlinux [%u]", fn->id);
}

/* "'void *aux__prog'" for parameter i of a kernel prototype. */
static void param_desc(const struct mkf_func *fn, int i, struct mkf_sb *out)
{
	const struct btf_param *p = btf_params(btf__type_by_id(fn->btf, fn->proto)) + i;
	const char *name = btf__name_by_offset(fn->btf, p->name_off);
	char type[128], desc[192];

	mkf_type_str(fn->btf, p->type, type, sizeof(type));
	mkf_decl_str(type, name, desc, sizeof(desc));
	mkf_sb_printf(out, "'%s'", desc);
}

/* Params [from, to) of fn, quoted, comma-separated. */
static void param_list(const struct mkf_func *fn, int from, int to, struct mkf_sb *out)
{
	int i;

	for (i = from; i < to; i++) {
		if (i > from)
			mkf_sb_printf(out, ", ");
		param_desc(fn, i, out);
	}
}

/* The differences of the program's first n params from fn's, one per line. */
static void diff(const struct mkf_resolution *res, const struct btf *lb,
		 const struct mkf_extern *ext, const struct mkf_func *fn, int n,
		 struct mkf_sb *out)
{
	struct mkf_sb d = {};

	(void)res;
	if (mkf_proto_prefix_diff(lb, ext->proto_id, fn->btf, fn->proto, n, &d) > 0)
		mkf_sb_printf(out, "%s", d.buf);
	out->failed |= d.failed;
	mkf_sb_free(&d);
}

/* Why B was passed over, for the impl-extend and impl-same reasons. */
static const char *base_status(const struct mkf_resolution *res)
{
	switch (res->base.state) {
	case MKF_CAND_ABSENT: return "is not in the kernel";
	case MKF_CAND_PROTO_ONLY: return "is prototype-only";
	case MKF_CAND_UNTAGGED: return "has no bpf_kfunc tag";
	default: return "does not fit";
	}
}

static void say_bind(const struct mkf_resolution *res, const struct mkf_extern *ext,
		     const struct mkf_libbpf_model *lbm, struct mkf_sb *r)
{
	const struct mkf_func *fn = res->target;
	int n = res->nparams, i;

	mkf_sb_printf(r, "binds '%s' (", fn->name);
	where(fn, r);
	mkf_sb_printf(r, "), rule %s: ", mkf_rule_str(res->rule));
	switch (res->rule) {
	case MKF_RULE_SAME:
		mkf_sb_printf(r, "callable, prototype compatible");
		break;
	case MKF_RULE_EXTEND:
		mkf_sb_printf(r, "callable, its prototype is the program's plus verifier-provided ");
		param_list(fn, n, n + res->delta, r);
		mkf_sb_printf(r, "; prototype extended");
		break;
	case MKF_RULE_SHRINK:
		mkf_sb_printf(r, "callable; the program passes %d trailing dummy %s, which '%s' "
			      "marks verifier-provided: ", -res->delta,
			      res->delta == -1 ? "param" : "params", res->impl.name);
		param_list(res->impl.fn, n + res->delta, n, r);
		mkf_sb_printf(r, "; prototype shrunk, the extra registers are ignored");
		break;
	case MKF_RULE_IMPL_EXTEND:
		mkf_sb_printf(r, "'%s' %s; '%s' is the program's prototype plus verifier-provided ",
			      res->base.name, base_status(res), fn->name);
		param_list(fn, n, n + res->delta, r);
		mkf_sb_printf(r, "; prototype extended");
		break;
	case MKF_RULE_IMPL_SAME:
		mkf_sb_printf(r, "'%s' %s; '%s' is compatible", res->base.name, base_status(res),
			      fn->name);
		break;
	case MKF_RULE_RETYPE:
	case MKF_RULE_IMPL_RETYPE:
		mkf_sb_printf(r, "callable; it differs from the program's prototype only in the types "
			      "of verifier-provided params, which the verifier ignores; the program's "
			      "declaration takes the kernel's types");
		break;
	case MKF_RULE_NONE:
		break;
	}
	if (res->set_regs) {
		mkf_sb_printf(r, "; the verifier checks that");
		for (i = 1; i <= 5; i++)
			if (res->set_regs & (1u << i))
				mkf_sb_printf(r, " R%d", i);
		mkf_sb_printf(r, " hold%s a scalar before it fills in the value, so the rewrite sets "
			      "%s to 0 before every call",
			      (res->set_regs & (res->set_regs - 1)) ? "" : "s",
			      (res->set_regs & (res->set_regs - 1)) ? "them" : "it");
	}
	if (res->keep_name && strcmp(ext->name, fn->name))
		mkf_sb_printf(r, "; the name stays '%s': %s finds '%s' under it", ext->name,
			      mkf_libbpf_model_str(lbm), fn->name);
	else if (!res->keep_name)
		mkf_sb_printf(r, "; renamed from '%s'", ext->name);
	mkf_sb_printf(r, "\n");
}

/* Why a callable candidate does not fit, indented under its name. */
static void say_misfit(const struct mkf_resolution *res, const struct mkf_candidate *cand,
		       const struct btf *lb, const struct mkf_extern *ext, struct mkf_sb *r)
{
	const struct mkf_func *fn = cand->fn, *fi = res->impl.fn;
	int m = mkf_proto_vlen(fn->btf, fn->proto), n = res->nparams;

	switch (cand->misfit) {
	case MKF_MISFIT_NONE:
		break;
	case MKF_MISFIT_INCOMPATIBLE:
		mkf_sb_printf(r, "      prototype incompatible (libbpf's rules):\n");
		diff(res, lb, ext, fn, n, r);
		break;
	case MKF_MISFIT_PREFIX_DIFFERS:
		mkf_sb_printf(r, "      takes %d params; its first %d differ from the program's:\n",
			      m, n);
		diff(res, lb, ext, fn, n, r);
		break;
	case MKF_MISFIT_NOT_PROVIDED:
		mkf_sb_printf(r, "      takes %d params; param %d ", m, cand->param + 1);
		param_desc(fn, cand->param, r);
		mkf_sb_printf(r, " is not verifier-provided: the program would have to pass it\n");
		break;
	case MKF_MISFIT_SHRINK_PREFIX:
		mkf_sb_printf(r, "      takes %d params; they differ from the program's first %d:\n",
			      m, m);
		diff(res, lb, ext, fn, m, r);
		break;
	case MKF_MISFIT_SHRINK_NO_IMPL:
		mkf_sb_printf(r, "      takes %d params, the program passes %d; no '%s' in the kernel "
			      "tells whether the extra ones are dummies\n", m, n, res->impl.name);
		break;
	case MKF_MISFIT_SHRINK_IMPL_CNT:
		mkf_sb_printf(r, "      takes %d params, the program passes %d, and '%s' takes %d: "
			      "the extra ones cannot be matched\n", m, n, res->impl.name,
			      mkf_proto_vlen(fi->btf, fi->proto));
		break;
	case MKF_MISFIT_SHRINK_NOT_PROVIDED:
		mkf_sb_printf(r, "      takes %d params, the program passes %d, but '%s' param %d ",
			      m, n, res->impl.name, cand->param + 1);
		param_desc(fi, cand->param, r);
		mkf_sb_printf(r, " is not verifier-provided: the program's value would be lost\n");
		break;
	case MKF_MISFIT_IMPL_FEWER:
		mkf_sb_printf(r, "      takes %d params, fewer than the program's %d: only '%s' may "
			      "drop trailing dummies (rule shrink)\n", m, n, res->base.name);
		break;
	}
}

/* One name tried: what the kernel has under it, and why it does not fit. */
static void say_candidate(const struct mkf_resolution *res, const struct mkf_candidate *cand,
			  const struct btf *lb, const struct mkf_extern *ext, struct mkf_sb *r)
{
	const struct mkf_func *fn = cand->fn;
	int n;

	switch (cand->state) {
	case MKF_CAND_ABSENT:
		mkf_sb_printf(r, "  - '%s': not in vmlinux or module BTF\n", cand->name);
		return;
	case MKF_CAND_PROTO_ONLY:
		mkf_sb_printf(r, "  - '%s' (", cand->name);
		where(fn, r);
		mkf_sb_printf(r, "): prototype-only, no DECL_TAG \"bpf_kfunc\" beside the "
			      "tagged '%s': the verifier refuses calls to it\n", res->base.name);
		return;
	case MKF_CAND_UNTAGGED:
		mkf_sb_printf(r, "  - '%s' (", cand->name);
		where(fn, r);
		mkf_sb_printf(r, "): no DECL_TAG \"bpf_kfunc\" in a kernel that tags others: "
			      "BTF cannot tell a kfunc its pahole left untagged from a function "
			      "the verifier refuses, so the library binds nothing to it\n");
		return;
	case MKF_CAND_UNSPLIT:
		n = mkf_proto_vlen(fn->btf, fn->proto);
		mkf_sb_printf(r, "  - '%s' (", cand->name);
		where(fn, r);
		mkf_sb_printf(r, "): the old-pahole KF_IMPLICIT_ARGS shape: its public prototype "
			      "still ends in its verifier-provided ");
		param_list(fn, mkf_func_unsplit_first(fn), n, r);
		mkf_sb_printf(r, " and there is no '%s' (BTF made by a pahole without kfunc tags). "
			      "The verifier of such a kernel takes the full prototype from '%s' and "
			      "refuses every call to '%s', whatever the program declares\n",
			      res->impl.name, res->impl.name, res->base.name);
		return;
	case MKF_CAND_CALLABLE:
		mkf_sb_printf(r, "  - '%s' (", cand->name);
		where(fn, r);
		mkf_sb_printf(r, "), callable:\n");
		say_misfit(res, cand, lb, ext, r);
		return;
	}
}

/* What plain libbpf does with the extern as it is. */
static void say_libbpf(const struct mkf_resolution *res, const struct btf *lb,
		       const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
		       struct mkf_sb *out)
{
	const char *lbv = mkf_libbpf_model_str(lbm);
	const struct mkf_func *fn = res->libbpf_fn;
	int m, n = res->nparams;

	switch (res->libbpf) {
	case MKF_LIBBPF_NOT_FOUND:
		mkf_sb_printf(out, "  plain libbpf (%s): '%.*s' is not in the kernel's BTF: %s\n", lbv,
			      (int)mkf_libbpf_lookup_len(lbm, ext->name), ext->name,
			      ext->weak ? "the weak extern resolves to 0" : "loading fails");
		return;
	case MKF_LIBBPF_BINDS:
		return;
	case MKF_LIBBPF_BINDS_UNCALLABLE:
		if (res->libbpf_unsplit)
			mkf_sb_printf(out, "  plain libbpf (%s): binds '%s'; the verifier refuses the "
				      "call (no '%s_impl' in this kernel's BTF)\n", lbv, fn->name,
				      fn->name);
		else
			mkf_sb_printf(out, "  plain libbpf (%s): binds prototype-only '%s'; the "
				      "verifier refuses the call\n", lbv, fn->name);
		return;
	case MKF_LIBBPF_BINDS_UNTAGGED:
		mkf_sb_printf(out, "  plain libbpf (%s): binds '%s', untagged; the verifier calls "
			      "it if the kernel's kfunc ID sets hold it\n", lbv, fn->name);
		return;
	case MKF_LIBBPF_DROPPED:
		mkf_sb_printf(out, "  plain libbpf (%s): func_proto of '%s' incompatible with the "
			      "kernel's: the weak extern is dropped and resolves to 0\n", lbv,
			      fn->name);
		break;
	case MKF_LIBBPF_INCOMPATIBLE:
		mkf_sb_printf(out, "  plain libbpf (%s): func_proto of '%s' incompatible with the "
			      "kernel's: it refuses the whole object%s\n", lbv, fn->name,
			      ext->weak ? " although the extern is weak (1.3 and later drop it)" : "");
		break;
	}
	m = mkf_proto_vlen(fn->btf, fn->proto);
	if (m != n)
		mkf_sb_printf(out, "      kernel takes %d params, the program passes %d\n", m, n);
	if (m >= 0)
		diff(res, lb, ext, fn, m < n ? m : n, out);
}

void mkf_resolution_say(const struct mkf_resolution *res, const struct btf *local_btf,
			const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
			struct mkf_sb *out)
{
	if (res->decision == MKF_DECISION_BIND) {
		say_bind(res, ext, lbm, out);
	} else if (res->decision == MKF_DECISION_LEAVE) {
		mkf_sb_printf(out, "left as plain libbpf binds it, rule none: nothing the library "
			      "can prove callable fits; '%s' has no bpf_kfunc tag and the "
			      "verifier decides\n", res->libbpf_fn->name);
		say_candidate(res, &res->base, local_btf, ext, out);
		say_candidate(res, &res->impl, local_btf, ext, out);
	} else {
		if (ext->weak)
			mkf_sb_printf(out, "left alone, rule none: no kernel function fits; the weak "
				      "extern resolves to 0 (bpf_ksym_exists() is false)\n");
		else
			mkf_sb_printf(out, "unresolved, rule none: no kernel function fits the strong "
				      "extern '%s'; loading will fail\n", ext->name);
		say_candidate(res, &res->base, local_btf, ext, out);
		say_candidate(res, &res->impl, local_btf, ext, out);
	}
	say_libbpf(res, local_btf, ext, lbm, out);
}
