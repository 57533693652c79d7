/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Allocated objects, lists and rbtrees: the btf_struct_meta family.
 *
 * Declared in the 7.2 form. Which kernels offer which form:
 *   6.12 - 7.0:  only the _impl forms, each with a trailing
 *                "void *meta__ign", and for list_push_* / rbtree_add a
 *                further "u64 off" the verifier checks as a scalar, e.g.
 *                bpf_obj_new_impl(u64 local_type_id__k, void *meta__ign),
 *                bpf_list_push_back_impl(head, node, void *meta__ign, u64 off)
 *   7.2, 7.3:    the forms below added; the legacy _impl forms stay callable
 *
 * What libmagic-kfunc does on 6.12 - 7.0 (its plan, as "magic-kfunc
 * explain" shows it against those kernels' BTF; not run in guests):
 * bpf_obj_new, bpf_obj_drop, bpf_percpu_obj_new, bpf_percpu_obj_drop and
 * bpf_refcount_acquire are bound to their _impl (rule impl-extend: the meta
 * argument is verifier-provided). bpf_list_push_front/_back and
 * bpf_rbtree_add are left unresolved, the weak extern 0, and the plan
 * says why: binding their _impl needs the "off" register set before the
 * call, an instruction fix-up this version does not do. Programs that
 * must push to lists or rbtrees there call the _impl forms themselves:
 * those are callable on every kernel up to 7.3 (kept by 7.2), so no
 * compat macro is needed.
 */
#ifndef __MAGIC_KFUNC_BPF_OBJ_H
#define __MAGIC_KFUNC_BPF_OBJ_H

#include "bpf_common.h"

extern void *bpf_obj_new(__u64 local_type_id__k) __mkf_kfunc;
extern void bpf_obj_drop(void *p__alloc) __mkf_kfunc;
extern void *bpf_percpu_obj_new(__u64 local_type_id__k) __mkf_kfunc;
extern void bpf_percpu_obj_drop(void *p__alloc) __mkf_kfunc;
extern void *bpf_refcount_acquire(void *p__refcounted_kptr) __mkf_kfunc;
extern int bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node) __mkf_kfunc;
extern int bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node) __mkf_kfunc;
extern int bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
			  _Bool (*less)(struct bpf_rb_node *a, const struct bpf_rb_node *b))
	__mkf_kfunc;

/*
 * The type-safe wrappers of the kernel's selftests, on the 7.2 names:
 *   struct foo *p = mkf_obj_new(struct foo);
 * Needs <bpf/bpf_core_read.h> for bpf_core_type_id_local().
 */
#define mkf_obj_new(type) ((type *)bpf_obj_new(bpf_core_type_id_local(type)))
#define mkf_percpu_obj_new(type) ((type *)bpf_percpu_obj_new(bpf_core_type_id_local(type)))

#endif
