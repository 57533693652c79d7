// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Test input for tests/unit/insn-patch: bpf-to-bpf calls within .text and from
 * program sections (static and global), a bpf_loop() callback, a kfunc
 * call, and loops that keep their backward jumps.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_magic_kf(int x) __ksym __weak;

static __noinline int leaf(int x)
{
	return x * 3 + bpf_get_prandom_u32();
}

__noinline int middle(int x)
{
	int i, s = 0;

#pragma clang loop unroll(disable)
	for (i = 0; i < x && i < 50; i++)
		s += leaf(i) & 7;
	/* Laid out between the call above and leaf(): the call crosses a patch. */
	return s ^ bpf_get_prandom_u32();
}

static long loop_cb(__u32 idx, void *ctx)
{
	int *sum = ctx;

	*sum += idx + (bpf_get_prandom_u32() & 1);
	return *sum > 1000;
}

__noinline int with_cb(int n)
{
	int sum = 0;

	bpf_loop(n, loop_cb, &sum, 0);
	return sum;
}

SEC("tp/sched/sched_switch")
int prog_a(void *ctx)
{
	int s = 0, i;

#pragma clang loop unroll(disable)
	for (i = 0; i < 20; i++) {
		if (bpf_get_prandom_u32() & 1)
			continue;
		s += leaf(i);
	}
	if (bpf_magic_kf)
		s += bpf_magic_kf(s);
	bpf_loop(4, loop_cb, &s, 0);
	return middle(s) + with_cb(s);
}

SEC("kprobe/do_nanosleep")
int prog_b(void *ctx)
{
	int v = bpf_get_smp_processor_id();

	if (v > 3)
		v = middle(v);
	return leaf(v) + (int)bpf_ktime_get_ns();
}

char LICENSE[] SEC("license") = "GPL";
