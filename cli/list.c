// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * list: the selected kernel's kfuncs that take verifier-provided
 * arguments, by the convention the kernel uses for each (see
 * kfunc_scan.h for the kinds).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "kfunc_scan.h"
#include "table.h"

static const char *const header[] = {
	"KIND", "KFUNC", "FULL PROTOTYPE", "STATUS", "STYLE", "VERIFIER-PROVIDED", "WHERE",
};
#define NCOLS ((int)(sizeof(header) / sizeof(header[0])))

static const char *status(const struct ks_entry *e)
{
	switch (e->kind) {
	case KS_PAIR:
		return e->impl_callable ? "both callable" : "_impl proto-only";
	case KS_LEGACY:
		return "callable, pass dummies";
	case KS_UNSPLIT:
		return "callable, no _impl";
	case KS_PROTO_ONLY:
		return "proto-only";
	}
	return "?";
}

static char *provided_str(const struct ks_entry *e)
{
	size_t len = 0, i;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (i = 0; i < e->provided_cnt; i++)
		fprintf(f, "%s%s", i ? ", " : "", e->provided[i].decl);
	fclose(f);
	return s;
}

static int list_text(struct cli *cli, const struct ks_entry *entries, size_t cnt,
		     bool has_tags)
{
	size_t i, per_kind[KS_PROTO_ONLY + 1] = {};
	struct table *t = table_new(NCOLS);
	int err;

	if (!t)
		return cli_error(cli, "%s", strerror(ENOMEM));
	fprintf(cli->out, "kernel: %s (%s)\n\n", cli_kernel_source(cli),
		has_tags ? "kfunc tags: callable = tagged"
			 : "no kfunc tags: every function counts as callable");
	err = table_add(t, header);
	for (i = 0; i < cnt && !err; i++) {
		const struct ks_entry *e = &entries[i];
		char *prov = provided_str(e);
		const char *row[NCOLS] = {
			/* What a program calls, and the full form beside it. */
			ks_kind_str(e->kind), e->kind == KS_PROTO_ONLY ? NULL : e->name,
			e->kind == KS_PROTO_ONLY ? e->name : e->impl, status(e), e->style, prov,
			e->module ? e->module : "vmlinux",
		};

		err = prov ? table_add(t, row) : -ENOMEM;
		free(prov);
		per_kind[e->kind]++;
	}
	if (!err && cnt)
		table_print(t, cli->out, "");
	table_free(t);
	if (err)
		return cli_error(cli, "%s", strerror(-err));
	fprintf(cli->out, "%s%zu pair%s, %zu legacy, %zu unsplit, %zu proto-only\n",
		cnt ? "\n" : "", per_kind[KS_PAIR], per_kind[KS_PAIR] == 1 ? "" : "s",
		per_kind[KS_LEGACY], per_kind[KS_UNSPLIT], per_kind[KS_PROTO_ONLY]);
	return 0;
}

static void list_json(struct cli *cli, const struct mkf_kernel *k, const struct ks_entry *entries,
		      size_t cnt, bool has_tags)
{
	struct json_writer *jw = cli->jw;
	size_t i, j;

	jw_start_object(jw);
	jw_name(jw, "kernel");
	jw_start_object(jw);
	jw_string_field(jw, "btf", cli->btf_cnt ? cli->btf[0] : NULL);
	if (!cli->btf_cnt)
		jw_string_field(jw, "btf_dir", RUNNING_BTF_DIR);
	jw_bool_field(jw, "kfunc_tags", has_tags);
	jw_name(jw, "modules");
	jw_start_array(jw);
	for (i = 0; i < mkf_kernel__module_cnt(k); i++)
		jw_string(jw, mkf_kernel__module_name(k, i));
	jw_end_array(jw);
	jw_end_object(jw);

	jw_name(jw, "kfuncs");
	jw_start_array(jw);
	for (i = 0; i < cnt; i++) {
		const struct ks_entry *e = &entries[i];

		jw_start_object(jw);
		jw_string_field(jw, "kind", ks_kind_str(e->kind));
		jw_string_field(jw, "name", e->name);
		jw_string_field(jw, "impl", e->impl);
		jw_string_field(jw, "module", e->module);
		jw_bool_field(jw, "callable", e->callable);
		if (e->impl)
			jw_bool_field(jw, "impl_callable", e->impl_callable);
		jw_string_field(jw, "style", e->style);
		jw_string_field(jw, "prototype", e->prototype);
		jw_name(jw, "provided");
		jw_start_array(jw);
		for (j = 0; j < e->provided_cnt; j++) {
			jw_start_object(jw);
			jw_string_field(jw, "param", e->provided[j].decl);
			jw_string_field(jw, "by", e->provided[j].by);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_end_object(jw);
}

int cmd_list(struct cli *cli)
{
	struct ks_entry *entries;
	struct mkf_kernel *k;
	bool has_tags;
	size_t cnt;
	int err;

	k = cli_kernel_load(cli);
	if (!k)
		return EXIT_ERROR;
	has_tags = mkf_kernel__has_kfunc_tags(k);
	err = ks_scan(k, &entries, &cnt);
	if (err) {
		mkf_kernel__free(k);
		return cli_error(cli, "scanning the kernel's BTF: %s", strerror(-err));
	}
	if (cli->jw)
		list_json(cli, k, entries, cnt, has_tags);
	else
		err = list_text(cli, entries, cnt, has_tags);
	ks_entries_free(entries, cnt);
	mkf_kernel__free(k);
	return err;
}
