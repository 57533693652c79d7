/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The kernel's kfuncs with verifier-provided parameters (kfuncs.c). */
#ifndef MKF_KFUNCS_H
#define MKF_KFUNCS_H

#include <stddef.h>

#include "kernel_index.h"

/* A kfunc with verifier-provided parameters (see magic_kfunc.h). */
struct mkf_kfunc {
	enum mkf_kfunc_shape shape;
	const struct mkf_func *func;	/* named after the kfunc */
	const struct mkf_func *impl;	/* a pair's foo_impl, else NULL */
	int provided;			/* trailing provided params of the full one */
};

/* The classification, made once and published atomically in kernel->kfuncs. */
struct mkf_kfunc_list {
	struct mkf_kernel_memo memo;	/* first: the kernel frees it through this */
	struct mkf_kfunc *kfuncs;
	size_t cnt;
};

/* The classification, computed on first use; NULL with errno set. */
const struct mkf_kfunc_list *mkf_kernel_kfuncs(const struct mkf_kernel *k);

#endif
