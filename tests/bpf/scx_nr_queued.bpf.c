// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A sched_ext kfunc that Linux 7.x gives an implicit argument, called
 * from a syscall program (sched_ext lets any program of that type call
 * it): scx_bpf_dsq_nr_queued(dsq_id), as every kernel with sched_ext
 * declares it for programs (7.x keeps the full prototype, with a last
 * "const struct bpf_prog_aux *", in a prototype-only _impl twin). The
 * extern is weak and checked with bpf_ksym_exists(), as schedulers do:
 * where the kernel offers nothing callable, the program says so
 * (returns 1) instead of failing to load.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define WQ_RESULT	/* result[] and wq_report(): the count, read back */
#include "bpf_test.h"

/* include/linux/sched/ext.h: SCX_DSQ_FLAG_BUILTIN | 1 */
#define SCX_DSQ_GLOBAL ((1ULL << 63) | 1)

extern __s32 scx_bpf_dsq_nr_queued(__u64 dsq_id) __ksym __weak;

SEC("syscall")
int nr_queued(void *ctx)
{
	if (!bpf_ksym_exists(scx_bpf_dsq_nr_queued))
		return 1;
	/* The count, or a negative errno without a scheduler: ran. */
	return wq_report((__u32)scx_bpf_dsq_nr_queued(SCX_DSQ_GLOBAL));
}

char LICENSE[] SEC("license") = "GPL";
