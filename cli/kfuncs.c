// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kfuncs: the selected kernel's kfuncs that take verifier-provided
 * arguments, as the library classifies them (enum mkf_kfunc_shape);
 * this file only presents them.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "decl.h"
#include "table.h"
#include "magic_kfunc_introspect.h"

static const char *const header[] = {
	"KIND", "KFUNC", "FULL PROTOTYPE", "STATUS", "STYLE", "VERIFIER-PROVIDED", "WHERE",
};
#define NCOLS ((int)(sizeof(header) / sizeof(header[0])))

/* One kfunc as printed: its C text and its verifier-provided params. */
struct row {
	const struct mkf_kfunc *kf;
	const char *style;
	char *prototype;	/* of the FUNC that lists the provided params */
	char **decl;		/* each provided param */
	const char **by;	/* "name", "type", "table" or "tag" */
	const char **basis;	/* the library's mkf_param_basis_str() */
	int cnt;
};

static const char *by_str(enum mkf_param_basis b)
{
	switch (b) {
	case MKF_PARAM_BASIS_TYPE_PROG_AUX:
	case MKF_PARAM_BASIS_TYPE_STRUCT_META:
		return "type";
	case MKF_PARAM_BASIS_SUFFIX_IGN:
	case MKF_PARAM_BASIS_KNOWN_SCALAR:
		return "table";
	case MKF_PARAM_BASIS_MAGIC_TAG:
		return "tag";
	default:
		return "name";
	}
}

/* The convention of the provided params, from the first one's basis. */
static const char *style_str(enum mkf_param_basis b)
{
	switch (b) {
	case MKF_PARAM_BASIS_SUFFIX_MAGIC:
	case MKF_PARAM_BASIS_MAGIC_TAG:
		return "magic";
	case MKF_PARAM_BASIS_SUFFIX_IMPLICIT:
	case MKF_PARAM_BASIS_TYPE_PROG_AUX:
	case MKF_PARAM_BASIS_TYPE_STRUCT_META:
		return "implicit";
	default:
		return "legacy";
	}
}

static void row_free(struct row *r)
{
	int i;

	for (i = 0; i < r->cnt; i++)
		free(r->decl[i]);
	free(r->decl);
	free(r->by);
	free(r->basis);
	free(r->prototype);
}

static int row_fill(struct decl_printer *dp, const struct mkf_kfunc *kf, struct row *r)
{
	const struct mkf_func *full = mkf_kfunc__full(kf);
	const struct btf *btf = mkf_func__btf(full);
	__u32 proto = mkf_func__proto_id(full);
	int n = btf_vlen(btf__type_by_id(btf, proto)), k = mkf_kfunc__provided_cnt(kf), i;
	enum mkf_param_basis basis;

	memset(r, 0, sizeof(*r));
	r->kf = kf;
	r->style = "legacy";
	r->prototype = decl_function(dp, full);
	r->decl = calloc((size_t)k + 1, sizeof(*r->decl));
	r->by = calloc((size_t)k + 1, sizeof(*r->by));
	r->basis = calloc((size_t)k + 1, sizeof(*r->basis));
	if (!r->prototype || !r->decl || !r->by || !r->basis)
		return -ENOMEM;
	for (i = n - k; i < n; i++) {
		mkf_func__param_kind(full, i, &basis);
		if (i == n - k)
			r->style = style_str(basis);
		r->by[r->cnt] = by_str(basis);
		r->basis[r->cnt] = mkf_param_basis_str(basis);
		r->decl[r->cnt] = decl_param(dp, full, i);
		if (!r->decl[r->cnt])
			return -ENOMEM;
		r->cnt++;
	}
	return 0;
}

static const char *status(const struct mkf_kfunc *kf)
{
	switch (mkf_kfunc__shape(kf)) {
	case MKF_KFUNC_PAIR:
		return mkf_func__is_callable(mkf_kfunc__impl(kf)) ? "both callable"
								  : "_impl proto-only";
	case MKF_KFUNC_LEGACY:
		return "callable, pass dummies";
	case MKF_KFUNC_UNSPLIT:
		return "callable, no _impl";
	case MKF_KFUNC_PROTO_ONLY:
		return "proto-only";
	}
	return "?";
}

static char *provided_str(const struct row *r)
{
	size_t len = 0;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);
	int i;

	if (!f)
		return NULL;
	for (i = 0; i < r->cnt; i++)
		fprintf(f, "%s%s", i ? ", " : "", r->decl[i]);
	fclose(f);
	return s;
}

static int list_text(struct cli *cli, const struct row *rows, size_t cnt, bool has_tags)
{
	size_t i, per_shape[MKF_KFUNC_PROTO_ONLY + 1] = {};
	struct table *t = table_new(NCOLS);
	int err;

	if (!t)
		return cli_error(cli, "%s", strerror(ENOMEM));
	fprintf(cli->out, "kernel: %s (%s)\n\n", cli_kernel_source(cli),
		has_tags ? "kfunc tags: callable = tagged"
			 : "no kfunc tags: every function counts as callable");
	err = table_add(t, header);
	for (i = 0; i < cnt && !err; i++) {
		const struct mkf_kfunc *kf = rows[i].kf;
		enum mkf_kfunc_shape shape = mkf_kfunc__shape(kf);
		const char *name = mkf_func__name(mkf_kfunc__func(kf)), *mod;
		char *prov = provided_str(&rows[i]);
		const char *row[NCOLS];

		mod = mkf_func__module(mkf_kfunc__func(kf));
		/* What a program calls, and the full form beside it. */
		row[0] = mkf_kfunc_shape_str(shape);
		row[1] = shape == MKF_KFUNC_PROTO_ONLY ? NULL : name;
		row[2] = shape == MKF_KFUNC_PAIR ? mkf_func__name(mkf_kfunc__impl(kf))
		       : shape == MKF_KFUNC_PROTO_ONLY ? name : NULL;
		row[3] = status(kf);
		row[4] = rows[i].style;
		row[5] = prov;
		row[6] = mod ? mod : "vmlinux";
		err = prov ? table_add(t, row) : -ENOMEM;
		free(prov);
		per_shape[shape]++;
	}
	if (!err && cnt)
		table_print(t, cli->out, "");
	table_free(t);
	if (err)
		return cli_error(cli, "%s", strerror(-err));
	fprintf(cli->out, "%s%zu pair%s, %zu legacy, %zu unsplit, %zu proto-only\n",
		cnt ? "\n" : "", per_shape[MKF_KFUNC_PAIR], per_shape[MKF_KFUNC_PAIR] == 1 ? "" : "s",
		per_shape[MKF_KFUNC_LEGACY], per_shape[MKF_KFUNC_UNSPLIT],
		per_shape[MKF_KFUNC_PROTO_ONLY]);
	return 0;
}

static void list_json(struct cli *cli, const struct mkf_kernel *k, const struct row *rows,
		      size_t cnt)
{
	struct json_writer *jw = cli->jw;
	size_t i;
	int j;

	jw_start_object(jw);
	cli_kernel_json(cli, k);
	jw_name(jw, "kfuncs");
	jw_start_array(jw);
	for (i = 0; i < cnt; i++) {
		const struct mkf_kfunc *kf = rows[i].kf;
		const struct mkf_func *fn = mkf_kfunc__func(kf), *impl = mkf_kfunc__impl(kf);

		jw_start_object(jw);
		jw_string_field(jw, "kind", mkf_kfunc_shape_str(mkf_kfunc__shape(kf)));
		jw_string_field(jw, "name", mkf_func__name(fn));
		jw_string_field(jw, "impl", impl ? mkf_func__name(impl) : NULL);
		jw_string_field(jw, "module", mkf_func__module(fn));
		jw_bool_field(jw, "callable", mkf_func__is_callable(fn));
		if (impl)
			jw_bool_field(jw, "impl_callable", mkf_func__is_callable(impl));
		jw_string_field(jw, "style", rows[i].style);
		jw_string_field(jw, "prototype", rows[i].prototype);
		jw_name(jw, "provided");
		jw_start_array(jw);
		for (j = 0; j < rows[i].cnt; j++) {
			jw_start_object(jw);
			jw_string_field(jw, "param", rows[i].decl[j]);
			jw_string_field(jw, "by", rows[i].by[j]);
			jw_string_field(jw, "basis", rows[i].basis[j]);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_end_object(jw);
}

int cmd_kfuncs(struct cli *cli)
{
	struct decl_printer *dp = NULL;
	struct row *rows = NULL;
	struct mkf_kernel *k;
	size_t cnt = 0, i;
	int err = 0;

	k = cli_kernel_load(cli);
	if (!k)
		return EXIT_ERROR;
	errno = 0;
	cnt = mkf_kernel__kfunc_cnt(k);
	if (!cnt && errno)
		err = -errno;
	dp = err ? NULL : decl_printer_new();
	rows = dp ? calloc(cnt + 1, sizeof(*rows)) : NULL;
	if (!err && !rows)
		err = -ENOMEM;
	for (i = 0; i < cnt && !err; i++)
		err = row_fill(dp, mkf_kernel__kfunc(k, i), &rows[i]);
	if (err) {
		err = cli_error(cli, "listing the kernel's kfuncs: %s", strerror(-err));
	} else if (cli->jw) {
		list_json(cli, k, rows, cnt);
	} else {
		err = list_text(cli, rows, cnt, mkf_kernel__has_kfunc_tags(k));
	}
	for (i = 0; rows && i < cnt; i++)
		row_free(&rows[i]);
	free(rows);
	decl_printer_free(dp);
	mkf_kernel__free(k);
	return err;
}
