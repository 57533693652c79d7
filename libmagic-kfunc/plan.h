/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The plan's layout, shared by plan.c (compute, report) and plan_apply.c (apply). */
#ifndef MKF_PLAN_H
#define MKF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

#include "btf_out.h"
#include "resolve.h"

#include "magic_kfunc.h"

struct mkf_obj;

/* Why a binding was not written after all. */
enum mkf_revert {
	MKF_REVERT_NONE = 0,
	MKF_REVERT_LIBBPF_FINDS_OTHER,	/* libbpf would find another function under its name */
	MKF_REVERT_STRONG_KEEPS_NAME,	/* a strong extern left alone has that name */
	MKF_REVERT_OBJECT_HOLDS_NAME,	/* something not a static subprogram has it */
};

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
	 * The name the extern has in the output: its own where plain
	 * libbpf finds the bound function under it (minimal edit), else
	 * kernel_name; hidden_name when hidden; name when left alone.
	 * Points into this entry (or, merged, into the entry carrying it).
	 */
	const char *out_name;
	/* out_name when it is kernel_name plus the extern's ___flavor. */
	char *flavored_name;
	bool keep_name;			/* bound, and out_name is name */
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
	/* The words for all below, made by say_entry() when asked; else NULL. */
	char *reason;
	/* While the plan is computed: the resolver's answer (kernel pointers). */
	struct mkf_resolution res;
	/*
	 * A binding the plan could not write (revert_entry()): why, and
	 * what it had planned (the names it freed from the fields above).
	 */
	enum mkf_revert revert;
	char *revert_look;		/* the name libbpf would look up */
	char *revert_name;		/* the name the extern was to take */
	char *revert_found;		/* what libbpf finds under it, NULL: nothing */
	const char *revert_keeper;	/* the strong extern keeping the name */
	size_t revert_syms, revert_btfs;	/* what else holds the name */
	char *planned_kernel, *planned_flavored;
	/* A static subprogram renamed for this extern: its new name (plan->renames'). */
	const char *clash_rename;
	size_t clash_syms, clash_btfs;
	long merged_into;		/* entry now carrying the calls, or -1 */
	const char *merged_name;	/* that entry's name (same array) */
	bool name_clash;		/* another extern has or takes its (new) name */
	/* Left alone, its name taken by a renamed extern: hide it. */
	bool hide_for_clash;
	/*
	 * The bound FUNC (kernel-owned: valid while the kernel lives,
	 * mkf_plan_entry__func()); NULL unless bound, and in plans read
	 * from the rewrite cache.
	 */
	const struct mkf_func *target;
	/*
	 * MKF_PROTO_EXTEND: the kernel prototype, copied into plan->types,
	 * whose params [nparams, nparams + delta) get appended;
	 * MKF_PROTO_RETYPE: the one whose params replace the program's.
	 */
	__u32 extra_proto;
};

/*
 * A static function renamed so that an extern can take its name (see
 * struct mkf_name_holders): a symbol (sym_idx) or a BTF FUNC (btf_id).
 */
struct mkf_plan_rename {
	size_t sym_idx;			/* SIZE_MAX for a BTF FUNC */
	__u32 btf_id;			/* 0 for a symbol */
	char *new_name;			/* owned by the first of a name's renames */
	const char *name;		/* the new name */
	const char *old_name;		/* the name it had (an entry's out_name) */
};

struct mkf_plan {
	struct mkf_plan_entry *entries;
	size_t entry_cnt;
	struct mkf_plan_rename *renames;
	size_t rename_cnt;
	size_t sym_cnt;			/* of the object planned for */
	/* Kernel types needed to extend prototypes, copied so that the
	 * plan does not depend on the kernel object's lifetime: collected
	 * in imports while the plan is computed, then parsed into types
	 * (NULL when no entry needed any). */
	struct mkf_btf_out *imports;
	struct btf *types;
	size_t unresolved_cnt;
	size_t change_cnt;
};

struct mkf_libbpf_model;
/*
 * The plan for an object already parsed (object.h), against kernel, for
 * a given libbpf. Reads obj, keeps nothing of it. Reasons are put into
 * words for the log when it prints them, and for every entry when
 * words is set (a plan someone may ask mkf_plan_entry__reason() of).
 * NULL with errno set.
 */
struct mkf_plan *mkf_plan_compute_obj(const struct mkf_obj *obj, const char *name,
				      const struct mkf_kernel *kernel,
				      const struct mkf_plan_opts *opts,
				      const struct mkf_libbpf_model *lbm, bool words);
/* Whether plan describes this very object: same externs, same symbols. */
bool mkf_plan_fits(const struct mkf_plan *plan, const struct mkf_obj *obj);
/* Apply plan to obj (the object it was computed for): *new_buf as mkf_object__rewrite(). */
int mkf_obj_apply(const struct mkf_obj *obj, const struct mkf_plan *plan, void **new_buf,
		  size_t *new_sz);

/*
 * The bytes read, then planned for a given libbpf, in one call (for
 * tests that model another libbpf than the linked one).
 */
struct mkf_plan *mkf_plan_compute_for(const void *obj_buf, size_t obj_buf_sz,
				      const struct mkf_kernel *kernel,
				      const struct mkf_plan_opts *opts,
				      const struct mkf_libbpf_model *lbm);

/* Whether applying this entry changes the object. */
bool mkf_entry_changes(const struct mkf_plan_entry *e);

#endif
