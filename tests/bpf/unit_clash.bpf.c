// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Two names for one kernel function, one of them declared wrongly: the
 * flavored extern is renamed to the name the wrong one keeps.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#include <magic-kfunc/bpf_common.h>
#define WQ_MAPS
#include "bpf_test.h"

/*
 * Not <magic-kfunc/bpf_wq.h>: its bpf_wq_set_callback() is the right
 * one. Both declared here, weak, as a program mixing styles would.
 */
extern int bpf_wq_set_callback___good(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				      unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback(long wq, int (*cb)(void *, int *, void *),
			       unsigned int flags) __weak __ksym;

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
	if (bpf_ksym_exists(bpf_wq_set_callback___good))
		return bpf_wq_set_callback___good(wq, wq_cb, 0);
	if (bpf_ksym_exists(bpf_wq_set_callback))
		return bpf_wq_set_callback((long)wq, wq_cb, 0);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
