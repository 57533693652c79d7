// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A program written for the 6.x convention: the _impl kfunc with a
 * "void *aux__ign" last parameter, passed NULL. Plain libbpf refuses it
 * on a kernel whose BTF declares a struct bpf_prog_aux pointer there;
 * libmagic-kfunc binds it to the module's kfunc.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: only the module's kernel runs it */
#include <magic-kfunc/bpf_common.h>
#include "bpf_test.h"

extern __u32 mkf_testmod_magic_impl(__u32 a, void *aux__ign) __mkf_kfunc;

SEC("syscall")
int magic_old(void *ctx)
{
	return mkf_testmod_magic_impl(TM_MAGIC_OLD, (void *)0);
}

char LICENSE[] SEC("license") = "GPL";
