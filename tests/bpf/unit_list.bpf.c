// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Written for 7.2+: bpf_list_push_back() without the verifier-filled offset. */
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

SEC("tc")
int push(void *ctx)
{
	int key = 0;
	struct elem *e = bpf_map_lookup_elem(&list_map, &key);

	if (!e)
		return 0;
	return bpf_list_push_back(&e->head, &e->node);
}

char LICENSE[] SEC("license") = "GPL";
