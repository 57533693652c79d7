// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The module's magic kfuncs called through their prototype-only _impl
 * twins, declared as the module's BTF declares them, with a dummy value
 * for each magic argument: the verifier must replace it with the
 * program's own aux, whatever it is.
 */
#include "testmod.h"

extern __u32 mkf_testmod_magic_impl(__u32 a, struct bpf_prog_aux *aux__magic) __ksym;
extern __u32 mkf_testmod_magic2_impl(__u32 a, __u32 b, __u32 c,
				     struct bpf_prog_aux *aux__magic,
				     struct bpf_prog_aux *aux2__magic) __ksym;

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
