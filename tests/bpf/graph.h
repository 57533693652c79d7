/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the allocator/graph test programs share (graph_new.bpf.c, 7.1+
 * style; graph_old.bpf.c, the legacy _impl style): the node types, the
 * locked list and tree they live in, and the results each program
 * returns when everything worked. tests/kernel/graph-test checks them.
 */
#ifndef MKF_TEST_GRAPH_H
#define MKF_TEST_GRAPH_H

#include <stdbool.h>
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#include <magic-kfunc/bpf_common.h>
#include <bpf/bpf_core_read.h>

/* As in the kernel's selftests: global graph roots live in .data.NAME. */
#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

/*
 * What each program returns when everything worked (a wrong path
 * returns a small error code, or the wrong digits).
 */
#define LIST_RESULT	2134	/* 2 1 4 3: popped 2, 1 from the front, 3, 4 from the back */
#define TREE_RESULT	357	/* removed in key order */
#define REFCOUNT_RESULT	42	/* one node, in the tree and the list: 21 twice */
#define PERCPU_RESULT	7
#define MAP_LIST_RESULT	56	/* 5 then 6, from a list inside a map value */

struct elem {
	long v;
	struct bpf_list_node node;
};

struct tnode {
	long key;
	struct bpf_rb_node rb;
};

/* In a list and a tree at once: needs the refcount. */
struct rnode {
	long key;
	struct bpf_rb_node rb;
	struct bpf_list_node node;
	struct bpf_refcount ref;
};

struct pval {
	long a;
};

private(L) struct bpf_spin_lock llock;
private(L) struct bpf_list_head lhead __contains(elem, node);
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root troot __contains(tnode, rb);
/* A list nested in a map value, with its lock beside it. */
struct lmap_val {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(elem, node);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct lmap_val);
} lmap SEC(".maps");

private(R) struct bpf_spin_lock rlock;
private(R) struct bpf_rb_root rroot __contains(rnode, rb);
private(R) struct bpf_list_head rhead __contains(rnode, node);

static bool tless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct tnode, rb)->key < container_of(b, struct tnode, rb)->key;
}

static bool rless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct rnode, rb)->key < container_of(b, struct rnode, rb)->key;
}

#endif
