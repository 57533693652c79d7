/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * magic-kfunc command line tool: state shared by the option parser
 * (main.c) and the commands (explain.c, rewrite.c, list.c, matrix.c,
 * doctor.c, vm.c).
 */
#ifndef MKF_CLI_H
#define MKF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "json.h"

/* Exit codes: documented in magic-kfunc.8 (EXIT STATUS). */
enum {
	EXIT_OK = 0,
	EXIT_ERROR = 1,		/* I/O, unreadable object or kernel BTF */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_UNRESOLVED = 3,	/* a strong kfunc extern fits nothing */
	EXIT_CELLS_FAILED = 4,	/* vm: a cell expected to load did not */
};

struct cli {
	/* Global options. */
	bool json;
	bool pretty;
	bool debug;
	/* The command options given (main.c's enum opt_bit). */
	unsigned int given;

	/* Kernel selection (explain, rewrite, list; matrix: columns). */
	const char **btf;
	size_t btf_cnt;
	const char **module_btf;
	size_t module_btf_cnt;
	const char **kernel_dir;
	size_t kernel_dir_cnt;
	/*
	 * The files the library reads instead, where btf[i] or
	 * module_btf[i] is "-" or a pipe: a copy in a memory file
	 * ("/proc/self/fd/N"), made by cli_kernel_inputs(); else NULL.
	 */
	char **btf_copy;
	char **module_btf_copy;

	/* rewrite */
	const char *output;
	bool in_place;
	bool allow_unresolved;

	/* explain, rewrite, matrix: strong externs that fit nothing become weak. */
	bool weaken_unresolved;

	/* vm */
	int jobs;		/* parallel boots; 0: one per CPU */
	int timeout;		/* seconds per boot; 0: the default */
	const char **vm_kernel;	/* --kernel ID|IMAGE */
	size_t vm_kernel_cnt;
	const char *mode;	/* mkf, libbpf, both */
	bool markdown;
	const char *junit;	/* --junit FILE: a JUnit XML report too */
	unsigned int shard, shards;	/* --shard I/N; shards 0: not given */
	const char *run;	/* --run CMD: command mode */

	/* Arguments after the command word. */
	char **argv;
	int argc;

	/*
	 * Where reports go. In JSON mode a memory stream, copied to stdout
	 * only on success, so that an error leaves nothing on stdout but
	 * {"error": ...}.
	 */
	FILE *out;
	struct json_writer *jw;		/* NULL unless JSON mode */
	/*
	 * Some inputs failed but the report covers the rest, each failure
	 * in its place (JSON: an "error" member): printed, and the exit
	 * status is still EXIT_ERROR.
	 */
	bool partial;

	/* Set by cli_error(); printed by main(). */
	char *error;
};

/* Record the error message (first one wins) and return EXIT_ERROR. */
int cli_error(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, returning EXIT_USAGE. */
int cli_usage_error(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int cmd_explain(struct cli *cli);
int cmd_rewrite(struct cli *cli);
int cmd_kfuncs(struct cli *cli);
int cmd_matrix(struct cli *cli);
int cmd_doctor(struct cli *cli);
int cmd_vm(struct cli *cli);
int cmd_kernels(struct cli *cli);

#endif
