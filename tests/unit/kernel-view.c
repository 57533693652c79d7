// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The view of kernel BTF files (libmagic-kfunc/kernel_view.c) against
 * libbpf's full parse, which mkf_kernel_opts.check_all_types selects:
 *
 * - on every cached catalogue kernel
 *   (${MAGIC_KFUNC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/magic-kfunc}/kernels/
 *   <id>/vmlinux.btf, the patched build's among them), for every FUNC
 *   and its _impl twin: found or not, the FUNC and prototype
 *   ids, callable, the prototype as the resolver reads it, each
 *   parameter's kind (mkf_btf__param_kind(), mkf_func__param_kind()),
 *   unsplit; and that the public accessors still answer in the
 *   kernel's ids and BTF;
 * - the same through mkf_kernel__new() on libbpf's parse of the file,
 *   which the index describes through a view of libbpf's data;
 * - the load of an object's open (mkf_kernel_load_for(), a view that
 *   lists only the FUNCs of the names asked for): those names, then
 *   every other, and the kfuncs enumerated;
 * - the same for the modules built with a catalogue kernel (the
 *   patched build's test module), as raw split BTF on top of it;
 * - the plan of every object of tests/bpf on every fixture kernel
 *   (tests/unit/fixtures.c, written to files, with a module), entry by
 *   entry with its reason, and the rewritten object, byte for byte.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "kernel_index.h"
#include "kernel_load.h"
#include "kfunc_rules.h"
#include "kernel_view.h"
#include "magic_kfunc_introspect.h"
#include "resolve.h"
#include "strbuf.h"
#include "unit.h"

#ifndef MKF_BPF_OBJDIR
#define MKF_BPF_OBJDIR "tests/bpf"
#endif

/* The libbpf path and the view's, each really taken. */
static struct mkf_kernel *load(const char *vmlinux, const char *const *mods, size_t mod_cnt,
			       bool view)
{
	LIBBPF_OPTS(mkf_kernel_opts, o, .vmlinux_path = vmlinux, .module_paths = mods,
		    .module_cnt = mod_cnt, .check_all_types = !view);
	struct mkf_kernel *k = mkf_kernel__load(&o);
	size_t i;

	for (i = 0; k && i < k->part_cnt; i++) {
		if (!k->parts[i].view != !view) {
			mkf_kernel__free(k);
			errno = EPROTO;
			return NULL;
		}
	}
	return k;
}

/* A type as the resolver reads it: down to the names of structs and enums. */
static void describe(const struct btf *btf, __u32 id, struct mkf_sb *sb, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name;
	__u16 i;

	if (!id) {
		mkf_sb_printf(sb, "void");
		return;
	}
	if (!t || depth <= 0) {
		mkf_sb_printf(sb, "?");
		return;
	}
	name = btf__name_by_offset(btf, t->name_off);
	mkf_sb_printf(sb, "%u'%s'", btf_kind(t), name ? name : "(bad name)");
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		mkf_sb_printf(sb, "%u/%#x", t->size, *(const __u32 *)(t + 1));
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		mkf_sb_printf(sb, "%u", t->size);
		break;
	case BTF_KIND_FWD:
		mkf_sb_printf(sb, "k%d", btf_kflag(t));
		break;
	case BTF_KIND_ARRAY:
		mkf_sb_printf(sb, "[%u]", btf_array(t)->nelems);
		describe(btf, btf_array(t)->type, sb, depth - 1);
		mkf_sb_printf(sb, "/");
		describe(btf, btf_array(t)->index_type, sb, depth - 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		mkf_sb_printf(sb, "(");
		for (i = 0; i < btf_vlen(t); i++) {
			name = btf__name_by_offset(btf, btf_params(t)[i].name_off);
			mkf_sb_printf(sb, "%s'%s':", i ? ", " : "", name ? name : "(bad name)");
			describe(btf, btf_params(t)[i].type, sb, depth - 1);
		}
		mkf_sb_printf(sb, ") -> ");
		describe(btf, t->type, sb, depth - 1);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		break;
	default:
		mkf_sb_printf(sb, " ");
		describe(btf, t->type, sb, depth - 1);
	}
}

/* What the resolver and the accessors see of NAME, as text. */
static void answer(const struct mkf_kernel *k, const char *name, struct mkf_sb *sb)
{
	const struct mkf_func *fn = mkf_kernel_find(k, name);
	int i, n;

	if (!fn) {
		mkf_sb_printf(sb, "%s: none", name);
		return;
	}
	n = btf_vlen(btf__type_by_id(fn->btf, fn->proto));
	mkf_sb_printf(sb, "%s: [%u] proto [%u] module %s callable %d tagged %d magic %#x/%#x "
		      "unsplit %d: ", name, fn->id, mkf_func__proto_id(fn),
		      mkf_func__module(fn) ? mkf_func__module(fn) : "-", mkf_func__is_callable(fn),
		      fn->tagged, fn->magic_params, fn->magic_offs,
		      mkf_func_unsplit(fn));
	describe(fn->btf, fn->proto, sb, 32);
	mkf_sb_printf(sb, " kinds");
	for (i = 0; i < n; i++) {
		enum mkf_param_basis b1 = 0, b2 = 0;
		enum mkf_param_kind k1 = mkf_btf__param_kind(fn->btf, fn->name, fn->proto, i, &b1);
		enum mkf_param_kind k2 = mkf_func__param_kind(fn, i, &b2);

		mkf_sb_printf(sb, " %d.%d/%d.%d", k1, b1, k2, b2);
	}
}

/* The public accessors answer in the kernel's BTF and ids, view or not. */
static bool accessors_agree(const struct mkf_kernel *k, const char *name)
{
	const struct mkf_func *fn = mkf_kernel_find(k, name);
	const struct btf *btf;
	const struct btf_type *t;

	if (!fn)
		return true;
	btf = mkf_func__btf(fn);
	t = btf ? btf__type_by_id(btf, fn->id) : NULL;
	return t && btf_is_func(t) && t->type == mkf_func__proto_id(fn) &&
	       !strcmp(btf__name_by_offset(btf, t->name_off), name) &&
	       (fn->module >= 0 || btf == mkf_kernel__btf(k));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * The names to compare: every FUNC's (any of them can be an extern's
 * name), and each one's _impl twin (foo_impl for foo, foo for
 * foo_impl), which the resolver asks for too.
 */
static char **names_of(const struct btf *btf, __u32 start, size_t *cnt)
{
	__u32 id, n = btf__type_cnt(btf);
	char **v = calloc(2 * (size_t)n + 1, sizeof(*v));
	size_t c = 0;

	for (id = start; v && id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;
		size_t len;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		len = strlen(name);
		v[c] = strdup(name);
		v[c + 1] = malloc(len + 6);
		if (!v[c] || !v[c + 1])
			break;
		if (ends_with(name, "_impl"))
			snprintf(v[c + 1], len + 1, "%.*s", (int)(len - 5), name);
		else
			snprintf(v[c + 1], len + 6, "%s_impl", name);
		c += 2;
	}
	*cnt = c;
	return v;
}

/* The kfuncs as a string: shape, names, provided count of each. */
static void kfuncs_text(const struct mkf_kernel *k, struct mkf_sb *sb)
{
	size_t i, n = mkf_kernel__kfunc_cnt(k);

	for (i = 0; i < n; i++) {
		const struct mkf_kfunc *kf = mkf_kernel__kfunc(k, i);
		const struct mkf_func *impl = mkf_kfunc__impl(kf);

		mkf_sb_printf(sb, "%d %s %s %d;", mkf_kfunc__shape(kf),
			      mkf_func__name(mkf_kfunc__func(kf)), impl ? mkf_func__name(impl) : "-",
			      mkf_kfunc__provided_cnt(kf));
	}
}

/* How many of NAMES FULL and FILT answer alike; the first that differs in *first. */
static size_t same_answers(const struct mkf_kernel *full, const struct mkf_kernel *filt,
			   const char *const *names, size_t cnt, struct mkf_sb *first)
{
	size_t i, same = 0;

	for (i = 0; i < cnt; i++) {
		struct mkf_sb a = {}, b = {};

		answer(full, names[i], &a);
		answer(filt, names[i], &b);
		if (!strcmp(a.buf, b.buf))
			same++;
		else if (!first->buf)
			mkf_sb_printf(first, "full: %s\n      filtered: %s", a.buf, b.buf);
		mkf_sb_free(&a);
		mkf_sb_free(&b);
	}
	return same;
}

/*
 * The load of an object's open (mkf_kernel_load_for()): its views list
 * only the FUNCs the names asked for may be. Those names get the full
 * parse's answers without any other FUNC listed; any other name lists
 * them all first and gets the same answers; enumerating the kfuncs
 * after a FUNC was made under the filter finds every one.
 */
static void test_filtered(const char *id, const char *path, const struct mkf_kernel *full,
			  char **names, size_t cnt)
{
	LIBBPF_OPTS(mkf_kernel_opts, o, .vmlinux_path = path);
	const char **some = calloc(cnt + 1, sizeof(*some));
	struct mkf_kernel *k = NULL, *k2 = NULL;
	struct mkf_sb first = {}, ka = {}, kb = {};
	size_t n = 0, i, same, same_all;
	char name[256];
	bool still;

	for (i = 0; some && i < cnt; i++)
		if (!strncmp(names[i], "bpf_", 4) && strlen(names[i]) >= 8)
			some[n++] = names[i];
	k = some ? mkf_kernel_load_for(&o, some, n) : NULL;
	snprintf(name, sizeof(name), "%.100s: a load for %zu names lists fewer FUNCs (%zu of %zu)",
		 id, n, k ? k->ref_cnt : 0, full->ref_cnt);
	if (!t_check(name, n && k && k->parts[0].filtered && k->ref_cnt < full->ref_cnt,
		     "kernel %p: %s", (void *)k, strerror(errno)))
		goto out;
	same = same_answers(full, k, some, n, &first);
	still = k->parts[0].filtered;
	snprintf(name, sizeof(name), "%.100s: those names answered alike, no other FUNC listed",
		 id);
	t_check(name, same == n && still, "%zu differ, still filtered %d; first:\n      %s",
		n - same, still, first.buf ? first.buf : "-");
	/* In one scan, as for the names of the first loop. */
	if (mkf_kernel_prefetch(k, (const char *const *)names, cnt))
		cnt = 0;
	same_all = same_answers(full, k, (const char *const *)names, cnt, &first);
	snprintf(name, sizeof(name), "%.100s: every other name too, after listing every FUNC", id);
	t_check(name, cnt && same_all == cnt && !k->parts[0].filtered && k->ref_cnt == full->ref_cnt,
		"%zu differ, %zu of %zu FUNCs listed; first:\n      %s", cnt - same_all,
		k->ref_cnt, full->ref_cnt, first.buf ? first.buf : "-");
	k2 = mkf_kernel_load_for(&o, some, n);
	if (k2)
		mkf_kernel_find(k2, some[0]);
	if (k2)
		kfuncs_text(k2, &kb);
	kfuncs_text(full, &ka);
	snprintf(name, sizeof(name), "%.100s: the same kfuncs enumerated after a filtered lookup",
		 id);
	t_check(name, k2 && !strcmp(ka.buf ? ka.buf : "", kb.buf ? kb.buf : ""), "%zu vs %zu kfuncs",
		mkf_kernel__kfunc_cnt(full), k2 ? mkf_kernel__kfunc_cnt(k2) : 0);
out:
	free(some);
	mkf_sb_free(&ka);
	mkf_sb_free(&kb);
	mkf_sb_free(&first);
	mkf_kernel__free(k);
	mkf_kernel__free(k2);
}

static void cache_dir(char *buf, size_t sz)
{
	const char *cache = getenv("MAGIC_KFUNC_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (cache && *cache)
		snprintf(buf, sz, "%s/kernels", cache);
	else if (xdg && *xdg)
		snprintf(buf, sz, "%s/magic-kfunc/kernels", xdg);
	else
		snprintf(buf, sz, "%s/.cache/magic-kfunc/kernels", home ? home : "");
}

static void test_catalogue_kernel(const char *id, const char *path)
{
	struct mkf_kernel *full = load(path, NULL, 0, false), *view = load(path, NULL, 0, true);
	/* The third way: a BTF libbpf parsed, described through a view of its data. */
	struct btf *parsed = btf__parse(path, NULL);
	struct mkf_kernel *lib = parsed ? mkf_kernel__new(parsed) : NULL;
	char name[256], **names = NULL;
	size_t cnt = 0, i, same = 0, found = 0, bad_acc = 0, same_lib = 0;
	struct mkf_sb a = {}, b = {}, c = {}, first = {}, first_lib = {};

	snprintf(name, sizeof(name), "%.100s: both ways load it (the view really used)", id);
	if (!t_check(name, full && view, "libbpf %p, view %p: %s", (void *)full, (void *)view,
		     strerror(errno)))
		goto out;
	names = names_of(mkf_kernel__btf(full), 1, &cnt);
	/* One scan of each kernel for all names, as an object's open does. */
	snprintf(name, sizeof(name), "%.100s: every name looked up in one scan both ways", id);
	t_check(name, !mkf_kernel_prefetch(full, (const char *const *)names, cnt) &&
		      !mkf_kernel_prefetch(view, (const char *const *)names, cnt), "%s",
		strerror(ENOMEM));
	snprintf(name, sizeof(name), "%.100s: mkf_kernel__new() on libbpf's parse walks its data",
		 id);
	t_check(name, lib && lib->parts[0].view && lib->parts[0].btf == parsed &&
		      !mkf_kernel_prefetch(lib, (const char *const *)names, cnt),
		"kernel %p, view %p", (void *)lib, lib ? (void *)lib->parts[0].view : NULL);
	for (i = 0; i < cnt; i++) {
		mkf_sb_free(&a);
		memset(&a, 0, sizeof(a));
		mkf_sb_free(&b);
		memset(&b, 0, sizeof(b));
		answer(full, names[i], &a);
		answer(view, names[i], &b);
		if (!strcmp(a.buf, b.buf))
			same++;
		else if (!first.buf)
			mkf_sb_printf(&first, "libbpf: %s\n      view:   %s", a.buf, b.buf);
		if (lib) {
			mkf_sb_free(&c);
			memset(&c, 0, sizeof(c));
			answer(lib, names[i], &c);
			if (!strcmp(a.buf, c.buf))
				same_lib++;
			else if (!first_lib.buf)
				mkf_sb_printf(&first_lib, "libbpf: %s\n      new:    %s", a.buf,
					      c.buf);
		}
		found += mkf_kernel_find(view, names[i]) != NULL;
		if (!accessors_agree(view, names[i]) || !accessors_agree(full, names[i]))
			bad_acc++;
	}
	snprintf(name, sizeof(name), "%.100s: %zu FUNCs and twins, %zu found: the same answers", id,
		 cnt, found);
	t_check(name, cnt && same == cnt, "%zu differ; first:\n      %s", cnt - same,
		first.buf ? first.buf : "(no names)");
	snprintf(name, sizeof(name), "%.100s: the same answers from mkf_kernel__new()", id);
	t_check(name, lib && same_lib == cnt, "%zu differ; first:\n      %s", cnt - same_lib,
		first_lib.buf ? first_lib.buf : "(no kernel)");
	snprintf(name, sizeof(name), "%.100s: has_kfunc_tags alike, accessors in the kernel's ids", id);
	t_check(name, !bad_acc && mkf_kernel__has_kfunc_tags(full) ==
				    mkf_kernel__has_kfunc_tags(view),
		"%zu accessors disagree", bad_acc);
	if (parsed && view->parts[0].view) {
		const struct mkf_btf_view *v = view->parts[0].view;
		__u32 t, n = btf__type_cnt(parsed), bad = 0;

		/* Each id found from the offsets the walk noted (every VIEW_STRIDE-th). */
		for (t = 1; t < n; t++)
			if (memcmp(mkf_btf_view_type(v, t), btf__type_by_id(parsed, t),
				   sizeof(struct btf_type)))
				bad++;
		snprintf(name, sizeof(name), "%.100s: every type id (%u) read where libbpf reads it",
			 id, n - 1);
		t_check(name, !bad && v->end_id == n && !mkf_btf_view_type(v, n),
			"%u differ, view ends at %u", bad, v->end_id);
	}
	test_filtered(id, path, view, names, cnt);
out:
	for (i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
	mkf_sb_free(&a);
	mkf_sb_free(&b);
	mkf_sb_free(&c);
	mkf_sb_free(&first);
	mkf_sb_free(&first_lib);
	mkf_kernel__free(full);
	mkf_kernel__free(view);
	mkf_kernel__free(lib);
	btf__free(parsed);
}

/*
 * The modules built with a catalogue kernel (the patched build keeps
 * its test module's .ko beside its BTF, in modules/): each one's split
 * BTF, written raw as sysfs gives it, read both ways on top of the
 * kernel's, and every FUNC of the module and its twin compared.
 */
static void test_catalogue_modules(const char *id, const char *vmlinux, const char *tmpdir)
{
	char *real = realpath(vmlinux, NULL), *slash, dir[4200], ko[8400], raw[8400], name[256];
	struct dirent **ents = NULL;
	struct btf *base = NULL;
	int n = -1, i;

	slash = real ? strrchr(real, '/') : NULL;
	if (slash) {
		*slash = '\0';
		snprintf(dir, sizeof(dir), "%s/modules", real);
		n = scandir(dir, &ents, NULL, alphasort);
	}
	if (n > 0)
		base = btf__parse(vmlinux, NULL);
	for (i = 0; i < n; i++) {
		struct mkf_kernel *full = NULL, *view = NULL;
		const char *mods[] = { raw };
		struct mkf_sb a = {}, b = {}, first = {};
		size_t cnt = 0, same = 0, j;
		struct btf *mod;
		char **names = NULL;

		if (!base || !ends_with(ents[i]->d_name, ".ko"))
			continue;
		snprintf(ko, sizeof(ko), "%s/%s", dir, ents[i]->d_name);
		snprintf(raw, sizeof(raw), "%s/%s.btf", tmpdir, ents[i]->d_name);
		mod = btf__parse_split(ko, base);
		if (mod && !t_write_btf(raw, mod)) {
			full = load(vmlinux, mods, 1, false);
			view = load(vmlinux, mods, 1, true);
		}
		snprintf(name, sizeof(name), "%.100s: module %.60s, both ways load it (the view used)",
			 id, ents[i]->d_name);
		if (t_check(name, full && view && mkf_kernel__module_cnt(view) == 1, "%s",
			    strerror(errno))) {
			/* The module's own FUNCs: a split BTF's ids after its base's. */
			names = names_of(mod, btf__type_cnt(base), &cnt);
			for (j = 0; j < cnt; j++) {
				mkf_sb_free(&a);
				memset(&a, 0, sizeof(a));
				mkf_sb_free(&b);
				memset(&b, 0, sizeof(b));
				answer(full, names[j], &a);
				answer(view, names[j], &b);
				if (!strcmp(a.buf, b.buf))
					same++;
				else if (!first.buf)
					mkf_sb_printf(&first, "libbpf: %s\n      view:   %s", a.buf, b.buf);
			}
			snprintf(name, sizeof(name), "%.100s: module %.60s, %zu names: the same answers",
				 id, ents[i]->d_name, cnt);
			t_check(name, cnt && same == cnt, "%zu differ; first:\n      %s", cnt - same,
				first.buf ? first.buf : "(no names)");
		}
		for (j = 0; j < cnt; j++)
			free(names[j]);
		free(names);
		mkf_sb_free(&a);
		mkf_sb_free(&b);
		mkf_sb_free(&first);
		mkf_kernel__free(full);
		mkf_kernel__free(view);
		btf__free(mod);
		unlink(raw);
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	btf__free(base);
	free(real);
}

static void test_catalogue(const char *tmpdir)
{
	char dir[4096], path[8192];
	struct dirent **ents = NULL;
	int n, i, tested = 0;

	cache_dir(dir, sizeof(dir));
	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s/vmlinux.btf", dir, ents[i]->d_name);
			if (!access(path, R_OK)) {
				test_catalogue_kernel(ents[i]->d_name, path);
				test_catalogue_modules(ents[i]->d_name, path, tmpdir);
				tested++;
			}
		}
		free(ents[i]);
	}
	free(ents);
	if (!tested)
		t_skip("catalogue kernels", "no cached kernel BTF under %s: the VM harness fills "
		       "this cache", dir);
}

/* Every field of every entry, with its reason. */
static void plan_text(const struct mkf_plan *plan, struct mkf_sb *sb)
{
	size_t i;

	for (i = 0; i < mkf_plan__entry_cnt(plan); i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);
		const char *m = mkf_plan_entry__merged_into(e), *mod = mkf_plan_entry__module(e);
		const char *kn = mkf_plan_entry__kernel_name(e), *nn = mkf_plan_entry__new_name(e);

		mkf_sb_printf(sb, "%s weak %d decision %d rule %d kernel %s new %s module %s "
			      "proto %d delta %d merged %s regs %#x calls %zu libbpf %d\n%s\n",
			      mkf_plan_entry__name(e), mkf_plan_entry__is_weak(e),
			      mkf_plan_entry__decision(e), mkf_plan_entry__rule(e), kn ? kn : "-",
			      nn ? nn : "-", mod ? mod : "-", mkf_plan_entry__proto_change(e),
			      mkf_plan_entry__param_delta(e), m ? m : "-",
			      mkf_plan_entry__set_regs(e), mkf_plan_entry__call_site_cnt(e),
			      mkf_plan_entry__libbpf_outcome(e), mkf_plan_entry__reason(e));
	}
	mkf_sb_printf(sb, "unresolved %zu changes %zu\n", mkf_plan__unresolved_cnt(plan),
		      mkf_plan__change_cnt(plan));
}

/* The plan's text and the rewritten object of one object on one kernel. */
static void plan_and_rewrite(const void *buf, size_t sz, const struct mkf_kernel *k,
			     struct mkf_sb *text, void **out, size_t *out_sz)
{
	struct mkf_plan *plan = t_plan(buf, sz, k, NULL);
	int err;

	*out = NULL;
	*out_sz = 0;
	if (!plan) {
		mkf_sb_printf(text, "no plan: %d\n", errno);
		return;
	}
	plan_text(plan, text);
	err = t_rewrite(buf, sz, plan, out, out_sz, NULL);
	if (err)
		mkf_sb_printf(text, "no rewrite: %d\n", err);
	mkf_plan__free(plan);
}

static void test_fixture_plans(const char *tmpdir)
{
	char vpath[4200], mpath[4200], name[256];
	struct dirent **ents = NULL;
	int n, i, era;

	n = scandir(MKF_BPF_OBJDIR, &ents, NULL, alphasort);
	if (n <= 0) {
		t_fail("fixture plans", "no objects in %s", MKF_BPF_OBJDIR);
		return;
	}
	for (era = 0; era < FX_ERA_CNT; era++) {
		struct btf *vm = fx_kernel(era), *mod = vm ? fx_module(vm, era != FX_612_DEB12) : NULL;
		const char *mods[] = { mpath };
		struct mkf_kernel *full = NULL, *view = NULL;
		size_t objects = 0, same = 0;
		char first[512] = "";

		snprintf(vpath, sizeof(vpath), "%s/vmlinux-%d.btf", tmpdir, era);
		snprintf(mpath, sizeof(mpath), "%s/mkf_testmod.ko.btf", tmpdir);
		if (mod && !t_write_btf(vpath, vm) && !t_write_btf(mpath, mod)) {
			full = load(vpath, mods, 1, false);
			view = load(vpath, mods, 1, true);
		}
		snprintf(name, sizeof(name), "%s fixture: both ways load it, with a module",
			 fx_era_names[era]);
		if (t_check(name, full && view && mkf_kernel__module_cnt(view) == 1, "%s",
			    strerror(errno))) {
			for (i = 0; i < n; i++) {
				struct mkf_sb a = {}, b = {};
				void *buf = NULL, *oa, *ob;
				size_t sz, sa, sb;
				char obj[4400];

				if (!ends_with(ents[i]->d_name, ".bpf.o"))
					continue;
				snprintf(obj, sizeof(obj), "%s/%s", MKF_BPF_OBJDIR, ents[i]->d_name);
				if (t_read_file(obj, &buf, &sz))
					continue;
				objects++;
				plan_and_rewrite(buf, sz, full, &a, &oa, &sa);
				plan_and_rewrite(buf, sz, view, &b, &ob, &sb);
				if (!strcmp(a.buf, b.buf) && sa == sb && (!sa || !memcmp(oa, ob, sa)))
					same++;
				else if (!*first)
					snprintf(first, sizeof(first), "%s: plan %s, rewrite %s",
						 ents[i]->d_name, strcmp(a.buf, b.buf) ? "differs" : "same",
						 sa == sb && (!sa || !memcmp(oa, ob, sa)) ? "same" : "differs");
				free(oa);
				free(ob);
				free(buf);
				mkf_sb_free(&a);
				mkf_sb_free(&b);
			}
			snprintf(name, sizeof(name), "%s fixture: %zu objects, plans and rewrites "
				 "byte-identical", fx_era_names[era], objects);
			t_check(name, objects > 10 && same == objects, "%zu differ; first %s",
				objects - same, first);
		}
		mkf_kernel__free(full);
		mkf_kernel__free(view);
		btf__free(mod);
		btf__free(vm);
		unlink(vpath);
		unlink(mpath);
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
}

/*
 * A filtered load refuses what the full one refuses, also when the
 * broken FUNC is one the filter leaves out: an extern FUNC, a FUNC
 * whose prototype id is past the last type. The control (the same BTF
 * made right) loads both ways, the filter leaving the other FUNC out.
 */
static void test_filtered_broken(const char *tmpdir)
{
	static const struct {
		const char *what;
		int linkage;
		bool bad_type;
	} cases[] = {
		{ "well-formed BTF (the control)", BTF_FUNC_GLOBAL, false },
		{ "an extern FUNC", BTF_FUNC_EXTERN, false },
		{ "a FUNC whose prototype id is past the last type", BTF_FUNC_GLOBAL, true },
	};
	const char *want[] = { "wanted_function_a" };
	char path[4200], name[256];
	size_t i;

	snprintf(path, sizeof(path), "%s/broken.btf", tmpdir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		LIBBPF_OPTS(mkf_kernel_opts, o, .vmlinux_path = path);
		struct btf *b = btf__new_empty();
		int i32 = b ? btf__add_int(b, "int", 4, BTF_INT_SIGNED) : -1;
		int proto = i32 > 0 ? btf__add_func_proto(b, i32) : -1;
		int bad = proto > 0 && btf__add_func(b, want[0], BTF_FUNC_GLOBAL, proto) > 0 ?
			  btf__add_func(b, "other_function_b", cases[i].linkage, proto) : -1;
		__u32 sz = 0;
		const void *raw = bad > 0 ? btf__raw_data(b, &sz) : NULL;
		struct mkf_kernel *full = NULL, *filt = NULL;
		int err_full = 0, err_filt = 0;
		FILE *f = raw ? fopen(path, "w") : NULL;

		if (f) {
			const struct btf_header *h = raw;
			char *copy = malloc(sz);

			memcpy(copy, raw, sz);
			/* The last record, the FUNC: its type word. */
			if (cases[i].bad_type)
				memcpy(copy + h->hdr_len + h->type_off + h->type_len - 4,
				       &(__u32){ 1000 }, 4);
			fwrite(copy, 1, sz, f);
			free(copy);
			fclose(f);
			full = mkf_kernel__load(&o);
			err_full = full ? 0 : errno;
			filt = mkf_kernel_load_for(&o, want, 1);
			err_filt = filt ? 0 : errno;
		}
		snprintf(name, sizeof(name), "a filtered load of %s: as the full one (%s)",
			 cases[i].what, i ? "refused" : "loaded, the other FUNC left out");
		t_check(name, f && err_full == err_filt &&
			      (i ? !full && err_full == EINVAL
				 : full && filt && full->ref_cnt == 2 && filt->ref_cnt == 1 &&
				   filt->parts[0].filtered),
			"full: %s, filtered: %s", strerror(err_full), strerror(err_filt));
		mkf_kernel__free(full);
		mkf_kernel__free(filt);
		btf__free(b);
		unlink(path);
	}
}

int main(void)
{
	char tmpdir[] = "/tmp/mkf-kernel-view-XXXXXX";

	t_quiet_library();
	if (!mkdtemp(tmpdir)) {
		t_fail("temporary directory", "%s", strerror(errno));
		return t_done();
	}
	test_fixture_plans(tmpdir);
	test_filtered_broken(tmpdir);
	test_catalogue(tmpdir);
	rmdir(tmpdir);
	return t_done();
}
