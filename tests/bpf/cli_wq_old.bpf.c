// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Written for Linux 6.10 - 6.19: bpf_wq_set_callback_impl(wq, cb,
 * flags, NULL), the last argument a dummy the verifier fills in.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong, as bpf_wq_init() is on every kernel with bpf_wq */
#define MKF_COMPAT_IMPL		/* the 6.x _impl, "void *aux__ign" last */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"

static int cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int wq_old(void *ctx)
{
	struct bpf_wq *wq = wq_prepare(NULL);

	if (!wq)
		return 1;
	return bpf_wq_set_callback_impl(wq, cb, 0, NULL);
}

char LICENSE[] SEC("license") = "GPL";
