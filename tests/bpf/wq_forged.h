/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Programs that pass something other than NULL as the prog aux argument
 * of bpf_wq_set_callback_impl (declared by wq_impl.h, either way): a real
 * kernel pointer of the wrong kind (the bpf_wq in the map value), and a
 * made-up address. The verifier must replace it with the calling
 * program's own aux: the kernel takes a reference on aux->prog and
 * bpf_wq_start() needs it, so a forged value that got through would make
 * the program return an error or crash the guest instead of running the
 * callback, whose marker says which program it belongs to.
 */
#ifndef MKF_TESTS_BPF_WQ_FORGED_H
#define MKF_TESTS_BPF_WQ_FORGED_H

#include "wq_impl.h"

static int forged_ptr_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_FORGED_PTR);
}

static int forged_scalar_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_FORGED_SCALAR);
}

/* The map value holding the bpf_wq: no struct bpf_prog_aux there. */
SEC("syscall")
int forged_ptr(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (bpf_wq_set_callback_impl(wq, forged_ptr_cb, 0, (wq_aux_t)wq))
		return WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

/* A non-canonical address: any dereference of it faults. */
SEC("syscall")
int forged_scalar(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (bpf_wq_set_callback_impl(wq, forged_scalar_cb, 0, (wq_aux_t)0xdead00000000beefULL))
		return WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

#endif
