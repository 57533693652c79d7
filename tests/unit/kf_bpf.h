/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The few BPF-side definitions the test objects need, spelled out so
 * that they build with clang alone (no vmlinux.h, no kernel headers).
 * These objects are only ever opened by libbpf, never loaded.
 */
#ifndef KF_BPF_H
#define KF_BPF_H

#define SEC(name) __attribute__((section(name), used))
#define __ksym __attribute__((section(".ksyms")))
#define __weak __attribute__((weak))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define bpf_ksym_exists(sym) (!!(sym))

typedef unsigned int __u32;
typedef unsigned long long __u64;

struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

/* BPF_FUNC_map_lookup_elem */
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;

#define BPF_MAP_TYPE_ARRAY 2

#endif
