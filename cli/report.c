// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Plan computation and the words for its decisions (see report.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "log.h"
#include "report.h"

int cli_object_read(struct cli *cli, const char *path, struct cli_object *obj)
{
	char why[512] = "";
	MKF_OPTS(mkf_object_opts, opts, .object_name = path, .err_buf = why,
		 .err_buf_sz = sizeof(why));
	void *buf;
	size_t sz;
	int err;

	memset(obj, 0, sizeof(*obj));
	obj->path = path;
	err = read_file(path, &buf, &sz);
	if (err)
		return cli_error(cli, "cannot read %s: %s", path, strerror(-err));
	/* Read once: every kernel's plan and the rewrite use this reading. */
	obj->obj = mkf_object__new(buf, sz, &opts);
	free(buf);
	if (!obj->obj)
		/* The library's own words say more than "Invalid argument". */
		return cli_error(cli, "%s: %s", path, why);
	return 0;
}

void cli_object_free(struct cli_object *obj)
{
	mkf_object__free(obj->obj);
	obj->obj = NULL;
}

struct mkf_plan *cli_plan(struct cli *cli, const struct cli_object *obj,
			  const struct mkf_kernel *k, const char *kernel_label)
{
	char why[512];
	MKF_OPTS(mkf_plan_opts, opts, .weaken_unresolved = cli->weaken_unresolved,
		 .err_buf = why, .err_buf_sz = sizeof(why));
	struct mkf_plan *plan;

	plan = mkf_plan__compute(obj->obj, k, &opts);
	if (!plan) {
		if (kernel_label)
			cli_error(cli, "%s (kernel %s): %s", obj->path, kernel_label, why);
		else
			cli_error(cli, "%s: %s", obj->path, why);
	}
	return plan;
}

const char *libbpf_words(enum mkf_libbpf_outcome o)
{
	switch (o) {
	case MKF_LIBBPF_BINDS: return "binds";
	case MKF_LIBBPF_BINDS_UNCALLABLE: return "binds proto-only";
	case MKF_LIBBPF_NOT_FOUND: return "not found";
	case MKF_LIBBPF_INCOMPATIBLE: return "incompatible";
	case MKF_LIBBPF_DROPPED: return "dropped (weak: 0)";
	case MKF_LIBBPF_BINDS_UNTAGGED: return "binds untagged";
	}
	return "unknown";
}

void report_entry_json(struct json_writer *jw, const struct mkf_plan_entry *e)
{
	enum mkf_decision d = mkf_plan_entry__decision(e);

	jw_start_object(jw);
	jw_string_field(jw, "name", mkf_plan_entry__name(e));
	jw_bool_field(jw, "weak", mkf_plan_entry__is_weak(e));
	jw_string_field(jw, "decision", mkf_decision_str(d));
	jw_string_field(jw, "rule", mkf_rule_str(mkf_plan_entry__rule(e)));
	jw_string_field(jw, "kernel_name", mkf_plan_entry__kernel_name(e));
	jw_string_field(jw, "new_name", mkf_plan_entry__new_name(e));
	/* null with a bound extern means vmlinux. */
	jw_string_field(jw, "module", mkf_plan_entry__module(e));
	jw_string_field(jw, "proto_change", mkf_proto_change_str(mkf_plan_entry__proto_change(e)));
	jw_int_field(jw, "param_delta", mkf_plan_entry__param_delta(e));
	jw_string_field(jw, "merged_into", mkf_plan_entry__merged_into(e));
	jw_name(jw, "set_regs");
	jw_start_array(jw);
	for (int r = 1; r <= 5; r++)
		if (mkf_plan_entry__set_regs(e) & (1u << r))
			jw_int(jw, r);
	jw_end_array(jw);
	jw_int_field(jw, "call_sites", (long long)mkf_plan_entry__call_site_cnt(e));
	jw_string_field(jw, "libbpf", mkf_libbpf_outcome_str(mkf_plan_entry__libbpf_outcome(e)));
	jw_string_field(jw, "reason", mkf_plan_entry__reason(e));
	jw_end_object(jw);
}

void report_plan_json(struct json_writer *jw, const struct mkf_plan *plan)
{
	size_t i, n = mkf_plan__entry_cnt(plan);

	jw_int_field(jw, "extern_cnt", (long long)n);
	jw_int_field(jw, "changes", (long long)mkf_plan__change_cnt(plan));
	jw_int_field(jw, "unresolved", (long long)mkf_plan__unresolved_cnt(plan));
	jw_name(jw, "externs");
	jw_start_array(jw);
	for (i = 0; i < n; i++)
		report_entry_json(jw, mkf_plan__entry(plan, i));
	jw_end_array(jw);
}

/*
 * One object that could not be reported: said in its place (text: on
 * stderr, at once; JSON: an entry with "error"), and the rest goes on.
 * *first keeps the first message.
 */
static void object_failed(struct cli *cli, const char *path, char **first)
{
	char *msg = cli->error ? cli->error : strdup(strerror(EIO));

	cli->error = NULL;
	if (cli->jw) {
		jw_start_object(cli->jw);
		jw_string_field(cli->jw, "object", path);
		jw_string_field(cli->jw, "error", msg ? msg : "");
		jw_end_object(cli->jw);
	} else {
		fflush(cli->out);
		fprintf(stderr, "magic-kfunc: %s\n", msg ? msg : strerror(ENOMEM));
	}
	if (!*first)
		*first = msg;
	else
		free(msg);
}

int cli_report_objects(struct cli *cli, const struct mkf_kernel *k, report_text_fn text,
		       void *ctx, size_t *unresolved)
{
	int i, ret = EXIT_OK, failed = 0;
	char *first = NULL;

	for (i = 0; i < cli->argc && ret == EXIT_OK; i++) {
		struct cli_object obj;
		struct mkf_plan *plan = NULL;

		if (cli_object_read(cli, cli->argv[i], &obj) ||
		    !(plan = cli_plan(cli, &obj, k, NULL))) {
			object_failed(cli, cli->argv[i], &first);
			failed++;
		} else if (cli->jw) {
			jw_start_object(cli->jw);
			jw_string_field(cli->jw, "object", obj.path);
			report_plan_json(cli->jw, plan);
			jw_end_object(cli->jw);
		} else {
			ret = text(cli, &obj, plan, ctx);
		}
		if (plan && unresolved)
			*unresolved += mkf_plan__unresolved_cnt(plan);
		mkf_plan__free(plan);
		cli_object_free(&obj);
	}
	if (ret == EXIT_OK && failed) {
		ret = EXIT_ERROR;
		/*
		 * Nothing reported at all: in JSON the first error replaces
		 * the document, as for any command that fails; else the
		 * report is printed with the failures in it.
		 */
		if (failed == cli->argc && cli->jw)
			cli->error = first;
		else
			cli->partial = true;
		if (cli->error == first)
			first = NULL;
	}
	free(first);
	return ret;
}
