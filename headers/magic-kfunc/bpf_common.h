/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the magic-kfunc BPF-side headers share: the forward declarations,
 * the complete UAPI types on request, and a bpf_ksym_exists() that also
 * works with libbpf 1.1.
 *
 * Include after <bpf/bpf_helpers.h> and either vmlinux.h or
 * <linux/bpf.h>. When vmlinux.h comes from a kernel that already
 * declares kfunc prototypes (bpftool of 7.x), define
 * BPF_NO_KFUNC_PROTOTYPES before including it: a kfunc declared twice
 * with different prototypes does not compile.
 */
#ifndef __MAGIC_KFUNC_BPF_COMMON_H
#define __MAGIC_KFUNC_BPF_COMMON_H

#include <bpf/bpf_helpers.h>

/*
 * Forward declarations, so that the headers compile with or without
 * vmlinux.h. They are not enough to LOAD a program: libbpf compares a
 * kfunc extern's prototype with the kernel's by kind, and a
 * declaration-only struct (BTF FWD) does not match the kernel's STRUCT,
 * so the extern is "func_proto incompatible" (measured with libbpf 1.1).
 * Every struct a called kfunc takes or returns, and every struct a map
 * value embeds, needs a complete type: vmlinux.h, or
 * MKF_DEFINE_UAPI_TYPES below.
 */
struct bpf_wq;
struct bpf_task_work;
struct bpf_list_head;
struct bpf_list_node;
struct bpf_rb_root;
struct bpf_rb_node;
struct bpf_refcount;
struct bpf_map;
struct task_struct;

/*
 * Complete definitions for programs built against Debian 12's
 * <linux/bpf.h> (from 6.1), which predates most of them. Sizes and
 * alignments are those of the kernels' BTF (checked on 6.12 to 7.3):
 * the verifier recognises these fields of a map value by name, size and
 * offset, never by their contents. Do not define this together with
 * vmlinux.h, which has them all.
 *
 * struct task_struct and struct bpf_map get empty, CO-RE relocatable
 * bodies: enough for libbpf's prototype check, which looks at the kind
 * only. A program with its own definitions (for CO-RE field access)
 * defines MKF_HAVE_TASK_STRUCT / MKF_HAVE_BPF_MAP first.
 */
#ifdef MKF_DEFINE_UAPI_TYPES
struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_task_work {
	__u64 __opaque;
} __attribute__((aligned(8)));

struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_rb_node {
	__u64 __opaque[4];
} __attribute__((aligned(8)));

struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

#ifndef MKF_HAVE_TASK_STRUCT
struct task_struct {
} __attribute__((preserve_access_index));
#endif

#ifndef MKF_HAVE_BPF_MAP
struct bpf_map {
} __attribute__((preserve_access_index));
#endif
#endif

/*
 * Whether a weak kfunc extern was resolved. libbpf >= 1.2 has
 * bpf_ksym_exists(); Debian 12's libbpf 1.1 does not. An unresolved
 * weak kfunc is 0, and the verifier removes the dead branch of a call
 * guarded by this test; an unguarded call to it is refused.
 */
#ifndef bpf_ksym_exists
#define bpf_ksym_exists(sym) ({						\
	_Static_assert(!__builtin_constant_p(!!(sym)),			\
		       #sym " should be marked as __weak");		\
	!!(sym);							\
})
#endif

/*
 * Whether either of two weak kfuncs exists. Written out with barriers:
 * for "bpf_ksym_exists(a) || bpf_ksym_exists(b)" clang emits
 * "r2 |= r1" on the two addresses, which the verifier refuses
 * ("bitwise operator |= on pointer prohibited"). Each test is turned
 * into a plain 0/1 first.
 */
#define mkf_ksym_either_exists(a, b) ({					\
	int ___a = bpf_ksym_exists(a);					\
	int ___b;							\
									\
	barrier_var(___a);						\
	___b = bpf_ksym_exists(b);					\
	barrier_var(___b);						\
	___a || ___b;							\
})

/* Every kfunc of these headers is weak: a program decides at run time
 * (bpf_ksym_exists) what to do when the kernel has no form of it. */
#ifndef __mkf_kfunc
#define __mkf_kfunc __weak __ksym
#endif

#endif
