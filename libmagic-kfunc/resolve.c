// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Decide what one kfunc extern binds to (docs/design.md, section 3).
 *
 * N is the extern's name, E its essential name (no ___flavor), B is E
 * without a trailing "_impl", B_impl is B + "_impl". The non-_impl name
 * is preferred: it is the future API. First match wins (enum mkf_rule;
 * the design's numbers in brackets):
 *   same [1]: callable B compatible with the program's prototype P;
 *   extend [2]: callable B = P + trailing verifier-provided params;
 *   shrink [3]: callable B = P - trailing params the program passes as
 *      dummies, dummies according to the kernel's B_impl prototype;
 *   impl-extend [4]: callable B_impl = P + trailing verifier-provided params;
 *   impl-same [5]: callable B_impl compatible with P;
 *   none [6]: leave the extern alone (weak: resolves to 0), with a
 *      diagnosis listing each candidate and why it does not fit.
 * Extending over a parameter the verifier checks as a scalar before
 * filling it in (the node offset of bpf_list_push_*_impl) binds too, and
 * says which registers the rewrite must set before every call: a call
 * written without the parameter would leave that register unset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btf_util.h"
#include "btf_compat.h"
#include "kfunc_rules.h"
#include "libbpf_model.h"
#include "params.h"
#include "resolve.h"

enum check {
	CHECK_NO = 0,
	CHECK_OK = 1,
	/* Compatible but for the types of verifier-provided params. */
	CHECK_RETYPE = 2,
};

struct ctx {
	const struct btf *lb;
	const struct mkf_extern *ext;
	int n;				/* the program's parameter count */
	__u32 set_regs;			/* registers to set before each call */
	const struct mkf_func *compat_fn; /* protos_compat()'s last answer */
	bool compat;
};

/*
 * libbpf's verdict on the program's prototype against fn's: asked for
 * the plain-libbpf outcome and by rule same, most often of the same
 * function, and it walks both prototypes.
 */
static bool protos_compat(struct ctx *c, const struct mkf_func *fn)
{
	if (c->compat_fn != fn) {
		c->compat = mkf_protos_compat(c->lb, c->ext->proto_id, fn->btf, fn->proto);
		c->compat_fn = fn;
	}
	return c->compat;
}

/* libbpf's rules for two types, modifiers and typedefs skipped first. */
static bool compat_skipping(const struct btf *lb, __u32 lid, const struct btf *kb, __u32 kid)
{
	mkf_skip_mods_typedefs(lb, lid, &lid);
	mkf_skip_mods_typedefs(kb, kid, &kid);
	return mkf_types_compat(lb, lid, kb, kid) == 1;
}

/*
 * Rules retype and impl-retype: the prototypes differ only in the types
 * of parameters the kernel's side marks verifier-provided (7.x's
 * "struct bpf_prog_aux *aux" against 6.16's "void *aux__prog"): the
 * verifier ignores what the program passes there, so the program's
 * declaration takes the kernel's types.
 */
static bool retype_fits(struct ctx *c, const struct mkf_func *fn)
{
	const struct btf_type *lp = btf__type_by_id(c->lb, c->ext->proto_id);
	const struct btf_type *kp = btf__type_by_id(fn->btf, fn->proto);
	const struct btf_param *l = btf_params(lp), *k = btf_params(kp);
	int i, retyped = 0;

	if (!compat_skipping(c->lb, lp->type, fn->btf, kp->type))
		return false;
	for (i = 0; i < c->n; i++) {
		if (compat_skipping(c->lb, l[i].type, fn->btf, k[i].type))
			continue;
		if (mkf_func_param_info(fn, i).kind != MKF_PARAM_PROVIDED)
			return false;
		retyped++;
	}
	return retyped > 0;
}

/* Rules same and impl-same: the same parameter count and libbpf-compatible. */
static enum check check_same(struct ctx *c, struct mkf_candidate *cand)
{
	if (protos_compat(c, cand->fn))
		return CHECK_OK;
	if (retype_fits(c, cand->fn))
		return CHECK_RETYPE;
	cand->misfit = MKF_MISFIT_INCOMPATIBLE;
	return CHECK_NO;
}

/* Rules extend and impl-extend: the kernel's prototype is P plus verifier-provided params. */
static enum check check_extend(struct ctx *c, struct mkf_candidate *cand)
{
	const struct mkf_func *fn = cand->fn;
	int m = mkf_proto_vlen(fn->btf, fn->proto), i;
	struct mkf_extension x;

	if (!mkf_proto_extends(c->lb, c->ext->proto_id, c->n, fn, &x)) {
		cand->misfit = x.misfit == MKF_EXTEND_NOT_PROVIDED ? MKF_MISFIT_NOT_PROVIDED
								    : MKF_MISFIT_PREFIX_DIFFERS;
		cand->param = x.param;
		return CHECK_NO;
	}
	/* Every checked scalar among the extra params: R(i + 1) = 0 first. */
	c->set_regs = 0;
	for (i = x.scalar; i >= 0 && i < m; i++)
		if (mkf_func_param_info(fn, i).kind == MKF_PARAM_CHECKED_SCALAR)
			c->set_regs |= 1u << (i + 1);
	return CHECK_OK;
}

/*
 * Rule shrink: B takes fewer params than the program passes. The extra ones
 * are dummies only if the kernel's B_impl (callable or prototype-only)
 * has exactly the program's count and marks them verifier-provided.
 */
static enum check check_shrink(struct ctx *c, struct mkf_candidate *b,
			       const struct mkf_func *fi)
{
	const struct mkf_func *fb = b->fn;
	int m = mkf_proto_vlen(fb->btf, fb->proto), i;

	if (mkf_proto_prefix_diff(c->lb, c->ext->proto_id, fb->btf, fb->proto, m, NULL) > 0) {
		b->misfit = MKF_MISFIT_SHRINK_PREFIX;
		return CHECK_NO;
	}
	if (!fi) {
		b->misfit = MKF_MISFIT_SHRINK_NO_IMPL;
		return CHECK_NO;
	}
	if (mkf_proto_vlen(fi->btf, fi->proto) != c->n) {
		b->misfit = MKF_MISFIT_SHRINK_IMPL_CNT;
		return CHECK_NO;
	}
	for (i = m; i < c->n; i++) {
		if (mkf_func_param_info(fi, i).kind == MKF_PARAM_NORMAL) {
			b->misfit = MKF_MISFIT_SHRINK_NOT_PROVIDED;
			b->param = i;
			return CHECK_NO;
		}
	}
	return CHECK_OK;
}

/*
 * Whether fn is an untagged B_impl beside a tagged B: the prototype
 * resolve_btfids keeps for a KF_IMPLICIT_ARGS kfunc (7.0 and later),
 * which no kfunc ID set holds. Any other untagged FUNC may be in one:
 * the ID sets are filled by name, whatever pahole tagged
 * (btf_kfunc_id_set_contains(); resolve_btfids reads the tags only to
 * make the _impl prototypes).
 */
static bool proto_only_twin(const struct mkf_resolution *res, const struct mkf_func *fn)
{
	return !mkf_func_callable(fn) && fn == res->impl.fn && res->base.fn &&
	       res->base.fn->tagged;
}

/*
 * What plain libbpf (lbm) does with the extern as it is: looks its
 * name up (without its last ___flavor from 1.3 on) and checks the
 * prototype.
 */
static void libbpf_outcome(struct ctx *c, const struct mkf_libbpf_model *lbm,
			   struct mkf_resolution *res)
{
	const struct mkf_func *fn = res->libbpf_fn;

	if (!fn)
		res->libbpf = MKF_LIBBPF_NOT_FOUND;
	else if (protos_compat(c, fn)) {
		res->libbpf_unsplit = mkf_func_unsplit(fn);
		if (res->libbpf_unsplit || proto_only_twin(res, fn))
			res->libbpf = MKF_LIBBPF_BINDS_UNCALLABLE;
		else if (mkf_func_callable(fn))
			res->libbpf = MKF_LIBBPF_BINDS;
		else
			res->libbpf = MKF_LIBBPF_BINDS_UNTAGGED;
	} else if (c->ext->weak && lbm->weak_mismatch_drops)
		res->libbpf = MKF_LIBBPF_DROPPED;
	else
		res->libbpf = MKF_LIBBPF_INCOMPATIBLE;
}

static void bind(struct ctx *c, struct mkf_resolution *res, enum mkf_rule rule,
		 const struct mkf_func *fn, enum mkf_proto_change change)
{
	res->decision = MKF_DECISION_BIND;
	res->rule = rule;
	res->target = fn;
	/* Minimal edit: what libbpf finds under the extern's own name is fn. */
	res->keep_name = res->libbpf_fn == fn;
	res->change = change;
	res->delta = mkf_proto_vlen(fn->btf, fn->proto) - c->n;
	if (c->set_regs && change == MKF_PROTO_EXTEND)
		res->set_regs = c->set_regs;
}

/* B, the essential name without _impl, and B_impl, in one buffer *names. */
static int base_names(const struct mkf_extern *ext, char **names, const char **b,
		      const char **bi)
{
	size_t elen = strlen(ext->essential), slen = strlen(MKF_IMPL_SUFFIX);
	char *p;

	if (mkf_is_impl_name(ext->essential))
		elen -= slen;
	p = malloc(2 * elen + slen + 2);
	if (!p)
		return -ENOMEM;
	memcpy(p, ext->essential, elen);
	p[elen] = '\0';
	memcpy(p + elen + 1, p, elen);
	memcpy(p + 2 * elen + 1, MKF_IMPL_SUFFIX, slen + 1);
	*names = p;
	*b = p;
	*bi = p + elen + 1;
	return 0;
}

int mkf_resolve_names(struct mkf_resolve_names *rn, const struct mkf_extern *exts, size_t cnt,
		      const struct mkf_libbpf_model *lbm)
{
	size_t i;
	int err;

	rn->cnt = 3 * cnt;
	rn->names = calloc(3 * cnt + 1, sizeof(*rn->names));
	rn->owned = calloc(2 * cnt + 1, sizeof(*rn->owned));
	err = rn->names && rn->owned ? 0 : -ENOMEM;
	/* The names mkf_resolve() asks for: libbpf's view of N, B, B_impl. */
	for (i = 0; i < cnt && !err; i++) {
		err = base_names(&exts[i], &rn->owned[2 * i], &rn->names[3 * i + 1],
				 &rn->names[3 * i + 2]);
		rn->owned[2 * i + 1] = strndup(exts[i].name,
					       mkf_libbpf_lookup_len(lbm, exts[i].name));
		if (!err && !rn->owned[2 * i + 1])
			err = -ENOMEM;
		rn->names[3 * i] = rn->owned[2 * i + 1];
	}
	if (err)
		mkf_resolve_names_free(rn);
	return err;
}

void mkf_resolve_names_free(struct mkf_resolve_names *rn)
{
	size_t i;

	for (i = 0; rn->owned && i < rn->cnt / 3 * 2; i++)
		free(rn->owned[i]);
	free(rn->owned);
	free(rn->names);
	memset(rn, 0, sizeof(*rn));
}

int mkf_resolve_prefetch(const struct mkf_kernel *kernel, const struct mkf_extern *exts,
			 size_t cnt, const struct mkf_libbpf_model *lbm)
{
	struct mkf_resolve_names rn;
	int err = mkf_resolve_names(&rn, exts, cnt, lbm);

	if (err)
		return err;
	err = mkf_kernel_prefetch(kernel, rn.names, rn.cnt);
	mkf_resolve_names_free(&rn);
	return err;
}

/* What the kernel has under cand->name (cand->fn, looked up). */
static void classify_candidate(const struct mkf_resolution *res, struct mkf_candidate *cand)
{
	if (!cand->fn)
		cand->state = MKF_CAND_ABSENT;
	else if (cand == &res->base && mkf_func_unsplit(cand->fn))
		cand->state = MKF_CAND_UNSPLIT;
	else if (mkf_func_callable(cand->fn))
		cand->state = MKF_CAND_CALLABLE;
	else if (proto_only_twin(res, cand->fn))
		cand->state = MKF_CAND_PROTO_ONLY;
	else
		cand->state = MKF_CAND_UNTAGGED;
}

int mkf_resolve(const struct mkf_kernel *kernel, const struct btf *local_btf,
		const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
		struct mkf_resolution *res)
{
	struct ctx c = { .lb = local_btf, .ext = ext };
	struct mkf_candidate *b = &res->base, *bi = &res->impl;
	enum check chk = CHECK_NO;
	char *lb_name;
	int m, err;

	memset(res, 0, sizeof(*res));
	c.n = mkf_proto_vlen(local_btf, ext->proto_id);
	if (c.n < 0)
		return -EINVAL;
	res->nparams = c.n;

	err = base_names(ext, &res->names, &b->name, &bi->name);
	if (err)
		return err;
	lb_name = strndup(ext->name, mkf_libbpf_lookup_len(lbm, ext->name));
	if (!lb_name) {
		mkf_resolution_free(res);
		return -ENOMEM;
	}
	/* The order of lookups is the order of the text that names them. */
	b->fn = mkf_kernel_find(kernel, b->name);
	bi->fn = mkf_kernel_find(kernel, bi->name);
	res->libbpf_fn = mkf_kernel_find(kernel, lb_name);
	free(lb_name);
	libbpf_outcome(&c, lbm, res);

	/* Rules same, extend, shrink: B. Its parameter count picks the only one that can apply. */
	classify_candidate(res, b);
	if (b->state == MKF_CAND_CALLABLE) {
		m = mkf_proto_vlen(b->fn->btf, b->fn->proto);
		if (m == c.n && (chk = check_same(&c, b)) == CHECK_OK)
			bind(&c, res, MKF_RULE_SAME, b->fn, MKF_PROTO_SAME);
		else if (m == c.n && chk == CHECK_RETYPE)
			bind(&c, res, MKF_RULE_RETYPE, b->fn, MKF_PROTO_RETYPE);
		else if (m > c.n && check_extend(&c, b) == CHECK_OK)
			bind(&c, res, MKF_RULE_EXTEND, b->fn, MKF_PROTO_EXTEND);
		else if (m < c.n && check_shrink(&c, b, bi->fn) == CHECK_OK)
			bind(&c, res, MKF_RULE_SHRINK, b->fn, MKF_PROTO_SHRINK);
	}

	/* Rules impl-extend, impl-same: B_impl. */
	classify_candidate(res, bi);
	if (res->decision != MKF_DECISION_BIND && bi->state == MKF_CAND_CALLABLE) {
		m = mkf_proto_vlen(bi->fn->btf, bi->fn->proto);
		if (m > c.n && check_extend(&c, bi) == CHECK_OK)
			bind(&c, res, MKF_RULE_IMPL_EXTEND, bi->fn, MKF_PROTO_EXTEND);
		else if (m == c.n && (chk = check_same(&c, bi)) == CHECK_OK)
			bind(&c, res, MKF_RULE_IMPL_SAME, bi->fn, MKF_PROTO_SAME);
		else if (m == c.n && chk == CHECK_RETYPE)
			bind(&c, res, MKF_RULE_IMPL_RETYPE, bi->fn, MKF_PROTO_RETYPE);
		else if (m < c.n)
			bi->misfit = MKF_MISFIT_IMPL_FEWER;
	}

	/*
	 * Rule none. Where plain libbpf binds an untagged function by
	 * itself, the extern stays as it takes it: refusing a strong
	 * extern or hiding a weak one could stop or change a program that
	 * loads without the library, on a kernel whose pahole left kfuncs
	 * untagged.
	 */
	if (res->decision != MKF_DECISION_BIND) {
		res->rule = MKF_RULE_NONE;
		res->change = MKF_PROTO_SAME;
		if (res->libbpf == MKF_LIBBPF_BINDS_UNTAGGED)
			res->decision = MKF_DECISION_LEAVE;
		else
			res->decision = ext->weak ? MKF_DECISION_LEAVE_WEAK : MKF_DECISION_UNRESOLVED;
	}
	return 0;
}

void mkf_resolution_free(struct mkf_resolution *res)
{
	free(res->names);
	memset(res, 0, sizeof(*res));
}
