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
 * What libmagic-kfunc does on 6.12 - 7.0: every call is bound to the
 * _impl form (rule impl-extend: the meta argument is verifier-provided),
 * and before each call to bpf_list_push_front/_back and bpf_rbtree_add
 * it inserts "R4 = 0" / "R5 = 0": the verifier checks that the offset
 * register holds a scalar before it fills in the real offset
 * (tests/kernel/graph-test runs this in guests). Plain libbpf finds none
 * of these names there.
 *
 * bpf_list_pop_front/_back, bpf_rbtree_first and bpf_rbtree_remove take
 * no verifier-provided argument and have kept their names and
 * prototypes from 6.12 to 7.3.
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
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __mkf_kfunc;
extern struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head) __mkf_kfunc;
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __mkf_kfunc;
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
					     struct bpf_rb_node *node) __mkf_kfunc;

/*
 * The type-safe wrappers of the kernel's selftests, on the 7.2 names:
 *   struct foo *p = mkf_obj_new(struct foo);
 * Needs <bpf/bpf_core_read.h> for bpf_core_type_id_local().
 */
#define mkf_obj_new(type) ((type *)bpf_obj_new(bpf_core_type_id_local(type)))
#define mkf_percpu_obj_new(type) ((type *)bpf_percpu_obj_new(bpf_core_type_id_local(type)))

/*
 * Compat macros for programs loaded with plain libbpf (MKF_COMPAT_IMPL):
 * the legacy _impl forms, callable on every kernel from 6.12 to 7.3
 * (7.2 kept them; their prototypes never changed), with the NULL meta
 * and 0 offset the verifier fills in. Measured in every catalogue
 * guest by examples/top-n (docs/compat-matrix.md). Without
 * MKF_COMPAT_IMPL they are the 7.1 calls above, for the library.
 */
#ifdef MKF_COMPAT_IMPL
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __mkf_kfunc;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __mkf_kfunc;
extern int bpf_rbtree_add_impl(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       _Bool (*less)(struct bpf_rb_node *a, const struct bpf_rb_node *b),
			       void *meta__ign, __u64 off) __mkf_kfunc;
extern int bpf_list_push_front_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				    void *meta__ign, __u64 off) __mkf_kfunc;
extern int bpf_list_push_back_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				   void *meta__ign, __u64 off) __mkf_kfunc;

#define mkf_compat_obj_new(type) \
	((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), (void *)0))
#define mkf_obj_drop(p) bpf_obj_drop_impl(p, (void *)0)
#define mkf_rbtree_add(root, node, less) bpf_rbtree_add_impl(root, node, less, (void *)0, 0)
#define mkf_list_push_front(head, node) bpf_list_push_front_impl(head, node, (void *)0, 0)
#define mkf_list_push_back(head, node) bpf_list_push_back_impl(head, node, (void *)0, 0)
#define mkf_graph_exists() bpf_ksym_exists(bpf_obj_new_impl)
#else
#define mkf_compat_obj_new(type) mkf_obj_new(type)
#define mkf_obj_drop(p) bpf_obj_drop(p)
#define mkf_rbtree_add(root, node, less) bpf_rbtree_add(root, node, less)
#define mkf_list_push_front(head, node) bpf_list_push_front(head, node)
#define mkf_list_push_back(head, node) bpf_list_push_back(head, node)
#define mkf_graph_exists() bpf_ksym_exists(bpf_obj_new)
#endif

#endif
