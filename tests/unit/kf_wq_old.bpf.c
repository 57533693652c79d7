// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Written for 6.10 - 6.19: the _impl form, NULL for the verifier-provided argument. */
#include "kf_wq.h"

extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				    unsigned int flags, void *aux__ign) __ksym;

static int wq_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("tc")
int set_wq(void *ctx)
{
	struct elem *e = wq_elem();

	if (!e)
		return 0;
	return bpf_wq_set_callback_impl(&e->wq, wq_cb, 0, (void *)0);
}

char LICENSE[] SEC("license") = "GPL";
