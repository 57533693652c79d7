// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Two names for one kernel function, one of them declared wrongly: the
 * flavored extern is renamed to the name the wrong one keeps.
 */
#include "kf_bpf.h"

extern int bpf_wq_set_callback___good(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				      unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback(long wq, int (*cb)(void *, int *, void *),
			       unsigned int flags) __weak __ksym;

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
	if (bpf_ksym_exists(bpf_wq_set_callback___good))
		return bpf_wq_set_callback___good(&e->wq, wq_cb, 0);
	if (bpf_ksym_exists(bpf_wq_set_callback))
		return bpf_wq_set_callback((long)&e->wq, wq_cb, 0);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
