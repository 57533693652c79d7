/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the programs calling the kfuncs of kernel/testmod (mkf_testmod)
 * share. Every magic kfunc of the module returns the calling program's
 * ID plus its arguments, so the value a program returns proves which
 * struct bpf_prog_aux the kfunc received; tests/kernel/module-test
 * compares it with the program's ID.
 *
 * The numbers below are repeated in tests/kernel/module-test: keep them
 * in step.
 */
#ifndef MKF_TESTS_BPF_TESTMOD_H
#define MKF_TESTS_BPF_TESTMOD_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The first argument of each call, so that a result names its call. */
#define TM_MAGIC_NEW	100
#define TM_MAGIC_IMPL	200
#define TM_LEGACY_NEW	300
#define TM_MAGIC_OLD	400
#define TM_MAGIC_TRACE	500
#define TM_LEGACY_IMPL	7
/* What the module's real mkf_testmod_legacy_impl() adds to its argument. */
#define TM_LEGACY_BIAS	0x5000

/* The one field of the kernel's struct the tracing programs read. */
struct bpf_prog_aux {
	__u32 id;
} __attribute__((preserve_access_index));

#endif
