/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The resolver: one kfunc extern + the kernel index -> one decision
 * (DESIGN.md section 3, rules 1-6, first match wins). Pure: reads BTF
 * already in memory, no I/O, no logging.
 */
#ifndef MKF_RESOLVE_H
#define MKF_RESOLVE_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "magic_kfunc.h"
#include "kernel_btf.h"
#include "obj_externs.h"

struct mkf_resolution {
	enum mkf_decision decision;
	int rule;				/* 1-5 bound, 6 left alone */
	const struct mkf_kfunc *target;		/* bound FUNC, else NULL */
	enum mkf_proto_change change;
	/*
	 * Params appended (> 0) or dropped (< 0). Appended params are
	 * target's parameters [n, n + delta) of its own prototype, n
	 * being the program's parameter count.
	 */
	int delta;
	bool refused;				/* see mkf_plan_entry__refused() */
	enum mkf_libbpf_outcome libbpf;		/* what plain libbpf would do */
	char *reason;				/* malloc'd, never NULL on success */
};

/* 0 on success (whatever the decision), negative errno on failure. */
int mkf_resolve(const struct mkf_kernel *kernel, const struct btf *local_btf,
		const struct mkf_extern *ext, struct mkf_resolution *res);
void mkf_resolution_free(struct mkf_resolution *res);

#endif
