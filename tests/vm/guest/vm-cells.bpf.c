// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * tests/vm/vm-test's object for "magic-kfunc vm": one program per kind
 * of cell. pass runs (XDP's test run on a packet), probe loads but has
 * no test run (kprobe), oob is refused by the verifier (it reads past
 * its map value).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

SEC("xdp")
int pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("kprobe/do_nanosleep")
int probe(void *ctx)
{
	return 0;
}

SEC("syscall")
int oob(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &key);

	if (!v)
		return 0;
	return *(volatile __u64 *)((char *)v + 8);
}

char LICENSE[] SEC("license") = "GPL";
