// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * bpf_wq_set_callback_impl declared with 7.x's full prototype (last
 * parameter "struct bpf_prog_aux *"), weak, called with NULL: plain
 * libbpf binds 7.x's prototype-only _impl, which the verifier refuses.
 */
#include "cli_bpf.h"

/*
 * A complete struct, as vmlinux.h-based programs see it: libbpf checks
 * a pointed-to struct's kind, not its members (a bare declaration would
 * be a FWD, incompatible with the kernel's STRUCT).
 */
struct bpf_prog_aux {
	int __opaque;
};

extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, int (*cb)(void *, int *, void *),
				    unsigned int flags, struct bpf_prog_aux *aux) __weak __ksym;

static int cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int wq_impl_aux(void *ctx)
{
	struct bpf_wq *wq = wq_get();

	if (!wq || !bpf_ksym_exists(bpf_wq_set_callback_impl))
		return 1;
	return bpf_wq_set_callback_impl(wq, cb, 0, NULL);
}

char LICENSE[] SEC("license") = "GPL";
