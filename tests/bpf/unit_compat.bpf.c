// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Hand-written compat in sched_ext's style: both forms declared weak,
 * chosen with bpf_ksym_exists(), plus a flavored 6.17-style extern.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define MKF_COMPAT_IMPL		/* the 6.x _impl, "void *aux__ign" last */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"

/*
 * 6.17's 5-argument bpf_stream_vprintk() as hand-written compat spells
 * it, a flavor: the public header has only the 7.x form, which the
 * library binds to it on 6.17.
 */
extern int bpf_stream_vprintk___v617(int stream_id, const char *fmt, const void *args,
				     __u32 len, void *aux__prog) __weak __ksym;

static int wq_cb(void *map, int *key, void *value)
{
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
	if (bpf_ksym_exists(bpf_wq_set_callback_impl))
		return bpf_wq_set_callback_impl(wq, wq_cb, 0, (void *)0);
	return 1;
}

/*
 * The arguments go in a buffer even with none to print: "args" is not
 * __nullable, and the verifier refuses NULL there ("Possibly NULL
 * pointer passed to trusted arg2") wherever the call is reached: where
 * the extern binds (the library, or libbpf 1.3+ by itself on 6.17).
 */
SEC("tc")
int say(void *ctx)
{
	static const char fmt[] = "hello %d";
	__u64 args[1] = { 1 };

	if (bpf_ksym_exists(bpf_stream_vprintk___v617))
		bpf_stream_vprintk___v617(1, fmt, args, sizeof(args), (void *)0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
