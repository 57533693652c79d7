// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The module's magic kfuncs called through their prototype-only _impl
 * twins, declared as the module's BTF declares them, with a dummy value
 * for each magic argument: the verifier must replace it with the
 * program's own aux, whatever it is.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: only the module's kernel runs it */
#include <magic-kfunc/bpf_common.h>
#include "bpf_test.h"

extern __u32 mkf_testmod_magic_impl(__u32 a, struct bpf_prog_aux *aux__magic) __mkf_kfunc;
extern __u32 mkf_testmod_magic2_impl(__u32 a, __u32 b, __u32 c,
				     struct bpf_prog_aux *aux__magic,
				     struct bpf_prog_aux *aux2__magic) __mkf_kfunc;

SEC("syscall")
int magic_impl(void *ctx)
{
	return mkf_testmod_magic_impl(TM_MAGIC_IMPL, (struct bpf_prog_aux *)0xbad);
}

SEC("syscall")
int magic2_impl(void *ctx)
{
	return mkf_testmod_magic2_impl(1, 2, 3, (struct bpf_prog_aux *)0, (void *)0);
}

char LICENSE[] SEC("license") = "GPL";
