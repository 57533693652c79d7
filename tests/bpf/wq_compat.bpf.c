// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A kfunc that changed, called the way sched_ext's compat.bpf.h calls
 * its kfuncs: one flavored weak extern per kernel generation, and a
 * static wrapper, named like the kernel function, that picks the one the
 * kernel has. clang 16 and later emit such wrappers out of line; here
 * __noinline does it for every clang. The object then holds a static
 * BTF FUNC and a local symbol named "bpf_wq_set_callback" beside the
 * extern "bpf_wq_set_callback___new", which the library renames to that
 * very name for libbpf 1.1 (1.3 and later strip the flavor themselves).
 *
 * EXTERN_FIRST puts the extern's BTF FUNC before the wrapper's (libbpf
 * takes the first FUNC of a name); without it the wrapper's comes first.
 *
 * Returns 0 when the callback was set and the wq started (the callback
 * then writes WQ_MARK_COMPAT), WQ_NONE when no form of the kfunc exists,
 * else a WQ_ERR_* step.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* bpf_wq_init, bpf_wq_start: strong */
/* The header's bpf_wq_set_callback is the wrapper's name here. */
#define bpf_wq_set_callback mkf_unused_bpf_wq_set_callback
#include <magic-kfunc/bpf_wq.h>
#undef bpf_wq_set_callback
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"

#define WQ_NONE 95

typedef int (*wq_cb_t)(void *map, int *key, void *value);

/* 7.0 and later. */
extern int bpf_wq_set_callback___new(struct bpf_wq *wq, wq_cb_t cb, unsigned int flags)
	__weak __ksym;
/* 6.10 to 6.19, "void *aux__ign" / "void *aux__prog" last. */
extern int bpf_wq_set_callback_impl___old(struct bpf_wq *wq, wq_cb_t cb, unsigned int flags,
					  void *aux) __weak __ksym;

static int wq_compat_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_COMPAT);
}

#ifdef EXTERN_FIRST
/* Refers to the extern before the wrapper is emitted. */
SEC("syscall")
int has_new(void *ctx)
{
	return bpf_ksym_exists(bpf_wq_set_callback___new);
}
#endif

static __noinline int bpf_wq_set_callback(struct bpf_wq *wq, unsigned int flags)
{
	if (bpf_ksym_exists(bpf_wq_set_callback___new))
		return bpf_wq_set_callback___new(wq, wq_compat_cb, flags);
	if (bpf_ksym_exists(bpf_wq_set_callback_impl___old))
		return bpf_wq_set_callback_impl___old(wq, wq_compat_cb, flags, NULL);
	return WQ_NONE;
}

SEC("syscall")
int wq_compat(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	err = bpf_wq_set_callback(wq, 0);
	if (err)
		return err == WQ_NONE ? WQ_NONE : WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
