// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Written for Linux 6.10 - 6.19: bpf_wq_set_callback_impl(wq, cb,
 * flags, NULL), the last argument a dummy the verifier fills in.
 */
#include "cli_bpf.h"

extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				    unsigned int flags, void *aux__ign) __ksym;

static int cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int wq_old(void *ctx)
{
	struct bpf_wq *wq = wq_get();

	if (!wq)
		return 1;
	return bpf_wq_set_callback_impl(wq, cb, 0, NULL);
}

char LICENSE[] SEC("license") = "GPL";
