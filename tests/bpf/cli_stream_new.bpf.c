// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Written for Linux 7.x: a STRONG bpf_stream_vprintk(id, fmt, args,
 * len). Kernels before 6.17 have no such kfunc in any form, so this
 * object is the unresolved case (rewrite refuses, explain exits 3).
 */
#include <linux/bpf.h>
#define __mkf_kfunc __ksym	/* strong: the unresolved case */
#include <magic-kfunc/bpf_stream.h>

SEC("syscall")
int stream_new(void *ctx)
{
	static const char fmt[] = "hello\n";

	return bpf_stream_vprintk(1, fmt, 0, 0);
}

char LICENSE[] SEC("license") = "GPL";
