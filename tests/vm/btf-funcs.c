// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf-funcs BTF_FILE NAME...
 * btf-funcs --kfuncs|--kfunc-decls BTF_FILE
 * btf-funcs --untag OUT BTF_FILE NAME...
 *
 * For each NAME, print how the kernel whose raw BTF is in BTF_FILE
 * declares it: "NAME(params) [kfunc]" when a DECL_TAG "bpf_kfunc" points
 * at the FUNC, "[untagged]" otherwise, or "NAME: absent". With --kfuncs,
 * print every FUNC with a "bpf_kfunc" tag, sorted by name, as
 * "NAME(params) -> RETURN", the whole prototype; with --kfunc-decls, as
 * the C declarations "extern RETURN NAME(params) __weak __ksym;" that
 * bpftool 7.4 and later put in vmlinux.h. With --untag, write to OUT
 * the BTF with the "bpf_kfunc" tags of each NAME renamed
 * "untagged_kfunc": a partly tagged kernel's shape, every type ID kept
 * (a program loaded with OUT as libbpf's btf_custom_path calls the
 * running kernel's functions). Reads files only; used by the demo and
 * the harness to show what a kernel offers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

static void out(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

static bool has_kfunc_tag(const struct btf *btf, __u32 func_id, int *tags)
{
	__u32 i, n = btf__type_cnt(btf);
	bool tagged = false;

	*tags = 0;
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_decl_tag(t) || strcmp(btf__name_by_offset(btf, t->name_off), "bpf_kfunc"))
			continue;
		(*tags)++;
		if (t->type == func_id)
			tagged = true;
	}
	return tagged;
}

/* "NAME(params" as C declares them. */
static void print_params(const struct btf *btf, struct btf_dump *d, const char *name,
			 const struct btf_type *proto)
{
	const struct btf_param *p = btf_params(proto);
	int i;

	printf("%s(", name);
	for (i = 0; i < btf_vlen(proto); i++, p++) {
		LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o,
			    .field_name = btf__name_by_offset(btf, p->name_off));

		if (i)
			printf(", ");
		fflush(stdout);
		btf_dump__emit_type_decl(d, p->type, &o);
	}
	fflush(stdout);
}

static void print_func(const struct btf *btf, struct btf_dump *d, const char *name)
{
	const struct btf_type *fn, *proto;
	int id, tags;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id < 0) {
		printf("%s: absent\n", name);
		return;
	}
	fn = btf__type_by_id(btf, id);
	proto = btf__type_by_id(btf, fn->type);
	print_params(btf, d, name, proto);
	if (has_kfunc_tag(btf, id, &tags))
		printf(") [kfunc]\n");
	else if (tags)
		printf(") [untagged]\n");
	else
		printf(") [no kfunc tags in this BTF]\n");
}

/* "NAME(params) -> RETURN" of every FUNC tagged "bpf_kfunc". */
static char **kfunc_names(const struct btf *btf, int *cnt)
{
	__u32 i, n = btf__type_cnt(btf);
	char **names = calloc(n, sizeof(*names));

	*cnt = 0;
	for (i = 1; names && i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_type *f;

		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(btf__name_by_offset(btf, t->name_off), "bpf_kfunc"))
			continue;
		f = btf__type_by_id(btf, t->type);
		if (f && btf_is_func(f))
			names[(*cnt)++] = (char *)btf__name_by_offset(btf, f->name_off);
	}
	return names;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int print_kfuncs(const struct btf *btf, struct btf_dump *d, bool decls)
{
	const struct btf_type *fn;
	char **names;
	int i, cnt, id;

	names = kfunc_names(btf, &cnt);
	if (!names)
		return 1;
	qsort(names, cnt, sizeof(*names), cmp_str);
	for (i = 0; i < cnt; i++) {
		/* A FUNC tagged twice is listed once. */
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		id = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC);
		fn = btf__type_by_id(btf, id);
		if (decls) {
			printf("extern ");
			fflush(stdout);
			btf_dump__emit_type_decl(d, btf__type_by_id(btf, fn->type)->type, NULL);
			fflush(stdout);
			printf(" ");
		}
		print_params(btf, d, names[i], btf__type_by_id(btf, fn->type));
		if (decls) {
			printf(") __weak __ksym;\n");
			continue;
		}
		printf(") -> ");
		fflush(stdout);
		btf_dump__emit_type_decl(d, btf__type_by_id(btf, fn->type)->type, NULL);
		fflush(stdout);
		printf("\n");
	}
	free(names);
	return 0;
}

/*
 * The tags of NAMES renamed, written to OUT: the new name goes at the
 * end of the strings, so no type and no other string moves.
 */
static int untag(const char *out, const char *in, char **names, int cnt)
{
	struct btf *btf = btf__parse_raw(in);
	__u32 i, n, sz, done = 0;
	const void *raw;
	FILE *f;
	int off, k;

	if (!btf) {
		fprintf(stderr, "btf-funcs: %s: %s\n", in, strerror(errno));
		return 1;
	}
	off = btf__add_str(btf, "untagged_kfunc");
	n = btf__type_cnt(btf);
	for (i = 1; off > 0 && i < n; i++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, i);
		const struct btf_type *fn = btf__type_by_id(btf, t->type);

		if (!btf_is_decl_tag(t) || strcmp(btf__name_by_offset(btf, t->name_off), "bpf_kfunc") ||
		    !fn || !btf_is_func(fn))
			continue;
		for (k = 0; k < cnt; k++) {
			if (!strcmp(btf__name_by_offset(btf, fn->name_off), names[k])) {
				t->name_off = (__u32)off;
				done++;
			}
		}
	}
	raw = btf__raw_data(btf, &sz);
	f = raw && done ? fopen(out, "w") : NULL;
	if (!f || fwrite(raw, 1, sz, f) != sz || fclose(f)) {
		fprintf(stderr, "btf-funcs: %s: %s\n", out,
			done ? strerror(errno) : "no bpf_kfunc tag of these names");
		btf__free(btf);
		return 1;
	}
	btf__free(btf);
	return 0;
}

int main(int argc, char **argv)
{
	bool decls = argc == 3 && !strcmp(argv[1], "--kfunc-decls");
	bool kfuncs = decls || (argc == 3 && !strcmp(argv[1], "--kfuncs"));
	struct btf_dump *d;
	struct btf *btf;
	int i, err = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s BTF_FILE NAME...\n       %s --kfuncs|--kfunc-decls BTF_FILE\n"
			"       %s --untag OUT BTF_FILE NAME...\n", argv[0], argv[0], argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "--untag"))
		return argc < 5 ? 2 : untag(argv[2], argv[3], argv + 4, argc - 4);
	if (kfuncs)
		argv++;
	btf = btf__parse_raw(argv[1]);
	if (!btf) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], strerror(errno));
		return 1;
	}
	d = btf_dump__new(btf, out, stdout, NULL);
	if (!d) {
		fprintf(stderr, "%s: btf_dump__new: %s\n", argv[0], strerror(errno));
		btf__free(btf);
		return 1;
	}
	if (kfuncs)
		err = print_kfuncs(btf, d, decls);
	else
		for (i = 2; i < argc; i++)
			print_func(btf, d, argv[i]);
	btf_dump__free(d);
	btf__free(btf);
	return err;
}
