/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The legacy call bpf_wq_set_callback_impl(wq, cb, flags, aux), whose
 * last argument the verifier fills in, declared one of two ways:
 *
 * - by default as Linux 6.10 - 6.19 declare it (and their vmlinux.h and
 *   bpf_experimental.h): a last "void *";
 * - with WQ_IMPL_STRUCT_AUX defined, as the BTF of 7.x and of our patched
 *   6.12 declares it: a last "struct bpf_prog_aux *".
 *
 * libbpf 1.1 accepts the extern only where its prototype matches the
 * kernel's: "void *" and "struct bpf_prog_aux *" do not.
 */
#ifndef MKF_TESTS_BPF_WQ_IMPL_H
#define MKF_TESTS_BPF_WQ_IMPL_H

#include "wq.h"

#ifdef WQ_IMPL_STRUCT_AUX
/*
 * A complete struct, as in vmlinux.h: libbpf 1.1 finds a forward
 * declaration incompatible with the kernel's struct. Its members do not
 * matter to libbpf, and the programs never look inside.
 */
struct bpf_prog_aux {
	__u64 __opaque;
};
typedef struct bpf_prog_aux *wq_aux_t;
#else
typedef void *wq_aux_t;
#endif

extern int bpf_wq_set_callback_impl(struct bpf_wq *wq, wq_callback_fn callback_fn,
				    unsigned int flags, wq_aux_t aux) __ksym;

#endif
