// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A BPF program that calls a kfunc with a verifier-provided argument,
 * written once for the Linux 7.x API: bpf_wq_set_callback(wq, cb, flags).
 * Kernels 6.10 - 6.19 offer only bpf_wq_set_callback_impl(wq, cb, flags,
 * aux); opened through libmagic-kfunc, this same object binds to that
 * there (the verifier fills in aux).
 *
 * Each run of kick() queues a bpf_wq whose callback, later and in a
 * kernel worker, adds one to "count".
 */

/* vmlinux.h gives the kernel's types; kfunc prototypes come from
 * <magic-kfunc/bpf_kfuncs.h> (the 7.x forms). A vmlinux.h made by
 * bpftool >= 7.4 declares the kfuncs of its own kernel too: keep those
 * out, they may be the older forms. */
#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <magic-kfunc/bpf_kfuncs.h>

/* One bpf_wq per run: a pending work item is not queued twice. */
#define SLOTS 16

struct app_slot {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOTS);
	__type(key, __u32);
	__type(value, struct app_slot);
} slots SEC(".maps");

__u64 count;

struct app_args {
	__u32 slot;
};

static int on_work(void *map, int *key, void *value)
{
	__sync_fetch_and_add(&count, 1);
	return 0;
}

SEC("syscall")
int kick(struct app_args *args)
{
	__u32 key = args->slot;
	struct app_slot *s;

	/* Where the kernel has no form of the kfunc the extern stays 0. */
	if (!bpf_ksym_exists(bpf_wq_set_callback))
		return 95;	/* EOPNOTSUPP */
	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return 1;
	if (bpf_wq_init(&s->wq, &slots, 0))
		return 2;
	if (bpf_wq_set_callback(&s->wq, on_work, 0))
		return 3;
	if (bpf_wq_start(&s->wq, 0))
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
