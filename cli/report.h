/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A plan's decisions as words and JSON, shared by explain, rewrite and
 * matrix so that the three spell them the same way.
 */
#ifndef MKF_CLI_REPORT_H
#define MKF_CLI_REPORT_H

#include <stddef.h>
#include <magic_kfunc.h>

#include "cli.h"

/* A BPF object read into memory. */
struct cli_object {
	const char *path;
	struct mkf_object *obj;	/* the library's one reading */
};

/*
 * Read path ("-": standard input) and the object in it; 0 or an exit
 * code with the CLI error set. cli_object_free() either way.
 */
int cli_object_read(struct cli *cli, const char *path, struct cli_object *obj);
void cli_object_free(struct cli_object *obj);

/*
 * Compute obj's plan against k. The library's per-extern messages are
 * not printed (the report carries them; -d shows them); on failure its
 * warning becomes the CLI error. NULL on failure.
 */
struct mkf_plan *cli_plan(struct cli *cli, const struct cli_object *obj,
			  const struct mkf_kernel *k, const char *kernel_label);

/*
 * Plan each object named on the command line against k and report it:
 * in JSON mode one {"object", ...plan...} array element each, else
 * text(cli, obj, plan, ctx) (which returns 0 or an exit code). Adds the
 * plans' unresolved externs to *unresolved (may be NULL). Stops at the
 * first error; 0 or its exit code.
 */
typedef int (*report_text_fn)(struct cli *cli, const struct cli_object *obj,
			      const struct mkf_plan *plan, void *ctx);
int cli_report_objects(struct cli *cli, const struct mkf_kernel *k, report_text_fn text,
		       void *ctx, size_t *unresolved);

/* Short JSON token ("not-found") and words for text ("not found"). */
const char *libbpf_words(enum mkf_libbpf_outcome o);

/* One entry as a JSON object. */
void report_entry_json(struct json_writer *jw, const struct mkf_plan_entry *e);
/* "externs": [...], "extern_cnt", "changes", "unresolved" members. */
void report_plan_json(struct json_writer *jw, const struct mkf_plan *plan);

#endif
