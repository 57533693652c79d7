// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Hand-written compat in sched_ext's style: both forms declared weak,
 * chosen with bpf_ksym_exists(), plus a flavored 6.17-style extern.
 */
#include "kf_wq.h"

extern int bpf_wq_set_callback(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
			       unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				    unsigned int flags, void *aux__ign) __weak __ksym;
extern int bpf_stream_vprintk___v617(int stream_id, const char *fmt, const void *args,
				     __u32 len, void *aux__prog) __weak __ksym;

static int wq_cb(void *map, int *key, void *value)
{
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
	if (bpf_ksym_exists(bpf_wq_set_callback_impl))
		return bpf_wq_set_callback_impl(&e->wq, wq_cb, 0, (void *)0);
	return 1;
}

SEC("tc")
int say(void *ctx)
{
	static const char fmt[] = "hello";

	if (bpf_ksym_exists(bpf_stream_vprintk___v617))
		bpf_stream_vprintk___v617(1, fmt, (void *)0, 0, (void *)0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
