// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Written for 6.10 - 6.19: the _impl form, NULL for the verifier-provided argument. */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: the _impl must be resolved */
#define MKF_COMPAT_IMPL		/* the 6.x _impl, "void *aux__ign" last */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"

static int wq_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("tc")
int set_wq(void *ctx)
{
	struct bpf_wq *wq = wq_lookup();

	if (!wq)
		return 0;
	return bpf_wq_set_callback_impl(wq, wq_cb, 0, (void *)0);
}

char LICENSE[] SEC("license") = "GPL";
