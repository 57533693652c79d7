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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf_util.h"
#include "btf_compat.h"
#include "libbpf_model.h"
#include "params.h"
#include "resolve.h"
#include "strbuf.h"

#define IMPL_SUFFIX "_impl"

enum check {
	CHECK_NO = 0,
	CHECK_OK = 1,
	/* Compatible but for the types of verifier-provided params. */
	CHECK_RETYPE = 2,
};

struct ctx {
	const struct mkf_kernel *k;
	const struct btf *lb;
	const struct mkf_extern *ext;
	const struct mkf_libbpf_model *lbm;	/* the libbpf that loads the object */
	const struct mkf_func *lb_fn;	/* what it looks up for the extern's name */
	int n;				/* the program's parameter count */
	char *b, *bi;			/* B and B_impl */
	const struct mkf_func *fb, *fi;
	__u32 set_regs;			/* registers to set before each call */
	struct mkf_sb params;		/* the params appended or dropped */
	const struct mkf_func *compat_fn; /* protos_compat()'s last answer */
	bool compat;
};

static int proto_vlen(const struct btf *btf, __u32 proto)
{
	const struct btf_type *t = btf__type_by_id(btf, proto);

	return t && btf_is_func_proto(t) ? btf_vlen(t) : -1;
}

/*
 * libbpf's verdict on the program's prototype against fn's: asked for
 * the plain-libbpf remark and by rule same, most often of the same
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

static void where(const struct mkf_kernel *k, const struct mkf_func *fn, char *buf, size_t sz)
{
	const char *mod = fn->module_name;

	(void)k;
	if (mod)
		mkf_snprintf(buf, sz, "module %s [%u]", mod, fn->id);
	else
		mkf_snprintf(buf, sz, "vmlinux [%u]", fn->id);
}

/* "void *aux__prog" for parameter i of a kernel prototype. */
static void param_desc(const struct mkf_func *fn, int i, char *buf, size_t sz)
{
	const struct btf_param *p = btf_params(btf__type_by_id(fn->btf, fn->proto)) + i;
	const char *name = btf__name_by_offset(fn->btf, p->name_off);
	char type[128];

	mkf_type_str(fn->btf, p->type, type, sizeof(type));
	mkf_decl_str(type, name, buf, sz);
}

/* Why B was passed over, for the impl-extend and impl-same reasons. */
static const char *b_status(const struct ctx *c)
{
	if (!c->fb)
		return "is not in the kernel";
	if (!mkf_func_callable(c->fb))
		return "is prototype-only";
	return "does not fit";
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

/* Rules same and impl-same: same parameter count and libbpf-compatible. */
static enum check check_same(struct ctx *c, const struct mkf_func *fn, struct mkf_sb *why)
{
	int m = proto_vlen(fn->btf, fn->proto);
	struct mkf_sb diff = {};

	if (m != c->n) {
		mkf_sb_printf(why, "      takes %d params, the program passes %d\n", m, c->n);
		return CHECK_NO;
	}
	if (protos_compat(c, fn))
		return CHECK_OK;
	if (retype_fits(c, fn))
		return CHECK_RETYPE;
	mkf_sb_printf(why, "      prototype incompatible (libbpf's rules):\n");
	if (mkf_proto_prefix_diff(c->lb, c->ext->proto_id, fn->btf, fn->proto, c->n, &diff) > 0)
		mkf_sb_printf(why, "%s", diff.buf);
	mkf_sb_free(&diff);
	return CHECK_NO;
}

int mkf_proto_extends(const struct btf *lb, __u32 lproto, int n, const struct mkf_func *fn,
		      struct mkf_sb *why, int *scalar, bool *by_type)
{
	int m = proto_vlen(fn->btf, fn->proto), i;
	struct mkf_sb diff = {};
	char desc[192];

	*scalar = -1;
	*by_type = true;
	if (m <= n)
		return 0;
	if (mkf_proto_prefix_diff(lb, lproto, fn->btf, fn->proto, n, why ? &diff : NULL) > 0) {
		if (why)
			mkf_sb_printf(why, "      takes %d params; its first %d differ from the "
				      "program's:\n%s", m, n, diff.buf);
		mkf_sb_free(&diff);
		return 0;
	}
	for (i = n; i < m; i++) {
		struct mkf_param_info info = mkf_func_param_info(fn, i);

		if (info.kind == MKF_PARAM_NORMAL) {
			if (why) {
				param_desc(fn, i, desc, sizeof(desc));
				mkf_sb_printf(why, "      takes %d params; param %d '%s' is not "
					      "verifier-provided: the program would have to pass it\n",
					      m, i + 1, desc);
			}
			return 0;
		}
		if (info.kind == MKF_PARAM_CHECKED_SCALAR && *scalar < 0)
			*scalar = i;
		*by_type = *by_type && info.by_type;
	}
	return 1;
}

static const char *param_name(const struct mkf_func *fn, int i)
{
	const struct btf_type *proto = btf__type_by_id(fn->btf, fn->proto);

	return btf__name_by_offset(fn->btf, btf_params(proto)[i].name_off) ?: "";
}

/* The verifier-provided trailing params of an unsplit FN, for messages. */
static const char *unsplit_params(const struct mkf_func *fn, struct mkf_sb *sb)
{
	int n = proto_vlen(fn->btf, fn->proto), i;
	char desc[192];

	mkf_sb_free(sb);
	i = n - 1;
	if (i > 0 && !strcmp(param_name(fn, i), "off"))
		i--;
	for (; i > 0; i--)
		if (mkf_func_param_info(fn, i - 1).kind == MKF_PARAM_NORMAL)
			break;
	for (; i < n; i++) {
		param_desc(fn, i, desc, sizeof(desc));
		mkf_sb_printf(sb, "%s'%s'", sb->buf ? ", " : "", desc);
	}
	return sb->buf ? sb->buf : "params";
}

static int func_unsplit(const struct mkf_func *fn, int *err)
{
	int n = proto_vlen(fn->btf, fn->proto), i, provided = 0;
	size_t len = strlen(fn->name);
	char impl[512];	/* longer than any kernel symbol (KSYM_NAME_LEN) */

	*err = 0;
	if (!mkf_func_callable(fn) || (len > 5 && !strcmp(fn->name + len - 5, "_impl")) ||
	    len + sizeof("_impl") > sizeof(impl))
		return 0;
	i = n - 1;
	/*
	 * The 7.1 list and rbtree insertions end in "struct btf_struct_meta
	 * *meta, u64 off": the offset goes with the meta.
	 */
	if (i > 0 && !strcmp(param_name(fn, i), "off") &&
	    mkf_func_param_info(fn, i - 1).by_type) {
		i--;
		provided++;
	}
	for (; i >= 0; i--) {
		struct mkf_param_info info = mkf_func_param_info(fn, i);

		if (info.kind == MKF_PARAM_NORMAL)
			break;
		if (!info.by_type)
			return 0;
		provided++;
	}
	if (!provided)
		return 0;
	mkf_snprintf(impl, sizeof(impl), "%s_impl", fn->name);
	return mkf_kernel_find_err(fn->kernel, impl, err) ? 0 : provided;
}

/*
 * Asked of the same kernel functions for every object planned against
 * a kernel: the answer is kept with the function (a const kernel may
 * be shared by threads: an atomic memo, never one made on an error;
 * mkf_kernel_add_module() forgets them all).
 */
int mkf_func_unsplit(const struct mkf_func *fn)
{
	int *memo = &((struct mkf_func *)fn)->unsplit_memo;
	int v = __atomic_load_n(memo, __ATOMIC_RELAXED), err;

	if (v)
		return v - 1;
	v = func_unsplit(fn, &err);
	if (!err)
		__atomic_store_n(memo, v + 1, __ATOMIC_RELAXED);
	return v;
}

/* Rules 2 and 4: the kernel's prototype is P plus verifier-provided params. */
static enum check check_extend(struct ctx *c, const struct mkf_func *fn, struct mkf_sb *why)
{
	int m = proto_vlen(fn->btf, fn->proto), i, scalar;
	bool by_type;
	char desc[192];

	if (!mkf_proto_extends(c->lb, c->ext->proto_id, c->n, fn, why, &scalar, &by_type))
		return CHECK_NO;
	/* Every checked scalar among the extra params: R(i + 1) = 0 first. */
	c->set_regs = 0;
	for (i = scalar; i >= 0 && i < m; i++)
		if (mkf_func_param_info(fn, i).kind == MKF_PARAM_CHECKED_SCALAR)
			c->set_regs |= 1u << (i + 1);
	mkf_sb_free(&c->params);
	for (i = c->n; i < m; i++) {
		param_desc(fn, i, desc, sizeof(desc));
		mkf_sb_printf(&c->params, "%s'%s'", i > c->n ? ", " : "", desc);
	}
	return CHECK_OK;
}

/*
 * Rule shrink: B takes fewer params than the program passes. The extra ones
 * are dummies only if the kernel's B_impl (callable or prototype-only)
 * has exactly the program's count and marks them verifier-provided.
 */
static enum check check_shrink(struct ctx *c, struct mkf_sb *why)
{
	const struct mkf_func *fb = c->fb, *fi = c->fi;
	int m = proto_vlen(fb->btf, fb->proto), mi, i;
	struct mkf_sb diff = {};
	char desc[192];

	if (mkf_proto_prefix_diff(c->lb, c->ext->proto_id, fb->btf, fb->proto, m, &diff) > 0) {
		mkf_sb_printf(why, "      takes %d params; they differ from the program's first %d:\n%s",
			  m, m, diff.buf);
		mkf_sb_free(&diff);
		return CHECK_NO;
	}
	mkf_sb_free(&diff);
	if (!fi) {
		mkf_sb_printf(why, "      takes %d params, the program passes %d; no '%s' in the kernel "
			  "tells whether the extra ones are dummies\n", m, c->n, c->bi);
		return CHECK_NO;
	}
	mi = proto_vlen(fi->btf, fi->proto);
	if (mi != c->n) {
		mkf_sb_printf(why, "      takes %d params, the program passes %d, and '%s' takes %d: "
			  "the extra ones cannot be matched\n", m, c->n, c->bi, mi);
		return CHECK_NO;
	}
	mkf_sb_free(&c->params);
	for (i = m; i < c->n; i++) {
		struct mkf_param_info info = mkf_func_param_info(fi, i);

		param_desc(fi, i, desc, sizeof(desc));
		if (info.kind == MKF_PARAM_NORMAL) {
			mkf_sb_printf(why, "      takes %d params, the program passes %d, but '%s' param %d "
				  "'%s' is not verifier-provided: the program's value would be lost\n",
				  m, c->n, c->bi, i + 1, desc);
			return CHECK_NO;
		}
		mkf_sb_printf(&c->params, "%s'%s'", i > m ? ", " : "", desc);
	}
	return CHECK_OK;
}

static void explain_missing(struct ctx *c, const char *name, const struct mkf_func *fn,
			    struct mkf_sb *why)
{
	char loc[96];

	if (!fn) {
		mkf_sb_printf(why, "  - '%s': not in vmlinux or module BTF\n", name);
		return;
	}
	where(c->k, fn, loc, sizeof(loc));
	mkf_sb_printf(why, "  - '%s' (%s): prototype-only, no DECL_TAG \"bpf_kfunc\": "
		  "the verifier refuses calls to it\n", name, loc);
}

/*
 * What plain libbpf (c->lbm) does with the extern as it is: looks its
 * name up (without its last ___flavor from 1.3 on) and checks the
 * prototype.
 */
static void libbpf_remark(struct ctx *c, struct mkf_resolution *res, struct mkf_sb *out)
{
	const char *lbv = mkf_libbpf_model_str(c->lbm);
	const struct mkf_func *fn = c->lb_fn;
	struct mkf_sb diff = {};
	int m, common;

	if (!fn) {
		res->libbpf = MKF_LIBBPF_NOT_FOUND;
		mkf_sb_printf(out, "  plain libbpf (%s): '%.*s' is not in the kernel's BTF: %s\n", lbv,
			      (int)mkf_libbpf_lookup_len(c->lbm, c->ext->name), c->ext->name,
			      c->ext->weak ? "the weak extern resolves to 0" : "loading fails");
		return;
	}
	if (protos_compat(c, fn)) {
		bool unsplit = mkf_func_unsplit(fn);

		res->libbpf = mkf_func_callable(fn) && !unsplit ? MKF_LIBBPF_BINDS
								: MKF_LIBBPF_BINDS_UNCALLABLE;
		if (unsplit)
			mkf_sb_printf(out, "  plain libbpf (%s): binds '%s'; the verifier refuses the "
				      "call (no '%s_impl' in this kernel's BTF)\n", lbv, fn->name,
				      fn->name);
		else if (res->libbpf == MKF_LIBBPF_BINDS_UNCALLABLE)
			mkf_sb_printf(out, "  plain libbpf (%s): binds prototype-only '%s'; the "
				      "verifier refuses the call\n", lbv, fn->name);
		return;
	}
	if (c->ext->weak && c->lbm->weak_mismatch_drops) {
		res->libbpf = MKF_LIBBPF_DROPPED;
		mkf_sb_printf(out, "  plain libbpf (%s): func_proto of '%s' incompatible with the "
			      "kernel's: the weak extern is dropped and resolves to 0\n", lbv,
			      fn->name);
	} else {
		res->libbpf = MKF_LIBBPF_INCOMPATIBLE;
		mkf_sb_printf(out, "  plain libbpf (%s): func_proto of '%s' incompatible with the "
			      "kernel's: it refuses the whole object%s\n", lbv, fn->name,
			      c->ext->weak ? " although the extern is weak (1.3 and later drop it)"
					   : "");
	}
	m = proto_vlen(fn->btf, fn->proto);
	common = m < c->n ? m : c->n;
	if (m != c->n)
		mkf_sb_printf(out, "      kernel takes %d params, the program passes %d\n", m, c->n);
	if (common >= 0 &&
	    mkf_proto_prefix_diff(c->lb, c->ext->proto_id, fn->btf, fn->proto, common, &diff) > 0)
		mkf_sb_printf(out, "%s", diff.buf);
	mkf_sb_free(&diff);
}

static void bind(struct ctx *c, struct mkf_resolution *res, enum mkf_rule rule,
		 const struct mkf_func *fn, enum mkf_proto_change change, struct mkf_sb *r)
{
	char loc[96];

	res->decision = MKF_DECISION_BIND;
	res->rule = rule;
	res->target = fn;
	/* Minimal edit: what libbpf finds under the extern's own name is fn. */
	res->keep_name = c->lb_fn == fn;
	res->change = change;
	res->delta = proto_vlen(fn->btf, fn->proto) - c->n;
	where(c->k, fn, loc, sizeof(loc));

	mkf_sb_printf(r, "binds '%s' (%s), rule %s: ", fn->name, loc, mkf_rule_str(rule));
	switch (rule) {
	case MKF_RULE_SAME:
		mkf_sb_printf(r, "callable, prototype compatible");
		break;
	case MKF_RULE_EXTEND:
		mkf_sb_printf(r, "callable, its prototype is the program's plus verifier-provided %s; "
			  "prototype extended", c->params.buf);
		break;
	case MKF_RULE_SHRINK:
		mkf_sb_printf(r, "callable; the program passes %d trailing dummy %s, which '%s' "
			  "marks verifier-provided: %s; prototype shrunk, the extra registers "
			  "are ignored", -res->delta, res->delta == -1 ? "param" : "params",
			  c->bi, c->params.buf);
		break;
	case MKF_RULE_IMPL_EXTEND:
		mkf_sb_printf(r, "'%s' %s; '%s' is the program's prototype plus "
			  "verifier-provided %s; prototype extended", c->b, b_status(c), fn->name,
			  c->params.buf);
		break;
	case MKF_RULE_IMPL_SAME:
		mkf_sb_printf(r, "'%s' %s; '%s' is compatible", c->b, b_status(c), fn->name);
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
	if (c->set_regs && res->change == MKF_PROTO_EXTEND) {
		mkf_sb_printf(r, "; the verifier checks that");
		for (int i = 1; i <= 5; i++)
			if (c->set_regs & (1u << i))
				mkf_sb_printf(r, " R%d", i);
		mkf_sb_printf(r, " hold%s a scalar before it fills in the value, so the rewrite sets "
			      "%s to 0 before every call", (c->set_regs & (c->set_regs - 1)) ? "" : "s",
			      (c->set_regs & (c->set_regs - 1)) ? "them" : "it");
		res->set_regs = c->set_regs;
	}
	if (res->keep_name && strcmp(c->ext->name, fn->name))
		mkf_sb_printf(r, "; the name stays '%s': %s finds '%s' under it", c->ext->name,
			      mkf_libbpf_model_str(c->lbm), fn->name);
	else if (!res->keep_name)
		mkf_sb_printf(r, "; renamed from '%s'", c->ext->name);
	mkf_sb_printf(r, "\n");
}

/* B, the essential name without _impl, and B_impl (both malloc'd). */
static int base_names(const struct mkf_extern *ext, char **b, char **bi)
{
	size_t elen = strlen(ext->essential), slen = strlen(IMPL_SUFFIX);

	if (elen > slen && !strcmp(ext->essential + elen - slen, IMPL_SUFFIX))
		elen -= slen;
	*b = strndup(ext->essential, elen);
	*bi = *b ? malloc(elen + slen + 1) : NULL;
	if (!*bi) {
		free(*b);
		*b = NULL;
		return -ENOMEM;
	}
	memcpy(*bi, *b, elen);
	memcpy(*bi + elen, IMPL_SUFFIX, slen + 1);
	return 0;
}

int mkf_resolve_prefetch(const struct mkf_kernel *kernel, const struct mkf_extern *exts,
			 size_t cnt, const struct mkf_libbpf_model *lbm)
{
	const char **names = calloc(3 * cnt + 1, sizeof(*names));
	char **owned = calloc(3 * cnt + 1, sizeof(*owned));
	size_t i;
	int err = names && owned ? 0 : -ENOMEM;

	/* The names mkf_resolve() asks for: libbpf's view of N, B, B_impl. */
	for (i = 0; i < cnt && !err; i++) {
		err = base_names(&exts[i], &owned[3 * i], &owned[3 * i + 1]);
		owned[3 * i + 2] = strndup(exts[i].name, mkf_libbpf_lookup_len(lbm, exts[i].name));
		if (!err && !owned[3 * i + 2])
			err = -ENOMEM;
		names[3 * i] = owned[3 * i + 2];
		names[3 * i + 1] = owned[3 * i];
		names[3 * i + 2] = owned[3 * i + 1];
	}
	if (!err)
		err = mkf_kernel_prefetch(kernel, names, 3 * cnt);
	for (i = 0; owned && i < 3 * cnt; i++)
		free(owned[i]);
	free(owned);
	free(names);
	return err;
}

int mkf_resolve(const struct mkf_kernel *kernel, const struct btf *local_btf,
		const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
		struct mkf_resolution *res)
{
	struct mkf_sb why_b = {}, why_i = {}, reason = {}, remark = {};
	struct ctx c = { .k = kernel, .lb = local_btf, .ext = ext, .lbm = lbm };
	char *lb_name;
	enum check chk = CHECK_NO;
	char loc[96];
	int m, err = 0;

	memset(res, 0, sizeof(*res));
	c.n = proto_vlen(local_btf, ext->proto_id);
	if (c.n < 0)
		return -EINVAL;

	err = base_names(ext, &c.b, &c.bi);
	if (err)
		goto out;
	c.fb = mkf_kernel_find(kernel, c.b);
	c.fi = mkf_kernel_find(kernel, c.bi);
	lb_name = strndup(ext->name, mkf_libbpf_lookup_len(lbm, ext->name));
	if (!lb_name) {
		err = -ENOMEM;
		goto out;
	}
	c.lb_fn = mkf_kernel_find(kernel, lb_name);
	free(lb_name);
	libbpf_remark(&c, res, &remark);

	/* Rules same, extend, shrink: B. Its parameter count picks the only one that can apply. */
	if (c.fb && mkf_func_unsplit(c.fb)) {
		where(kernel, c.fb, loc, sizeof(loc));
		mkf_sb_printf(&why_b, "  - '%s' (%s): the old-pahole KF_IMPLICIT_ARGS shape: its "
			      "public prototype still ends in its verifier-provided %s and there is "
			      "no '%s' (BTF made by a pahole without kfunc tags). The verifier of "
			      "such a kernel takes the full prototype from '%s' and refuses every "
			      "call to '%s', whatever the program declares\n", c.b, loc,
			      unsplit_params(c.fb, &c.params), c.bi, c.bi, c.b);
	} else if (c.fb && mkf_func_callable(c.fb)) {
		m = proto_vlen(c.fb->btf, c.fb->proto);
		where(kernel, c.fb, loc, sizeof(loc));
		mkf_sb_printf(&why_b, "  - '%s' (%s), callable:\n", c.b, loc);
		if (m == c.n && (chk = check_same(&c, c.fb, &why_b)) == CHECK_OK)
			bind(&c, res, MKF_RULE_SAME, c.fb, MKF_PROTO_SAME, &reason);
		else if (m == c.n && chk == CHECK_RETYPE)
			bind(&c, res, MKF_RULE_RETYPE, c.fb, MKF_PROTO_RETYPE, &reason);
		else if (m > c.n && check_extend(&c, c.fb, &why_b) == CHECK_OK)
			bind(&c, res, MKF_RULE_EXTEND, c.fb, MKF_PROTO_EXTEND, &reason);
		else if (m < c.n && check_shrink(&c, &why_b) == CHECK_OK)
			bind(&c, res, MKF_RULE_SHRINK, c.fb, MKF_PROTO_SHRINK, &reason);
	} else {
		explain_missing(&c, c.b, c.fb, &why_b);
	}

	/* Rules impl-extend, impl-same: B_impl. */
	if (res->decision == MKF_DECISION_BIND) {
		/* bound */
	} else if (c.fi && mkf_func_callable(c.fi)) {
		m = proto_vlen(c.fi->btf, c.fi->proto);
		where(kernel, c.fi, loc, sizeof(loc));
		mkf_sb_printf(&why_i, "  - '%s' (%s), callable:\n", c.bi, loc);
		if (m > c.n && check_extend(&c, c.fi, &why_i) == CHECK_OK)
			bind(&c, res, MKF_RULE_IMPL_EXTEND, c.fi, MKF_PROTO_EXTEND, &reason);
		else if (m == c.n && (chk = check_same(&c, c.fi, &why_i)) == CHECK_OK)
			bind(&c, res, MKF_RULE_IMPL_SAME, c.fi, MKF_PROTO_SAME, &reason);
		else if (m == c.n && chk == CHECK_RETYPE)
			bind(&c, res, MKF_RULE_IMPL_RETYPE, c.fi, MKF_PROTO_RETYPE, &reason);
		else if (m < c.n)
			mkf_sb_printf(&why_i, "      takes %d params, fewer than the program's %d: only "
				  "'%s' may drop trailing dummies (rule shrink)\n", m, c.n, c.b);
	} else {
		explain_missing(&c, c.bi, c.fi, &why_i);
	}

	/* Rule none. */
	if (res->decision != MKF_DECISION_BIND) {
		res->rule = MKF_RULE_NONE;
		res->decision = ext->weak ? MKF_DECISION_LEAVE_WEAK : MKF_DECISION_UNRESOLVED;
		if (ext->weak)
			mkf_sb_printf(&reason, "left alone, rule none: no kernel function fits; the weak "
				  "extern resolves to 0 (bpf_ksym_exists() is false)\n");
		else
			mkf_sb_printf(&reason, "unresolved, rule none: no kernel function fits the strong "
				  "extern '%s'; loading will fail\n", ext->name);
		mkf_sb_printf(&reason, "%s%s", why_b.buf ? why_b.buf : "", why_i.buf ? why_i.buf : "");
	}
	if (remark.buf)
		mkf_sb_printf(&reason, "%s", remark.buf);
	res->reason = mkf_sb_steal(&reason);
	if (!res->reason)
		err = -ENOMEM;
out:
	mkf_sb_free(&why_b);
	mkf_sb_free(&why_i);
	mkf_sb_free(&remark);
	mkf_sb_free(&reason);
	mkf_sb_free(&c.params);
	free(c.b);
	free(c.bi);
	if (err)
		mkf_resolution_free(res);
	return err;
}

void mkf_resolution_free(struct mkf_resolution *res)
{
	free(res->reason);
	memset(res, 0, sizeof(*res));
}
