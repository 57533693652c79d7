// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * P2 and P3 of "make bench": the same work written with the magic kfunc
 * bpf_wq_set_callback(wq, cb, flags) and with its full-prototype twin
 * bpf_wq_set_callback_impl(wq, cb, flags, NULL), on our patched 6.12.
 *
 * verify_*: 256 calls, for the verifier's "verification time" (P2).
 * call_*:   CALLS_PER_RUN calls per run, for BPF_PROG_TEST_RUN with a
 *           large repeat count (P3). call_magic_twin is call_magic
 *           again: the two differ only in where the kernel puts their
 *           code, which gives the noise floor of the comparison.
 *
 * The two programs of each pair differ only in the name of the kfunc
 * called, so any difference in cost is the magic kfunc's.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: only the patched 6.12 runs it */
/* The _impl twin as the patched 6.12 declares it: stock 6.12's prototype. */
#define MKF_COMPAT_IMPL
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "../tests/bpf/bpf_test.h"

#define X4(s)	s s s s
#define X16(s)	X4(X4(s))
#define X256(s)	X16(X16(s))

/* Calls per test run: enough for the kfunc calls to dominate the run. */
#define CALLS_PER_RUN 16

static int cost_cb(void *map, int *key, void *value)
{
	return 0;
}

/* wqs[0]'s bpf_wq, initialised on first use (later inits say -EBUSY). */
static __always_inline struct bpf_wq *cost_wq(void)
{
	__u32 key = 0;
	struct wq_elem *e = bpf_map_lookup_elem(&wqs, &key);

	if (!e)
		return NULL;
	bpf_wq_init(&e->wq, &wqs, 0);
	return &e->wq;
}

#define MAGIC_CALL	(err |= bpf_wq_set_callback(wq, cost_cb, 0));
#define IMPL_CALL	(err |= bpf_wq_set_callback_impl(wq, cost_cb, 0, NULL));

/* One program: TIMES(CALL) on wqs[0]'s bpf_wq; 0 when every call succeeded. */
#define COST_PROG(sec, name, ctx_type, times, call)	\
SEC(sec)						\
int name(ctx_type ctx)					\
{							\
	struct bpf_wq *wq = cost_wq();			\
	int err = 0;					\
							\
	if (!wq)					\
		return 1;				\
	times(call)					\
	return err;					\
}

COST_PROG("syscall", verify_magic, void *, X256, MAGIC_CALL)
COST_PROG("syscall", verify_impl, void *, X256, IMPL_CALL)
COST_PROG("tc", call_magic, struct __sk_buff *, X16, MAGIC_CALL)
COST_PROG("tc", call_impl, struct __sk_buff *, X16, IMPL_CALL)
COST_PROG("tc", call_magic_twin, struct __sk_buff *, X16, MAGIC_CALL)

char LICENSE[] SEC("license") = "GPL";
