/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the example BPF programs share: Debian 12's <linux/bpf.h> and
 * libbpf 1.1 lack the types and declarations of recent kernels, so the
 * programs take them from <magic-kfunc/bpf_kfuncs.h>.
 */
#ifndef MKF_EXAMPLE_BPF_H
#define MKF_EXAMPLE_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#define MKF_DEFINE_UAPI_TYPES
#include <magic-kfunc/bpf_kfuncs.h>

/* Returned when the kernel has no form of the kfunc (EOPNOTSUPP); the
 * loaders know it as EXAMPLE_RET_UNSUPPORTED. */
#define EXAMPLE_RET_UNSUPPORTED 95

#endif
