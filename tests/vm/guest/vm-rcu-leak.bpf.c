// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * tests/vm/vm-test's object for a program that leaves its task inside
 * an RCU read-side section: a subprogram throws (bpf_throw()) while
 * the caller holds bpf_rcu_read_lock(), and the exception's unwind
 * skips the unlock. The verifiers of 6.16 to 6.18 accept it (the BPF
 * selftests' exceptions_fail, reject_subprog_with_rcu_read_lock, which
 * later kernels refuse); its test run (a packet: len is not 0) throws.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern void bpf_throw(__u64 cookie) __ksym;

static __attribute__((noinline)) int throwing_subprog(struct __sk_buff *ctx)
{
	if (ctx->len)
		bpf_throw(0);
	return 0;
}

SEC("tc")
int leak_rcu(struct __sk_buff *ctx)
{
	bpf_rcu_read_lock();
	throwing_subprog(ctx);
	bpf_rcu_read_unlock();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
