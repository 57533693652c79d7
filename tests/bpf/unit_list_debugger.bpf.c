// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A program in a section whose name starts with ".debug" without being
 * DWARF (libbpf ignores ".debug_*" only), calling two subprograms: the
 * rewrite inserts "R4 = 0" before the push in the first, and the call
 * to the second, placed after it, must keep pointing at the second.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: refused where unresolved */
#include <magic-kfunc/bpf_obj.h>

struct elem {
	struct bpf_list_head head;
	struct bpf_list_node node;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} list_map SEC(".maps");

/* In .text: first, then second (clang orders them by their calls). */
static __noinline int second(int x)
{
	return x + 1;
}

static __noinline int first(struct elem *e)
{
	return bpf_list_push_back(&e->head, &e->node);
}

SEC(".debugger")
int push(void *ctx)
{
	int key = 0, x;
	struct elem *e = bpf_map_lookup_elem(&list_map, &key);

	if (!e)
		return 0;
	x = first(e);
	return second(x);
}

char LICENSE[] SEC("license") = "GPL";
