// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Written for 7.x: the short forms, no verifier-provided arguments. */
#include "kf_wq.h"

extern int bpf_wq_set_callback(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
			       unsigned int flags) __weak __ksym;
extern int bpf_stream_vprintk(int stream_id, const char *fmt, const void *args,
			      __u32 len) __weak __ksym;

int calls;

static int wq_cb(void *map, int *key, void *value)
{
	calls++;
	return 0;
}

SEC("tc")
int set_wq(void *ctx)
{
	struct elem *e = wq_elem();

	if (!e)
		return 0;
	if (bpf_ksym_exists(bpf_wq_set_callback))
		return bpf_wq_set_callback(&e->wq, wq_cb, 0);
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
