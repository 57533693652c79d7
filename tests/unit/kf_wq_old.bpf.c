// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Written for 6.10 - 6.19: the _impl form, NULL for the verifier-provided argument. */
#include "kf_bpf.h"

extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				    unsigned int flags, void *aux__ign) __ksym;

struct elem {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wq_map SEC(".maps");

static int wq_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("tc")
int set_wq(void *ctx)
{
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&wq_map, &key);

	if (!e)
		return 0;
	return bpf_wq_set_callback_impl(&e->wq, wq_cb, 0, (void *)0);
}

char LICENSE[] SEC("license") = "GPL";
