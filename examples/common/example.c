// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "example.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <magic-kfunc/magic_kfunc.h>

void example_init(struct example *ex, int argc, char **argv, const char *usage)
{
	int i = 1;

	ex->name = argv[0];
	ex->plain = false;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--plain")) {
			ex->plain = true;
		} else {
			fprintf(stderr, "usage: %s [--plain] %s\n", argv[0], usage);
			exit(EXAMPLE_USAGE);
		}
	}
	ex->argc = argc - i;
	ex->argv = argv + i;
}

int example_open_plain(const struct example *ex, struct bpf_object_skeleton *s)
{
	int err = bpf_object__open_skeleton(s, NULL);

	if (err) {
		fprintf(stderr, "%s: libbpf cannot open the object: %s\n", ex->name, strerror(-err));
		return EXAMPLE_FAIL;
	}
	printf("%s: opened with plain libbpf\n", ex->name);
	return EXAMPLE_OK;
}

int example_report(const struct example *ex, int err, const struct mkf_plan *plan,
		   const char *kfunc)
{
	const struct mkf_plan_entry *e;

	if (err == -ESRCH && plan) {
		/* Each extern's reason is in the library's log above. */
		fprintf(stderr, "%s: %zu strong kfunc extern(s) fit nothing in the target kernel\n",
			ex->name, mkf_plan__unresolved_cnt(plan));
		return EXAMPLE_FAIL;
	}
	if (err) {
		fprintf(stderr, "%s: libmagic-kfunc cannot open the object: %s\n", ex->name,
			strerror(-err));
		return EXAMPLE_FAIL;
	}
	e = mkf_plan__find_entry(plan, kfunc);
	if (!e)
		return EXAMPLE_OK;	/* the compiler dropped the call */
	if (mkf_plan_entry__decision(e) != MKF_DECISION_BIND) {
		/* A weak extern with nothing to bind: the kernel lacks it. */
		printf("%s: %s: %s\n", ex->name, kfunc, mkf_plan_entry__reason(e));
		return example_unsupported(ex, kfunc);
	}
	printf("%s: %s bound to %s (rule %s)\n", ex->name, kfunc, mkf_plan_entry__kernel_name(e),
	       mkf_rule_str(mkf_plan_entry__rule(e)));
	return EXAMPLE_OK;
}

int example_open_load(const struct example *ex, struct bpf_object_skeleton *s,
		      const char *kfunc)
{
	int rc, err;

	if (ex->plain) {
		rc = example_open_plain(ex, s);
	} else {
		struct mkf_kernel *k = mkf_kernel__load(NULL);
		MKF_OPTS(mkf_object_opts, oo, .object_name = s->name);
		struct mkf_object *obj = k ? mkf_object__new(s->data, s->data_sz, &oo) : NULL;
		struct mkf_plan *plan = obj ? mkf_plan__compute(obj, k, NULL) : NULL;

		err = !plan ? -errno : mkf_plan__unresolved_cnt(plan) ? -ESRCH
					: mkf_skeleton__open(s, obj, plan, NULL);
		rc = example_report(ex, err, plan, kfunc);
		mkf_plan__free(plan);
		mkf_object__free(obj);
		mkf_kernel__free(k);
	}
	return rc == EXAMPLE_OK ? example_load(ex, s) : rc;
}

int example_load(const struct example *ex, struct bpf_object_skeleton *s)
{
	/* What the skeleton's NAME__load() does. */
	if (bpf_object__load_skeleton(s)) {
		fprintf(stderr, "%s: the kernel refused the program\n", ex->name);
		return EXAMPLE_FAIL;
	}
	return EXAMPLE_OK;
}

int example_run(const struct example *ex, int prog_fd, const char *prog, void *ctx,
		size_t ctx_sz, const char *kfunc)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = ctx, .ctx_size_in = ctx_sz);
	int ret;

	if (bpf_prog_test_run_opts(prog_fd, &topts)) {
		fprintf(stderr, "%s: test run failed: %s\n", ex->name, strerror(errno));
		return EXAMPLE_FAIL;
	}
	ret = (int)topts.retval;
	if (ret == EXAMPLE_RET_UNSUPPORTED)
		return example_unsupported(ex, kfunc);
	if (ret) {
		fprintf(stderr, "%s: %s returned %d\n", ex->name, prog, ret);
		return EXAMPLE_FAIL;
	}
	return EXAMPLE_OK;
}

int example_unsupported(const struct example *ex, const char *kfunc)
{
	printf("%s: %s: not supported by this kernel\n", ex->name, kfunc);
	return EXAMPLE_UNSUPPORTED;
}
