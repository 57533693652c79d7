// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * fentry and fexit programs on magic kfuncs: the module's
 * mkf_testmod_magic() and bpf_wq_set_callback(). Their trampolines must
 * be built from the full prototype, magic arguments included: the
 * programs see every argument (bpf_get_func_arg_cnt() counts them, and
 * mkf_testmod_magic's aux argument is a typed pointer they can read),
 * and the kfunc, called by the fexit trampoline, still receives the real
 * aux.
 *
 * For a kfunc with a legacy form (mkf_testmod_legacy, bpf_wq_set_callback)
 * calls of either name run the legacy function: programs attached to the
 * new name and to the _impl name at the same time share its trampoline,
 * and both see the calls of either name.
 *
 * call_magic and call_wq call the kfuncs; the tracing programs write what
 * they saw into trace[] (slots TR_*), which the test compares with the
 * calling program's ID.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: only the module's kernel runs it */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#define WQ_RESULT
#include "bpf_test.h"
#include <bpf/bpf_tracing.h>

#define TR_MAGIC_ARGC		0	/* fentry: bpf_get_func_arg_cnt() */
#define TR_MAGIC_AUX_ID		1	/* fentry: aux->id */
#define TR_MAGIC_A		2	/* fentry: a */
#define TR_MAGIC_RET		3	/* fexit: the return value */
#define TR_MAGIC_EXIT_AUX_ID	4	/* fexit: aux->id */
#define TR_WQ_ARGC		5	/* fentry: bpf_get_func_arg_cnt() */
#define TR_WQ_AUX_ID		6	/* fentry: aux->id */
#define TR_WQ_RET		7	/* fexit: the return value + TR_RET_BIAS */
#define TR_WQ_EXIT_AUX_ID	8	/* fexit: aux->id */
#define TR_WQ_EXIT_ARGC		9	/* fexit: bpf_get_func_arg_cnt() */
#define TR_LEGACY_A		10	/* fentry on mkf_testmod_legacy: a */
#define TR_LEGACY_IMPL_A	11	/* fentry on mkf_testmod_legacy_impl: a */
#define TR_WQ_IMPL_ARGC		12	/* fentry on the _impl: bpf_get_func_arg_cnt() */
#define TR_SLOTS		13

/* So that a return value of 0 differs from a slot never written. */
#define TR_RET_BIAS		0x1000

#define WQ_MARK_TRACE		0xC0FFEE10ULL

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TR_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} trace SEC(".maps");

static __always_inline void tr_set(__u32 slot, __u64 value)
{
	__u64 *v = bpf_map_lookup_elem(&trace, &slot);

	if (v)
		*v = value;
}

SEC("syscall")
int call_magic(void *ctx)
{
	return mkf_testmod_magic(TM_MAGIC_TRACE);
}

static int trace_cb(void *map, int *key, void *value)
{
	return wq_report(WQ_MARK_TRACE);
}

SEC("syscall")
int call_wq(void *ctx)
{
	struct bpf_wq *wq;
	int err = 0;

	wq = wq_prepare(&err);
	if (!wq)
		return err;
	if (bpf_wq_set_callback(wq, trace_cb, 0))
		return WQ_ERR_SET;
	if (bpf_wq_start(wq, 0))
		return WQ_ERR_START;
	return 0;
}

SEC("syscall")
int call_legacy(void *ctx)
{
	return mkf_testmod_legacy(TM_LEGACY_TRACE);
}

SEC("syscall")
int call_legacy_impl(void *ctx)
{
	return mkf_testmod_legacy_impl(TM_LEGACY_IMPL_TRACE, (void *)0);
}

SEC("fentry/mkf_testmod_legacy")
int BPF_PROG(fentry_legacy, __u32 a, void *aux)
{
	tr_set(TR_LEGACY_A, a);
	return 0;
}

SEC("fentry/mkf_testmod_legacy_impl")
int BPF_PROG(fentry_legacy_impl, __u32 a, void *aux)
{
	tr_set(TR_LEGACY_IMPL_A, a);
	return 0;
}

SEC("fentry/mkf_testmod_magic")
int BPF_PROG(fentry_magic, __u32 a, struct bpf_prog_aux *aux)
{
	tr_set(TR_MAGIC_ARGC, bpf_get_func_arg_cnt(ctx));
	tr_set(TR_MAGIC_AUX_ID, aux->id);
	tr_set(TR_MAGIC_A, a);
	return 0;
}

SEC("fexit/mkf_testmod_magic")
int BPF_PROG(fexit_magic, __u32 a, struct bpf_prog_aux *aux, __u32 ret)
{
	tr_set(TR_MAGIC_RET, ret);
	tr_set(TR_MAGIC_EXIT_AUX_ID, aux->id);
	return 0;
}

/*
 * bpf_wq_set_callback's full prototype is that of its legacy form,
 * bpf_wq_set_callback_impl(..., void *aux__ign), kept as stock 6.12 has
 * it: the aux argument is an untyped pointer here, read with a probe.
 */
static __always_inline __u32 aux_id(void *aux)
{
	__u32 id = 0;

	bpf_probe_read_kernel(&id, sizeof(id), &((struct bpf_prog_aux *)aux)->id);
	return id;
}

SEC("fentry/bpf_wq_set_callback")
int BPF_PROG(fentry_wq, struct bpf_wq *wq, void *callback_fn, unsigned int flags, void *aux)
{
	tr_set(TR_WQ_ARGC, bpf_get_func_arg_cnt(ctx));
	tr_set(TR_WQ_AUX_ID, aux_id(aux));
	return 0;
}

SEC("fexit/bpf_wq_set_callback")
int BPF_PROG(fexit_wq, struct bpf_wq *wq, void *callback_fn, unsigned int flags, void *aux,
	     int ret)
{
	tr_set(TR_WQ_RET, ret + TR_RET_BIAS);
	tr_set(TR_WQ_EXIT_AUX_ID, aux_id(aux));
	tr_set(TR_WQ_EXIT_ARGC, bpf_get_func_arg_cnt(ctx));
	return 0;
}

SEC("fentry/bpf_wq_set_callback_impl")
int BPF_PROG(fentry_wq_impl, struct bpf_wq *wq, void *callback_fn, unsigned int flags,
	     void *aux)
{
	tr_set(TR_WQ_IMPL_ARGC, bpf_get_func_arg_cnt(ctx));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
