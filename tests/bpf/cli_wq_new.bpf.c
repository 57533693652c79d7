// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Written for Linux 7.x: bpf_wq_set_callback(wq, cb, flags), the prog
 * aux argument implicit. Weak, guarded by bpf_ksym_exists().
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong, as bpf_wq_init() is on every kernel with bpf_wq */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"

/* Weak, unlike bpf_wq_init(): 6.x has no such kfunc. */
#pragma weak bpf_wq_set_callback

static int cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int wq_new(void *ctx)
{
	struct bpf_wq *wq = wq_prepare(NULL);

	if (!wq || !bpf_ksym_exists(bpf_wq_set_callback))
		return 1;
	return bpf_wq_set_callback(wq, cb, 0);
}

char LICENSE[] SEC("license") = "GPL";
