// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * rewrite OBJ {-o OUT | --in-place}: write the object as the library
 * would hand it to libbpf, for loaders that are not libbpf (Go, Rust,
 * bpftool prog load). A file OUT is replaced atomically or not at all;
 * "-" writes to standard output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "kernel.h"
#include "report.h"

/* The diagnosis of every unresolved strong extern, for the error. */
static char *unresolved_diagnosis(const struct mkf_plan *plan)
{
	size_t i, len = 0;
	char *msg = NULL;
	FILE *f;

	f = open_memstream(&msg, &len);
	if (!f)
		return NULL;
	for (i = 0; i < mkf_plan__entry_cnt(plan); i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);

		if (mkf_plan_entry__decision(e) == MKF_DECISION_UNRESOLVED)
			fprintf(f, "\n  %s: %s", mkf_plan_entry__name(e), mkf_plan_entry__reason(e));
	}
	fclose(f);
	/* The error printer adds the final newline. */
	while (len && msg[len - 1] == '\n')
		msg[--len] = '\0';
	return msg;
}

/*
 * Where to write. --in-place follows a symlink to the real file, so the
 * link survives, and keeps its mode; -o OUT is written as OUT's kind
 * asks (write_output()): "-" for standard output.
 */
static int output_path(struct cli *cli, const char *in, char **out, mode_t *mode)
{
	struct stat st;

	*mode = (mode_t)-1;
	if (cli->in_place) {
		*out = realpath(in, NULL);
		if (!*out)
			return cli_error(cli, "%s: %s", in, strerror(errno));
		/* Loaders and build rules rely on the file's permissions. */
		if (!stat(*out, &st))
			*mode = st.st_mode & 07777;
		return 0;
	}
	if (!strcmp(cli->output, "-") && cli->jw)
		return cli_usage_error(cli, "-o - writes the object to standard output: it cannot "
				       "carry the JSON report too (leave out -j)");
	if (strcmp(cli->output, "-") && same_file(in, cli->output))
		return cli_usage_error(cli, "refusing to overwrite the input %s with -o %s: "
				       "use --in-place to rewrite it where it is",
				       in, cli->output);
	*out = strdup(cli->output);
	if (!*out)
		return cli_error(cli, "%s", strerror(ENOMEM));
	return 0;
}

static void report_json(struct cli *cli, const char *in, const char *out,
			const struct mkf_plan *plan)
{
	struct json_writer *jw = cli->jw;

	jw_start_object(jw);
	jw_string_field(jw, "object", in);
	jw_string_field(jw, "output", out);
	report_plan_json(jw, plan);
	jw_end_object(jw);
}

int cmd_rewrite(struct cli *cli)
{
	const char *in = cli->argv[0], *step;
	struct mkf_plan *plan = NULL;
	struct mkf_kernel *k = NULL;
	struct cli_object obj = {};
	void *new_buf = NULL;
	char *out = NULL, *diag, why[512];
	MKF_OPTS(mkf_rewrite_opts, ropts, .err_buf = why, .err_buf_sz = sizeof(why));
	size_t new_sz = 0;
	mode_t mode;
	int ret, err;

	ret = output_path(cli, in, &out, &mode);
	if (ret)
		return ret;
	ret = cli_object_read(cli, in, &obj);
	if (ret)
		goto done;
	k = cli_kernel_load(cli);
	if (!k) {
		ret = EXIT_ERROR;
		goto done;
	}
	plan = cli_plan(cli, &obj, k, NULL);
	if (!plan) {
		ret = EXIT_ERROR;
		goto done;
	}
	if (mkf_plan__unresolved_cnt(plan)) {
		diag = unresolved_diagnosis(plan);
		if (!cli->allow_unresolved) {
			/* Nothing written: a loader must not get a doomed object. */
			cli_error(cli, "%s: %zu strong kfunc extern%s fit%s nothing in %s; %s not "
				  "written (--allow-unresolved writes it anyway)%s",
				  in, mkf_plan__unresolved_cnt(plan),
				  mkf_plan__unresolved_cnt(plan) == 1 ? "" : "s",
				  mkf_plan__unresolved_cnt(plan) == 1 ? "s" : "",
				  cli_kernel_source(cli), out, diag ? diag : "");
			free(diag);
			ret = EXIT_UNRESOLVED;
			goto done;
		}
		fprintf(stderr, "warning: %s: %zu strong kfunc extern(s) left unresolved; "
			"loading will fail on this kernel%s\n", in,
			mkf_plan__unresolved_cnt(plan), diag ? diag : "");
		free(diag);
	}
	/* With nothing to change, the library hands back the input's bytes. */
	err = mkf_object__rewrite(obj.obj, plan, &new_buf, &new_sz, &ropts);
	if (err) {
		ret = cli_error(cli, "%s: rewriting failed: %s", in, why);
		goto done;
	}
	err = cli->in_place ? write_file_atomic(out, new_buf, new_sz, mode, &step)
			    : write_output(out, new_buf, new_sz, &step);
	if (err) {
		ret = cli_error(cli, "%s: %s failed: %s; nothing written", out, step,
				strerror(-err));
		goto done;
	}
	/* Quiet on success in text mode, like a compiler; JSON confirms. */
	if (cli->jw)
		report_json(cli, in, out, plan);
	ret = EXIT_OK;
done:
	free(new_buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	cli_object_free(&obj);
	free(out);
	return ret;
}
