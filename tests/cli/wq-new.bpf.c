// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Written for Linux 7.x: bpf_wq_set_callback(wq, cb, flags), the prog
 * aux argument implicit. Weak, guarded by bpf_ksym_exists().
 */
#include "cli_bpf.h"

extern int bpf_wq_set_callback(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
			       unsigned int flags) __weak __ksym;

static int cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int wq_new(void *ctx)
{
	struct bpf_wq *wq = wq_get();

	if (!wq || !bpf_ksym_exists(bpf_wq_set_callback))
		return 1;
	return bpf_wq_set_callback(wq, cb, 0);
}

char LICENSE[] SEC("license") = "GPL";
