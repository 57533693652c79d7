// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Bad arguments to the 6.x-style bpf_wq_set_callback_impl(wq, cb, flags,
 * NULL), declared as 6.10 - 6.19 do ("void *").
 */
#include "wq_impl.h"

#define WQ_SET_CALLBACK(wq, cb) bpf_wq_set_callback_impl(wq, cb, 0, NULL)

#include "wq_bad.h"
