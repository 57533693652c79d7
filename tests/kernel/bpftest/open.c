// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Opening a BPF object: with plain libbpf, or through libmagic-kfunc,
 * which rewrites the object's kfunc externs for the running kernel
 * (its BTF in /sys/kernel/btf, or the file of --btf) before libbpf
 * sees it.
 */
#include <errno.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "magic_kfunc.h"
#include "bpftest.h"

static const char *change_name(const struct mkf_plan_entry *e)
{
	switch (mkf_plan_entry__proto_change(e)) {
	case MKF_PROTO_EXTEND:
		return "extended";
	case MKF_PROTO_SHRINK:
		return "shrunk";
	case MKF_PROTO_RETYPE:
		return "retyped";
	default:
		return "same prototype";
	}
}

/* One line per kfunc extern, so a guest log shows what was decided. */
static void print_plan(const struct bt_case *c, const struct mkf_plan *plan)
{
	size_t i;

	for (i = 0; i < mkf_plan__entry_cnt(plan); i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);

		if (mkf_plan_entry__decision(e) == MKF_DECISION_BIND) {
			__u32 regs = mkf_plan_entry__set_regs(e);
			int r;

			printf("# %s: %s -> %s (rule %s, %s", c->label, mkf_plan_entry__name(e),
			       mkf_plan_entry__kernel_name(e), mkf_rule_str(mkf_plan_entry__rule(e)),
			       change_name(e));
			for (r = 1; r <= 5; r++)
				if (regs & (1u << r))
					printf(", R%d = 0", r);
			if (regs)
				printf(" before %zu calls", mkf_plan_entry__call_site_cnt(e));
			printf(")\n");
		} else {
			printf("# %s: %s left alone: %s\n", c->label, mkf_plan_entry__name(e),
			       mkf_plan_entry__reason(e));
		}
	}
}

struct bpf_object *bt_open_object(const struct bt_case *c)
{
	LIBBPF_OPTS(bpf_object_open_opts, lopts, .btf_custom_path = c->btf);
	MKF_OPTS(mkf_kernel_opts, kopts, .vmlinux_path = c->btf);
	struct bpf_object *obj = NULL;
	struct mkf_object *mo = NULL;
	struct mkf_kernel *k = NULL;
	struct mkf_plan *plan = NULL;
	int err;

	/* libbpf >= 1.0 returns NULL and sets errno on failure. */
	if (!c->mkf)
		return bpf_object__open_file(c->obj, &lopts);

	if (c->cache_dir) {
		MKF_OPTS(mkf_open_opts, copts, .cache_dir = c->cache_dir);

		return mkf_object__open_file(c->obj, &lopts, &copts);
	}
	/* The plan printed: read, plan and open in three steps. */
	k = mkf_kernel__load(c->btf ? &kopts : NULL);
	mo = k ? mkf_object__new_file(c->obj, NULL) : NULL;
	plan = mo ? mkf_plan__compute(mo, k, NULL) : NULL;
	if (!plan) {
		err = errno;
	} else if (mkf_plan__unresolved_cnt(plan)) {
		/* The one-call open refuses it (ESRCH), in its own words. */
		obj = mkf_object__open_file(c->obj, &lopts, NULL);
		err = obj ? 0 : errno;
	} else {
		print_plan(c, plan);
		obj = mkf_object__open(mo, plan, &lopts);
		err = obj ? 0 : errno;
	}
	mkf_plan__free(plan);
	mkf_object__free(mo);
	mkf_kernel__free(k);
	errno = err;
	return obj;
}
