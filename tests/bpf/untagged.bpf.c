// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Whether a call loads depends on the kernel's kfunc sets, not on the
 * bpf_kfunc tags of its BTF (tests/kernel/untagged-test): rcu calls two
 * kfuncs every program type may call (bpf_rcu_read_lock/unlock, in the
 * kfunc set registered for all types), not_kfunc an ordinary kernel
 * function that no kfunc set holds. Given BTF from which one kfunc's
 * tag is gone, the first still loads and the second still does not.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern __u64 ktime_get_mono_fast_ns(void) __ksym;

SEC("syscall")
int rcu(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

SEC("syscall")
int not_kfunc(void *ctx)
{
	return ktime_get_mono_fast_ns() ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";
