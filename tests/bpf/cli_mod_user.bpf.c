// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Calls a module kfunc in the new style (no dummy argument): on a
 * kernel whose module only has mkf_testmod_set_impl(..., aux__ign), the
 * library binds that one, in the module (see mkf_testmod.c).
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong, as bpf_wq_init() is on every kernel with bpf_wq */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"

SEC("syscall")
int mod_user(void *ctx)
{
	struct bpf_wq *wq = wq_prepare(NULL);

	return wq ? mkf_testmod_set(wq, 0) : 1;
}

char LICENSE[] SEC("license") = "GPL";
