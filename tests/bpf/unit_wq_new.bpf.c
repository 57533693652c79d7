// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Written for 7.x: the short forms, no verifier-provided arguments, as
 * the public header declares them (weak).
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#include <magic-kfunc/bpf_wq.h>
#include <magic-kfunc/bpf_stream.h>
#define WQ_MAPS
#include "bpf_test.h"

int calls;

static int wq_cb(void *map, int *key, void *value)
{
	calls++;
	return 0;
}

SEC("tc")
int set_wq(void *ctx)
{
	struct bpf_wq *wq = wq_lookup();

	if (!wq)
		return 0;
	if (bpf_ksym_exists(bpf_wq_set_callback))
		return bpf_wq_set_callback(wq, wq_cb, 0);
	return 1;
}

SEC("tc")
int say(void *ctx)
{
	static const char fmt[] = "calls %d";
	__u64 args[1] = { calls };

	if (bpf_ksym_exists(bpf_stream_vprintk))
		bpf_stream_vprintk(1, fmt, args, sizeof(args));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
