// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A program written for Linux 7.x: the prog aux argument is implicit, so
 * it calls bpf_wq_set_callback(wq, cb, flags) with three arguments.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: a kernel without bpf_wq cannot run it */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"

static int wq_new_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_NEW);
}

SEC("syscall")
int wq_new(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (bpf_wq_set_callback(wq, wq_new_cb, 0))
		return WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
