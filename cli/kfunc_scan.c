// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A kernel's kfuncs with verifier-provided arguments (see kfunc_scan.h),
 * by the library's rules (DESIGN.md section 3), the same it applies when
 * it resolves.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "kfunc_scan.h"
#include "magic_kfunc.h"

#define IMPL "_impl"

/* ------------------------------------------------------------------ */
/* Index of every FUNC by name.                                        */

struct func {
	const char *name;
	const struct btf *btf;
	__u32 id;
	__u32 proto;
	const char *module;	/* NULL: vmlinux */
	bool tagged;
	bool callable;
	bool paired;		/* part of a pair already reported */
};

/* btf_dump state per BTF, created on demand. */
struct dumper {
	const struct btf *btf;
	struct btf_dump *d;
};

struct index {
	struct func *funcs;	/* the FUNC libbpf binds for each name, by name */
	size_t cnt;
	struct dumper *dumps;
	size_t dump_cnt;
	FILE *dump_out;		/* where the dumps print */
};

static int cmp_func(const void *a, const void *b)
{
	return strcmp(((const struct func *)a)->name, ((const struct func *)b)->name);
}

/* The library's view of the kernel, one entry per name, sorted for find(). */
static int index_build(struct index *ix, const struct mkf_kernel *k)
{
	size_t n = mkf_kernel__func_cnt(k), i;

	memset(ix, 0, sizeof(*ix));
	ix->funcs = calloc(n + 1, sizeof(*ix->funcs));
	ix->dumps = calloc(mkf_kernel__module_cnt(k) + 1, sizeof(*ix->dumps));
	if (!ix->funcs || !ix->dumps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct mkf_kfunc *fn = mkf_kernel__func(k, i);
		struct func *f;

		if (mkf_kernel__find_func(k, mkf_kfunc__name(fn)) != fn)
			continue; /* not the one libbpf binds */
		f = &ix->funcs[ix->cnt++];
		f->name = mkf_kfunc__name(fn);
		f->btf = mkf_kfunc__btf(fn);
		f->id = mkf_kfunc__type_id(fn);
		f->proto = mkf_kfunc__proto_id(fn);
		f->module = mkf_kfunc__module(fn);
		f->tagged = mkf_kfunc__has_kfunc_tag(fn);
		f->callable = mkf_kernel__func_callable(k, fn);
	}
	if (ix->cnt)
		qsort(ix->funcs, ix->cnt, sizeof(*ix->funcs), cmp_func);
	return 0;
}

static void index_free(struct index *ix)
{
	size_t i;

	for (i = 0; i < ix->dump_cnt; i++)
		btf_dump__free(ix->dumps[i].d);
	free(ix->dumps);
	free(ix->funcs);
}

static struct func *find(const struct index *ix, const char *name)
{
	struct func key = { .name = name };

	return ix->cnt ? bsearch(&key, ix->funcs, ix->cnt, sizeof(key), cmp_func) : NULL;
}

/* Tagged, or no tags at all (pahole < 1.26): every FUNC may be a kfunc. */
static bool callable(const struct index *ix, const struct func *f)
{
	(void)ix;
	return f->callable;
}

/* ------------------------------------------------------------------ */
/* Verifier-provided parameters (DESIGN.md section 3).                 */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * NULL if param i is ordinary, else how it is recognised: "name" (with
 * *suffix set), "type" or "table". The library's rules, the same the
 * resolver applies.
 */
static const char *provided_by(const struct func *f, int i, const char **suffix)
{
	const char *why;
	bool by_type;

	*suffix = NULL;
	switch (mkf_btf__param_kind(f->btf, f->name, f->proto, i, &by_type, &why)) {
	case MKF_PARAM_CHECKED_SCALAR:
		return "table";
	case MKF_PARAM_PROVIDED:
		if (by_type)
			return "type";
		*suffix = why;
		return "name";
	default:
		return NULL;
	}
}

static int nparams(const struct func *f)
{
	const struct btf_type *t = btf__type_by_id(f->btf, f->proto);

	return t && btf_is_func_proto(t) ? btf_vlen(t) : 0;
}

/* How many trailing params are verifier-provided; *by_name: any by name or table. */
static int trailing_provided(const struct func *f, bool *by_name)
{
	int n = nparams(f), i;
	const char *by, *suffix;

	*by_name = false;
	for (i = n - 1; i >= 0; i--) {
		by = provided_by(f, i, &suffix);
		if (!by)
			break;
		*by_name = *by_name || strcmp(by, "type");
	}
	return n - 1 - i;
}

/* ------------------------------------------------------------------ */
/* Declarations as C text, through libbpf's btf_dump.                  */

/* The dumpers are cached per BTF; each capture swaps the stream. */
static void dump_printf(void *ctx, const char *fmt, va_list args)
{
	struct index *ix = ctx;

	vfprintf(ix->dump_out, fmt, args);
}

static struct btf_dump *dumper(struct index *ix, const struct func *f)
{
	size_t i;

	for (i = 0; i < ix->dump_cnt; i++)
		if (ix->dumps[i].btf == f->btf)
			return ix->dumps[i].d;
	/* One per BTF: vmlinux and each module (dumps has room for all). */
	ix->dumps[i].btf = f->btf;
	ix->dumps[i].d = btf_dump__new(f->btf, dump_printf, ix, NULL);
	ix->dump_cnt++;
	return ix->dumps[i].d;
}

/* Emit type id declared as name, as C. */
static void emit_decl(struct index *ix, const struct func *f, __u32 type, const char *name)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);
	struct btf_dump *d = dumper(ix, f);

	if (d)
		btf_dump__emit_type_decl(d, type, &o);
	else
		fputs("?", ix->dump_out);
}

/* Run one emit into a fresh string. */
static char *capture(struct index *ix, const struct func *f, int param, bool whole)
{
	const struct btf_type *proto = btf__type_by_id(f->btf, f->proto);
	const struct btf_param *p = btf_params(proto);
	char *s = NULL;
	size_t len = 0;
	int i;

	ix->dump_out = open_memstream(&s, &len);
	if (!ix->dump_out)
		return NULL;
	if (!whole) {
		emit_decl(ix, f, p[param].type, btf__name_by_offset(f->btf, p[param].name_off));
	} else {
		/* "int name" then the params: right for every plain return type. */
		emit_decl(ix, f, proto->type, f->name);
		fputc('(', ix->dump_out);
		for (i = 0; i < btf_vlen(proto); i++) {
			if (i)
				fputs(", ", ix->dump_out);
			emit_decl(ix, f, p[i].type, btf__name_by_offset(f->btf, p[i].name_off));
		}
		fputc(')', ix->dump_out);
	}
	fclose(ix->dump_out);
	ix->dump_out = NULL;
	return s;
}

/* ------------------------------------------------------------------ */
/* Classification.                                                     */

static int add_entry(struct index *ix, struct ks_entry **entries, size_t *cnt,
		     enum ks_kind kind, const struct func *f, const struct func *impl,
		     int provided)
{
	const struct func *full = impl ? impl : f;
	int n = nparams(full), i;
	const char *suffix = NULL, *first_suffix = NULL, *first_by = NULL;
	struct ks_entry *e;

	e = realloc(*entries, (*cnt + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	*entries = e;
	e = &e[*cnt];
	memset(e, 0, sizeof(*e));
	(*cnt)++;
	e->kind = kind;
	e->name = f->name;
	e->impl = impl ? impl->name : NULL;
	e->module = f->module;
	e->callable = callable(ix, f);
	e->impl_callable = impl ? callable(ix, impl) : false;
	e->provided = calloc((size_t)provided, sizeof(*e->provided));
	e->prototype = capture(ix, full, 0, true);
	if (!e->provided || !e->prototype)
		return -ENOMEM;
	for (i = n - provided; i < n; i++) {
		struct ks_param *p = &e->provided[e->provided_cnt];

		p->by = provided_by(full, i, &suffix);
		p->decl = capture(ix, full, i, false);
		if (!p->decl)
			return -ENOMEM;
		e->provided_cnt++;
		if (!first_by) {
			first_by = p->by;
			first_suffix = suffix;
		}
	}
	if (first_suffix && !strcmp(first_suffix, "__magic"))
		e->style = "magic";
	else if ((first_suffix && !strcmp(first_suffix, "__implicit")) ||
		 (first_by && !strcmp(first_by, "type")))
		e->style = "implicit";
	else
		e->style = "legacy";
	return 0;
}

/* Pass 1: foo + foo_impl where foo_impl adds only provided params. */
static int find_pairs(struct index *ix, struct ks_entry **entries, size_t *cnt)
{
	size_t i, len, slen = strlen(IMPL);
	bool by_name;
	char *base;
	int err = 0;

	for (i = 0; i < ix->cnt && !err; i++) {
		struct func *impl = &ix->funcs[i], *b;
		int extra;

		len = strlen(impl->name);
		if (len <= slen || !ends_with(impl->name, IMPL))
			continue;
		base = strndup(impl->name, len - slen);
		if (!base)
			return -ENOMEM;
		b = find(ix, base);
		free(base);
		if (!b || !callable(ix, b))
			continue;
		extra = nparams(impl) - nparams(b);
		if (extra <= 0 || trailing_provided(impl, &by_name) < extra)
			continue;
		b->paired = impl->paired = true;
		err = add_entry(ix, entries, cnt, KS_PAIR, b, impl, extra);
	}
	return err;
}

/* Pass 2: single FUNCs with trailing provided params. */
static int find_singles(struct index *ix, struct ks_entry **entries, size_t *cnt)
{
	size_t i;
	int err = 0;

	for (i = 0; i < ix->cnt && !err; i++) {
		const struct func *f = &ix->funcs[i];
		bool by_name, is_impl = ends_with(f->name, IMPL);
		int t;

		if (f->paired)
			continue;
		t = trailing_provided(f, &by_name);
		if (!t)
			continue;
		/*
		 * Plenty of kernel functions take a struct bpf_prog_aux *: by
		 * type alone, only a kfunc tag makes it a kfunc's parameter.
		 */
		if (callable(ix, f) && by_name)
			err = add_entry(ix, entries, cnt, KS_LEGACY, f, NULL, t);
		else if (callable(ix, f) && f->tagged && !is_impl)
			err = add_entry(ix, entries, cnt, KS_UNSPLIT, f, NULL, t);
		else if (!callable(ix, f) && is_impl)
			err = add_entry(ix, entries, cnt, KS_PROTO_ONLY, f, NULL, t);
	}
	return err;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ks_entry *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

int ks_scan(const struct mkf_kernel *k, struct ks_entry **entries, size_t *cnt)
{
	struct index ix;
	int err;

	*entries = NULL;
	*cnt = 0;
	err = index_build(&ix, k);
	if (!err)
		err = find_pairs(&ix, entries, cnt);
	if (!err)
		err = find_singles(&ix, entries, cnt);
	index_free(&ix);
	if (err) {
		ks_entries_free(*entries, *cnt);
		*entries = NULL;
		*cnt = 0;
		return err;
	}
	if (*cnt)
		qsort(*entries, *cnt, sizeof(**entries), cmp_entry);
	return 0;
}

void ks_entries_free(struct ks_entry *entries, size_t cnt)
{
	size_t i, j;

	for (i = 0; i < cnt; i++) {
		for (j = 0; j < entries[i].provided_cnt; j++)
			free(entries[i].provided[j].decl);
		free(entries[i].provided);
		free(entries[i].prototype);
	}
	free(entries);
}

const char *ks_kind_str(enum ks_kind kind)
{
	switch (kind) {
	case KS_PAIR: return "pair";
	case KS_LEGACY: return "legacy";
	case KS_UNSPLIT: return "unsplit";
	case KS_PROTO_ONLY: return "proto-only";
	}
	return "unknown";
}
