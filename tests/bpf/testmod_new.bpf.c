// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The module's kfuncs called as a program for Linux 7.x would: magic
 * kfuncs without their magic arguments, and the real legacy
 * mkf_testmod_legacy_impl() of the module as it is declared.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: only the module's kernel runs it */
#include <magic-kfunc/bpf_common.h>
#include "bpf_test.h"

SEC("syscall")
int magic_new(void *ctx)
{
	return mkf_testmod_magic(TM_MAGIC_NEW);
}

/* Two magic arguments: the kfunc checks that it got the same aux twice. */
SEC("syscall")
int magic2_new(void *ctx)
{
	return mkf_testmod_magic2(1, 2, 3);
}

/* Its magic argument is declared "struct bpf_prog_aux *const". */
SEC("syscall")
int magic_const_new(void *ctx)
{
	return mkf_testmod_magic_const(TM_MAGIC_CONST);
}

/*
 * The new name of a kfunc with a legacy form: the kernel runs the legacy
 * function for it, which the module gives other code to show it.
 */
SEC("syscall")
int legacy_new(void *ctx)
{
	return mkf_testmod_legacy(TM_LEGACY_NEW);
}

/* The legacy function itself: its own code runs, as for legacy_new. */
SEC("syscall")
int legacy_impl(void *ctx)
{
	return mkf_testmod_legacy_impl(TM_LEGACY_IMPL, (void *)0);
}

char LICENSE[] SEC("license") = "GPL";
