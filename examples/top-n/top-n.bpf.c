// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Keep the N largest scores seen, in an rbtree of allocated nodes:
 * add_score() inserts each score and, past N nodes, removes the
 * smallest; read_top() empties the tree in ascending order into
 * "top". Written for the 7.1 API (bpf_obj_new(type_id),
 * bpf_rbtree_add(root, node, less)); libmagic-kfunc makes the same
 * object run on 6.12 - 7.0, where only the _impl forms exist and the
 * verifier wants the node offset register set before each add.
 */
#include "../common/example.bpf.h"
#include <bpf/bpf_core_read.h>

#define TOP_N 4		/* as in top-n.c */

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

struct entry {
	__u64 score;
	struct bpf_rb_node rb;
};

private(T) struct bpf_spin_lock lock;
private(T) struct bpf_rb_root root __contains(entry, rb);

__u32 size;		/* nodes in the tree, under the lock */
__u64 top[TOP_N];	/* read_top()'s result, smallest first */
__u32 top_cnt;

struct score {
	__u64 value;
};

static _Bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct entry, rb)->score <
	       container_of(b, struct entry, rb)->score;
}

/* Take the smallest entry out of the tree; its score, or -1 if empty. */
static __noinline long take_smallest(void)
{
	struct bpf_rb_node *n;
	struct entry *e;
	long score;

	bpf_spin_lock(&lock);
	n = bpf_rbtree_first(&root);
	if (!n) {
		bpf_spin_unlock(&lock);
		return -1;
	}
	n = bpf_rbtree_remove(&root, n);
	if (n)
		size--;
	bpf_spin_unlock(&lock);
	if (!n)
		return -1;
	e = container_of(n, struct entry, rb);
	score = (long)e->score;
	mkf_obj_drop(e);
	return score;
}

SEC("syscall")
int add_score(struct score *in)
{
	struct entry *e;
	__u32 now;

	if (!mkf_graph_exists())
		return EXAMPLE_RET_UNSUPPORTED;
	e = mkf_compat_obj_new(struct entry);
	if (!e)
		return 1;
	e->score = in->value;
	bpf_spin_lock(&lock);
	mkf_rbtree_add(&root, &e->rb, less);
	now = ++size;
	bpf_spin_unlock(&lock);
	if (now > TOP_N && take_smallest() < 0)
		return 2;
	return 0;
}

SEC("syscall")
int read_top(void *ctx)
{
	int i;

	if (!mkf_graph_exists())
		return EXAMPLE_RET_UNSUPPORTED;
	top_cnt = 0;
	for (i = 0; i < TOP_N; i++) {
		long s = take_smallest();

		if (s < 0)
			break;
		top[i] = (__u64)s;
		top_cnt = i + 1;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
