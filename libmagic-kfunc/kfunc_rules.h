/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Rules about one kernel function that both the resolver (resolve.c)
 * and the kernel's kfunc classification (kfuncs.c) apply, so that the
 * two never disagree: whether a prototype is another one plus
 * verifier-provided parameters, and the shape of a KF_IMPLICIT_ARGS
 * kfunc in BTF made by a pahole without kfunc tags. Answers are data;
 * the words for them are the reasons' (reason.c).
 */
#ifndef MKF_KFUNC_RULES_H
#define MKF_KFUNC_RULES_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "kernel_index.h"

#define MKF_IMPL_SUFFIX "_impl"

/* Whether NAME ends in "_impl" (and is more than that). */
bool mkf_is_impl_name(const char *name);

/* Parameters of FUNC_PROTO proto in btf, or -1 if it is none. */
int mkf_proto_vlen(const struct btf *btf, __u32 proto);
/* Name of parameter i (0-based) of fn's prototype, "" if it has none. */
const char *mkf_func_param_name(const struct mkf_func *fn, int i);

/* Why a kernel prototype does not extend the program's. */
enum mkf_extend_misfit {
	MKF_EXTEND_FITS = 0,
	MKF_EXTEND_NOT_LONGER,		/* it takes no more params than the program's */
	MKF_EXTEND_PREFIX_DIFFERS,	/* its first n params differ from the program's */
	MKF_EXTEND_NOT_PROVIDED,	/* param `param` is not verifier-provided */
};

struct mkf_extension {
	enum mkf_extend_misfit misfit;
	int param;	/* MKF_EXTEND_NOT_PROVIDED: that param (0-based) */
	/* The first extra param the verifier checks as a scalar, or -1. */
	int scalar;
	/* Every extra param is known by its type only. */
	bool by_type;
};

/*
 * The extension rule (resolver rules extend and impl-extend, the
 * kernel's pairs): whether fn's prototype is the return type and first
 * n params of lproto (in lb) followed only by verifier-provided params,
 * the first n compatible by libbpf's rules. *x says why not, or what
 * the extra params are. true or false.
 */
bool mkf_proto_extends(const struct btf *lb, __u32 lproto, int n, const struct mkf_func *fn,
		       struct mkf_extension *x);

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

/* The first of the trailing verifier-provided params of an unsplit FN. */
int mkf_func_unsplit_first(const struct mkf_func *fn);

#endif
