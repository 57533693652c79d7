/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The resolver: one kfunc extern + the kernel index -> one decision
 * (docs/design.md, section 3; the rules are enum mkf_rule, first match wins). Pure: reads BTF
 * already in memory, no I/O, no logging.
 */
#ifndef MKF_RESOLVE_H
#define MKF_RESOLVE_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "magic_kfunc.h"
#include "strbuf.h"
#include "kernel_index.h"
#include "libbpf_model.h"
#include "object.h"

struct mkf_resolution {
	enum mkf_decision decision;
	enum mkf_rule rule;			/* MKF_RULE_NONE: left alone */
	const struct mkf_func *target;		/* bound FUNC, else NULL */
	enum mkf_proto_change change;
	/*
	 * Params appended (> 0) or dropped (< 0). Appended params are
	 * target's parameters [n, n + delta) of its own prototype, n
	 * being the program's parameter count.
	 */
	int delta;
	/* Registers (bit N: RN) the rewrite sets to 0 before each call:
	 * verifier-checked scalars among the appended params. */
	__u32 set_regs;
	enum mkf_libbpf_outcome libbpf;		/* what plain libbpf would do */
	/*
	 * Bound, and plain libbpf looking up the extern's own name (flavor
	 * stripped or not, as it does) finds target: the name stays.
	 */
	bool keep_name;
	char *reason;				/* malloc'd, never NULL on success */
};

/* 0 on success (whatever the decision), negative errno on failure. */
int mkf_resolve(const struct mkf_kernel *kernel, const struct btf *local_btf,
		const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
		struct mkf_resolution *res);
void mkf_resolution_free(struct mkf_resolution *res);

/*
 * Look up, in one scan of the kernel, every name mkf_resolve() will ask
 * for these externs. Only a matter of speed: 0 or -ENOMEM.
 */
int mkf_resolve_prefetch(const struct mkf_kernel *kernel, const struct mkf_extern *exts,
			 size_t cnt, const struct mkf_libbpf_model *lbm);

/*
 * The extension rule, shared by the resolver (rules extend and
 * impl-extend) and the kernel's kfunc classification (pairs): whether
 * fn's prototype is the return type and first n params of lproto (in
 * lb) followed only by verifier-provided params, the first n
 * compatible by libbpf's rules. *scalar: the first of the extra params
 * that the verifier checks as a scalar, or -1; *by_type: all extra ones
 * are known by their type only. why (optional) gets the reason it does
 * not. 1 or 0.
 */
/*
 * FN has the shape a 7.x kernel built by a pahole without kfunc tags
 * gives a KF_IMPLICIT_ARGS kfunc: callable, not an _impl, its trailing
 * parameters verifier-provided by their type alone (struct bpf_prog_aux *,
 * struct btf_struct_meta *), and no FN_impl in its BTF. Such a kernel's
 * verifier takes the full prototype of the kfunc from FN_impl, and
 * refuses every call to FN: no program can call it there. Returns the
 * number of those parameters, 0 if FN is not unsplit.
 */
int mkf_func_unsplit(const struct mkf_func *fn);

int mkf_proto_extends(const struct btf *lb, __u32 lproto, int n, const struct mkf_func *fn,
		      struct mkf_sb *why, int *scalar, bool *by_type);

#endif
