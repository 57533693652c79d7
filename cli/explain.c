// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * explain OBJ...: for each kfunc extern of each object, what the
 * library decides on the selected kernel, why, and what plain libbpf
 * would have done instead.
 */
#define _GNU_SOURCE /* strchrnul */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "report.h"
#include "table.h"

static const char *const header[] = {
	"EXTERN", "LINK", "DECISION", "KERNEL FUNCTION", "WHERE", "PROTO", "RULE",
	"PLAIN LIBBPF", "NOTES",
};
#define NCOLS ((int)(sizeof(header) / sizeof(header[0])))

static void proto_cell(const struct mkf_plan_entry *e, char *buf, size_t sz)
{
	enum mkf_proto_change c = mkf_plan_entry__proto_change(e);

	if (mkf_plan_entry__decision(e) != MKF_DECISION_BIND)
		snprintf(buf, sz, "-");
	else if (c == MKF_PROTO_SAME || c == MKF_PROTO_RETYPE)
		snprintf(buf, sz, "%s", mkf_proto_change_str(c));
	else
		snprintf(buf, sz, "%s %+d", mkf_proto_change_str(c), mkf_plan_entry__param_delta(e));
}

static void notes_cell(const struct mkf_plan_entry *e, char *buf, size_t sz)
{
	const char *merged = mkf_plan_entry__merged_into(e);
	const char *name = mkf_plan_entry__name(e), *nname = mkf_plan_entry__new_name(e);
	size_t len = 0;

	buf[0] = '\0';
	if (!merged && nname && strcmp(name, nname))
		len += snprintf(buf + len, sz - len, "renamed %s", nname);
	if (merged && len < sz)
		len += snprintf(buf + len, sz - len, "%smerged into %s", len ? ", " : "", merged);
	if (mkf_plan_entry__set_regs(e) && len < sz) {
		len += snprintf(buf + len, sz - len, "%ssets", len ? ", " : "");
		for (int r = 1; r <= 5 && len < sz; r++)
			if (mkf_plan_entry__set_regs(e) & (1u << r))
				len += snprintf(buf + len, sz - len, " R%d", r);
		if (len < sz)
			snprintf(buf + len, sz - len, " = 0 at %zu call%s",
				 mkf_plan_entry__call_site_cnt(e),
				 mkf_plan_entry__call_site_cnt(e) == 1 ? "" : "s");
	}
}

static int explain_text(struct cli *cli, const struct cli_object *obj,
			const struct mkf_plan *plan, void *ctx)
{
	size_t i, n = mkf_plan__entry_cnt(plan);
	FILE *out = cli->out;
	struct table *t;

	(void)ctx;
	fputc('\n', out);
	int err = 0;

	fprintf(out, "%s: %zu kfunc extern%s, %zu rewritten, %zu unresolved\n", obj->path, n,
		n == 1 ? "" : "s", mkf_plan__change_cnt(plan), mkf_plan__unresolved_cnt(plan));
	if (!n)
		return 0;
	t = table_new(NCOLS);
	if (!t)
		return cli_error(cli, "%s", strerror(ENOMEM));
	err = table_add(t, header);
	for (i = 0; i < n && !err; i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);
		const char *kname = mkf_plan_entry__kernel_name(e), *mod = mkf_plan_entry__module(e);
		char proto[32], rule[16], notes[256];
		const char *row[NCOLS];

		proto_cell(e, proto, sizeof(proto));
		notes_cell(e, notes, sizeof(notes));
		snprintf(rule, sizeof(rule), "%s", mkf_rule_str(mkf_plan_entry__rule(e)));
		row[0] = mkf_plan_entry__name(e);
		row[1] = mkf_plan_entry__is_weak(e) ? "weak" : "strong";
		row[2] = mkf_decision_str(mkf_plan_entry__decision(e));
		row[3] = kname;
		row[4] = kname ? (mod ? mod : "vmlinux") : NULL;
		row[5] = proto;
		row[6] = rule;
		row[7] = libbpf_words(mkf_plan_entry__libbpf_outcome(e));
		row[8] = notes[0] ? notes : NULL;
		err = table_add(t, row);
	}
	if (!err)
		table_print(t, out, "  ");
	table_free(t);
	if (err)
		return cli_error(cli, "%s", strerror(-err));
	/*
	 * The library's reason: a first line, then detail lines indented
	 * by two; shift the details under the extern's name.
	 */
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);
		const char *line = mkf_plan_entry__reason(e), *nl;

		fprintf(out, "  %s: ", mkf_plan_entry__name(e));
		if (!*line)
			fputc('\n', out);
		for (; *line; line = nl + 1) {
			nl = strchrnul(line, '\n');
			fprintf(out, "%s%.*s\n", line == mkf_plan_entry__reason(e) ? "" : "  ",
				(int)(nl - line), line);
			if (!*nl)
				break;
		}
	}
	return 0;
}

int cmd_explain(struct cli *cli)
{
	struct mkf_kernel *k;
	size_t unresolved = 0;
	int ret = EXIT_OK;

	k = cli_kernel_load(cli);
	if (!k)
		return EXIT_ERROR;
	if (cli->jw) {
		jw_start_object(cli->jw);
		cli_kernel_json(cli, k);
		jw_name(cli->jw, "objects");
		jw_start_array(cli->jw);
	} else {
		fprintf(cli->out, "kernel: %s\n", cli_kernel_source(cli));
	}
	ret = cli_report_objects(cli, k, explain_text, NULL, &unresolved);
	if (cli->jw) {
		jw_end_array(cli->jw);
		jw_int_field(cli->jw, "unresolved", (long long)unresolved);
		jw_end_object(cli->jw);
	}
	mkf_kernel__free(k);
	/* A complete report that predicts a load failure: exit status 3. */
	if (ret == EXIT_OK && unresolved)
		ret = EXIT_UNRESOLVED;
	return ret;
}
