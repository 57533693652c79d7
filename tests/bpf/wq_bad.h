/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Programs the verifier must refuse at the set-callback call, whatever
 * the calling style: the including file declares its kfunc and defines
 * WQ_SET_CALLBACK(wq, cb) first. Both init the bpf_wq correctly, so that
 * the set-callback call is the first one with a bad argument.
 */
#ifndef MKF_TESTS_BPF_WQ_BAD_H
#define MKF_TESTS_BPF_WQ_BAD_H

#include "wq.h"

static int wq_bad_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_BAD);
}

/* The first argument points to the stack, not to a map value. */
SEC("syscall")
int bad_arg(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (WQ_SET_CALLBACK((struct bpf_wq *)&wq, wq_bad_cb))
		return WQ_ERR_SET;
	return 0;
}

/* The first argument points into the map value, one byte past the bpf_wq. */
SEC("syscall")
int misaligned(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (WQ_SET_CALLBACK((struct bpf_wq *)((char *)wq + 1), wq_bad_cb))
		return WQ_ERR_SET;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

#endif
