// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A kernel's kfuncs with verifier-provided arguments, read from BTF
 * (see kfunc_scan.h). The rules for "verifier-provided" are those of
 * DESIGN.md section 3, the same the library applies when it resolves.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "kfunc_scan.h"
#include "magic_kfunc.h"

#define KFUNC_TAG "bpf_kfunc"
#define IMPL "_impl"

/* ------------------------------------------------------------------ */
/* Loading.                                                            */

/*
 * Names are used as C strings below: refuse BTF with a name offset past
 * its strings (libbpf 1.1 does not check them).
 */
static bool names_valid(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 id = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf);
	__u16 i;

	for (; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf__name_by_offset(btf, t->name_off))
			return false;
		if (btf_is_func_proto(t)) {
			for (i = 0; i < btf_vlen(t); i++)
				if (!btf__name_by_offset(btf, btf_params(t)[i].name_off))
					return false;
		}
	}
	return true;
}

/* -errno of a failed btf__parse*(); libbpf's own codes are no errno. */
static int parse_errno(void)
{
	return errno >= __LIBBPF_ERRNO__START && errno < __LIBBPF_ERRNO__END ? -EINVAL : -errno;
}

static int add_module(struct ks_kernel *k, const char *path)
{
	const char *base = strrchr(path, '/');
	struct ks_module *m;
	struct btf *btf;

	btf = btf__parse_split(path, k->vmlinux);
	if (!btf)
		return parse_errno();
	if (!names_valid(btf)) {
		btf__free(btf);
		return -EINVAL;
	}
	m = realloc(k->modules, (k->module_cnt + 1) * sizeof(*m));
	if (!m) {
		btf__free(btf);
		return -ENOMEM;
	}
	k->modules = m;
	/* Named like the library names them: the file up to its first '.'. */
	base = base ? base + 1 : path;
	m[k->module_cnt].name = strndup(base, strcspn(base, "."));
	if (!m[k->module_cnt].name) {
		btf__free(btf);
		return -ENOMEM;
	}
	m[k->module_cnt].btf = btf;
	k->module_cnt++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every module of the running kernel, in name order. */
static int add_module_dir(struct ks_kernel *k, const char *dir)
{
	char **names = NULL, **tmp, *path;
	size_t n = 0, i;
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		tmp = realloc(names, (n + 1) * sizeof(*names));
		if (!tmp || !(tmp[n] = strdup(de->d_name))) {
			names = tmp ? tmp : names;
			err = -ENOMEM;
			break;
		}
		names = tmp;
		n++;
	}
	closedir(d);
	/* names is NULL without modules: qsort() must not see it. */
	if (!err && n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		if (!err && asprintf(&path, "%s/%s", dir, names[i]) >= 0) {
			/* A module can unload while we read: say so, go on. */
			if (add_module(k, path))
				fprintf(stderr, "warning: %s: cannot read module BTF: %s\n", path,
					strerror(errno));
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int ks_kernel_load(struct ks_kernel *k, const char *vmlinux_path,
		   const char *const *module_paths, size_t module_cnt,
		   const char *btf_dir, const char **what)
{
	char *path = NULL;
	size_t i;
	int err = 0;

	memset(k, 0, sizeof(*k));
	if (!vmlinux_path) {
		if (asprintf(&path, "%s/vmlinux", btf_dir) < 0)
			return -ENOMEM;
		vmlinux_path = path;
	}
	*what = vmlinux_path;
	/* Raw .BTF (the harness cache, /sys/kernel/btf) or ELF: btf__parse tells. */
	k->vmlinux = btf__parse(vmlinux_path, NULL);
	if (k->vmlinux && !names_valid(k->vmlinux)) {
		btf__free(k->vmlinux);
		k->vmlinux = NULL;
		errno = EINVAL;
	}
	if (!k->vmlinux) {
		err = parse_errno();
		/* *what must outlive this call: name the directory instead. */
		if (path)
			*what = btf_dir;
		free(path);
		return err;
	}
	free(path);
	for (i = 0; i < module_cnt && !err; i++) {
		*what = module_paths[i];
		err = add_module(k, module_paths[i]);
	}
	if (!err && !module_cnt && btf_dir) {
		*what = btf_dir;
		err = add_module_dir(k, btf_dir);
	}
	if (err)
		ks_kernel_free(k);
	return err;
}

void ks_kernel_free(struct ks_kernel *k)
{
	size_t i;

	/* Split BTF first: it points into its base. */
	for (i = 0; i < k->module_cnt; i++) {
		btf__free(k->modules[i].btf);
		free(k->modules[i].name);
	}
	free(k->modules);
	btf__free(k->vmlinux);
	memset(k, 0, sizeof(*k));
}

/* ------------------------------------------------------------------ */
/* Index of every FUNC by name.                                        */

struct func {
	const char *name;
	const struct btf *btf;
	__u32 id;
	__u32 proto;
	int module;		/* -1: vmlinux */
	bool tagged;
	bool paired;		/* part of a pair already reported */
};

struct index {
	const struct ks_kernel *k;
	struct func *funcs;
	size_t cnt;
	size_t tag_cnt;
	struct btf_dump **dumps;	/* per BTF, created on demand */
	FILE *dump_out;			/* where the dumps print */
};

static int index_btf(struct index *ix, const struct btf *btf, int module)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 start = base ? btf__type_cnt(base) : 1, end = btf__type_cnt(btf), id, n = 0;
	unsigned char *tagged;
	struct func *f;

	tagged = calloc(end - start + 1, 1);
	if (!tagged)
		return -ENOMEM;
	for (id = start; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_func(t))
			n++;
		/* A tag on the whole function (component_idx -1) marks a kfunc. */
		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(btf__name_by_offset(btf, t->name_off), KFUNC_TAG))
			continue;
		ix->tag_cnt++;
		if (t->type >= start && t->type < end)
			tagged[t->type - start] = 1;
	}
	f = realloc(ix->funcs, (ix->cnt + n + 1) * sizeof(*f));
	if (!f) {
		free(tagged);
		return -ENOMEM;
	}
	ix->funcs = f;
	for (id = start; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_type *proto;

		if (!btf_is_func(t))
			continue;
		/* The scan reads its parameters: only FUNCs with a FUNC_PROTO. */
		proto = btf__type_by_id(btf, t->type);
		if (!proto || !btf_is_func_proto(proto))
			continue;
		f = &ix->funcs[ix->cnt++];
		f->name = btf__name_by_offset(btf, t->name_off);
		f->btf = btf;
		f->id = id;
		f->proto = t->type;
		f->module = module;
		f->tagged = tagged[id - start];
		f->paired = false;
	}
	free(tagged);
	return 0;
}

/* Name, then vmlinux before modules, then id: the first is libbpf's pick. */
static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int index_build(struct index *ix, const struct ks_kernel *k)
{
	size_t i, j;
	int err;

	memset(ix, 0, sizeof(*ix));
	ix->k = k;
	err = index_btf(ix, k->vmlinux, -1);
	for (i = 0; i < k->module_cnt && !err; i++)
		err = index_btf(ix, k->modules[i].btf, (int)i);
	if (err)
		return err;
	if (ix->cnt)
		qsort(ix->funcs, ix->cnt, sizeof(*ix->funcs), cmp_func);
	/* Keep one FUNC per name: the one a program would bind. */
	for (i = 0, j = 0; i < ix->cnt; i++)
		if (!j || strcmp(ix->funcs[j - 1].name, ix->funcs[i].name))
			ix->funcs[j++] = ix->funcs[i];
	ix->cnt = j;
	ix->dumps = calloc(k->module_cnt + 1, sizeof(*ix->dumps));
	return ix->dumps ? 0 : -ENOMEM;
}

static void index_free(struct index *ix)
{
	size_t i;

	for (i = 0; ix->dumps && i <= ix->k->module_cnt; i++)
		btf_dump__free(ix->dumps[i]);
	free(ix->dumps);
	free(ix->funcs);
}

static struct func *find(const struct index *ix, const char *name)
{
	size_t lo = 0, hi = ix->cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix->funcs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->cnt && !strcmp(ix->funcs[lo].name, name) ? &ix->funcs[lo] : NULL;
}

/* Without any kfunc tag (pahole < 1.26) every FUNC may be a kfunc. */
static bool callable(const struct index *ix, const struct func *f)
{
	return f->tagged || !ix->tag_cnt;
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
	struct btf_dump **d = &ix->dumps[f->module + 1];

	if (!*d)
		*d = btf_dump__new(f->btf, dump_printf, ix, NULL);
	return *d;
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
	e->module = f->module < 0 ? NULL : ix->k->modules[f->module].name;
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

int ks_scan(const struct ks_kernel *k, struct ks_entry **entries, size_t *cnt,
	    bool *has_tags)
{
	struct index ix;
	int err;

	*entries = NULL;
	*cnt = 0;
	err = index_build(&ix, k);
	*has_tags = ix.tag_cnt > 0;
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
