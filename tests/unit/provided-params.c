// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * provided-params ID BTF [ID BTF]...: for each kernel BTF, one line per
 * kfunc parameter that the library calls verifier-provided, or that
 * looks like one of the conventions it knows (a name ending in __ign,
 * __prog, __magic or __implicit; a struct bpf_prog_aux * or struct
 * btf_struct_meta *; a node offset after one):
 *
 *   ID FUNC PARAM KIND BASIS
 *
 * KIND is "normal", "provided" or "checked-scalar" (mkf_btf__param_kind()).
 * Kfuncs are the FUNCs a DECL_TAG "bpf_kfunc" points at and their
 * FUNC_impl twins; in a BTF without such tags (pahole < 1.26), FUNCs
 * named like a kfunc of the tagged kernels given, and their twins.
 * tests/unit/provided-params-test compares the lines with the reviewed
 * list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "magic_kfunc_introspect.h"

struct names {
	char **v;
	size_t n, cap;
};

static int add_name(struct names *s, const char *name)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n] = strdup(name);
	return s->v[s->n++] ? 0 : -ENOMEM;
}

static void free_names(struct names *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_name(const struct names *s, const char *name)
{
	return s->n && bsearch(&name, s->v, s->n, sizeof(*s->v), cmp_str);
}

static const char *name_of(const struct btf *btf, __u32 off)
{
	const char *n = btf__name_by_offset(btf, off);

	return n ? n : "";
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The struct a type points to, through modifiers and typedefs, or "". */
static const char *pointee(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && depth++ < 32)
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_ptr(t))
		return "";
	t = btf__type_by_id(btf, t->type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && depth++ < 32)
		t = btf__type_by_id(btf, t->type);
	return t && (btf_is_struct(t) || btf_is_fwd(t)) ? name_of(btf, t->name_off) : "";
}

static bool looks_provided(const struct btf *btf, const struct btf_param *p, int i)
{
	const char *n = name_of(btf, p[i].name_off), *s = pointee(btf, p[i].type);

	if (ends_with(n, "__ign") || ends_with(n, "__prog") || ends_with(n, "__magic") ||
	    ends_with(n, "__implicit"))
		return true;
	if (!strcmp(s, "bpf_prog_aux") || !strcmp(s, "btf_struct_meta"))
		return true;
	return !strcmp(n, "off") && i > 0 &&
	       (!strcmp(name_of(btf, p[i - 1].name_off), "meta__ign") ||
		!strcmp(pointee(btf, p[i - 1].type), "btf_struct_meta"));
}

static const char *kind_str(enum mkf_param_kind k)
{
	switch (k) {
	case MKF_PARAM_NORMAL: return "normal";
	case MKF_PARAM_PROVIDED: return "provided";
	case MKF_PARAM_CHECKED_SCALAR: return "checked-scalar";
	}
	return "?";
}

/* The kfunc tags' targets of btf, as a sorted name list. */
static int tagged_names(const struct btf *btf, struct names *out)
{
	__u32 id, n = btf__type_cnt(btf);
	int err = 0;

	for (id = 1; id < n && !err; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_decl_tag(t) || strcmp(name_of(btf, t->name_off), "bpf_kfunc") ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		t = btf__type_by_id(btf, t->type);
		if (t && btf_is_func(t))
			err = add_name(out, name_of(btf, t->name_off));
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	return err;
}

/* Whether name is a kfunc of ks, or ks's foo for a foo_impl. */
static bool is_kfunc(const struct names *ks, const char *name)
{
	char base[512];
	size_t n = strlen(name);

	if (has_name(ks, name))
		return true;
	if (!ends_with(name, "_impl") || n - 5 >= sizeof(base))
		return false;
	memcpy(base, name, n - 5);
	base[n - 5] = '\0';
	return has_name(ks, base);
}

/* Print kernel ID's lines; ks: its kfunc names. */
static void dump(const char *id, const struct btf *btf, const struct names *ks)
{
	__u32 fid, n = btf__type_cnt(btf);

	for (fid = 1; fid < n; fid++) {
		const struct btf_type *f = btf__type_by_id(btf, fid), *p;
		const char *fname;
		int j;

		if (!btf_is_func(f))
			continue;
		fname = name_of(btf, f->name_off);
		if (!is_kfunc(ks, fname))
			continue;
		p = btf__type_by_id(btf, f->type);
		if (!p || !btf_is_func_proto(p))
			continue;
		for (j = 0; j < btf_vlen(p); j++) {
			enum mkf_param_basis basis;
			enum mkf_param_kind k = mkf_btf__param_kind(btf, fname, f->type, j, &basis);

			if (k == MKF_PARAM_NORMAL && !looks_provided(btf, btf_params(p), j))
				continue;
			printf("%s %s %s %s %s\n", id, fname, name_of(btf, btf_params(p)[j].name_off),
			       kind_str(k), mkf_param_basis_str(basis));
		}
	}
}

int main(int argc, char **argv)
{
	int a, i, cnt = (argc - 1) / 2, rc = 0;
	struct names known = {}, *own;
	struct btf **btfs;

	if (argc < 3 || argc % 2 != 1) {
		fprintf(stderr, "usage: provided-params ID BTF [ID BTF]...\n");
		return 2;
	}
	btfs = calloc(cnt, sizeof(*btfs));
	own = calloc(cnt, sizeof(*own));
	if (!btfs || !own)
		return 1;
	/* Tagged kernels first: their kfunc names serve the untagged ones. */
	for (a = 1, i = 0; i < cnt; a += 2, i++) {
		btfs[i] = btf__parse(argv[a + 1], NULL);
		if (!btfs[i]) {
			fprintf(stderr, "provided-params: %s: cannot read %s: %s\n", argv[a],
				argv[a + 1], strerror(errno));
			rc = 1;
			continue;
		}
		if (tagged_names(btfs[i], &own[i]))
			rc = 1;
		for (size_t j = 0; j < own[i].n && !rc; j++)
			if (add_name(&known, own[i].v[j]))
				rc = 1;
	}
	if (known.n)
		qsort(known.v, known.n, sizeof(*known.v), cmp_str);
	for (a = 1, i = 0; i < cnt; a += 2, i++)
		if (btfs[i])
			dump(argv[a], btfs[i], own[i].n ? &own[i] : &known);
	for (i = 0; i < cnt; i++) {
		free_names(&own[i]);
		btf__free(btfs[i]);
	}
	free_names(&known);
	free(own);
	free(btfs);
	return rc;
}
