// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Print from BPF into the program's own stdout stream, for user space to
 * read back. Written for the 7.x API (4-argument bpf_stream_vprintk,
 * through bpf_stream_printk()); libmagic-kfunc makes the same object run
 * on 6.17 (5-argument form) and 6.18/6.19 (_impl form).
 */
#include "../common/example.bpf.h"

struct greeting {
	__u32 run;
	__u32 value;
};

SEC("syscall")
int greet(struct greeting *g)
{
	if (!mkf_stream_vprintk_exists())
		return EXAMPLE_RET_UNSUPPORTED;
	if (bpf_stream_printk(BPF_STDOUT, "run %u: %u squared is %u\n", g->run, g->value,
			      g->value * g->value))
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
