// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Count events in deferred work: each run of count_event() queues a
 * bpf_wq whose callback, later and in a kernel worker, adds one to
 * "count". Written for the 7.x API (bpf_wq_set_callback with three
 * arguments); libmagic-kfunc makes the same object run on 6.10 - 6.19.
 */
#include "../common/example.bpf.h"

/* One bpf_wq per event: a pending work item is not queued twice, so
 * reusing one would lose events. The loader passes the slot to use. */
#define SLOTS 16

struct slot {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOTS);
	__type(key, __u32);
	__type(value, struct slot);
} slots SEC(".maps");

__u64 count;

struct event {
	__u32 slot;
};

static int count_cb(void *map, int *key, void *value)
{
	__sync_fetch_and_add(&count, 1);
	return 0;
}

SEC("syscall")
int count_event(struct event *ev)
{
	__u32 key = ev->slot;
	struct slot *s;

	if (!mkf_wq_set_callback_exists())
		return EXAMPLE_RET_UNSUPPORTED;
	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return 1;
	if (bpf_wq_init(&s->wq, &slots, 0))
		return 2;
	if (mkf_wq_set_callback(&s->wq, count_cb, 0))
		return 3;
	if (bpf_wq_start(&s->wq, 0))
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
