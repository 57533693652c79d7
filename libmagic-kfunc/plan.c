// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Compute a plan for an object (resolve every kfunc extern, merge
 * externs ending on one kernel function) and report it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf_edit.h"
#include "btf_util.h"
#include "libbpf_model.h"
#include "log.h"
#include "object.h"
#include "opts.h"
#include "plan.h"
#include "resolve.h"
#include "strbuf.h"

bool mkf_entry_changes(const struct mkf_plan_entry *e)
{
	if (e->decision == MKF_DECISION_WEAKEN || e->hidden_name)
		return true;
	if (e->decision != MKF_DECISION_BIND)
		return false;
	return e->merged_into >= 0 || e->change != MKF_PROTO_SAME || strcmp(e->name, e->out_name) ||
	       (e->set_regs && e->call_cnt);
}

/*
 * The name a bound extern takes: the kernel function's; for a libbpf
 * that strips flavors (1.3 and later), with the extern's own ___flavor
 * kept, so that externs of one function keep apart as their author
 * made them, and a static function named like the kernel's (sched_ext's
 * compat.bpf.h wrappers) never collides with them.
 */
static int rename_entry(struct mkf_plan_entry *e, const struct mkf_extern *ext,
			const struct mkf_libbpf_model *lbm)
{
	size_t elen = mkf_essential_name_len(ext->name), len;

	if (!lbm->flavors || elen == strlen(ext->name)) {
		e->out_name = e->kernel_name;
		return 0;
	}
	len = strlen(e->kernel_name) + strlen(ext->name + elen) + 1;
	e->flavored_name = malloc(len);
	if (!e->flavored_name)
		return -ENOMEM;
	snprintf(e->flavored_name, len, "%s%s", e->kernel_name, ext->name + elen);
	e->out_name = e->flavored_name;
	return 0;
}

static int fill_entry(struct mkf_plan *plan, struct mkf_plan_entry *e,
		      const struct mkf_kernel *kernel, const struct mkf_obj *obj,
		      const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm)
{
	struct mkf_resolution res;
	const char *mod;
	int err, id;

	e->merged_into = -1;
	e->name = strdup(ext->name);
	if (!e->name)
		return -ENOMEM;
	e->out_name = e->name;
	e->weak = ext->weak;
	e->sym_idx = ext->sym_idx;
	e->func_id = ext->func_id;
	e->nparams = btf_vlen(btf__type_by_id(obj->btf, ext->proto_id));

	err = mkf_resolve(kernel, obj->btf, ext, lbm, &res);
	if (err)
		return err;
	e->decision = res.decision;
	e->rule = res.rule;
	e->change = res.change;
	e->delta = res.delta;
	e->set_regs = res.set_regs;
	e->call_cnt = ext->call_cnt;
	e->libbpf = res.libbpf;
	e->keep_name = res.keep_name;
	e->target = res.target;
	e->res = res;
	if (res.target) {
		e->kernel_name = strdup(res.target->name);
		mod = res.target->module_name;
		e->module = mod ? strdup(mod) : NULL;
		if (!e->kernel_name || (mod && !e->module))
			err = -ENOMEM;
		else if (!e->keep_name)
			err = rename_entry(e, ext, lbm);
	}
	if (!err && (res.change == MKF_PROTO_EXTEND || res.change == MKF_PROTO_RETYPE)) {
		id = mkf_btf_import_type(plan->imports, res.target->btf, res.target->proto);
		if (id < 0)
			err = id;
		else
			e->extra_proto = id;
	}
	return err;
}

/*
 * A binding that cannot be written as planned: the extern is left as
 * it is, so that libbpf sees what it would see without the library
 * (never worse than plain libbpf). The reason keeps what was planned:
 * its names move to planned_kernel and planned_flavored.
 */
static void revert_entry(struct mkf_plan_entry *e, enum mkf_revert why)
{
	e->revert = why;
	if (e->libbpf == MKF_LIBBPF_BINDS_UNTAGGED)
		e->decision = MKF_DECISION_LEAVE;
	else
		e->decision = e->weak ? MKF_DECISION_LEAVE_WEAK : MKF_DECISION_UNRESOLVED;
	e->rule = MKF_RULE_NONE;
	e->change = MKF_PROTO_SAME;
	e->delta = 0;
	e->set_regs = 0;
	e->keep_name = false;
	e->target = NULL;
	free(e->module);
	e->module = NULL;
	e->planned_kernel = e->kernel_name;
	e->planned_flavored = e->flavored_name;
	e->kernel_name = NULL;
	e->flavored_name = NULL;
	e->out_name = e->name;
}

/* Whether an output name is free: no symbol, BTF name, extern or new name has it. */
static bool name_free(const struct mkf_plan *plan, const struct mkf_obj *obj, const char *name)
{
	size_t i;

	if (mkf_obj_name_taken(obj, name))
		return false;
	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];

		if (!strcmp(e->name, name) || !strcmp(e->out_name, name) ||
		    (e->hidden_name && !strcmp(e->hidden_name, name)))
			return false;
	}
	for (i = 0; i < plan->rename_cnt; i++)
		if (!strcmp(plan->renames[i].name, name))
			return false;
	return true;
}

/* PREFIX + NAME, or with "_2", "_3"... until the result is free. */
static char *fresh_name(const struct mkf_plan *plan, const struct mkf_obj *obj,
			const char *prefix, const char *name)
{
	size_t len = strlen(prefix) + strlen(name) + 24;
	char *n = malloc(len);
	unsigned int k;

	if (!n)
		return NULL;
	snprintf(n, len, "%s%s", prefix, name);
	for (k = 2; !name_free(plan, obj, n); k++)
		snprintf(n, len, "%s%s_%u", prefix, name, k);
	return n;
}

/*
 * A weak extern (or one weaken_unresolved made weak) that nothing in
 * the kernel fits, under a name that the linked libbpf would still
 * bind (to a function the verifier will not call), refuse with the
 * whole object (libbpf 1.1, another prototype), or that a renamed
 * extern takes: renamed to a name no kernel has, libbpf resolves it
 * to 0 and the program takes its fallback.
 */
static const char *hide_why(const struct mkf_plan_entry *e)
{
	if (e->decision != MKF_DECISION_LEAVE_WEAK && e->decision != MKF_DECISION_WEAKEN)
		return NULL;
	if (e->hide_for_clash)
		return "sharing its name with the extern renamed to it";
	if (e->libbpf == MKF_LIBBPF_INCOMPATIBLE)
		return "refusing its prototype (libbpf 1.1 fails the whole object)";
	if (e->libbpf == MKF_LIBBPF_BINDS_UNCALLABLE)
		return "binding a function the verifier will not call";
	return NULL;
}

static int hide_weak(struct mkf_plan *plan, const struct mkf_obj *obj, struct mkf_plan_entry *e)
{
	if (!hide_why(e))
		return 0;
	e->hidden_name = fresh_name(plan, obj, "mkf_hidden_", e->name);
	if (!e->hidden_name)
		return -ENOMEM;
	e->out_name = e->hidden_name;
	return 0;
}

/*
 * The linked libbpf must find, under each bound extern's output name,
 * the very function the plan chose (from 1.3 on it strips the last
 * ___flavor of that name first): else the binding is not written.
 */
static int check_libbpf_finds(struct mkf_plan *plan, const struct mkf_kernel *kernel,
			      const struct mkf_libbpf_model *lbm)
{
	size_t i;
	int err = 0;

	for (i = 0; i < plan->entry_cnt && !err; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];
		const struct mkf_func *fn;
		char *look;

		if (e->decision != MKF_DECISION_BIND)
			continue;
		look = strndup(e->out_name, mkf_libbpf_lookup_len(lbm, e->out_name));
		if (!look)
			return -ENOMEM;
		fn = mkf_kernel_find(kernel, look);
		if (fn == e->target) {
			free(look);
			continue;
		}
		e->revert_look = look;
		e->revert_name = strdup(e->out_name);
		e->revert_found = fn ? strdup(fn->name) : NULL;
		if (!e->revert_name || (fn && !e->revert_found))
			err = -ENOMEM;
		revert_entry(e, MKF_REVERT_LIBBPF_FINDS_OTHER);
	}
	return err;
}

/* Bound entries renamed to a name of their own (not kept, not merged). */
static bool renamed(const struct mkf_plan_entry *e)
{
	return e->decision == MKF_DECISION_BIND && strcmp(e->name, e->out_name);
}

/*
 * A renamed extern takes a name libbpf will look up in the object's
 * BTF (first VAR or FUNC of the name, which must be the extern) and
 * symbols. What else holds that name decides:
 *  - another extern left alone under it: a weak one is hidden; a strong
 *    one keeps it, and the rename is not made;
 *  - static subprograms (compat.bpf.h's wrappers): renamed, their names
 *    carry no ABI;
 *  - anything else (a global function, a variable, a map, a program):
 *    the rename is not made.
 * Reverting one rename can expose another (the extern keeps its own
 * name): repeated until nothing changes.
 */
static int settle_clashes(struct mkf_plan *plan, const struct mkf_obj *obj)
{
	struct mkf_name_holders h;
	bool changed = true;
	size_t i, j;
	int err = 0;

	while (changed && !err) {
		changed = false;
		for (i = 0; i < plan->entry_cnt && !err; i++) {
			struct mkf_plan_entry *e = &plan->entries[i];

			if (!renamed(e))
				continue;
			for (j = 0; j < plan->entry_cnt && !err; j++) {
				struct mkf_plan_entry *o = &plan->entries[j];

				if (j == i || o->decision == MKF_DECISION_BIND || o->weak ||
				    o->decision == MKF_DECISION_WEAKEN || strcmp(o->name, e->out_name))
					continue;
				o->name_clash = true;
				e->revert_keeper = o->name;
				revert_entry(e, MKF_REVERT_STRONG_KEEPS_NAME);
				changed = true;
			}
			if (err || !renamed(e) || !mkf_obj_name_taken(obj, e->out_name))
				continue;
			err = mkf_obj_name_holders(obj, e->out_name, &h);
			if (!err && !h.static_funcs) {
				e->revert_name = strdup(e->out_name);
				e->revert_syms = h.sym_cnt;
				e->revert_btfs = h.btf_cnt;
				err = e->revert_name ? 0 : -ENOMEM;
				revert_entry(e, MKF_REVERT_OBJECT_HOLDS_NAME);
				e->name_clash = true;
				changed = true;
			}
			mkf_name_holders_free(&h);
		}
	}
	/* The renames that stay: hide the weak externs and rename the static functions. */
	for (i = 0; i < plan->entry_cnt && !err; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];
		struct mkf_plan_rename *r;
		char *nn;

		if (!renamed(e))
			continue;
		for (j = 0; j < plan->entry_cnt; j++) {
			struct mkf_plan_entry *o = &plan->entries[j];

			if (j != i && o->decision != MKF_DECISION_BIND && !strcmp(o->name, e->out_name))
				o->hide_for_clash = o->name_clash = true;
		}
		if (!mkf_obj_name_taken(obj, e->out_name))
			continue;
		/* Several externs may take one name (merged next): rename its holders once. */
		for (j = 0; j < plan->rename_cnt; j++)
			if (!strcmp(plan->renames[j].old_name, e->out_name))
				break;
		if (j < plan->rename_cnt)
			continue;
		err = mkf_obj_name_holders(obj, e->out_name, &h);
		if (err)
			break;
		nn = fresh_name(plan, obj, "mkf_local_", e->out_name);
		r = realloc(plan->renames, (plan->rename_cnt + h.sym_cnt + h.btf_cnt + 1) * sizeof(*r));
		if (!nn || !r) {
			free(nn);
			if (r)
				plan->renames = r;
			mkf_name_holders_free(&h);
			err = -ENOMEM;
			break;
		}
		plan->renames = r;
		for (j = 0; j < h.sym_cnt + h.btf_cnt; j++) {
			r = &plan->renames[plan->rename_cnt++];
			r->sym_idx = j < h.sym_cnt ? h.syms[j] : SIZE_MAX;
			r->btf_id = j < h.sym_cnt ? 0 : h.btf_ids[j - h.sym_cnt];
			r->new_name = j ? NULL : nn;
			r->name = nn;
			r->old_name = e->out_name;
		}
		e->clash_rename = nn;
		e->clash_syms = h.sym_cnt;
		e->clash_btfs = h.btf_cnt;
		mkf_name_holders_free(&h);
	}
	return err;
}

struct bound_entry {
	const char *oname;	/* the extern's output name */
	size_t idx;		/* the entry's position */
};

/* Bound entries ordered by output name, then by position. */
static int cmp_bound(const void *a, const void *b)
{
	const struct bound_entry *x = a, *y = b;
	int c = strcmp(x->oname, y->oname);

	return c ? c : x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Two externs renamed to one name (one kernel function): keep one,
 * point the rest at it. Sorted by output name, each such group is a run
 * (a quadratic scan compared names 4000 times for 64 externs). Externs
 * that keep distinct names of their own bind the same function on
 * their own, in libbpf.
 */
static int merge_entries(struct mkf_plan *plan)
{
	struct bound_entry *b;
	size_t n = 0, i, j, end;
	int err = 0;

	b = malloc((plan->entry_cnt + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (i = 0; i < plan->entry_cnt; i++) {
		if (plan->entries[i].decision != MKF_DECISION_BIND)
			continue;
		b[n].oname = plan->entries[i].out_name;
		b[n++].idx = i;
	}
	qsort(b, n, sizeof(*b), cmp_bound);
	for (i = 0; i < n && !err; i = end) {
		const char *oname = b[i].oname;
		size_t keep = b[i].idx;

		for (end = i + 1; end < n && !strcmp(b[end].oname, oname); end++)
			;
		if (end - i == 1)
			continue;
		/* Prefer the extern already named so. */
		for (j = i; j < end; j++) {
			if (!strcmp(plan->entries[b[j].idx].name, oname)) {
				keep = b[j].idx;
				break;
			}
		}
		for (j = i; j < end && !err; j++) {
			struct mkf_plan_entry *o = &plan->entries[b[j].idx];

			if (b[j].idx == keep)
				continue;
			o->merged_into = (long)keep;
			o->merged_name = plan->entries[keep].name;
			o->out_name = plan->entries[keep].out_name;
		}
	}
	free(b);
	return err;
}

/* On request: strong externs that fit nothing become weak ones. */
static void weaken_unresolved(struct mkf_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->entry_cnt; i++)
		if (plan->entries[i].decision == MKF_DECISION_UNRESOLVED)
			plan->entries[i].decision = MKF_DECISION_WEAKEN;
}

/* Why a binding was not written, after "left alone, rule none: ". */
static void say_revert(const struct mkf_plan_entry *e, const struct mkf_libbpf_model *lbm,
		       struct mkf_sb *sb)
{
	switch (e->revert) {
	case MKF_REVERT_NONE:
		break;
	case MKF_REVERT_LIBBPF_FINDS_OTHER:
		mkf_sb_printf(sb, "%s would look up '%s' for the extern named '%s' and find %s, "
			      "not '%s'", mkf_libbpf_model_str(lbm), e->revert_look, e->revert_name,
			      e->revert_found ?: "nothing", e->planned_kernel);
		break;
	case MKF_REVERT_STRONG_KEEPS_NAME:
		mkf_sb_printf(sb, "the strong extern '%s', left alone, keeps the name '%s'",
			      e->revert_keeper, e->revert_keeper);
		break;
	case MKF_REVERT_OBJECT_HOLDS_NAME:
		mkf_sb_printf(sb, "the object holds the name '%s' for something other than a "
			      "static subprogram (%zu symbols, %zu BTF types), whose name may matter",
			      e->revert_name, e->revert_syms, e->revert_btfs);
		break;
	}
}

/*
 * The words for an entry, from what the resolver and the plan decided:
 * the resolver's, then each step of the plan that changed the entry,
 * in the order the plan takes them. The kernel must still be there.
 */
static char *say_entry(const struct mkf_plan *plan, const struct mkf_plan_entry *e,
		       const struct mkf_obj *obj, const struct mkf_extern *ext,
		       const struct mkf_libbpf_model *lbm)
{
	const char *flavored = e->flavored_name ?: e->planned_flavored;
	struct mkf_sb base = {}, sb = {};
	const char *why, *p;

	mkf_resolution_say(&e->res, obj->btf, ext, lbm, &base);
	if (flavored)
		mkf_sb_printf(&base, "  named '%s' in the object: %s looks '%s' up without its "
			      "flavor\n", flavored, mkf_libbpf_model_str(lbm),
			      e->kernel_name ?: e->planned_kernel);
	if (e->decision == MKF_DECISION_WEAKEN)
		mkf_sb_printf(&base, "  weakened (weaken_unresolved): the extern is made weak, so "
			      "libbpf resolves it to 0 and the program must reach it only behind "
			      "bpf_ksym_exists()\n");
	if (e->revert) {
		mkf_sb_printf(&sb, "left alone, rule none: ");
		say_revert(e, lbm, &sb);
		mkf_sb_printf(&sb, "; libbpf gets the extern as it is\n  planned before: ");
		/* The old reason, each line indented under "planned before". */
		for (p = base.buf; p && *p; p++) {
			mkf_sb_printf(&sb, "%c", *p);
			if (*p == '\n' && p[1])
				mkf_sb_printf(&sb, "    ");
		}
		sb.failed |= base.failed;
		mkf_sb_free(&base);
	} else {
		sb = base;
	}
	if (e->clash_rename)
		mkf_sb_printf(&sb, "  name clash repaired: static subprogram '%s' renamed to '%s' "
			      "(%zu symbol%s, %zu BTF FUNC%s), so that libbpf finds the extern under "
			      "that name\n", e->out_name, e->clash_rename, e->clash_syms,
			      e->clash_syms == 1 ? "" : "s", e->clash_btfs,
			      e->clash_btfs == 1 ? "" : "s");
	if (e->merged_into >= 0)
		mkf_sb_printf(&sb, "  merged: its calls now go through extern '%s' (one extern per "
			      "kernel function)\n", plan->entries[e->merged_into].name);
	why = e->hidden_name ? hide_why(e) : NULL;
	if (why)
		mkf_sb_printf(&sb, "  hidden: renamed to '%s' in the object, a name no kernel has, "
			      "so that libbpf resolves the weak extern to 0 instead of %s\n",
			      e->hidden_name, why);
	return mkf_sb_steal(&sb);
}

/*
 * The level the log gives an entry. Warn about what will fail: an
 * unresolved strong extern, one left to an untagged function the
 * verifier may refuse, a name clash, and a weak extern left alone
 * that libbpf 1.1 refuses (with the whole object) instead of resolving
 * it to 0.
 */
static enum libbpf_print_level entry_level(const struct mkf_plan_entry *e)
{
	if (e->decision == MKF_DECISION_UNRESOLVED || e->decision == MKF_DECISION_LEAVE ||
	    e->name_clash ||
	    (e->decision == MKF_DECISION_LEAVE_WEAK && e->libbpf == MKF_LIBBPF_INCOMPATIBLE &&
	     !e->hidden_name))
		return LIBBPF_WARN;
	if (mkf_entry_changes(e) || e->decision == MKF_DECISION_LEAVE_WEAK ||
	    e->decision == MKF_DECISION_WEAKEN)
		return LIBBPF_INFO;
	return LIBBPF_DEBUG;
}

/* The kernel types the entries imported, as libbpf reads them back. */
static int parse_imports(struct mkf_plan *plan)
{
	void *raw;
	__u32 sz;
	int err = 0;

	if (mkf_btf_out__type_cnt(plan->imports) > 1) {
		raw = mkf_btf_out__finish(plan->imports, &sz, &plan->types);
		if (!raw)
			err = -errno;
		free(raw);
	}
	mkf_btf_out__free(plan->imports);
	plan->imports = NULL;
	return err;
}

/* The hidden names are looked up too: no kernel may have one. */
static int check_hidden(struct mkf_plan *plan, const struct mkf_kernel *kernel,
			const struct mkf_libbpf_model *lbm)
{
	size_t i;

	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];
		char *look;
		bool found;

		if (!e->hidden_name)
			continue;
		look = strndup(e->hidden_name, mkf_libbpf_lookup_len(lbm, e->hidden_name));
		if (!look)
			return -ENOMEM;
		found = mkf_kernel_find(kernel, look);
		free(look);
		if (found) {
			pr_err("extern '%s': the kernel has a function named like its hidden name '%s'\n",
			       e->name, e->hidden_name);
			return -EEXIST;
		}
	}
	return 0;
}

/* The plan for obj (parsed by the caller) on kernel. */
static struct mkf_plan *compute(const struct mkf_obj *obj, const char *obj_name,
				const struct mkf_kernel *kernel, const struct mkf_plan_opts *opts,
				const struct mkf_libbpf_model *lbm, bool words)
{
	struct mkf_plan *plan;
	size_t i;
	int err;

	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return mkf_err_ptr(-ENOMEM);
	plan->sym_cnt = obj->sym_cnt;
	plan->imports = mkf_btf_out__new(NULL);
	plan->entries = calloc(obj->extern_cnt + 1, sizeof(*plan->entries));
	if (!plan->imports || !plan->entries) {
		err = -ENOMEM;
		goto out;
	}
	err = mkf_resolve_prefetch(kernel, obj->externs, obj->extern_cnt, lbm);
	if (err)
		goto out;
	for (i = 0; i < obj->extern_cnt; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];

		err = fill_entry(plan, e, kernel, obj, &obj->externs[i], lbm);
		plan->entry_cnt++;
		if (err)
			goto out;
	}
	/*
	 * Decide, then check that the output can be written as decided:
	 * what the linked libbpf finds under each new name, what else the
	 * object calls by that name. A binding that cannot be written is
	 * left as plain libbpf sees it, never written broken.
	 */
	if (OPTS_GET(opts, weaken_unresolved, false))
		weaken_unresolved(plan);
	err = check_libbpf_finds(plan, kernel, lbm);
	if (!err)
		err = settle_clashes(plan, obj);
	if (!err)
		err = merge_entries(plan);
	for (i = 0; i < plan->entry_cnt && !err; i++)
		err = hide_weak(plan, obj, &plan->entries[i]);
	if (!err)
		err = check_hidden(plan, kernel, lbm);
	if (!err)
		err = parse_imports(plan);
	if (err)
		goto out;
	for (i = 0; i < plan->entry_cnt && !err; i++) {
		struct mkf_plan_entry *e = &plan->entries[i];
		enum libbpf_print_level level = entry_level(e);

		plan->unresolved_cnt += e->decision == MKF_DECISION_UNRESOLVED;
		plan->change_cnt += mkf_entry_changes(e);
		/* Words only for whoever reads them. */
		if (!words && !mkf_log_wants(level))
			continue;
		e->reason = say_entry(plan, e, obj, &obj->externs[i], lbm);
		if (!e->reason)
			err = -ENOMEM;
		else
			mkf_print(level, MKF_LOG_PREFIX "%s: extern '%s' %s", obj_name, e->name,
				  e->reason);
	}
	/* The kernel may go before the plan: only target points into it. */
	for (i = 0; i < plan->entry_cnt; i++)
		mkf_resolution_free(&plan->entries[i].res);
out:
	if (err) {
		mkf_plan__free(plan);
		return mkf_err_ptr(err);
	}
	return plan;
}

struct mkf_plan *mkf_plan_compute_obj(const struct mkf_obj *obj, const char *name,
				      const struct mkf_kernel *kernel,
				      const struct mkf_plan_opts *opts,
				      const struct mkf_libbpf_model *lbm, bool words)
{
	if (!OPTS_VALID(opts, mkf_plan_opts))
		return mkf_err_ptr(-EINVAL);
	return compute(obj, name, kernel, opts, lbm, words);
}

/* Read the bytes, then plan. */
static struct mkf_plan *read_and_compute(const void *obj_buf, size_t obj_buf_sz,
					 const struct mkf_kernel *kernel,
					 const struct mkf_plan_opts *opts,
					 const struct mkf_libbpf_model *lbm)
{
	struct mkf_plan *plan;
	struct mkf_obj obj;
	int err;

	if (!OPTS_VALID(opts, mkf_plan_opts))
		return mkf_err_ptr(-EINVAL);
	if (!obj_buf || !kernel) {
		pr_err("mkf_plan__compute: no %s given\n", obj_buf ? "kernel" : "object");
		return mkf_err_ptr(-EINVAL);
	}
	err = mkf_obj_read(&obj, obj_buf, obj_buf_sz);
	if (err) {
		pr_err("object: cannot read the object: %s\n", strerror(-err));
		return mkf_err_ptr(err);
	}
	plan = compute(&obj, "object", kernel, opts, lbm, true);
	err = plan ? 0 : -errno;
	mkf_obj_release(&obj);
	return plan ? plan : mkf_err_ptr(err);
}


struct mkf_plan *mkf_plan_compute_for(const void *obj_buf, size_t obj_buf_sz,
				      const struct mkf_kernel *kernel,
				      const struct mkf_plan_opts *opts,
				      const struct mkf_libbpf_model *lbm)
{
	return MKF_WITH_DIAG(opts, read_and_compute(obj_buf, obj_buf_sz, kernel, opts, lbm),
			     !__ret);
}

void mkf_plan__free(struct mkf_plan *plan)
{
	size_t i;

	if (!plan)
		return;
	for (i = 0; i < plan->entry_cnt; i++) {
		free(plan->entries[i].name);
		free(plan->entries[i].kernel_name);
		free(plan->entries[i].hidden_name);
		free(plan->entries[i].flavored_name);
		free(plan->entries[i].module);
		free(plan->entries[i].reason);
		free(plan->entries[i].revert_look);
		free(plan->entries[i].revert_name);
		free(plan->entries[i].revert_found);
		free(plan->entries[i].planned_kernel);
		free(plan->entries[i].planned_flavored);
		mkf_resolution_free(&plan->entries[i].res);
	}
	free(plan->entries);
	for (i = 0; i < plan->rename_cnt; i++)
		free(plan->renames[i].new_name);
	free(plan->renames);
	mkf_btf_out__free(plan->imports);
	btf__free(plan->types);
	free(plan);
}

size_t mkf_plan__entry_cnt(const struct mkf_plan *plan)
{
	return MKF_GET(plan, plan->entry_cnt, 0);
}

const struct mkf_plan_entry *mkf_plan__entry(const struct mkf_plan *plan, size_t idx)
{
	if (!plan)
		return mkf_err_ptr(-EINVAL);
	if (idx >= plan->entry_cnt)
		return mkf_err_ptr(-ENOENT);
	return &plan->entries[idx];
}

const struct mkf_plan_entry *mkf_plan__find_entry(const struct mkf_plan *plan, const char *name)
{
	size_t i;

	if (!plan || !name)
		return mkf_err_ptr(-EINVAL);
	for (i = 0; i < plan->entry_cnt; i++)
		if (!strcmp(plan->entries[i].name, name))
			return &plan->entries[i];
	return mkf_err_ptr(-ENOENT);
}

size_t mkf_plan__unresolved_cnt(const struct mkf_plan *plan)
{
	return MKF_GET(plan, plan->unresolved_cnt, 0);
}

size_t mkf_plan__change_cnt(const struct mkf_plan *plan)
{
	return MKF_GET(plan, plan->change_cnt, 0);
}

const char *mkf_plan_entry__name(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->name, NULL);
}

bool mkf_plan_entry__is_weak(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->weak, false);
}

enum mkf_decision mkf_plan_entry__decision(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->decision, 0);
}

enum mkf_rule mkf_plan_entry__rule(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->rule, 0);
}

const char *mkf_plan_entry__kernel_name(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->kernel_name, NULL);
}

const char *mkf_plan_entry__new_name(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->out_name, NULL);
}

const char *mkf_plan_entry__module(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->module, NULL);
}

enum mkf_proto_change mkf_plan_entry__proto_change(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->change, 0);
}

int mkf_plan_entry__param_delta(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->delta, 0);
}

const char *mkf_plan_entry__merged_into(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->merged_into >= 0 ? e->merged_name : NULL, NULL);
}

__u32 mkf_plan_entry__set_regs(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->set_regs, 0);
}

size_t mkf_plan_entry__call_site_cnt(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->call_cnt, 0);
}

enum mkf_libbpf_outcome mkf_plan_entry__libbpf_outcome(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->libbpf, 0);
}

const struct mkf_func *mkf_plan_entry__func(const struct mkf_plan_entry *e)
{
	if (!e)
		return mkf_err_ptr(-EINVAL);
	return e->decision == MKF_DECISION_BIND ? e->target : NULL;
}

/* How bad an outcome is for a plain load, worst last. */
static enum mkf_libbpf_verdict verdict_of(const struct mkf_plan_entry *e)
{
	switch (e->libbpf) {
	case MKF_LIBBPF_BINDS:
		return MKF_LIBBPF_LOADS;
	case MKF_LIBBPF_DROPPED:
		return MKF_LIBBPF_LOADS_DEGRADED;
	case MKF_LIBBPF_NOT_FOUND:
		/* A weak extern becomes 0; a strong one fails the load. */
		return e->weak ? MKF_LIBBPF_LOADS_DEGRADED : MKF_LIBBPF_LOAD_FAILS;
	case MKF_LIBBPF_BINDS_UNTAGGED:
		return MKF_LIBBPF_LOADS_IF_KFUNC;
	case MKF_LIBBPF_BINDS_UNCALLABLE:
		return MKF_LIBBPF_LOAD_FAILS;
	case MKF_LIBBPF_INCOMPATIBLE:
		return MKF_LIBBPF_OPEN_FAILS;
	}
	return MKF_LIBBPF_OPEN_FAILS;
}

enum mkf_libbpf_verdict mkf_plan__libbpf_verdict(const struct mkf_plan *plan)
{
	enum mkf_libbpf_verdict worst = MKF_LIBBPF_LOADS, v;
	size_t i;

	if (!plan) {
		errno = EINVAL;
		return 0;
	}
	for (i = 0; i < plan->entry_cnt; i++) {
		v = verdict_of(&plan->entries[i]);
		if (v > worst)
			worst = v;
	}
	return worst;
}

const char *mkf_plan_entry__reason(const struct mkf_plan_entry *e)
{
	return MKF_GET(e, e->reason, NULL);
}
