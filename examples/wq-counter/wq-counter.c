// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * wq-counter [--plain] [N]: run the BPF program count_event() N times
 * (default 5) with BPF_PROG_TEST_RUN; each run defers one increment of
 * a counter to a bpf_wq callback. Waits for the callbacks, prints the
 * count and checks it is N.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <magic-kfunc/magic_kfunc.h>
#include "example.h"
/* Through -I: the NAME-compat build finds compat/wq-counter.skel.h instead. */
#include <wq-counter.skel.h>

#define KFUNC "bpf_wq_set_callback"
#define SLOTS 16	/* as in wq-counter.bpf.c */

/* Wait up to two seconds for the workers to catch up. */
static __u64 wait_count(volatile __u64 *count, __u64 want)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	int i;

	for (i = 0; i < 2000 && *count < want; i++)
		nanosleep(&ms, NULL);
	return *count;
}

static int run(const struct example *ex, struct wq_counter *skel, unsigned int n)
{
	int fd = bpf_program__fd(skel->progs.count_event);
	unsigned int i;
	__u64 got;

	for (i = 0; i < n; i++) {
		struct { __u32 slot; } ev = { .slot = i };
		int rc = example_run(ex, fd, "count_event()", &ev, sizeof(ev), KFUNC);

		if (rc != EXAMPLE_OK)
			return rc;
	}
	got = wait_count(&skel->bss->count, n);
	printf("%s: %u events, count = %llu\n", ex->name, n, (unsigned long long)got);
	return got == n ? EXAMPLE_OK : EXAMPLE_FAIL;
}

int main(int argc, char **argv)
{
	struct example ex;
	struct wq_counter *skel;
	unsigned int n = 5;
	int rc;

	example_init(&ex, argc, argv, "[N]");
	if (ex.argc > 0)
		n = (unsigned int)strtoul(ex.argv[0], NULL, 10);
	if (n < 1 || n > SLOTS) {
		fprintf(stderr, "%s: N must be 1 to %d\n", ex.name, SLOTS);
		return EXAMPLE_USAGE;
	}

	if (ex.plain) {
		skel = calloc(1, sizeof(*skel));
		if (!skel || wq_counter__create_skeleton(skel)) {
			fprintf(stderr, "%s: out of memory\n", ex.name);
			wq_counter__destroy(skel);
			return EXAMPLE_FAIL;
		}
		rc = example_open_plain(&ex, skel->skeleton);
	} else {
		/*
		 * Instead of wq_counter__open(): the embedded object is read
		 * once, planned for the running kernel (the plan says what
		 * each kfunc extern binds to), and the skeleton opened as the
		 * plan rewrites it. MKF_SKEL_OPEN(wq_counter, NULL, NULL)
		 * does the same in one call, keeping the plan to itself.
		 */
		struct mkf_kernel *k = mkf_kernel__load(NULL);
		struct mkf_object *obj = NULL;
		struct mkf_plan *plan = NULL;
		int err;

		skel = calloc(1, sizeof(*skel));
		err = skel ? wq_counter__create_skeleton(skel) : -ENOMEM;
		if (!err && k) {
			MKF_OPTS(mkf_object_opts, oo, .object_name = skel->skeleton->name);

			obj = mkf_object__new(skel->skeleton->data, skel->skeleton->data_sz, &oo);
			plan = obj ? mkf_plan__compute(obj, k, NULL) : NULL;
		}
		if (!err)
			err = !plan ? -errno : mkf_plan__unresolved_cnt(plan) ? -ESRCH
						: mkf_skeleton__open(skel->skeleton, obj, plan, NULL);
		rc = example_report(&ex, err, plan, KFUNC);
		mkf_plan__free(plan);
		mkf_object__free(obj);
		mkf_kernel__free(k);
	}
	if (rc == EXAMPLE_OK)
		rc = example_load(&ex, skel->skeleton);
	if (rc == EXAMPLE_OK)
		rc = run(&ex, skel, n);
	wq_counter__destroy(skel);
	return rc;
}
