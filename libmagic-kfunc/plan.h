/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The plan's layout, shared by plan.c (compute, report) and plan_apply.c (apply). */
#ifndef MKF_PLAN_H
#define MKF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

#include "btf_out.h"

#include "magic_kfunc.h"

struct mkf_obj;

struct mkf_plan_entry {
	char *name;
	bool weak;
	size_t sym_idx;
	__u32 func_id;
	int nparams;			/* the program's parameter count */
	enum mkf_decision decision;
	enum mkf_rule rule;
	char *kernel_name;		/* NULL unless bound */
	/*
	 * A weak extern left alone that libbpf would still find: the name,
	 * absent from every kernel, it takes so that libbpf resolves it to 0.
	 */
	char *hidden_name;
	char *module;			/* NULL for vmlinux */
	enum mkf_proto_change change;
	int delta;
	__u32 set_regs;			/* registers set to 0 before each call */
	size_t call_cnt;		/* calls to the extern in the object */
	enum mkf_libbpf_outcome libbpf;
	char *reason;
	long merged_into;		/* entry now carrying the calls, or -1 */
	const char *merged_name;	/* that entry's name (same array) */
	bool name_clash;		/* another extern has or takes its (new) name */
	/*
	 * MKF_PROTO_EXTEND: the kernel prototype, copied into plan->types,
	 * whose params [nparams, nparams + delta) get appended;
	 * MKF_PROTO_RETYPE: the one whose params replace the program's.
	 */
	__u32 extra_proto;
};

struct mkf_plan {
	struct mkf_plan_entry *entries;
	size_t entry_cnt;
	size_t sym_cnt;			/* of the object planned for */
	/* Kernel types needed to extend prototypes, copied so that the
	 * plan does not depend on the kernel object's lifetime: collected
	 * in imports while the plan is computed, then parsed into types
	 * (NULL when no entry needed any). */
	struct mkf_btf_out *imports;
	struct btf *types;
	size_t unresolved_cnt;
	size_t change_cnt;
	/*
	 * The object as read for the plan, kept for the rewrite so that it
	 * is not read again (taken by the first mkf_object__rewrite() given
	 * the same bytes but for the DWARF, obj_image.h; NULL once taken or
	 * dropped).
	 */
	struct mkf_obj *obj;
};

/* The plan's parsed view of its object, if the bytes are the same; else NULL. */
struct mkf_obj *mkf_plan_take_obj(const struct mkf_plan *plan, const void *buf, size_t sz);
/* Drop the plan's view: no rewrite will take it. */
void mkf_plan_drop_obj(struct mkf_plan *plan);
/* Release a parsed view (from mkf_plan_take_obj()); NULL is fine. */
void mkf_plan_obj_free(struct mkf_obj *obj);

/* Whether applying this entry changes the object. */
bool mkf_entry_changes(const struct mkf_plan_entry *e);

#endif
