// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Bad arguments to the 7.x-style bpf_wq_set_callback(wq, cb, flags). */
#include "wq.h"

extern int bpf_wq_set_callback(struct bpf_wq *wq, wq_callback_fn callback_fn,
			       unsigned int flags) __ksym;

#define WQ_SET_CALLBACK(wq, cb) bpf_wq_set_callback(wq, cb, 0)

#include "wq_bad.h"
