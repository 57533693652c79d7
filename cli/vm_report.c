// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The reports of "magic-kfunc vm" and "vm merge": text, Markdown (fit
 * for a CI job summary), JSON (what "vm merge" reads back) and JUnit
 * XML (what CI systems show as test results). Names and messages come
 * from objects and guests: no report prints a control character of
 * theirs, nor lets them pose as its own structure (table cells, Markdown
 * markup, XML).
 */
#define _GNU_SOURCE /* asprintf */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table.h"
#include "vm.h"

/*
 * A new buffer of SZ bytes that the report frees at its end (vm->shown),
 * or NULL.
 */
static char *shown_buf(struct vm *vm, size_t sz)
{
	char **v = realloc(vm->shown, (vm->shown_cnt + 1) * sizeof(*v));
	char *copy = v ? malloc(sz) : NULL;

	if (v)
		vm->shown = v;
	if (!copy)
		return NULL;
	v[vm->shown_cnt++] = copy;
	return copy;
}

/*
 * S as the reports print it: no control character reaches the terminal
 * (\xNN instead, as the guest sends them; so are bytes past ASCII). S
 * itself when it has none.
 */
const char *safe(struct vm *vm, const char *s)
{
	const unsigned char *p;
	char *copy, *o;
	size_t bad = 0;

	if (!s)
		return NULL;
	for (p = (const unsigned char *)s; *p; p++)
		bad += *p < 0x20 || *p >= 0x7f;
	if (!bad)
		return s;
	copy = shown_buf(vm, strlen(s) + 3 * bad + 1);
	if (!copy)
		return "?";
	for (p = (const unsigned char *)s, o = copy; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f)
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	return copy;
}

/* Lines of TEXT, each made safe, after PREFIX. */
static void put_safe_lines(struct vm *vm, FILE *f, const char *prefix, const char *text)
{
	char *copy = strdup(text ? text : ""), *line, *save = NULL;

	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(f, "%s%s\n", prefix, safe(vm, line));
	free(copy);
}

const char *vm_mode_name(const struct vm *vm, int m)
{
	if (vm->command)
		return "run";
	return m == 0 ? "mkf" : "libbpf";
}

const char *vm_run_mode(const struct vm *vm)
{
	if (vm->command)
		return "run";
	return vm->lib && vm->plain ? "both" : vm->lib ? "mkf" : "libbpf";
}

static const char *status_name(enum cell_status s)
{
	switch (s) {
	case CELL_RAN: return "ran";
	case CELL_LOADED: return "loaded";
	case CELL_FAILED: return "failed";
	case CELL_OTHER: return "other-shard";
	default: return "no-result";
	}
}

/* The cell's short form; long reasons go to numbered notes. */
static void cell_text(const struct vm *vm, const struct cell *c, int m, char *buf, size_t sz)
{
	bool exp = expected(vm, m);

	switch (c->status) {
	case CELL_RAN:
		if (vm->command)
			snprintf(buf, sz, "exit %lld", c->retval);
		else
			snprintf(buf, sz, "ran %lld", c->retval);
		break;
	case CELL_LOADED:
		if (c->note)
			snprintf(buf, sz, "loaded [%d]", c->footnote);
		else
			snprintf(buf, sz, "loaded");
		break;
	case CELL_FAILED:
		if (vm->command && c->retval >= 0)
			snprintf(buf, sz, "EXIT %lld [%d]", c->retval, c->footnote);
		else if (vm->command)
			snprintf(buf, sz, "SIGNAL %lld [%d]", -c->retval, c->footnote);
		else
			snprintf(buf, sz, "%s [%d]", exp ? "FAILED" : "failed", c->footnote);
		break;
	case CELL_OTHER:
		snprintf(buf, sz, "-");
		break;
	default:
		snprintf(buf, sz, "%s [%d]", exp ? "NO RESULT" : "no result", c->footnote);
		break;
	}
}

void number_notes(struct vm *vm)
{
	int n = 0;
	size_t o, p, k;
	int m;

	vm->failed_expected = 0;
	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++)
				for (k = 0; k < vm->kernel_cnt; k++) {
					struct cell *c = cell_at(vm, o, p, m, k);

					c->footnote = 0;
					if (!mode_on(vm, m) || c->status == CELL_OTHER)
						continue;
					if (c->status == CELL_FAILED || c->status == CELL_NONE ||
					    (c->status == CELL_LOADED && c->note))
						c->footnote = ++n;
					if (expected(vm, m) && c->status != CELL_RAN &&
					    c->status != CELL_LOADED)
						vm->failed_expected++;
				}
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * S for Markdown text: safe(), and every ASCII punctuation character
 * that Markdown or a GitHub table gives a meaning to is backslash
 * escaped (CommonMark), so that a name can neither end a table cell nor
 * open a link, an emphasis or raw HTML. CODE: for a code span, where
 * backslashes are literal: only '|' (GitHub's tables read \| there)
 * and '`' (as \x60) need it.
 */
static const char *md(struct vm *vm, const char *s, bool code)
{
	const char *t = safe(vm, s ? s : "");
	size_t n = 0;
	const char *p;
	char *copy, *o;

	for (p = t; *p; p++)
		n += strchr(code ? "|`" : "\\`*_[]<>|~&", *p) ? 4 : 1;
	if (n == strlen(t))
		return t;
	copy = shown_buf(vm, n + 1);
	if (!copy)
		return "?";
	for (p = t, o = copy; *p; p++) {
		if (code && *p == '`')
			o += sprintf(o, "\\x60");
		else if (strchr(code ? "|" : "\\`*_[]<>|~&", *p))
			o += sprintf(o, "\\%c", *p);
		else
			*o++ = *p;
	}
	*o = '\0';
	return copy;
}

/* What a footnote says: the reason, or the note of a loaded cell. */
static const char *note_text(const struct cell *c)
{
	return c->status == CELL_LOADED ? c->note : c->reason;
}

static void print_notes(struct vm *vm, FILE *f, bool markdown)
{
	size_t o, p, k;
	int m;

	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++)
				for (k = 0; k < vm->kernel_cnt; k++) {
					struct cell *c = cell_at(vm, o, p, m, k);
					const char *why = note_text(c);

					if (!c->footnote || !mode_on(vm, m))
						continue;
					if (markdown)
						fprintf(f, "%d. `%s`, %s, %s: %s`%s`\n", c->footnote,
							md(vm, vm->objs[o].progs[p].name, true),
							vm_mode_name(vm, m),
							md(vm, vm->kernels[k].label, false),
							c->status == CELL_NONE ? "no result: " : "",
							md(vm, why ? why : "no message", true));
					else
						fprintf(f, "[%d] %s, %s, %s: %s%s\n", c->footnote,
							safe(vm, vm->objs[o].progs[p].name),
							vm_mode_name(vm, m), safe(vm, vm->kernels[k].label),
							c->status == CELL_NONE ? "no result: " : "",
							why ? safe(vm, why) : "no message");
					if (vm->cli->debug && c->log) {
						if (markdown)
							fputs("\n   ```\n", f);
						put_safe_lines(vm, f, "    ", c->log);
						if (markdown)
							fputs("   ```\n", f);
					}
				}
}

/*
 * Command mode: what the command printed, per kernel. In Markdown a
 * fenced block whose lines cannot close it (a backtick is \x60).
 */
static void print_outputs(struct vm *vm, FILE *f, bool markdown)
{
	size_t k;

	for (k = 0; vm->command && k < vm->kernel_cnt; k++) {
		struct cell *c = cell_at(vm, 0, 0, 0, k);
		char *copy, *line, *save = NULL;

		if (c->status == CELL_OTHER || c->status == CELL_NONE)
			continue;
		if (markdown)
			fprintf(f, "\n#### output on %s\n\n```\n", md(vm, vm->kernels[k].label, false));
		else
			fprintf(f, "\noutput on %s:\n", safe(vm, vm->kernels[k].label));
		copy = strdup(c->output ? c->output : "");
		for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save))
			fprintf(f, "%s%s\n", markdown ? "" : "    ",
				markdown ? md(vm, line, true) : safe(vm, line));
		if (!c->output || !*c->output)
			fprintf(f, "%s(nothing)\n", markdown ? "" : "    ");
		free(copy);
		if (markdown)
			fputs("```\n", f);
	}
}

static const char *expectation(const struct vm *vm)
{
	if (vm->command)
		return "expected: the command exits 0 on every kernel";
	return vm->lib ? "expected: every program loads through the library" :
			 "expected: every program loads with plain libbpf";
}

static const char *kernel_state(struct vm *vm, const struct kernel *k)
{
	if (!k->in_shard)
		return vm->shards > 1 ? "another shard's" : "not booted";
	return k->why ? safe(vm, k->why) : "booted";
}

int report_text(struct vm *vm)
{
	FILE *f = vm->cli->out;
	struct table *t;
	size_t o, p, k;
	int m, ncols = 2 + (int)vm->kernel_cnt;
	const char **row;
	char (*bufs)[64];

	if (ncols > 16)
		return cli_usage_error(vm->cli, "vm: at most 14 kernels in a text report (use -j)");
	row = calloc((size_t)ncols, sizeof(*row));
	bufs = calloc(vm->kernel_cnt, sizeof(*bufs));
	t = table_new(4);
	if (!row || !bufs || !t)
		goto nomem;
	if (vm->shards > 1)
		fprintf(f, "shard %u/%u\n", vm->shard, vm->shards);
	fprintf(f, "kernels:\n");
	for (k = 0; k < vm->kernel_cnt; k++) {
		struct kernel *kn = &vm->kernels[k];
		char secs[32];
		const char *r[4] = { safe(vm, kn->label), safe(vm, kn->release ? kn->release : "-"),
				     secs, kernel_state(vm, kn) };

		snprintf(secs, sizeof(secs), "%.1fs", kn->secs);
		if (table_add(t, r))
			goto nomem;
	}
	table_print(t, f, "  ");
	table_free(t);
	t = NULL;
	for (k = 0; k < vm->kernel_cnt; k++)
		if (vm->kernels[k].module_report) {
			char prefix[256];

			snprintf(prefix, sizeof(prefix), "  %s modules: ",
				 safe(vm, vm->kernels[k].label));
			put_safe_lines(vm, f, prefix, vm->kernels[k].module_report);
		}
	for (o = 0; o < vm->obj_cnt; o++) {
		fprintf(f, "\n%s\n", safe(vm, vm->objs[o].path));
		if (vm->objs[o].error)
			fprintf(f, "  the guest could not read it: %s\n", safe(vm, vm->objs[o].error));
		t = table_new(ncols);
		if (!t)
			goto nomem;
		row[0] = vm->command ? "COMMAND" : "PROGRAM";
		row[1] = "MODE";
		for (k = 0; k < vm->kernel_cnt; k++)
			row[2 + k] = safe(vm, vm->kernels[k].label);
		if (table_add(t, row))
			goto nomem;
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++) {
				if (!mode_on(vm, m))
					continue;
				row[0] = safe(vm, vm->objs[o].progs[p].name);
				row[1] = vm_mode_name(vm, m);
				for (k = 0; k < vm->kernel_cnt; k++) {
					cell_text(vm, cell_at(vm, o, p, m, k), m, bufs[k], sizeof(bufs[k]));
					row[2 + k] = bufs[k];
				}
				if (table_add(t, row))
					goto nomem;
			}
		table_print(t, f, "  ");
		table_free(t);
		t = NULL;
	}
	fputc('\n', f);
	print_notes(vm, f, false);
	print_outputs(vm, f, false);
	fprintf(f, "%s%d cell%s expected to %s did not (%s)\n", vm->command ? "\n" : "",
		vm->failed_expected, vm->failed_expected == 1 ? "" : "s",
		vm->command ? "exit 0" : "load", expectation(vm));
	free(row);
	free(bufs);
	return 0;
nomem:
	table_free(t);
	free(row);
	free(bufs);
	return cli_error(vm->cli, "%s", strerror(ENOMEM));
}

/*
 * Markdown for a reader, or a CI job summary (GitHub's
 * $GITHUB_STEP_SUMMARY, GitLab's and Gitea's renderers): a heading and
 * the verdict first, then the tables and their notes.
 */
void report_markdown(struct vm *vm)
{
	FILE *f = vm->cli->out;
	char buf[64];
	size_t o, p, k;
	int m;

	fprintf(f, "## magic-kfunc vm%s\n\n", vm->command ? ": a command on each kernel" : "");
	if (vm->shards > 1)
		fprintf(f, "Shard %u of %u.\n\n", vm->shard, vm->shards);
	fprintf(f, "%s%d cell%s expected to %s did not%s (%s).\n\n",
		vm->failed_expected ? "**" : "", vm->failed_expected,
		vm->failed_expected == 1 ? "" : "s", vm->command ? "exit 0" : "load",
		vm->failed_expected ? "**" : "", expectation(vm));
	fprintf(f, "| kernel | release | boot |\n|---|---|---|\n");
	for (k = 0; k < vm->kernel_cnt; k++)
		fprintf(f, "| %s | %s | %s (%.1fs) |\n", md(vm, vm->kernels[k].label, false),
			md(vm, vm->kernels[k].release ? vm->kernels[k].release : "-", false),
			md(vm, kernel_state(vm, &vm->kernels[k]), false), vm->kernels[k].secs);
	for (o = 0; o < vm->obj_cnt; o++) {
		fprintf(f, "\n### %s\n\n", md(vm, base_name(vm->objs[o].path), false));
		if (vm->objs[o].error)
			fprintf(f, "The guest could not read it: `%s`\n\n",
				md(vm, vm->objs[o].error, true));
		fprintf(f, "| %s | mode |", vm->command ? "command" : "program");
		for (k = 0; k < vm->kernel_cnt; k++)
			fprintf(f, " %s |", md(vm, vm->kernels[k].label, false));
		fprintf(f, "\n|---|---|");
		for (k = 0; k < vm->kernel_cnt; k++)
			fprintf(f, "---|");
		fputc('\n', f);
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++) {
				if (!mode_on(vm, m))
					continue;
				fprintf(f, "| `%s` | %s |", md(vm, vm->objs[o].progs[p].name, true),
					vm->command ? "run" : m == 0 ? "libmagic-kfunc" : "plain libbpf");
				for (k = 0; k < vm->kernel_cnt; k++) {
					cell_text(vm, cell_at(vm, o, p, m, k), m, buf, sizeof(buf));
					fprintf(f, " %s |", buf);
				}
				fputc('\n', f);
			}
	}
	fputc('\n', f);
	print_notes(vm, f, true);
	print_outputs(vm, f, true);
}

void report_json(struct vm *vm)
{
	struct json_writer *jw = vm->cli->jw;
	size_t o, p, k, i;
	int m;

	jw_start_object(jw);
	jw_string_field(jw, "version", PACKAGE_VERSION);
	jw_string_field(jw, "mode", vm_run_mode(vm));
	jw_name(jw, "shard");
	jw_start_object(jw);
	jw_int_field(jw, "index", vm->shard);
	jw_int_field(jw, "count", vm->shards);
	jw_end_object(jw);
	if (vm->command) {
		jw_name(jw, "arguments");
		jw_start_array(jw);
		for (i = 0; i < vm->run_arg_cnt; i++)
			jw_string(jw, vm->run_args[i]);
		jw_end_array(jw);
	}
	jw_name(jw, "kernels");
	jw_start_array(jw);
	for (k = 0; k < vm->kernel_cnt; k++) {
		struct kernel *kn = &vm->kernels[k];

		jw_start_object(jw);
		jw_string_field(jw, "label", kn->label);
		jw_string_field(jw, "image", kn->image);
		jw_string_field(jw, "sha256", kn->sha256[0] ? kn->sha256 : NULL);
		jw_string_field(jw, "release",
				kn->release && strcmp(kn->release, "-") ? kn->release : NULL);
		jw_bool_field(jw, "in_shard", kn->in_shard);
		jw_bool_field(jw, "booted", kn->in_shard && !kn->why);
		jw_string_field(jw, "why", kn->why);
		jw_int_field(jw, "milliseconds", (long long)(kn->secs * 1000));
		jw_name(jw, "modules");
		jw_start_array(jw);
		for (o = 0; o < kn->module_cnt; o++)
			jw_string(jw, base_name(kn->modules[o]));
		jw_end_array(jw);
		jw_string_field(jw, "module_report", kn->module_report);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_name(jw, "objects");
	jw_start_array(jw);
	for (o = 0; o < vm->obj_cnt; o++) {
		jw_start_object(jw);
		jw_string_field(jw, vm->command ? "command" : "object", vm->objs[o].path);
		jw_string_field(jw, "sha256", vm->objs[o].sha256);
		/* The guest could not read it (libbpf's open failed): no cells. */
		jw_string_field(jw, "error", vm->objs[o].error);
		jw_name(jw, "programs");
		jw_start_array(jw);
		for (p = 0; p < vm->objs[o].prog_cnt; p++) {
			jw_start_object(jw);
			jw_string_field(jw, "name", vm->objs[o].progs[p].name);
			jw_string_field(jw, "section", vm->objs[o].progs[p].sec);
			jw_name(jw, "cells");
			jw_start_array(jw);
			for (k = 0; k < vm->kernel_cnt; k++)
				for (m = 0; m < MODES; m++) {
					struct cell *c = cell_at(vm, o, p, m, k);

					if (!mode_on(vm, m) || c->status == CELL_OTHER)
						continue;
					jw_start_object(jw);
					jw_string_field(jw, "kernel", vm->kernels[k].label);
					jw_string_field(jw, "mode", vm_mode_name(vm, m));
					jw_string_field(jw, "status", status_name(c->status));
					jw_bool_field(jw, "expected", expected(vm, m));
					jw_name(jw, "retval");
					if (c->status == CELL_RAN || (vm->command && c->status == CELL_FAILED))
						jw_int(jw, c->retval);
					else
						jw_null(jw);
					jw_string_field(jw, "reason", c->status == CELL_LOADED ? c->note :
							c->status == CELL_RAN ? NULL : c->reason);
					if (vm->command)
						jw_string_field(jw, "output", c->output);
					if (vm->whole)
						jw_string_field(jw, "decided",
								c->decided ? c->decided : "alone");
					/* -d: every cell has it; merged shards' logs are kept. */
					if (vm->cli->debug || c->log)
						jw_string_field(jw, "log", c->log);
					jw_end_object(jw);
				}
			jw_end_array(jw);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_int_field(jw, "failed_expected", vm->failed_expected);
	jw_end_object(jw);
}

/* --- JUnit XML ------------------------------------------------------------ */

/* S as XML character data or an attribute value: safe(), then entities. */
static void xml(struct vm *vm, FILE *f, const char *s)
{
	const char *p;

	for (p = safe(vm, s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*p, f);
		}
	}
}

/* Lines of TEXT as XML character data, each made safe. */
static void xml_lines(struct vm *vm, FILE *f, const char *prefix, const char *text)
{
	char *copy = strdup(text ? text : ""), *line, *save = NULL;

	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		xml(vm, f, prefix);
		xml(vm, f, line);
		fputc('\n', f);
	}
	free(copy);
}

/* The cells of kernel K that this run has, and the expected ones that failed or gave nothing. */
static void junit_counts(struct vm *vm, size_t k, int *tests, int *failures, int *errors)
{
	size_t o, p;

	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++) {
			int m = vm->lib ? 0 : 1;
			struct cell *c = cell_at(vm, o, p, m, k);

			if (c->status == CELL_OTHER)
				continue;
			(*tests)++;
			*failures += c->status == CELL_FAILED;
			*errors += c->status == CELL_NONE;
		}
}

/*
 * One test suite per kernel (one boot: its time, its release), one
 * test case per program of each object (or the command) on it: the
 * expected mode's cell decides (failure: failed; error: no result), and
 * a failure's message is the decisive line of the text report. The
 * other mode's cell, a test run's note and -d's log go to system-out.
 */
static void junit_write(struct vm *vm, FILE *f)
{
	int tests = 0, failures = 0, errors = 0;
	double secs = 0;
	size_t k, o, p;
	int em = vm->lib ? 0 : 1;

	for (k = 0; k < vm->kernel_cnt; k++) {
		junit_counts(vm, k, &tests, &failures, &errors);
		secs += vm->kernels[k].secs;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"magic-kfunc vm\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"time=\"%.3f\">\n", tests, failures, errors, secs);
	for (k = 0; k < vm->kernel_cnt; k++) {
		struct kernel *kn = &vm->kernels[k];
		int t = 0, fl = 0, er = 0;

		junit_counts(vm, k, &t, &fl, &er);
		if (!t)
			continue;
		fprintf(f, "  <testsuite name=\"");
		xml(vm, f, kn->label);
		fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\">\n",
			t, fl, er, kn->secs);
		fprintf(f, "    <properties>\n");
		fprintf(f, "      <property name=\"release\" value=\"");
		xml(vm, f, kn->release && strcmp(kn->release, "-") ? kn->release : "unknown");
		fprintf(f, "\"/>\n      <property name=\"mode\" value=\"%s\"/>\n", vm_run_mode(vm));
		fprintf(f, "    </properties>\n");
		for (o = 0; o < vm->obj_cnt; o++)
			for (p = 0; p < vm->objs[o].prog_cnt; p++) {
				struct cell *c = cell_at(vm, o, p, em, k);
				struct cell *other = vm->lib && vm->plain ? cell_at(vm, o, p, 1, k) : NULL;
				bool out = other || c->note || c->log || c->output;

				if (c->status == CELL_OTHER)
					continue;
				fprintf(f, "    <testcase name=\"");
				xml(vm, f, vm->objs[o].progs[p].name);
				fprintf(f, " on ");
				xml(vm, f, kn->label);
				fprintf(f, "\" classname=\"");
				xml(vm, f, base_name(vm->objs[o].path));
				fprintf(f, "\"%s\n", c->status == CELL_FAILED || c->status == CELL_NONE ||
						      out ? ">" : "/>");
				if (c->status == CELL_FAILED || c->status == CELL_NONE) {
					const char *tag = c->status == CELL_FAILED ? "failure" : "error";

					fprintf(f, "      <%s message=\"", tag);
					xml(vm, f, c->reason ? c->reason : "no message");
					fprintf(f, "\" type=\"%s\">", c->status == CELL_FAILED ?
						(vm->command ? "exit-status" : "load") : "no-result");
					xml(vm, f, c->reason ? c->reason : "no message");
					fprintf(f, "</%s>\n", tag);
				}
				if (out) {
					fprintf(f, "      <system-out>");
					if (c->note) {
						xml(vm, f, "test run not done: ");
						xml(vm, f, c->note);
						fputc('\n', f);
					}
					if (other && other->status != CELL_OTHER) {
						char buf[64];

						cell_text(vm, other, 1, buf, sizeof(buf));
						xml(vm, f, "plain libbpf: ");
						xml(vm, f, other->status == CELL_RAN ? buf :
							status_name(other->status));
						if (note_text(other)) {
							xml(vm, f, ": ");
							xml(vm, f, note_text(other));
						}
						fputc('\n', f);
						xml_lines(vm, f, "  ", other->log);
					}
					xml_lines(vm, f, "", c->output);
					xml_lines(vm, f, "", c->log);
					fprintf(f, "</system-out>\n");
				}
				if (c->status == CELL_FAILED || c->status == CELL_NONE || out)
					fprintf(f, "    </testcase>\n");
			}
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
}

/* Write the JUnit report to PATH ("-": standard output), whole or not at all. */
int report_junit(struct vm *vm, const char *path)
{
	char *tmp = NULL;
	bool bad;
	FILE *f;
	int fd;

	if (!strcmp(path, "-")) {
		junit_write(vm, vm->cli->out);
		return 0;
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return cli_error(vm->cli, "%s", strerror(ENOMEM));
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return cli_error(vm->cli, "vm: --junit %s: %s", path, strerror(e));
	}
	junit_write(vm, f);
	bad = fchmod(fd, 0644) || fflush(f) || ferror(f);
	if (fclose(f) || bad || rename(tmp, path)) {
		int e = errno ? errno : EIO;

		unlink(tmp);
		free(tmp);
		return cli_error(vm->cli, "vm: --junit %s: %s", path, strerror(e));
	}
	free(tmp);
	return 0;
}

int vm_report(struct vm *vm)
{
	const char *junit = vm->cli->junit;
	int ret = 0;

	number_notes(vm);
	if (junit)
		ret = report_junit(vm, junit);
	if (ret)
		return ret;
	if (junit && !strcmp(junit, "-"))
		;
	else if (vm->cli->jw)
		report_json(vm);
	else if (vm->cli->markdown)
		report_markdown(vm);
	else
		ret = report_text(vm);
	if (!ret && vm->failed_expected)
		ret = EXIT_CELLS_FAILED;
	return ret;
}
