/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpf_wq: deferred work in a kernel worker (6.10 and later).
 *
 * Declared in the 7.x form. Which kernels offer which form (read from
 * the BTF of Debian's kernel images):
 *   6.12:        bpf_wq_set_callback_impl(wq, cb, flags, void *aux__ign) only
 *   6.16 - 6.19: bpf_wq_set_callback_impl(wq, cb, flags, void *aux__prog) only
 *   7.0 - 7.3:   bpf_wq_set_callback(wq, cb, flags); the _impl entry stays
 *                in BTF as a prototype the verifier refuses to call
 *   patched 6.12 (magic-kfunc's series): both, both callable; the _impl
 *                form exactly as stock 6.12 declares it (void *aux__ign)
 * Opened through libmagic-kfunc, a call to bpf_wq_set_callback() is bound
 * to bpf_wq_set_callback_impl() on 6.10 - 6.19 (the aux argument is
 * filled in by the verifier). Without the library it exists only on 7.x.
 */
#ifndef __MAGIC_KFUNC_BPF_WQ_H
#define __MAGIC_KFUNC_BPF_WQ_H

#include "bpf_common.h"

/* Same on every kernel with bpf_wq (6.12 calls the map p__map, 7.3
 * p__const_map: libbpf ignores parameter names). */
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __mkf_kfunc;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __mkf_kfunc;

/* 7.0 (KF_IMPLICIT_ARGS); earlier kernels through libmagic-kfunc. */
extern int bpf_wq_set_callback(struct bpf_wq *wq,
			       int (*callback_fn)(void *map, int *key, void *value),
			       unsigned int flags) __mkf_kfunc;

/*
 * For programs loaded WITHOUT libmagic-kfunc: call the 7.x form where it
 * exists, else the 6.x _impl form with the NULL dummy, as sched_ext's
 * __COMPAT_ macros do. Define MKF_COMPAT_IMPL to get it; it declares
 * bpf_wq_set_callback_impl with 6.x's "void *" last parameter.
 *
 * Limits, measured in QEMU guests with Debian 12's libbpf 1.1
 * (docs/compat-matrix.md): it works on 6.12 - 6.19, but on 7.x libbpf
 * 1.1 refuses the WHOLE object, because the weak _impl extern is
 * "func_proto incompatible" with 7.x's prototype-only
 * _impl(..., struct bpf_prog_aux *) and 1.1 fails instead of dropping a
 * mismatched weak extern (newer libbpf drops it; not measured here). On
 * the patched 6.12 it works as on stock 6.12.
 * Opening the object through libmagic-kfunc needs none of this.
 */
#ifdef MKF_COMPAT_IMPL
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (*callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux__ign) __mkf_kfunc;

#define mkf_wq_set_callback(wq, cb, flags)				\
	(bpf_ksym_exists(bpf_wq_set_callback) ?				\
		bpf_wq_set_callback(wq, cb, flags) :			\
		bpf_wq_set_callback_impl(wq, cb, flags, (void *)0))
#define mkf_wq_set_callback_exists()					\
	mkf_ksym_either_exists(bpf_wq_set_callback, bpf_wq_set_callback_impl)
#else
#define mkf_wq_set_callback(wq, cb, flags) bpf_wq_set_callback(wq, cb, flags)
#define mkf_wq_set_callback_exists() bpf_ksym_exists(bpf_wq_set_callback)
#endif

#endif
