// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * matrix OBJ... {--btf FILE | --kernel-dir DIR}...: objects x kernels.
 * Per cell: does every strong extern resolve with the library, how many
 * externs get rewritten, and what plain libbpf would do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "report.h"
#include "table.h"
#include "magic_kfunc_introspect.h"

struct cell {
	size_t externs, changes, unresolved;
	size_t outcome[MKF_LIBBPF_BINDS_UNTAGGED + 1];
	/* Worst outcome over the externs, and whether it hits a strong one. */
	enum mkf_libbpf_outcome verdict;
	bool verdict_weak_only;
	enum mkf_libbpf_verdict loads;	/* the whole object's */
};

/* How bad an outcome is for a load with plain libbpf, worst last. */
static int severity(enum mkf_libbpf_outcome o)
{
	switch (o) {
	case MKF_LIBBPF_BINDS: return 0;
	/* Dropped externs are weak: resolved to 0, as if not found. */
	case MKF_LIBBPF_DROPPED:
	case MKF_LIBBPF_NOT_FOUND: return 1;
	/* Loads or not as the kernel's kfunc ID sets say: BTF cannot tell. */
	case MKF_LIBBPF_BINDS_UNTAGGED: return 2;
	case MKF_LIBBPF_BINDS_UNCALLABLE: return 3;
	case MKF_LIBBPF_INCOMPATIBLE: return 4;
	}
	return 0;
}

static void fill_cell(struct cell *c, const struct mkf_plan *plan)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->externs = mkf_plan__entry_cnt(plan);
	c->changes = mkf_plan__change_cnt(plan);
	c->unresolved = mkf_plan__unresolved_cnt(plan);
	c->verdict = MKF_LIBBPF_BINDS;
	c->loads = mkf_plan__libbpf_verdict(plan);
	for (i = 0; i < c->externs; i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);
		enum mkf_libbpf_outcome o = mkf_plan_entry__libbpf_outcome(e);
		bool weak = mkf_plan_entry__is_weak(e);

		c->outcome[o]++;
		if (severity(o) > severity(c->verdict)) {
			c->verdict = o;
			c->verdict_weak_only = weak;
		} else if (o == c->verdict && !weak) {
			c->verdict_weak_only = false;
		}
	}
}

/* Would plain libbpf load it? The library's verdict. */
static bool libbpf_loads(const struct cell *c)
{
	return c->loads == MKF_LIBBPF_LOADS || c->loads == MKF_LIBBPF_LOADS_DEGRADED;
}

static const char *verdict_words(const struct cell *c)
{
	switch (c->verdict) {
	case MKF_LIBBPF_BINDS: return "binds";
	case MKF_LIBBPF_NOT_FOUND: return c->verdict_weak_only ? "not-found(weak=0)" : "not-found";
	case MKF_LIBBPF_BINDS_UNCALLABLE: return "uncallable";
	case MKF_LIBBPF_INCOMPATIBLE: return "incompatible";
	case MKF_LIBBPF_DROPPED: return "dropped(weak=0)";
	case MKF_LIBBPF_BINDS_UNTAGGED: return "untagged";
	}
	return "?";
}

static void cell_text(const struct cell *c, char *buf, size_t sz)
{
	if (c->unresolved)
		snprintf(buf, sz, "FAIL:%zu %s", c->unresolved, verdict_words(c));
	else if (c->changes)
		snprintf(buf, sz, "ok+%zu %s", c->changes, verdict_words(c));
	else
		snprintf(buf, sz, "ok %s", verdict_words(c));
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Rows are kernels, columns objects: a long kernel list stays readable. */
static int matrix_text(struct cli *cli, const struct kernel_spec *specs, size_t nk,
		       const struct cli_object *objs, size_t no, const struct cell *cells)
{
	const char **row = calloc(no + 1, sizeof(*row));
	char (*bufs)[64] = calloc(no, sizeof(*bufs));
	struct table *t = table_new((int)no + 1);
	size_t i, j;
	int err = row && bufs && t ? 0 : -ENOMEM;

	if (!err) {
		row[0] = "KERNEL";
		for (j = 0; j < no; j++)
			row[j + 1] = basename_of(objs[j].path);
		err = table_add(t, row);
	}
	for (i = 0; i < nk && !err; i++) {
		row[0] = specs[i].label;
		for (j = 0; j < no; j++) {
			cell_text(&cells[j * nk + i], bufs[j], sizeof(bufs[j]));
			row[j + 1] = bufs[j];
		}
		err = table_add(t, row);
	}
	if (!err) {
		table_print(t, cli->out, "");
		fprintf(cli->out,
			"\nmagic-kfunc: ok = every strong kfunc extern resolves, +N = N externs "
			"rewritten,\n  FAIL:N = N strong externs fit nothing (loading fails)\n"
			"plain libbpf: binds; not-found (a strong extern fails the load, "
			"weak=0: a weak one\n  resolves to 0); uncallable (binds a prototype-only "
			"FUNC: the verifier refuses\n  the call); incompatible (func_proto "
			"incompatible: libbpf 1.1 refuses the object)\n");
	}
	table_free(t);
	free(bufs);
	free(row);
	if (err)
		return cli_error(cli, "%s", strerror(-err));
	return 0;
}

static void matrix_json(struct cli *cli, const struct kernel_spec *specs, size_t nk,
			const bool *tags, const struct cli_object *objs, size_t no,
			const struct cell *cells)
{
	struct json_writer *jw = cli->jw;
	size_t i, j;
	int o;

	jw_start_object(jw);
	jw_name(jw, "kernels");
	jw_start_array(jw);
	for (i = 0; i < nk; i++) {
		jw_start_object(jw);
		jw_string_field(jw, "label", specs[i].label);
		jw_string_field(jw, "btf", specs[i].btf);
		jw_bool_field(jw, "kfunc_tags", tags[i]);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_name(jw, "objects");
	jw_start_array(jw);
	for (j = 0; j < no; j++) {
		jw_start_object(jw);
		jw_string_field(jw, "object", objs[j].path);
		jw_name(jw, "cells");
		jw_start_array(jw);
		for (i = 0; i < nk; i++) {
			const struct cell *c = &cells[j * nk + i];

			jw_start_object(jw);
			jw_string_field(jw, "kernel", specs[i].label);
			jw_bool_field(jw, "ok", !c->unresolved);
			jw_int_field(jw, "externs", (long long)c->externs);
			jw_int_field(jw, "rewritten", (long long)c->changes);
			jw_int_field(jw, "unresolved", (long long)c->unresolved);
			jw_string_field(jw, "libbpf", mkf_libbpf_outcome_str(c->verdict));
			jw_bool_field(jw, "libbpf_weak_only", c->verdict_weak_only);
			jw_bool_field(jw, "libbpf_loads", libbpf_loads(c));
			jw_string_field(jw, "libbpf_verdict", mkf_libbpf_verdict_str(c->loads));
			jw_name(jw, "libbpf_outcomes");
			jw_start_object(jw);
			for (o = MKF_LIBBPF_BINDS; o <= MKF_LIBBPF_BINDS_UNTAGGED; o++)
				jw_int_field(jw, mkf_libbpf_outcome_str(o), (long long)c->outcome[o]);
			jw_end_object(jw);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_end_object(jw);
}

int cmd_matrix(struct cli *cli)
{
	size_t nk = 0, no = (size_t)cli->argc, i, j;
	struct kernel_spec *specs = NULL;
	struct cli_object *objs;
	struct cell *cells = NULL;
	bool *tags = NULL;
	int ret;

	objs = calloc(no, sizeof(*objs));
	if (!objs)
		return cli_error(cli, "%s", strerror(ENOMEM));
	ret = cli_kernel_specs(cli, &specs, &nk);
	for (j = 0; j < no && !ret; j++)
		ret = cli_object_read(cli, cli->argv[j], &objs[j]);
	if (!ret) {
		cells = calloc(no * nk, sizeof(*cells));
		tags = calloc(nk, sizeof(*tags));
		if (!cells || !tags)
			ret = cli_error(cli, "%s", strerror(ENOMEM));
	}
	/* One kernel in memory at a time: each is a few MB of BTF. */
	for (i = 0; i < nk && !ret; i++) {
		struct mkf_kernel *k = cli_kernel_load_spec(cli, &specs[i]);

		if (!k) {
			ret = EXIT_ERROR;
			break;
		}
		tags[i] = mkf_kernel__has_kfunc_tags(k);
		for (j = 0; j < no && !ret; j++) {
			struct mkf_plan *plan = cli_plan(cli, &objs[j], k, specs[i].label);

			if (!plan) {
				ret = EXIT_ERROR;
				break;
			}
			fill_cell(&cells[j * nk + i], plan);
			mkf_plan__free(plan);
		}
		mkf_kernel__free(k);
	}
	if (!ret) {
		if (cli->jw)
			matrix_json(cli, specs, nk, tags, objs, no, cells);
		else
			ret = matrix_text(cli, specs, nk, objs, no, cells);
	}
	for (j = 0; j < no; j++)
		cli_object_free(&objs[j]);
	free(objs);
	free(cells);
	free(tags);
	cli_kernel_specs_free(specs, nk);
	return ret;
}
