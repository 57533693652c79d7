/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The allocator/graph test programs, written once against the 7.1+
 * names (bpf_obj_new via mkf_obj_new(), bpf_list_push_back(head, node),
 * bpf_rbtree_add(root, node, less), ...). graph_new.bpf.c includes it
 * with those kfuncs declared as 7.1 declares them; graph_old.bpf.c with
 * the names defined as macros over the _impl forms, as
 * linux-source-6.12's selftests/bpf/bpf_experimental.h does. Several
 * call sites per kfunc, in programs and in bpf-to-bpf subprograms.
 */
#ifndef MKF_TEST_GRAPH_PROGS_H
#define MKF_TEST_GRAPH_PROGS_H

#include "graph.h"

/* A subprogram with its own call sites: allocate, push under the lock. */
static __noinline int push_new(long v, bool front)
{
	struct elem *e = mkf_obj_new(struct elem);

	if (!e)
		return 1;
	e->v = v;
	bpf_spin_lock(&llock);
	if (front)
		bpf_list_push_front(&lhead, &e->node);
	else
		bpf_list_push_back(&lhead, &e->node);
	bpf_spin_unlock(&llock);
	return 0;
}

static __noinline long pop(bool front)
{
	struct bpf_list_node *n;
	struct elem *e;
	long v;

	bpf_spin_lock(&llock);
	n = front ? bpf_list_pop_front(&lhead) : bpf_list_pop_back(&lhead);
	bpf_spin_unlock(&llock);
	if (!n)
		return -1;
	e = container_of(n, struct elem, node);
	v = e->v;
	bpf_obj_drop(e);
	return v;
}

SEC("syscall")
int list_ops(void *ctx)
{
	struct elem *e;
	long r = 0;

	/* 1, then 2 in front, then 4 and 3 at the back: 2 1 4 3. */
	if (push_new(1, false) || push_new(2, true))
		return 1;
	e = mkf_obj_new(struct elem);
	if (!e)
		return 2;
	e->v = 4;
	bpf_spin_lock(&llock);
	bpf_list_push_back(&lhead, &e->node);
	bpf_spin_unlock(&llock);
	e = mkf_obj_new(struct elem);
	if (!e)
		return 3;
	e->v = 3;
	bpf_spin_lock(&llock);
	bpf_list_push_back(&lhead, &e->node);
	bpf_spin_unlock(&llock);
	/* The list is 2 1 4 3: two from the front, two from the back. */
	r = pop(true);
	r = r * 10 + pop(true);
	r = r * 10 + pop(false);
	r = r * 10 + pop(false);
	return (int)r;
}

static __noinline int tree_add(long key)
{
	struct tnode *t = mkf_obj_new(struct tnode);

	if (!t)
		return 1;
	t->key = key;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&troot, &t->rb, tless);
	bpf_spin_unlock(&tlock);
	return 0;
}

static __noinline long tree_take_first(void)
{
	struct bpf_rb_node *n;
	struct tnode *t;
	long key;

	bpf_spin_lock(&tlock);
	n = bpf_rbtree_first(&troot);
	if (!n) {
		bpf_spin_unlock(&tlock);
		return -1;
	}
	n = bpf_rbtree_remove(&troot, n);
	bpf_spin_unlock(&tlock);
	if (!n)
		return -2;
	t = container_of(n, struct tnode, rb);
	key = t->key;
	bpf_obj_drop(t);
	return key;
}

SEC("syscall")
int tree_ops(void *ctx)
{
	struct tnode *t;
	long r;

	if (tree_add(5))
		return 1;
	t = mkf_obj_new(struct tnode);
	if (!t)
		return 2;
	t->key = 3;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&troot, &t->rb, tless);
	bpf_spin_unlock(&tlock);
	if (tree_add(7))
		return 3;
	r = tree_take_first();
	r = r * 10 + tree_take_first();
	r = r * 10 + tree_take_first();
	return (int)r;
}

SEC("syscall")
int refcount_ops(void *ctx)
{
	struct bpf_rb_node *rb;
	struct bpf_list_node *ln;
	struct rnode *n, *m;
	long sum = 0;

	n = mkf_obj_new(struct rnode);
	if (!n)
		return 1;
	n->key = 21;
	/* A second owning reference to the same node. */
	m = bpf_refcount_acquire(n);
	if (!m) {
		bpf_obj_drop(n);
		return 2;
	}
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rroot, &n->rb, rless);
	bpf_list_push_front(&rhead, &m->node);
	bpf_spin_unlock(&rlock);

	bpf_spin_lock(&rlock);
	rb = bpf_rbtree_first(&rroot);
	if (rb)
		rb = bpf_rbtree_remove(&rroot, rb);
	ln = bpf_list_pop_front(&rhead);
	bpf_spin_unlock(&rlock);
	if (rb) {
		n = container_of(rb, struct rnode, rb);
		sum += n->key;
		bpf_obj_drop(n);
	}
	if (ln) {
		m = container_of(ln, struct rnode, node);
		sum += m->key;
		bpf_obj_drop(m);
	}
	return (int)sum;
}

/* Push onto, and pop from, the list of a map value (its own lock). */
static __noinline int map_push(struct lmap_val *m, long v)
{
	struct elem *e = mkf_obj_new(struct elem);

	if (!e)
		return 1;
	e->v = v;
	bpf_spin_lock(&m->lock);
	bpf_list_push_back(&m->head, &e->node);
	bpf_spin_unlock(&m->lock);
	return 0;
}

SEC("syscall")
int map_list_ops(void *ctx)
{
	struct bpf_list_node *n;
	struct lmap_val *m;
	int key = 0, i;
	long r = 0;

	m = bpf_map_lookup_elem(&lmap, &key);
	if (!m)
		return 1;
	if (map_push(m, 5) || map_push(m, 6))
		return 2;
	for (i = 0; i < 2; i++) {
		struct elem *e;

		bpf_spin_lock(&m->lock);
		n = bpf_list_pop_front(&m->head);
		bpf_spin_unlock(&m->lock);
		if (!n)
			return 3;
		e = container_of(n, struct elem, node);
		r = r * 10 + e->v;
		bpf_obj_drop(e);
	}
	return (int)r;
}

SEC("syscall")
int percpu_ops(void *ctx)
{
	struct pval *p = mkf_percpu_obj_new(struct pval);

	if (!p)
		return 1;
	bpf_percpu_obj_drop(p);
	return PERCPU_RESULT;
}

char LICENSE[] SEC("license") = "GPL";

#endif
