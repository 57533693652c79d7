// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Programs that pass something other than NULL as the prog aux argument
 * of bpf_wq_set_callback_impl: a real kernel pointer of the wrong kind
 * (the bpf_wq in the map value), and a made-up address. The verifier must
 * replace it with the calling program's own aux: the kernel takes a
 * reference on aux->prog and bpf_wq_start() needs it, so a forged value
 * that got through would make the program return an error or crash the
 * guest instead of running the callback, whose marker says which program
 * it belongs to. Built once per declaration of the _impl
 * (tests/bpf/local.mk):
 *
 *   wq_forged.bpf.o      as 6.10 - 6.19 declare it ("void *")
 *   wq_forged_aux.bpf.o  as 7.x and our patched 6.12 do
 *                        ("struct bpf_prog_aux *", WQ_IMPL_STRUCT_AUX)
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: a kernel without bpf_wq cannot run it */
#ifndef WQ_IMPL_STRUCT_AUX
#define MKF_COMPAT_IMPL		/* the 6.x _impl, "void *aux__ign" last */
#endif
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"

/* The _impl's last parameter, for the forged values' casts. */
#ifdef WQ_IMPL_STRUCT_AUX
typedef struct bpf_prog_aux *wq_aux_t;
#else
typedef void *wq_aux_t;
#endif

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
