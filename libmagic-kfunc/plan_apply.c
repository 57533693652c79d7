// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Plan application: turn a plan's decisions into BTF edits (btf_edit.c),
 * instruction patches before calls (call_patch.c) and ELF edits
 * (elf_write.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "btf_compat.h"
#include "btf_edit.h"
#include "call_patch.h"
#include "elf_util.h"
#include "elf_write.h"
#include "log.h"
#include "object.h"
#include "opts.h"
#include "plan.h"

bool mkf_plan_fits(const struct mkf_plan *plan, const struct mkf_obj *obj)
{
	size_t i;

	if (plan->sym_cnt != obj->sym_cnt || plan->entry_cnt != obj->extern_cnt)
		return false;
	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];
		const struct mkf_extern *x = &obj->externs[i];

		if (e->sym_idx != x->sym_idx || e->func_id != x->func_id || strcmp(e->name, x->name))
			return false;
	}
	return true;
}

/* The prototype an entry ends up with (appended to out if new). */
static int final_proto(struct mkf_btf_out *out, const struct mkf_plan *plan,
		       const struct mkf_plan_entry *e, const struct mkf_extern *x)
{
	switch (e->change) {
	case MKF_PROTO_EXTEND:
		return mkf_btf_add_proto(out, x->proto_id, e->nparams, plan->types,
					 e->extra_proto, e->nparams, e->nparams + e->delta);
	case MKF_PROTO_SHRINK:
		return mkf_btf_add_proto(out, x->proto_id, e->nparams + e->delta, NULL, 0, 0, 0);
	case MKF_PROTO_RETYPE:
		/* The return type stays the program's, every param the kernel's. */
		return mkf_btf_add_proto(out, x->proto_id, 0, plan->types, e->extra_proto, 0,
					 e->nparams);
	default:
		return (int)x->proto_id;
	}
}

static int plan_edits(const struct mkf_obj *obj, struct mkf_btf_out *out, const struct mkf_plan *plan,
		      struct mkf_sym_edit *syms, size_t *sym_cnt)
{
	size_t i, n = plan->entry_cnt;
	int *protos, *names, err = 0;

	protos = calloc(n + 1, sizeof(*protos));
	names = calloc(n + 1, sizeof(*names));
	if (!protos || !names) {
		err = -ENOMEM;
		goto out;
	}
	/* Round 1, appends only: new prototypes and names. Extern that
	 * carry merged calls first, so the merged ones can share theirs. */
	for (i = 0; i < n && !err; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];

		if (e->hidden_name) {
			protos[i] = (int)obj->externs[i].proto_id;
			names[i] = mkf_btf_out__add_str(out, e->hidden_name);
			err = names[i] < 0 ? names[i] : 0;
			continue;
		}
		if (!mkf_entry_changes(e) || e->merged_into >= 0 || e->decision != MKF_DECISION_BIND)
			continue;
		protos[i] = final_proto(out, plan, e, &obj->externs[i]);
		names[i] = mkf_btf_out__add_str(out, e->out_name);
		err = protos[i] < 0 ? protos[i] : names[i] < 0 ? names[i] : 0;
	}
	for (i = 0; i < n && !err; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];
		size_t keep = (size_t)e->merged_into;

		if (e->decision != MKF_DECISION_BIND || e->merged_into < 0)
			continue;
		/*
		 * libbpf finds an extern's BTF by name: the merged FUNC takes
		 * the kept extern's name and prototype, so that whichever
		 * libbpf meets first, it checks the same thing.
		 */
		protos[i] = protos[keep] ? protos[keep] : (int)obj->externs[keep].proto_id;
		names[i] = mkf_btf_out__add_str(out, e->out_name);
		err = names[i] < 0 ? names[i] : 0;
	}
	/* Round 2: FUNCs repointed, symbols. */
	for (i = 0; i < n && !err; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];
		struct mkf_sym_edit *s;

		if (!mkf_entry_changes(e))
			continue;
		if (e->decision == MKF_DECISION_WEAKEN) {
			/* The symbol's binding: libbpf reads weakness from it. */
			if (e->hidden_name)
				err = mkf_btf_out__set_func(out, e->func_id, names[i], protos[i]);
			s = &syms[(*sym_cnt)++];
			s->sym_idx = e->sym_idx;
			s->name = e->hidden_name ? e->hidden_name : e->name;
			s->redirect_to = -1;
			s->weaken = true;
			continue;
		}
		err = mkf_btf_out__set_func(out, e->func_id, names[i], protos[i]);
		if (e->merged_into < 0 && !strcmp(e->name, e->out_name))
			continue; /* name unchanged: nothing for the symbol table */
		s = &syms[(*sym_cnt)++];
		s->sym_idx = e->sym_idx;
		s->redirect_to = -1;
		if (e->merged_into >= 0) {
			/* Nameless: libbpf skips it; its calls move over. */
			s->name = "";
			s->redirect_to = (long)plan->entries[e->merged_into].sym_idx;
		} else {
			s->name = e->out_name;
		}
	}
	/* Static subprograms that gave their name to an extern. */
	for (i = 0; i < plan->rename_cnt && !err; i++) {
		const struct mkf_plan_rename *r = &plan->renames[i];
		const struct btf_type *t;
		int name;

		if (r->sym_idx != SIZE_MAX) {
			syms[*sym_cnt].sym_idx = r->sym_idx;
			syms[*sym_cnt].name = r->name;
			syms[(*sym_cnt)++].redirect_to = -1;
			continue;
		}
		t = btf__type_by_id(obj->btf, r->btf_id);
		name = mkf_btf_out__add_str(out, r->name);
		err = name < 0 ? name : !t ? -EINVAL
			       : mkf_btf_out__set_func(out, r->btf_id, (__u32)name, t->type);
	}
out:
	free(protos);
	free(names);
	return err;
}

/*
 * Entries whose calls need registers set (mkf_plan_entry__set_regs()):
 * patch the code before every call to them. Works on the object as
 * read, before renames and merges (those apply on top).
 */
static int call_edits(const struct mkf_obj *obj, const struct mkf_plan *plan,
		      struct mkf_scn_edits *scns)
{
	struct mkf_call_regs *want = calloc(plan->entry_cnt + 1, sizeof(*want));
	const void *btf_raw = NULL;
	size_t i, n = 0, btf_sz = 0;
	GElf_Shdr sh;
	Elf_Scn *scn;
	int err;

	if (!want)
		return -ENOMEM;
	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *e = &plan->entries[i];

		if (e->decision == MKF_DECISION_BIND && e->set_regs && e->call_cnt) {
			want[n].sym_idx = e->sym_idx;
			want[n++].regs = e->set_regs;
		}
	}
	if (!n) {
		free(want);
		return 0;
	}
	scn = mkf_elf_find_scn(obj->elf, ".BTF", &sh);
	if (scn && elf_getdata(scn, NULL)) {
		btf_raw = elf_getdata(scn, NULL)->d_buf;
		btf_sz = elf_getdata(scn, NULL)->d_size;
	}
	err = mkf_call_patch(obj->elf, obj->symtab_shndx, want, n, btf_raw, btf_sz, scns);
	free(want);
	return err;
}

/* The entry the output's extern x stands for (same symbol), or NULL. */
static const struct mkf_plan_entry *entry_of_sym(const struct mkf_plan *plan, size_t sym_idx)
{
	size_t i;

	for (i = 0; i < plan->entry_cnt; i++)
		if (plan->entries[i].sym_idx == sym_idx)
			return &plan->entries[i];
	return NULL;
}

/* Whether BTF FUNC id is e's own, or that of an extern merged into e. */
static bool func_of(const struct mkf_plan *plan, const struct mkf_plan_entry *e, __u32 id)
{
	size_t i;

	for (i = 0; i < plan->entry_cnt; i++) {
		const struct mkf_plan_entry *o = &plan->entries[i];

		if (o->func_id == id)
			return o == e || (o->merged_into >= 0 && &plan->entries[o->merged_into] == e);
	}
	return false;
}

/*
 * The output goes to libbpf (or into a file): read it back the way
 * libbpf's open reads externs (object.c follows its collect_externs:
 * the first BTF VAR or FUNC of an extern's name, which must be declared
 * extern and sit in .ksyms; no two externs of one name), and check
 * that every kfunc extern is the one the plan wrote, under the name
 * and with the prototype it planned. The kernel side (what libbpf finds
 * in the kernel under that name) was checked when the plan was made.
 * What the rewrite edited is what is read again: the symbols, sections
 * and .BTF of the output in place (the .BTF as mkf_btf_out__finish()
 * parsed it, btf, taken over), not a copy of it, its DWARF or its
 * calls; of the .BTF's types, those the rewrite appended (the input's
 * passed the same checks when obj was read). A difference is a
 * library bug: nothing is handed over.
 */
static int check_output(const struct mkf_obj *obj, const struct mkf_plan *plan, void *buf,
			size_t sz, struct btf *btf)
{
	size_t i, seen = 0, want = 0;
	struct mkf_obj out;
	int err;

	err = mkf_obj_read_output(&out, buf, sz, btf, btf__type_cnt(obj->btf));
	if (err) {
		pr_err("the rewritten object fails the reader's own checks; not handing it over "
		       "(a library bug: please report it)\n");
		return err;
	}
	for (i = 0; i < out.extern_cnt && !err; i++) {
		const struct mkf_extern *x = &out.externs[i];
		const struct mkf_plan_entry *e = entry_of_sym(plan, x->sym_idx);
		const struct btf_type *p = btf__type_by_id(out.btf, x->proto_id);
		int nparams;

		err = -EINVAL;
		if (!e) {
			pr_err("the rewritten object has a kfunc extern '%s' the plan does not know\n",
			       x->name);
		} else if (e->merged_into >= 0) {
			pr_err("the rewritten object still names merged extern '%s'\n", e->name);
		} else if (strcmp(x->name, e->out_name)) {
			pr_err("extern '%s' is named '%s' in the rewritten object, not '%s'\n", e->name,
			       x->name, e->out_name);
		} else if (!func_of(plan, e, x->func_id)) {
			pr_err("libbpf would take BTF FUNC [%u] for extern '%s', which is not its own\n",
			       x->func_id, x->name);
		} else if (nparams = e->decision == MKF_DECISION_BIND ? e->nparams + e->delta
								       : e->nparams,
			   btf_vlen(p) != nparams) {
			pr_err("extern '%s' takes %d params in the rewritten object, not %d\n", x->name,
			       btf_vlen(p), nparams);
		} else if (e->decision == MKF_DECISION_BIND &&
			   (e->change == MKF_PROTO_EXTEND || e->change == MKF_PROTO_RETYPE) &&
			   !mkf_protos_compat(out.btf, x->proto_id, plan->types, e->extra_proto)) {
			pr_err("extern '%s' does not have the kernel's prototype in the rewritten "
			       "object\n", x->name);
		} else {
			err = 0;
			seen++;
		}
	}
	for (i = 0; i < plan->entry_cnt; i++)
		want += plan->entries[i].merged_into < 0;
	if (!err && seen != want) {
		pr_err("the rewritten object has %zu kfunc externs, the plan %zu\n", seen, want);
		err = -EINVAL;
	}
	if (err)
		pr_err("not handing over a rewritten object that would not bind as planned "
		       "(a library bug: please report it)\n");
	mkf_obj_release(&out);
	return err;
}

/* The plan applied to obj, whose bytes obj->src are taken as they are. */
static int apply(const struct mkf_obj *obj, const struct mkf_plan *plan, void **new_buf,
		 size_t *new_sz)
{
	struct mkf_elf_edits edits = {};
	struct mkf_scn_edits scns = {};
	struct mkf_sym_edit *syms = NULL;
	struct mkf_btf_out *out = NULL;
	struct btf *parsed = NULL;
	void *raw = NULL;
	__u32 raw_sz;
	int err;

	*new_buf = NULL;
	*new_sz = 0;
	if (!mkf_plan_fits(plan, obj)) {
		pr_err("the plan was computed for a different object\n");
		return -EINVAL;
	}
	if (!plan->change_cnt) {
		/* Nothing to do: hand back the input as it is, not re-laid. */
		*new_buf = malloc(obj->src_sz);
		if (!*new_buf)
			return -ENOMEM;
		memcpy(*new_buf, obj->src, obj->src_sz);
		*new_sz = obj->src_sz;
		return 0;
	}
	if (!obj->btf) {
		/* Externs are found through .BTF: a plan with changes has one. */
		pr_err("the object has no .BTF to rewrite\n");
		return -EINVAL;
	}
	syms = calloc(plan->entry_cnt + plan->rename_cnt + 1, sizeof(*syms));
	out = mkf_btf_out__new(obj->btf);
	if (!syms || !out) {
		err = syms ? -errno : -ENOMEM;
		goto out;
	}
	err = plan_edits(obj, out, plan, syms, &edits.sym_cnt);
	if (err)
		goto out;
	err = call_edits(obj, plan, &scns);
	if (err)
		goto out;
	raw = mkf_btf_out__finish(out, &raw_sz, &parsed);
	if (!raw) {
		err = -errno;
		pr_err("the rewritten .BTF does not parse back: %s\n", strerror(-err));
		goto out;
	}
	edits.scns = scns.v;
	edits.scn_cnt = scns.cnt;
	edits.syms = syms;
	edits.btf_data = raw;
	edits.btf_size = raw_sz;
	err = mkf_elf_write(obj->src, obj->src_sz, &edits, new_buf, new_sz);
	if (!err) {
		err = check_output(obj, plan, *new_buf, *new_sz, parsed);
		parsed = NULL;
	}
	if (err) {
		free(*new_buf);
		*new_buf = NULL;
		*new_sz = 0;
	}
out:
	btf__free(parsed);
	mkf_scn_edits_free(&scns);
	mkf_btf_out__free(out);
	free(raw);
	free(syms);
	return err;
}

int mkf_obj_apply(const struct mkf_obj *obj, const struct mkf_plan *plan, void **new_buf,
		  size_t *new_sz)
{
	return apply(obj, plan, new_buf, new_sz);
}

