// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * tests/vm/vm-test's object whose load waits for RCU readers: libbpf
 * puts inner into outer's slot with a map update, and an update of a
 * map of maps from user space waits for a grace period
 * (synchronize_rcu()). A task still inside an RCU read-side section
 * (vm-rcu-leak.bpf.c) would wait for itself there.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct inner_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct inner_map);
} outer SEC(".maps") = {
	.values = { &inner },
};

SEC("xdp")
int after_leak(struct xdp_md *ctx)
{
	return bpf_map_lookup_elem(&outer, &(__u32){ 0 }) ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
