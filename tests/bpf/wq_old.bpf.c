// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A program written for Linux 6.10 - 6.19: it calls
 * bpf_wq_set_callback_impl(wq, cb, flags, NULL), declared with the
 * "void *" last parameter of those kernels.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: a kernel without bpf_wq cannot run it */
/* For the 6.x bpf_wq_set_callback_impl(), "void *aux__ign" last. */
#define MKF_COMPAT_IMPL
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"

static int wq_old_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_OLD);
}

SEC("syscall")
int wq_old(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (bpf_wq_set_callback_impl(wq, wq_old_cb, 0, NULL))
		return WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
