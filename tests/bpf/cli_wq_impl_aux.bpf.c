// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * bpf_wq_set_callback_impl declared with 7.x's full prototype (last
 * parameter "struct bpf_prog_aux *"), weak, called with NULL: plain
 * libbpf binds 7.x's prototype-only _impl, which the verifier refuses.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong, as bpf_wq_init() is on every kernel with bpf_wq */
#include <magic-kfunc/bpf_wq.h>
#define WQ_IMPL_STRUCT_AUX
#define WQ_MAPS
#include "bpf_test.h"

/* Weak, unlike bpf_wq_init(). */
#pragma weak bpf_wq_set_callback_impl

static int cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int wq_impl_aux(void *ctx)
{
	struct bpf_wq *wq = wq_prepare(NULL);

	if (!wq || !bpf_ksym_exists(bpf_wq_set_callback_impl))
		return 1;
	return bpf_wq_set_callback_impl(wq, cb, 0, NULL);
}

char LICENSE[] SEC("license") = "GPL";
