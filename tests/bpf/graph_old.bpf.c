// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The same programs written for the legacy convention, as
 * linux-source-6.12's selftests/bpf/bpf_experimental.h declares the
 * family: the _impl kfuncs with a NULL meta and a 0 offset the verifier
 * fills in. Callable on every kernel from 6.12 to 7.3 (7.2 keeps them).
 */
#include "graph.h"

extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym;
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
extern void bpf_percpu_obj_drop_impl(void *kptr, void *meta) __ksym;
extern void *bpf_refcount_acquire_impl(void *kptr, void *meta) __ksym;
extern int bpf_list_push_front_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				    void *meta, __u64 off) __ksym;
extern int bpf_list_push_back_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				   void *meta, __u64 off) __ksym;
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head) __ksym;
extern int bpf_rbtree_add_impl(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b),
			       void *meta, __u64 off) __ksym;
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
					     struct bpf_rb_node *node) __ksym;

#define mkf_obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define mkf_percpu_obj_new(type) \
	((type *)bpf_percpu_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
#define bpf_percpu_obj_drop(kptr) bpf_percpu_obj_drop_impl(kptr, NULL)
#define bpf_refcount_acquire(kptr) bpf_refcount_acquire_impl(kptr, NULL)
#define bpf_list_push_front(head, node) bpf_list_push_front_impl(head, node, NULL, 0)
#define bpf_list_push_back(head, node) bpf_list_push_back_impl(head, node, NULL, 0)
#define bpf_rbtree_add(head, node, less) bpf_rbtree_add_impl(head, node, less, NULL, 0)

#include "graph_progs.h"
