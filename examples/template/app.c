// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * app [N]: open the skeleton through libmagic-kfunc (the object is
 * rewritten for the running kernel), say what each kfunc extern was
 * bound to, load, run kick() N times (default 3) with
 * BPF_PROG_TEST_RUN, wait for the deferred work and check the count.
 *
 * Exit status: 0 done, 1 failure (see stderr), 3 this kernel has no
 * form of the kfunc, 64 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <magic-kfunc/magic_kfunc.h>
#include "app.skel.h"

#define SLOTS 16		/* as in app.bpf.c */
#define RET_UNSUPPORTED 95	/* what kick() returns without the kfunc */

/* One line per kfunc extern: what the library decided, and why. */
static void print_plan(const struct mkf_plan *plan)
{
	size_t i;

	for (i = 0; i < mkf_plan__entry_cnt(plan); i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);

		if (mkf_plan_entry__decision(e) == MKF_DECISION_BIND)
			printf("%s -> %s (rule %s)\n", mkf_plan_entry__name(e),
			       mkf_plan_entry__kernel_name(e),
			       mkf_rule_str(mkf_plan_entry__rule(e)));
		else	/* the reason's first line; MKF_LOG_LEVEL=debug logs it all */
			printf("%s: %.*s\n", mkf_plan_entry__name(e),
			       (int)strcspn(mkf_plan_entry__reason(e), "\n"),
			       mkf_plan_entry__reason(e));
	}
}

/* The callbacks run in kernel workers: give them up to two seconds. */
static __u64 wait_count(volatile __u64 *count, __u64 want)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	int i;

	for (i = 0; i < 2000 && *count < want; i++)
		nanosleep(&ms, NULL);
	return *count;
}

static int run(struct app *skel, unsigned int n)
{
	int fd = bpf_program__fd(skel->progs.kick);
	unsigned int i;
	__u64 got;

	for (i = 0; i < n; i++) {
		struct { __u32 slot; } args = { .slot = i };
		LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = &args,
			    .ctx_size_in = sizeof(args));

		if (bpf_prog_test_run_opts(fd, &topts)) {
			fprintf(stderr, "app: test run: %s\n", strerror(errno));
			return 1;
		}
		if (topts.retval == RET_UNSUPPORTED) {
			printf("app: bpf_wq_set_callback: not supported by this kernel\n");
			return 3;
		}
		if (topts.retval) {
			fprintf(stderr, "app: kick() returned %u\n", topts.retval);
			return 1;
		}
	}
	got = wait_count(&skel->bss->count, n);
	printf("app: %u runs, count = %llu\n", n, (unsigned long long)got);
	return got == n ? 0 : 1;
}

/*
 * The skeleton's app__open(), through libmagic-kfunc, in the steps that
 * leave the plan in our hands: read the embedded object once, plan it
 * for the running kernel, print the plan, open the skeleton as the plan
 * rewrites it. (Without the printing, one call does it all:
 * MKF_SKEL_OPEN(app, NULL, NULL).)
 */
static struct app *open_app(void)
{
	struct app *skel = calloc(1, sizeof(*skel));
	struct mkf_kernel *kernel = NULL;
	struct mkf_object *obj = NULL;
	struct mkf_plan *plan = NULL;
	int err = skel ? app__create_skeleton(skel) : -ENOMEM;

	if (!err) {
		MKF_OPTS(mkf_object_opts, oo, .object_name = skel->skeleton->name);

		kernel = mkf_kernel__load(NULL);	/* the running kernel */
		obj = kernel ? mkf_object__new(skel->skeleton->data, skel->skeleton->data_sz,
					       &oo) : NULL;
		plan = obj ? mkf_plan__compute(obj, kernel, NULL) : NULL;
		err = plan ? 0 : -errno;
	}
	if (plan) {
		print_plan(plan);
		/* A strong extern that fits nothing: loading would fail. */
		if (mkf_plan__unresolved_cnt(plan))
			fprintf(stderr, "app: %zu strong kfunc extern(s) fit nothing in the target "
				"kernel\n", mkf_plan__unresolved_cnt(plan));
		err = mkf_plan__unresolved_cnt(plan) ? -ESRCH
						     : mkf_skeleton__open(skel->skeleton, obj, plan, NULL);
	}
	mkf_plan__free(plan);
	mkf_object__free(obj);
	mkf_kernel__free(kernel);
	if (err) {
		app__destroy(skel);
		errno = -err;
		return NULL;
	}
	return skel;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 3;
	struct app *skel;
	int rc;

	if (argc > 2 || n < 1 || n > SLOTS) {
		fprintf(stderr, "usage: app [N]   (N from 1 to %d)\n", SLOTS);
		return 64;
	}
	skel = open_app();
	if (!skel) {
		fprintf(stderr, "app: cannot open the object: %s\n", strerror(errno));
		return 1;
	}
	if (app__load(skel)) {
		fprintf(stderr, "app: the kernel refused the program\n");
		rc = 1;
	} else {
		rc = run(skel, n);
	}
	app__destroy(skel);
	return rc;
}
