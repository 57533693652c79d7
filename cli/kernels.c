// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kernels {list | fetch [ID...] | add ID IMAGE [KO...]}: the kernel
 * catalogue and its cache, kept by the installed script "kernels"
 * (vm/kernels); this file runs it and reports what it says: lines of
 * words ("kernels entries": ID SOURCE ERA STATE RELEASE; fetch and add:
 * ID RELEASE), cut as the guest's records are (vm/record.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libexec.h"
#include "record.h"
#include "table.h"

static int kernels_list(struct cli *cli, const struct vm_paths *p)
{
	const char *args[] = { "entries", NULL };
	char *out = NULL, *line, *save = NULL;
	struct table *t = NULL;
	int rc;

	rc = run_script(p, "kernels", args, &out);
	if (rc) {
		free(out);
		return cli_error(cli, "kernels: cannot read the catalogue %s", p->catalogue);
	}
	if (cli->jw) {
		jw_start_object(cli->jw);
		jw_string_field(cli->jw, "catalogue", p->catalogue);
		jw_name(cli->jw, "kernels");
		jw_start_array(cli->jw);
	} else {
		const char *head[] = { "ID", "SOURCE", "ERA", "RELEASE" };

		t = table_new(4);
		if (!t || table_add(t, head)) {
			table_free(t);
			free(out);
			return cli_error(cli, "%s", strerror(ENOMEM));
		}
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *id, *src, *era, *state, *rel;

		/* ID SOURCE ERA STATE RELEASE: words, the release the rest. */
		if (rec_split(line, f, 5) != 5)
			continue;
		id = f[0];
		src = f[1];
		era = f[2];
		state = f[3];
		rel = f[4];
		if (cli->jw) {
			jw_start_object(cli->jw);
			jw_string_field(cli->jw, "id", id);
			jw_string_field(cli->jw, "source", src);
			jw_string_field(cli->jw, "era", strcmp(era, "-") ? era : NULL);
			jw_bool_field(cli->jw, "cached", !strcmp(state, "cached"));
			jw_string_field(cli->jw, "release", strcmp(rel, "-") ? rel : NULL);
			jw_end_object(cli->jw);
		} else {
			const char *row[] = { id, src, era,
					      strcmp(state, "cached") ? "(not cached)" : rel };

			if (table_add(t, row)) {
				table_free(t);
				free(out);
				return cli_error(cli, "%s", strerror(ENOMEM));
			}
		}
	}
	if (cli->jw) {
		jw_end_array(cli->jw);
		jw_end_object(cli->jw);
	} else {
		table_print(t, cli->out, "");
		table_free(t);
	}
	free(out);
	return EXIT_OK;
}

/* fetch [ID...] and add ID IMAGE [KO...]: both print "ID RELEASE" lines. */
static int kernels_run(struct cli *cli, const struct vm_paths *p, const char *verb)
{
	const char *args[16] = { verb };
	char *out = NULL, *line, *save = NULL;
	int i, rc;

	if (cli->argc > 13)
		return cli_usage_error(cli, "kernels %s: at most 12 arguments at a time", verb);
	for (i = 1; i < cli->argc; i++)
		args[i] = cli->argv[i];
	rc = run_script(p, "kernels", args, &out);
	if (rc < 0)
		return cli_error(cli, "kernels %s: %s", verb, strerror(errno));
	if (rc) {
		free(out);
		return cli_error(cli, "kernels %s failed (see the messages above)", verb);
	}
	if (cli->jw) {
		jw_start_object(cli->jw);
		jw_name(cli->jw, "kernels");
		jw_start_array(cli->jw);
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[2], *id, *rel;

		if (rec_split(line, f, 2) != 2)
			continue;
		id = f[0];
		rel = f[1];
		if (cli->jw) {
			jw_start_object(cli->jw);
			jw_string_field(cli->jw, "id", id);
			jw_string_field(cli->jw, "release", rel);
			jw_end_object(cli->jw);
		} else {
			fprintf(cli->out, "%s %s\n", id, rel);
		}
	}
	if (cli->jw) {
		jw_end_array(cli->jw);
		jw_end_object(cli->jw);
	}
	free(out);
	return EXIT_OK;
}

int cmd_kernels(struct cli *cli)
{
	struct vm_paths p;
	const char *verb = cli->argc ? cli->argv[0] : "list";
	int ret;

	if (!strcmp(verb, "list") || !strcmp(verb, "show")) {
		if (cli->argc > 1)
			return cli_usage_error(cli, "kernels list: unexpected argument '%s'",
					       cli->argv[1]);
	} else if (!strcmp(verb, "add")) {
		if (cli->argc < 3)
			return cli_usage_error(cli, "kernels add: give an id and an image: "
					       "kernels add ID IMAGE [KO...]");
	} else if (strcmp(verb, "fetch")) {
		return cli_usage_error(cli, "kernels: unknown verb '%s' (list, fetch or add)", verb);
	}
	ret = find_paths(cli, &p);
	if (ret)
		return ret;
	if (!strcmp(verb, "list") || !strcmp(verb, "show"))
		return kernels_list(cli, &p);
	return kernels_run(cli, &p, verb);
}
