// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Bad arguments to bpf_wq_set_callback_impl(wq, cb, flags, NULL),
 * declared as 7.x and our patched 6.12 do ("struct bpf_prog_aux *").
 */
#define WQ_IMPL_STRUCT_AUX
#include "wq_impl.h"

#define WQ_SET_CALLBACK(wq, cb) bpf_wq_set_callback_impl(wq, cb, 0, NULL)

#include "wq_bad.h"
