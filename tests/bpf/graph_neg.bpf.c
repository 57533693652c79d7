// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The allocator and graph kfuncs by their 7.1 names on the patched 6.12,
 * where their struct btf_struct_meta and node offset arguments are magic:
 * programs the verifier must refuse, each with the exact message
 * tests/kernel/graph-test expects (the checks of the _impl forms apply to
 * the new names), and legacy calls that pass forged values for the magic
 * arguments, which must never reach the kernel functions: the verifier
 * loads the real ones, so the programs run as if they had passed NULL
 * and 0 (a forged struct btf_struct_meta pointer would be dereferenced).
 */
#include "graph.h"
#define MKF_COMPAT_IMPL		/* the _impl forms are declared too */
#include <magic-kfunc/bpf_obj.h>

#define FORGED_META	((void *)0x5a5a5a5a5a5a5a5aULL)
#define FORGED_OFF	777

struct plain {
	long a;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} emap SEC(".maps");

/* bpf_obj_new allocates a program-defined struct, nothing else. */
SEC("syscall")
int obj_new_not_struct(void *ctx)
{
	long *p = bpf_obj_new(bpf_core_type_id_local(long));

	if (p)
		bpf_obj_drop(p);
	return 0;
}

/* Its type ID must be a constant the verifier can read. */
SEC("syscall")
int obj_new_unknown_type(void *ctx)
{
	struct elem *e = bpf_obj_new(bpf_get_prandom_u32());

	if (e)
		bpf_obj_drop(e);
	return 0;
}

/* A per-CPU object holds scalars only. */
SEC("syscall")
int percpu_obj_new_special(void *ctx)
{
	struct elem *e = bpf_percpu_obj_new(bpf_core_type_id_local(struct elem));

	if (e)
		bpf_percpu_obj_drop(e);
	return 0;
}

/* bpf_obj_drop frees what bpf_obj_new allocated, not a map value. */
SEC("syscall")
int obj_drop_map_value(void *ctx)
{
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&emap, &key);

	if (e)
		bpf_obj_drop(e);
	return 0;
}

/* An allocated object must be freed or handed over. */
SEC("syscall")
int obj_new_leak(void *ctx)
{
	struct elem *e = bpf_obj_new(bpf_core_type_id_local(struct elem));

	return e ? 1 : 0;
}

/* Only an object with a struct bpf_refcount can be acquired again. */
SEC("syscall")
int refcount_not_refcounted(void *ctx)
{
	struct elem *e = bpf_obj_new(bpf_core_type_id_local(struct elem));
	struct elem *r;

	if (!e)
		return 0;
	r = bpf_refcount_acquire(e);
	if (r)
		bpf_obj_drop(r);
	bpf_obj_drop(e);
	return 0;
}

/* A list is changed under its lock only. */
SEC("syscall")
int list_push_unlocked(void *ctx)
{
	struct elem *e = bpf_obj_new(bpf_core_type_id_local(struct elem));

	if (!e)
		return 0;
	return bpf_list_push_back(&lhead, &e->node);
}

/* A tree too. */
SEC("syscall")
int rbtree_add_unlocked(void *ctx)
{
	struct tnode *n = bpf_obj_new(bpf_core_type_id_local(struct tnode));

	if (!n)
		return 0;
	return bpf_rbtree_add(&troot, &n->rb, tless);
}

/* The list holds struct elem: another type's list node does not fit. */
SEC("syscall")
int list_push_wrong_node(void *ctx)
{
	struct rnode *r = bpf_obj_new(bpf_core_type_id_local(struct rnode));

	if (!r)
		return 0;
	bpf_spin_lock(&llock);
	bpf_list_push_front(&lhead, &r->node);
	bpf_spin_unlock(&llock);
	return 0;
}

/* The same for a tree of struct rnode and a struct tnode. */
SEC("syscall")
int rbtree_add_wrong_node(void *ctx)
{
	struct tnode *t = bpf_obj_new(bpf_core_type_id_local(struct tnode));

	if (!t)
		return 0;
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rroot, &t->rb, rless);
	bpf_spin_unlock(&rlock);
	return 0;
}

/* A node in a list is the list's: it cannot be pushed again. */
SEC("syscall")
int list_push_twice(void *ctx)
{
	struct elem *e = bpf_obj_new(bpf_core_type_id_local(struct elem));

	if (!e)
		return 0;
	bpf_spin_lock(&llock);
	bpf_list_push_back(&lhead, &e->node);
	bpf_list_push_back(&lhead, &e->node);
	bpf_spin_unlock(&llock);
	return 0;
}

/* Under a lock, the graph kfuncs may be called, bpf_obj_new may not. */
SEC("syscall")
int obj_new_locked(void *ctx)
{
	struct elem *e;

	bpf_spin_lock(&llock);
	e = bpf_obj_new(bpf_core_type_id_local(struct elem));
	bpf_spin_unlock(&llock);
	if (e)
		bpf_obj_drop(e);
	return 0;
}

/*
 * The callback of bpf_rbtree_add runs under the tree's lock, in the middle
 * of the tree walk: the verifier's restrictions inside it apply to calls
 * of the new name as they do to bpf_rbtree_add_impl (those of the kernel's
 * selftests rbtree_fail.c, here with the new name).
 */
static bool less_unlocks(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bool r = tless(a, b);

	/* Another CPU could free the node the walk holds. */
	bpf_spin_unlock(&tlock);
	bpf_spin_lock(&tlock);
	return r;
}

static bool less_removes(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bool r = tless(a, b);
	struct bpf_rb_node *n;

	/* The tree would be rebalanced in the middle of the walk. */
	n = bpf_rbtree_remove(&troot, a);
	if (n)
		bpf_rbtree_add(&troot, n, tless);
	return r;
}

static bool less_adds(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct tnode *n = container_of(a, struct tnode, rb);

	bpf_rbtree_add(&troot, &n->rb, tless);
	return tless(a, b);
}

static bool less_first_unlocks(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_rbtree_first(&troot);
	bpf_spin_unlock(&tlock);
	return tless(a, b);
}

/* Two nodes added under the lock with the callback CB. */
static __always_inline int add_two_with(bool (cb)(struct bpf_rb_node *a,
						 const struct bpf_rb_node *b))
{
	struct tnode *n, *m;

	n = bpf_obj_new(bpf_core_type_id_local(struct tnode));
	if (!n)
		return 1;
	m = bpf_obj_new(bpf_core_type_id_local(struct tnode));
	if (!m) {
		bpf_obj_drop(n);
		return 2;
	}
	n->key = 1;
	m->key = 2;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&troot, &n->rb, cb);
	bpf_rbtree_add(&troot, &m->rb, cb);
	bpf_spin_unlock(&tlock);
	return 0;
}

SEC("syscall")
int rbtree_cb_unlock(void *ctx)
{
	return add_two_with(less_unlocks);
}

SEC("syscall")
int rbtree_cb_remove(void *ctx)
{
	return add_two_with(less_removes);
}

SEC("syscall")
int rbtree_cb_add(void *ctx)
{
	return add_two_with(less_adds);
}

SEC("syscall")
int rbtree_cb_first_unlock(void *ctx)
{
	return add_two_with(less_first_unlocks);
}

/* The same callbacks given to bpf_rbtree_add_impl: the same refusals. */
static __always_inline int add_impl_with(bool (cb)(struct bpf_rb_node *a,
						  const struct bpf_rb_node *b))
{
	struct tnode *n = bpf_obj_new(bpf_core_type_id_local(struct tnode));

	if (!n)
		return 1;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add_impl(&troot, &n->rb, cb, NULL, 0);
	bpf_spin_unlock(&tlock);
	return 0;
}

SEC("syscall")
int rbtree_impl_cb_unlock(void *ctx)
{
	return add_impl_with(less_unlocks);
}

SEC("syscall")
int rbtree_impl_cb_remove(void *ctx)
{
	return add_impl_with(less_removes);
}

/*
 * Callers of the legacy names still pass the node offset, which must be a
 * scalar there, as on stock 6.12 and upstream: the verifier overwrites it,
 * but only the new names leave it out.
 */
SEC("syscall")
int list_push_impl_off_ptr(void *ctx)
{
	struct elem *e = bpf_obj_new(bpf_core_type_id_local(struct elem));

	if (!e)
		return 0;
	bpf_spin_lock(&llock);
	bpf_list_push_back_impl(&lhead, &e->node, NULL, (__u64)(unsigned long)ctx);
	bpf_spin_unlock(&llock);
	return 0;
}

SEC("syscall")
int rbtree_add_impl_off_ptr(void *ctx)
{
	struct tnode *n = bpf_obj_new(bpf_core_type_id_local(struct tnode));

	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add_impl(&troot, &n->rb, tless, NULL, (__u64)(unsigned long)ctx);
	bpf_spin_unlock(&tlock);
	return 0;
}

/*
 * Legacy calls with forged magic arguments: a list and a tree of two
 * nodes each, built and emptied again: returns 1234 (1 2 from the list,
 * 3 4 from the tree).
 */
SEC("syscall")
int forged_legacy(void *ctx)
{
	struct bpf_list_node *ln;
	struct bpf_rb_node *rn;
	struct tnode *t;
	struct elem *e;
	long r = 0;
	int i;

	for (i = 1; i <= 2; i++) {
		e = bpf_obj_new_impl(bpf_core_type_id_local(struct elem), FORGED_META);
		if (!e)
			return 1;
		e->v = i;
		bpf_spin_lock(&llock);
		bpf_list_push_back_impl(&lhead, &e->node, FORGED_META, FORGED_OFF);
		bpf_spin_unlock(&llock);

		t = bpf_obj_new_impl(bpf_core_type_id_local(struct tnode), FORGED_META);
		if (!t)
			return 2;
		t->key = i + 2;
		bpf_spin_lock(&tlock);
		bpf_rbtree_add_impl(&troot, &t->rb, tless, FORGED_META, FORGED_OFF);
		bpf_spin_unlock(&tlock);
	}
	for (i = 0; i < 2; i++) {
		bpf_spin_lock(&llock);
		ln = bpf_list_pop_front(&lhead);
		bpf_spin_unlock(&llock);
		if (!ln)
			return 3;
		e = container_of(ln, struct elem, node);
		r = r * 10 + e->v;
		bpf_obj_drop_impl(e, FORGED_META);
	}
	for (i = 0; i < 2; i++) {
		bpf_spin_lock(&tlock);
		rn = bpf_rbtree_first(&troot);
		if (rn)
			rn = bpf_rbtree_remove(&troot, rn);
		bpf_spin_unlock(&tlock);
		if (!rn)
			return 4;
		t = container_of(rn, struct tnode, rb);
		r = r * 10 + t->key;
		bpf_obj_drop_impl(t, FORGED_META);
	}
	return (int)r;
}

char _license[] SEC("license") = "GPL";
