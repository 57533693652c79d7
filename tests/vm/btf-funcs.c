// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf-funcs BTF_FILE NAME...
 *
 * For each NAME, print how the kernel whose raw BTF is in BTF_FILE
 * declares it: "NAME(params) [kfunc]" when a DECL_TAG "bpf_kfunc" points
 * at the FUNC, "[untagged]" otherwise, or "NAME: absent". Reads a file
 * only; used by the demo and the harness to show what a kernel offers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
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

static void print_func(const struct btf *btf, struct btf_dump *d, const char *name)
{
	const struct btf_type *fn, *proto;
	const struct btf_param *p;
	int id, i, tags;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id < 0) {
		printf("%s: absent\n", name);
		return;
	}
	fn = btf__type_by_id(btf, id);
	proto = btf__type_by_id(btf, fn->type);
	printf("%s(", name);
	p = btf_params(proto);
	for (i = 0; i < btf_vlen(proto); i++, p++) {
		LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o,
			    .field_name = btf__name_by_offset(btf, p->name_off));

		if (i)
			printf(", ");
		fflush(stdout);
		btf_dump__emit_type_decl(d, p->type, &o);
	}
	fflush(stdout);
	if (has_kfunc_tag(btf, id, &tags))
		printf(") [kfunc]\n");
	else if (tags)
		printf(") [proto-only: untagged]\n");
	else
		printf(") [no kfunc tags in this BTF]\n");
}

int main(int argc, char **argv)
{
	struct btf_dump *d;
	struct btf *btf;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s BTF_FILE NAME...\n", argv[0]);
		return 2;
	}
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
	for (i = 2; i < argc; i++)
		print_func(btf, d, argv[i]);
	btf_dump__free(d);
	btf__free(btf);
	return 0;
}
