// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Test input for tests/unit/insn-patch: CO-RE field accesses (through
 * __builtin_preserve_access_index), helper calls between them, a loop,
 * a subprogram and a callback in .text.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct mkf_task {
	int pid;
	int tgid;
	struct mkf_task *parent;
	unsigned long flags;
	char comm[16];
} __attribute__((preserve_access_index));

static __noinline int depth(struct mkf_task *t)
{
	int d = 0;

#pragma clang loop unroll(disable)
	for (; d < 16; d++) {
		t = BPF_CORE_READ(t, parent);
		if (!t)
			break;
		if (bpf_get_prandom_u32() == 7)
			break;
	}
	return d;
}

static long each(__u32 idx, void *ctx)
{
	struct mkf_task *t = ctx;

	return BPF_CORE_READ(t, tgid) + idx > 100;
}

SEC("kprobe/wake_up_process")
int core_prog(struct mkf_task *t)
{
	char comm[16];
	int r = 0;

	bpf_probe_read_kernel(comm, sizeof(comm), &t->comm);
	if (bpf_core_field_exists(t->flags))
		r += BPF_CORE_READ(t, flags) & 1;
	r += depth(t);
	bpf_loop(3, each, t, 0);
	r += BPF_CORE_READ(t, parent, pid) + bpf_get_smp_processor_id();
	return r + comm[0];
}

char LICENSE[] SEC("license") = "GPL";
