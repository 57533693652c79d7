// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Calls a module kfunc in the new style (no dummy argument): on a
 * kernel whose module only has mkf_testmod_set_impl(..., aux__ign), the
 * library binds that one, in the module (see mkf_testmod.c).
 */
#include "cli_bpf.h"

extern int mkf_testmod_set(struct bpf_wq *wq, unsigned int flags) __ksym;

SEC("syscall")
int mod_user(void *ctx)
{
	struct bpf_wq *wq = wq_get();

	return wq ? mkf_testmod_set(wq, 0) : 1;
}

char LICENSE[] SEC("license") = "GPL";
