// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * gen-kfuncs: write a BPF C source declaring and calling kfunc externs
 * taken from a kernel's BTF, for the host-side rewrite benchmark.
 *
 *   gen-kfuncs [-n COUNT] [-p PAIRS] [-i HEADER] BTF > OBJ.bpf.c
 *
 * Kfuncs are the FUNCs carrying a DECL_TAG "bpf_kfunc", taken in name
 * order. First, up to PAIRS (default 16; 0 for none) pairs foo +
 * foo_impl where foo is a kfunc and foo_impl a FUNC of the same BTF
 * that is not one, with
 * one more (trailing, verifier-provided) parameter: the object declares
 * foo_impl with its own prototype, the way programs written for the
 * older kernels call it, so the library has real work to do (bind foo
 * instead, drop that parameter). Then ordinary kfuncs, bound as they
 * are, up to COUNT (default 64) externs.
 *
 * Only prototypes that can be called with 0 for every argument are
 * used: no struct or union passed or returned by value, at most five
 * parameters, not variadic, no anonymous struct, union or enum (a
 * declaration cannot name it), no name starting with '_' (clang gives
 * such an extern no BTF, so the library would not see it). Each extern
 * is declared with btf_dump__emit_type_decl() as __ksym __weak and
 * called once, with zeros, from one SEC("syscall") program. HEADER
 * (default "vmlinux.h") is the C dump of the same BTF.
 *
 * The calls sit behind a .rodata flag left 0: the verifier never walks
 * them, so P5 (bench/load-cost) can load the object where plain libbpf
 * resolves its externs, and P1 reads it as it reads any object.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define BENCH_PROG "gen-kfuncs"
#include "die.h"

#define MAX_PARAMS 5
#define MAX_DEPTH 8

struct func {
	const char *name;
	__u32 id;
	bool kfunc;
};

struct gen {
	const struct btf *btf;
	struct func *funcs;	/* every FUNC, sorted by name */
	size_t func_cnt;
	const struct func **picked;
	const char **decl_names;	/* name each picked extern is declared as */
	const struct func **shorts;	/* foo of each pair, left out */
	size_t picked_cnt;
	size_t pair_cnt;
};

static int func_cmp(const void *a, const void *b)
{
	const struct func *fa = a, *fb = b;
	int r = strcmp(fa->name, fb->name);

	if (r)
		return r;
	return fa->id < fb->id ? -1 : fa->id > fb->id;
}

static const struct func *find_func(const struct gen *g, const char *name)
{
	size_t lo = 0, hi = g->func_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(g->funcs[mid].name, name);

		if (!r) {
			/* The first of equal names: ids are sorted too. */
			while (mid > 0 && !strcmp(g->funcs[mid - 1].name, name))
				mid--;
			return &g->funcs[mid];
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every FUNC of the BTF, with a flag for the "bpf_kfunc" tagged ones. */
static void collect_funcs(struct gen *g)
{
	const struct btf *btf = g->btf;
	__u32 i, n = btf__type_cnt(btf);
	bool *tagged = calloc(n, sizeof(*tagged));
	size_t cnt = 0, k;

	if (!tagged)
		die("out of memory\n");
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (btf_is_func(t)) {
			cnt++;
		} else if (btf_is_decl_tag(t) && btf_decl_tag(t)->component_idx == -1 &&
			   !strcmp(btf__name_by_offset(btf, t->name_off), "bpf_kfunc") &&
			   t->type < n) {
			tagged[t->type] = true;
		}
	}
	g->funcs = calloc(cnt ? cnt : 1, sizeof(*g->funcs));
	if (!g->funcs)
		die("out of memory\n");
	for (i = 1, k = 0; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_func(t))
			continue;
		g->funcs[k].name = btf__name_by_offset(btf, t->name_off);
		g->funcs[k].id = i;
		g->funcs[k].kfunc = tagged[i];
		k++;
	}
	g->func_cnt = cnt;
	free(tagged);
	qsort(g->funcs, g->func_cnt, sizeof(*g->funcs), func_cmp);
}

static __u32 skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		/* A named typedef can be spelt: stop there. */
		if (btf_is_typedef(t))
			return id;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

static bool proto_callable(const struct btf *btf, __u32 proto_id, int depth);

/*
 * Whether a parameter or return type can be declared (no anonymous
 * aggregate or enum) and given/returned as 0 (no aggregate by value).
 */
static bool type_ok(const struct btf *btf, __u32 id, bool by_value, int depth)
{
	const struct btf_type *t;

	if (depth > MAX_DEPTH)
		return false;
	id = skip_mods(btf, id);
	if (!id)
		return !by_value; /* void, or void * */
	t = btf__type_by_id(btf, id);
	if (!t)
		return false;
	if (btf_is_typedef(t)) {
		/* Spelt by its name, but what it stands for is passed. */
		if (!by_value)
			return true;
		return type_ok(btf, t->type, true, depth + 1);
	}
	if (btf_is_ptr(t))
		return type_ok(btf, t->type, false, depth + 1);
	if (btf_is_array(t))
		return !by_value && type_ok(btf, btf_array(t)->type, false, depth + 1);
	if (btf_is_func_proto(t))
		return !by_value && proto_callable(btf, id, depth + 1);
	if (btf_is_struct(t) || btf_is_union(t) || btf_is_fwd(t))
		return !by_value && t->name_off;
	if (btf_is_any_enum(t))
		return t->name_off != 0;
	return btf_is_int(t) || btf_is_float(t);
}

static bool proto_callable(const struct btf *btf, __u32 proto_id, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, proto_id);
	const struct btf_param *p;
	__u16 i, vlen;

	if (!t || !btf_is_func_proto(t))
		return false;
	vlen = btf_vlen(t);
	if (vlen > MAX_PARAMS)
		return false;
	p = btf_params(t);
	for (i = 0; i < vlen; i++) {
		if (!p[i].type) /* ... */
			return false;
		if (!type_ok(btf, p[i].type, true, depth))
			return false;
	}
	return !t->type || type_ok(btf, t->type, true, depth);
}

static bool func_callable(const struct gen *g, const struct func *f)
{
	const struct btf_type *t = btf__type_by_id(g->btf, f->id);

	/* clang emits no BTF for an extern whose name starts with '_'. */
	if (f->name[0] == '_')
		return false;
	return proto_callable(g->btf, t->type, 0);
}

static __u16 proto_vlen(const struct gen *g, const struct func *f)
{
	const struct btf_type *t = btf__type_by_id(g->btf, f->id);

	return btf_vlen(btf__type_by_id(g->btf, t->type));
}

static bool is_picked(const struct gen *g, const struct func *f)
{
	size_t i;

	for (i = 0; i < g->picked_cnt; i++)
		if (g->picked[i] == f)
			return true;
	return false;
}

static void pick(struct gen *g, const struct func *f, const char *decl_name)
{
	g->picked[g->picked_cnt] = f;
	g->decl_names[g->picked_cnt] = decl_name;
	g->picked_cnt++;
}

static void pick_funcs(struct gen *g, size_t count, size_t max_pairs)
{
	char name[256];
	size_t i;

	g->picked = calloc(count, sizeof(*g->picked));
	g->decl_names = calloc(count, sizeof(*g->decl_names));
	g->shorts = calloc(count, sizeof(*g->shorts));
	if (!g->picked || !g->decl_names || !g->shorts)
		die("out of memory\n");

	/* Pairs: the short kfunc foo and a prototype-only foo_impl. */
	for (i = 0; i < g->func_cnt && g->pair_cnt < max_pairs && g->picked_cnt < count; i++) {
		const struct func *f = &g->funcs[i], *impl;

		if (!f->kfunc || (i > 0 && !strcmp(g->funcs[i - 1].name, f->name)))
			continue;
		if ((size_t)snprintf(name, sizeof(name), "%s_impl", f->name) >= sizeof(name))
			continue;
		impl = find_func(g, name);
		if (!impl || impl->kfunc || !func_callable(g, f) || !func_callable(g, impl))
			continue;
		/* foo_impl = foo + one trailing verifier-provided param. */
		if (proto_vlen(g, impl) != proto_vlen(g, f) + 1)
			continue;
		/* Declared as foo_impl, with foo_impl's prototype. */
		pick(g, impl, impl->name);
		/* foo itself is kept out of the ordinary ones below. */
		g->shorts[g->pair_cnt++] = f;
	}

	/* Ordinary kfuncs, bound as they are. */
	for (i = 0; i < g->func_cnt && g->picked_cnt < count; i++) {
		const struct func *f = &g->funcs[i];
		size_t j;
		bool paired = false;

		if (!f->kfunc || (i > 0 && !strcmp(g->funcs[i - 1].name, f->name)))
			continue;
		for (j = 0; j < g->pair_cnt; j++)
			if (g->shorts[j] == f)
				paired = true;
		if (paired || is_picked(g, f) || !func_callable(g, f))
			continue;
		pick(g, f, f->name);
	}
	if (g->picked_cnt < count)
		die("only %zu usable kfuncs in this BTF, %zu wanted\n", g->picked_cnt, count);
}

static void add_struct(__u32 *ids, size_t *cnt, size_t max, __u32 id)
{
	size_t i;

	for (i = 0; i < *cnt; i++)
		if (ids[i] == id)
			return;
	if (*cnt < max)
		ids[(*cnt)++] = id;
}

/*
 * Collect the named structs and unions (not FWDs) a type points to,
 * looking into the prototypes of function pointers too.
 */
static void collect_structs(const struct btf *btf, __u32 id, __u32 *ids, size_t *cnt,
			    size_t max, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && depth++ < MAX_DEPTH) {
		if (btf_is_mod(t) || btf_is_typedef(t) || btf_is_ptr(t)) {
			id = t->type;
			t = btf__type_by_id(btf, id);
			continue;
		}
		if ((btf_is_struct(t) || btf_is_union(t)) && t->name_off) {
			add_struct(ids, cnt, max, id);
		} else if (btf_is_func_proto(t)) {
			const struct btf_param *p = btf_params(t);
			__u16 j;

			collect_structs(btf, t->type, ids, cnt, max, depth);
			for (j = 0; j < btf_vlen(t); j++)
				collect_structs(btf, p[j].type, ids, cnt, max, depth);
		}
		break;
	}
}

/*
 * clang gives a struct that an extern reaches only through a pointer
 * member of another struct a forward declaration in the object's BTF,
 * even when a parameter of a later extern points to it directly; libbpf
 * then finds that prototype incompatible with the kernel's (FWD against
 * STRUCT). A struct held by value anywhere is emitted complete, and the
 * pointers to it follow: one zero-sized global holds every struct the
 * prototypes point to, as a program using those structs would.
 */
static void emit_struct_holder(struct gen *g, FILE *out)
{
	size_t i, cnt = 0, max = 1024;
	__u32 *ids;

	ids = calloc(max, sizeof(*ids));
	if (!ids)
		die("out of memory\n");
	for (i = 0; i < g->picked_cnt; i++) {
		const struct btf_type *f = btf__type_by_id(g->btf, g->picked[i]->id);

		collect_structs(g->btf, f->type, ids, &cnt, max, 0);
	}
	if (!cnt) {
		free(ids);
		return;
	}
	fputs("/*\n"
	      " * Every struct the externs point to, held by value (zero-sized) so\n"
	      " * that clang emits each complete in the BTF, not as a forward\n"
	      " * declaration libbpf would find incompatible with the kernel's.\n"
	      " */\n"
	      "struct bench_kfunc_types {\n", out);
	for (i = 0; i < cnt; i++) {
		const struct btf_type *t = btf__type_by_id(g->btf, ids[i]);

		fprintf(out, "\t%s %s t%zu[0];\n", btf_is_union(t) ? "union" : "struct",
			btf__name_by_offset(g->btf, t->name_off), i);
	}
	/* Not empty: libbpf 1.1 does not open an object with an empty data section. */
	fputs("\tchar keep;\n};\n\n"
	      "struct bench_kfunc_types bench_kfunc_types SEC(\".data.bench\");\n\n", out);
	free(ids);
}

static void dump_printf(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

static void emit(struct gen *g, const char *btf_path, const char *header, FILE *out)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, decl_opts);
	struct btf_dump *d;
	char *decl = NULL;
	size_t decl_sz = 0;
	size_t i, j;
	FILE *buf;
	int err;

	buf = open_memstream(&decl, &decl_sz);
	if (!buf)
		die("out of memory\n");
	d = btf_dump__new(g->btf, dump_printf, buf, NULL);
	if (!d)
		die("btf_dump__new: %s\n", strerror(errno));

	fprintf(out, "// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause\n"
		"/*\n"
		" * Generated by bench/gen-kfuncs from %s:\n"
		" * %zu kfunc externs, %zu of them foo_impl of a pair foo + foo_impl.\n"
		" * Read by bench/rewrite-cost; loaded by bench/load-cost where plain\n"
		" * libbpf loads it: the calls sit behind a .rodata flag left 0.\n"
		" */\n"
		"#include \"%s\"\n\n"
		"#define SEC(name) __attribute__((section(name), used))\n"
		"#define __ksym __attribute__((section(\".ksyms\")))\n"
		"#define __weak __attribute__((weak))\n\n",
		btf_path, g->picked_cnt, g->pair_cnt, header);

	for (i = 0; i < g->picked_cnt; i++) {
		const struct btf_type *t = btf__type_by_id(g->btf, g->picked[i]->id);

		const struct btf_type *proto = btf__type_by_id(g->btf, t->type);
		char call[300], *p;

		/* The decl goes to a buffer first: "foo()" becomes "foo(void)". */
		rewind(buf);
		decl_opts.field_name = g->decl_names[i];
		err = btf_dump__emit_type_decl(d, t->type, &decl_opts);
		if (err)
			die("btf_dump__emit_type_decl(%s): %s\n", g->decl_names[i], strerror(-err));
		fputc('\0', buf);
		if (fflush(buf))
			die("out of memory\n");
		snprintf(call, sizeof(call), "%s()", g->decl_names[i]);
		p = btf_vlen(proto) ? NULL : strstr(decl, call);
		if (p)
			fprintf(out, "extern %.*s(void)%s __ksym __weak;\n",
				(int)(p - decl + strlen(g->decl_names[i])), decl,
				p + strlen(call));
		else
			fprintf(out, "extern %s __ksym __weak;\n", decl);
	}

	fputc('\n', out);
	emit_struct_holder(g, out);
	/*
	 * The verifier knows a frozen .rodata value: it never walks calls
	 * behind a flag left 0, which may then pass zeros where references
	 * belong, and the calls of weak externs no kernel function
	 * resolved are removed as dead code.
	 */
	fputs("char LICENSE[] SEC(\"license\") = \"GPL\";\n\n"
	      "const volatile int bench_call_kfuncs SEC(\".rodata\");\n\n"
	      "SEC(\"syscall\")\n"
	      "int bench_kfuncs(void *ctx)\n"
	      "{\n"
	      "\tif (!bench_call_kfuncs)\n"
	      "\t\treturn 0;\n", out);
	for (i = 0; i < g->picked_cnt; i++) {
		const struct btf_type *f = btf__type_by_id(g->btf, g->picked[i]->id);
		const struct btf_type *proto = btf__type_by_id(g->btf, f->type);
		__u16 vlen = btf_vlen(proto);

		fprintf(out, "\t%s(", g->decl_names[i]);
		for (j = 0; j < vlen; j++)
			fprintf(out, "%s0", j ? ", " : "");
		fputs(");\n", out);
	}
	fputs("\treturn 0;\n}\n", out);
	btf_dump__free(d);
	fclose(buf);
	free(decl);
}

static size_t parse_count(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > 4096)
		die("bad %s '%s'\n", what, s);
	return v;
}

static void usage(void)
{
	fprintf(stderr, "usage: %s [-n COUNT] [-p PAIRS] [-i HEADER] BTF > OBJ.bpf.c\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *header = "vmlinux.h";
	size_t count = 64, max_pairs = 16;
	struct gen g = {};
	struct btf *btf;
	int opt;

	while ((opt = getopt(argc, argv, "n:p:i:")) != -1) {
		switch (opt) {
		case 'n':
			count = parse_count(optarg, "count");
			break;
		case 'p':
			max_pairs = parse_count(optarg, "pair count");
			break;
		case 'i':
			header = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || !count)
		usage();

	btf = btf__parse(argv[optind], NULL);
	if (!btf)
		die("%s: cannot parse BTF: %s\n", argv[optind], strerror(errno));
	g.btf = btf;
	collect_funcs(&g);
	pick_funcs(&g, count, max_pairs);
	/* Pairs asked for and none found: P1 would measure no rewrite. */
	if (max_pairs && !g.pair_cnt)
		die("%s: no kfunc pair foo + foo_impl: the object would need no rewrite\n",
		    argv[optind]);
	emit(&g, argv[optind], header, stdout);
	if (fflush(stdout) || ferror(stdout))
		die("writing the source: %s\n", strerror(errno));

	free(g.picked);
	free(g.decl_names);
	free(g.shorts);
	free(g.funcs);
	btf__free(btf);
	return 0;
}
