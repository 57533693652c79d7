// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Build check of the BPF-side headers (never loaded): every kfunc and
 * macro used once, as a program would, against Debian 12's <linux/bpf.h>.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#define MKF_DEFINE_UAPI_TYPES
#include <magic-kfunc/bpf_kfuncs.h>

struct node {
	struct bpf_rb_node rb;
	struct bpf_list_node list;
	struct bpf_refcount ref;
	long key;
};

struct value {
	struct bpf_wq wq;
	struct bpf_task_work tw;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct value);
} values SEC(".maps");

static int wq_cb(void *map, int *key, void *value)
{
	return 0;
}

static int tw_cb(struct bpf_map *map, void *key, void *value)
{
	return 0;
}

SEC("syscall")
int check(void *ctx)
{
	struct task_struct *task = ctx;
	struct value *v;
	struct node *n;
	__u32 key = 0;

	v = bpf_map_lookup_elem(&values, &key);
	if (!v)
		return 0;
	if (mkf_wq_set_callback_exists()) {
		bpf_wq_init(&v->wq, &values, 0);
		mkf_wq_set_callback(&v->wq, wq_cb, 0);
		bpf_wq_start(&v->wq, 0);
	}
	if (mkf_stream_vprintk_exists())
		bpf_stream_printk(BPF_STDERR, "%d %s\n", 1, "two");
	if (mkf_task_work_schedule_resume_exists()) {
		mkf_task_work_schedule_resume(task, &v->tw, &values, tw_cb);
		mkf_task_work_schedule_signal(task, &v->tw, &values, tw_cb);
	}
	n = mkf_obj_new(struct node);
	if (n)
		bpf_obj_drop(n);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
