// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The old call, bpf_wq_set_callback_impl(wq, cb, flags, NULL), declared
 * the way a vmlinux.h generated from 7.x or from our patched 6.12 spells
 * the _impl entry: with a last "struct bpf_prog_aux *". libbpf accepts it
 * on those kernels, so there it is the verifier that has the last word.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: a kernel without bpf_wq cannot run it */
#include <magic-kfunc/bpf_wq.h>
#define WQ_IMPL_STRUCT_AUX
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"

static int wq_impl_aux_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_IMPL_AUX);
}

SEC("syscall")
int wq_impl_aux(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (bpf_wq_set_callback_impl(wq, wq_impl_aux_cb, 0, NULL))
		return WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
