/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Which parameters of a kernel kfunc the verifier provides itself.
 * Decided from the kernel's BTF only: clang records no parameter names
 * for extern declarations, so the program's BTF cannot tell.
 */
#ifndef MKF_PARAMS_H
#define MKF_PARAMS_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "magic_kfunc_introspect.h"

struct mkf_param_info {
	enum mkf_param_kind kind;	/* see magic_kfunc.h */
	enum mkf_param_basis basis;	/* why */
	/* Provided because of its type only (no annotated name). */
	bool by_type;
};

/* Classify parameter idx (0-based) of FUNC_PROTO proto of func_name. */
struct mkf_param_info mkf_param_info(const struct btf *kern_btf, const char *func_name,
				     __u32 proto, int idx);
struct mkf_func;
/* The same for a kernel function, its kernel's bpf_magic decl tags included. */
struct mkf_param_info mkf_func_param_info(const struct mkf_func *fn, int idx);

#endif
