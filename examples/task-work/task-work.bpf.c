// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Run a callback in a task's own context: schedule_on() asks the kernel
 * to run task_cb() when the given task next returns to user space
 * (bpf_task_work_schedule_resume). The callback records which task it
 * ran in. Written for the 7.x API (4 arguments); libmagic-kfunc makes
 * the same object run on 6.18/6.19 (_impl form).
 *
 * The task_work kfuncs are registered for every program type, so a
 * SEC("syscall") program run by BPF_PROG_TEST_RUN can use them: the
 * loader passes its own pid, and the callback runs as the bpf(2) call
 * that ran the program returns.
 */
#include "../common/example.bpf.h"

/* Kernel kfuncs every catalogue kernel has (6.2 and later). */
extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

struct work {
	struct bpf_task_work tw;
	__u32 ran_in_pid;	/* tgid of the task the callback ran in */
	__u32 runs;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct work);
} works SEC(".maps");

struct request {
	__s32 pid;
};

static int task_cb(struct bpf_map *map, void *key, void *value)
{
	struct work *w = value;

	w->ran_in_pid = bpf_get_current_pid_tgid() >> 32;
	__sync_fetch_and_add(&w->runs, 1);
	return 0;
}

SEC("syscall")
int schedule_on(struct request *req)
{
	struct task_struct *task;
	struct work *w;
	__u32 key = 0;
	int err;

	if (!mkf_task_work_schedule_resume_exists())
		return EXAMPLE_RET_UNSUPPORTED;
	w = bpf_map_lookup_elem(&works, &key);
	if (!w)
		return 1;
	task = bpf_task_from_pid(req->pid);
	if (!task)
		return 2;
	err = mkf_task_work_schedule_resume(task, &w->tw, &works, task_cb);
	bpf_task_release(task);
	return err ? 3 : 0;
}

char LICENSE[] SEC("license") = "GPL";
