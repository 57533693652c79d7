// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * task-work [--plain]: run the BPF program schedule_on() once with this
 * process's pid; its task_work callback must then run in this process
 * (on the way back from the bpf(2) call). Prints the pid the callback
 * saw and checks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "example.h"
/* Through -I: the NAME-compat build finds compat/task-work.skel.h instead. */
#include <task-work.skel.h>

#define KFUNC "bpf_task_work_schedule_resume"

/* The map value, as in task-work.bpf.c. */
struct work {
	__u64 tw;
	__u32 ran_in_pid;
	__u32 runs;
};

/* Poll the map for up to two seconds: the kernel may defer the work. */
static int wait_work(int map_fd, struct work *w)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	__u32 key = 0;
	int i;

	for (i = 0; i < 2000; i++) {
		if (bpf_map_lookup_elem(map_fd, &key, w))
			return -1;
		if (w->runs)
			return 0;
		nanosleep(&ms, NULL);
	}
	return 0;
}

static int run(const struct example *ex, struct task_work *skel)
{
	struct { __s32 pid; } req = { .pid = getpid() };
	struct work w;
	int rc;

	rc = example_run(ex, bpf_program__fd(skel->progs.schedule_on), "schedule_on()", &req,
			 sizeof(req), KFUNC);
	if (rc != EXAMPLE_OK)
		return rc;
	if (wait_work(bpf_map__fd(skel->maps.works), &w)) {
		fprintf(stderr, "%s: map lookup failed\n", ex->name);
		return EXAMPLE_FAIL;
	}
	printf("%s: callback ran %u time(s), in pid %u (this process: %d)\n", ex->name, w.runs,
	       w.ran_in_pid, req.pid);
	return w.runs == 1 && w.ran_in_pid == (__u32)req.pid ? EXAMPLE_OK : EXAMPLE_FAIL;
}

int main(int argc, char **argv)
{
	struct example ex;
	struct task_work *skel;
	int rc;

	example_init(&ex, argc, argv, "");
	skel = calloc(1, sizeof(*skel));
	if (!skel || task_work__create_skeleton(skel)) {
		fprintf(stderr, "%s: out of memory\n", ex.name);
		return EXAMPLE_FAIL;
	}
	/* The library's open call, as wq-counter.c spells it out. */
	rc = example_open_load(&ex, skel->skeleton, KFUNC);
	if (rc == EXAMPLE_OK)
		rc = run(&ex, skel);
	task_work__destroy(skel);
	return rc;
}
