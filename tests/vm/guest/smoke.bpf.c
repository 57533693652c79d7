// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The smoke test's program: bumps a counter, returns a known value. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} runs SEC(".maps");

SEC("syscall")
int smoke(void *ctx)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&runs, &key);

	if (!n)
		return 1;
	*n += 1;
	return 42;
}

char LICENSE[] SEC("license") = "GPL";
