// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Programs the verifier must refuse at the set-callback call, whatever
 * the calling style. Both init the bpf_wq correctly, so that the
 * set-callback call is the first one with a bad argument. Built once per
 * style (tests/bpf/local.mk):
 *
 *   wq_bad_new.bpf.o       bpf_wq_set_callback(wq, cb, 0) (WQ_STYLE_NEW)
 *   wq_bad_old.bpf.o       bpf_wq_set_callback_impl(wq, cb, 0, NULL),
 *                          declared as 6.10 - 6.19 do ("void *")
 *   wq_bad_impl_aux.bpf.o  the same call, declared as 7.x and our patched
 *                          6.12 do ("struct bpf_prog_aux *",
 *                          WQ_IMPL_STRUCT_AUX)
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: a kernel without bpf_wq cannot run it */
#if !defined(WQ_STYLE_NEW) && !defined(WQ_IMPL_STRUCT_AUX)
#define MKF_COMPAT_IMPL		/* the 6.x _impl, "void *aux__ign" last */
#endif
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"

#ifdef WQ_STYLE_NEW
#define WQ_SET_CALLBACK(wq, cb) bpf_wq_set_callback(wq, cb, 0)
#else
#define WQ_SET_CALLBACK(wq, cb) bpf_wq_set_callback_impl(wq, cb, 0, NULL)
#endif

static int wq_bad_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_BAD);
}

/* The first argument points to the stack, not to a map value. */
SEC("syscall")
int bad_arg(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (WQ_SET_CALLBACK((struct bpf_wq *)&wq, wq_bad_cb))
		return WQ_ERR_SET;
	return 0;
}

/* The first argument points into the map value, one byte past the bpf_wq. */
SEC("syscall")
int misaligned(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (WQ_SET_CALLBACK((struct bpf_wq *)((char *)wq + 1), wq_bad_cb))
		return WQ_ERR_SET;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
