// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * doctor-fixtures DIR: write one kernel BTF file per shape that
 * "magic-kfunc doctor" reports (tests/cli/doctor-test reads them):
 *   unsplit.btf       7.x built by an old pahole (tests/unit/fixtures.c)
 *   partial.btf       ten scx_bpf_* functions, four of them tagged (the
 *                     untagged ones: scx_bpf_f4..f8, scx_bpf_dsq_nr_queued)
 *   proto-only.btf    an untagged _impl with no callable short form
 *   tag-not-func.btf  a bpf_kfunc tag on an INT
 *   clean.btf         a 7.x pair: tagged foo, prototype-only foo_impl
 *   no-tags.btf       6.12 by pahole 1.24: no tag at all
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "fixtures.h"

static int write_btf(const char *dir, const char *name, struct btf *btf)
{
	char path[4096];
	const void *raw;
	__u32 sz;
	FILE *f;
	int ok;

	if (!btf)
		return -ENOMEM;
	raw = btf__raw_data(btf, &sz);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	ok = raw && f && fwrite(raw, 1, sz, f) == sz;
	if (f)
		ok = !fclose(f) && ok;
	btf__free(btf);
	if (!ok) {
		fprintf(stderr, "doctor-fixtures: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* int NAME(int x[, struct bpf_prog_aux *aux]), tagged if asked. */
static int func(struct btf *b, const char *name, bool aux, bool tag)
{
	int i32 = btf__find_by_name_kind(b, "int", BTF_KIND_INT);
	int auxp = btf__find_by_name_kind(b, "bpf_prog_aux", BTF_KIND_STRUCT);
	/* Parameters must follow their FUNC_PROTO: the pointer comes first. */
	int ptr = aux ? btf__add_ptr(b, auxp) : 0;
	int proto = btf__add_func_proto(b, i32), fn;

	btf__add_func_param(b, "x", i32);
	if (aux)
		btf__add_func_param(b, "aux", ptr);
	fn = btf__add_func(b, name, BTF_FUNC_GLOBAL, proto);
	if (tag)
		btf__add_decl_tag(b, "bpf_kfunc", fn, -1);
	return fn;
}

static struct btf *base(void)
{
	struct btf *b = btf__new_empty();

	if (b) {
		btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		btf__add_struct(b, "bpf_prog_aux", 0);
	}
	return b;
}

int main(int argc, char **argv)
{
	struct btf *b;
	char name[32];
	int i, err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: doctor-fixtures DIR\n");
		return 2;
	}
	err = err ?: write_btf(argv[1], "unsplit.btf", fx_kernel(FX_OLD_PAHOLE));
	err = err ?: write_btf(argv[1], "no-tags.btf", fx_kernel(FX_612_DEB12));

	/* The last untagged one is a kfunc tests/bpf/scx_nr_queued.bpf.o calls. */
	b = base();
	for (i = 0; b && i < 10; i++) {
		snprintf(name, sizeof(name), i < 9 ? "scx_bpf_f%d" : "scx_bpf_dsq_nr_queued", i);
		func(b, name, false, i < 4);
	}
	err = err ?: write_btf(argv[1], "partial.btf", b);

	b = base();
	if (b) {
		func(b, "tagged_one", false, true);
		func(b, "lonely_impl", true, false);
	}
	err = err ?: write_btf(argv[1], "proto-only.btf", b);

	b = base();
	if (b) {
		func(b, "tagged_one", false, true);
		btf__add_decl_tag(b, "bpf_kfunc", btf__find_by_name_kind(b, "int", BTF_KIND_INT), -1);
	}
	err = err ?: write_btf(argv[1], "tag-not-func.btf", b);

	b = base();
	if (b) {
		func(b, "foo", false, true);
		func(b, "foo_impl", true, false);
	}
	err = err ?: write_btf(argv[1], "clean.btf", b);
	return err ? 1 : 0;
}
