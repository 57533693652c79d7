// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A .struct_ops variable, for tests/malformed: libbpf 1.1 copies each
 * struct_ops variable out of .struct_ops without checking that it lies
 * inside, so the reader refuses one that does not (obj_check.c). Its
 * program calls the 6.x _impl, which the rewrite renames on 7.x.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: the _impl must be resolved */
#define MKF_COMPAT_IMPL		/* the 6.x _impl, "void *aux__ign" last */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"

/* The kernel's bpf_dummy_ops (net/bpf/bpf_dummy_struct_ops.c), in part. */
struct bpf_dummy_ops_state {
	int val;
};

struct bpf_dummy_ops {
	int (*test_1)(struct bpf_dummy_ops_state *cb);
	int (*test_sleepable)(struct bpf_dummy_ops_state *cb);
};

static int wq_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("struct_ops/test_1")
int test_1(unsigned long long *ctx)
{
	struct bpf_wq *wq = wq_lookup();

	if (!wq)
		return 0;
	return bpf_wq_set_callback_impl(wq, wq_cb, 0, (void *)0);
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_ops = {
	.test_1 = (void *)test_1,
};

char LICENSE[] SEC("license") = "GPL";
