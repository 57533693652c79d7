/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * magic-kfunc's BPF-side declarations: every kfunc family with
 * verifier-provided arguments, declared in its newest (7.x) form, weak.
 *
 *   #include <linux/bpf.h>             (or vmlinux.h)
 *   #include <bpf/bpf_helpers.h>
 *   #define MKF_DEFINE_UAPI_TYPES      (only without vmlinux.h)
 *   #include <magic-kfunc/bpf_kfuncs.h>
 *
 * Write the 7.x call; open the object with libmagic-kfunc
 * (mkf_object__open_file/_mem/_skeleton) and it binds to what the
 * target kernel offers. Guard each call with bpf_ksym_exists(): where
 * the kernel has no form of a kfunc, the extern stays 0.
 *
 * Each family's header lists which kernels offer which form. Define
 * MKF_COMPAT_IMPL for the compat macros (mkf_wq_set_callback() etc.) of
 * programs loaded without the library, and read their limits there.
 */
#ifndef __MAGIC_KFUNC_BPF_KFUNCS_H
#define __MAGIC_KFUNC_BPF_KFUNCS_H

#include "bpf_common.h"
#include "bpf_wq.h"
#include "bpf_stream.h"
#include "bpf_task_work.h"
#include "bpf_obj.h"

#endif
