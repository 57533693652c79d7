/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * "magic-kfunc vm": the matrix of program x mode x kernel, shared by the
 * runs (vm.c: boots and the guest's records), the reports (vm_report.c:
 * text, Markdown, JSON, JUnit) and the merge of shards (vm_merge.c:
 * the JSON of several runs read back into one matrix).
 */
#ifndef MKF_CLI_VM_H
#define MKF_CLI_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"
#include "libexec.h"

enum cell_status {
	CELL_NONE,	/* no result: the boot gave nothing for it */
	CELL_RAN,
	CELL_LOADED,
	CELL_FAILED,
	CELL_OTHER,	/* another shard's: not run here, not a failure */
};

struct cell {
	enum cell_status status;
	/* ran: the program's return value; command mode: the exit status,
	 * or minus the signal that killed the command. */
	long long retval;
	char *reason;		/* failed: the decisive line; none: why no result */
	char *note;		/* loaded: why it did not run */
	char *log;		/* with -d: every message */
	char *output;		/* command mode: what the command printed */
	char *decided;		/* MKF_VM_WHOLE=1: "whole", "same-bytes"; NULL: alone */
	int footnote;
};

struct prog {
	char *name;
	char *sec;
};

/* A row group: an object, or in command mode the command. */
struct object {
	const char *path;
	struct prog *progs;
	size_t prog_cnt;
	char *error;		/* the guest could not read it */
	char sha256[65];	/* of the file's bytes: shards must agree */
};

struct kernel {
	const char *arg;	/* as given */
	char *label;
	char *image;
	char *release;		/* from the cache, then from the guest */
	char **modules;
	size_t module_cnt;
	char *module_report;	/* "NAME loaded|failed ..." lines from the guest */
	char sha256[65];	/* of the image; "" when not resolved */
	bool in_shard;		/* some of its cells are this run's */
	pid_t pid;
	double secs;
	int rc;			/* vm-run's exit status; -1 not run */
	char *why;		/* no result: why, as vm-run said */
	char out_path[PATH_MAX + 64];
	char err_path[PATH_MAX + 64];
	char status_path[PATH_MAX + 64];	/* vm-run --status */
};

struct vm {
	struct cli *cli;
	struct vm_paths paths;
	bool lib, plain;
	bool command;		/* --run: one row, the command; mode "run" */
	char **run_args;	/* its arguments */
	size_t run_arg_cnt;
	char **run_files;	/* its libraries: "HOST:GUEST" for vm-run --file */
	size_t run_file_cnt;
	unsigned int shard, shards;	/* this run is shard SHARD of SHARDS (1-based) */
	/*
	 * MKF_VM_WHOLE=1: the guest loads each object whole first (-w,
	 * vm/mkf-vm-guest.c), for large corpora (tests/corpus/); MKF_VM_MEM: the
	 * guest's memory in MiB, for many objects at once.
	 */
	bool whole;
	const char *mem;
	struct object *objs;
	size_t obj_cnt;
	struct kernel *kernels;
	size_t kernel_cnt;
	struct cell *cells;	/* [base[obj] + prog][mode][kernel] */
	size_t *base;
	char tmp[PATH_MAX];
	int failed_expected;
	char **shown;		/* safe() copies, freed with the rest */
	size_t shown_cnt;
};

#define MODES 2	/* 0: through the library (or the command), 1: plain libbpf */

static inline struct cell *cell_at(struct vm *vm, size_t o, size_t p, int m, size_t k)
{
	return &vm->cells[((vm->base[o] + p) * MODES + (size_t)m) * vm->kernel_cnt + k];
}

static inline bool mode_on(const struct vm *vm, int m)
{
	return m == 0 ? vm->lib : vm->plain;
}

/* Expected to load: the library's cells, or plain libbpf's when alone. */
static inline bool expected(const struct vm *vm, int m)
{
	return vm->lib ? m == 0 : m == 1;
}

/* "mkf", "libbpf", or "run" for the command: as records and JSON say. */
const char *vm_mode_name(const struct vm *vm, int m);
/* "mkf", "libbpf", "both" or "run": the whole run's mode. */
const char *vm_run_mode(const struct vm *vm);

/*
 * The shard (0-based) that owns object O on kernel K when the
 * kernel x object pairs, kernel-major, are cut into SHARDS contiguous
 * runs of nearly equal length: few kernels are booted by two shards.
 */
unsigned int vm_owner(size_t k, size_t o, size_t kernel_cnt, size_t obj_cnt, unsigned int shards);
bool vm_owns(const struct vm *vm, size_t k, size_t o);

/* SHA-256 of a file's bytes, as 64 hex digits. 0 or -errno. */
int vm_sha256_file(const char *path, char hex[65]);

/* vm_report.c */
const char *safe(struct vm *vm, const char *s);
void number_notes(struct vm *vm);
int report_text(struct vm *vm);
void report_markdown(struct vm *vm);
void report_json(struct vm *vm);
int report_junit(struct vm *vm, const char *path);
/* The reports --json, --markdown, text and --junit ask for; 0, an exit code. */
int vm_report(struct vm *vm);

void vm_free(struct vm *vm);

/* vm_merge.c: "vm merge JSON..." */
int cmd_vm_merge(struct cli *cli);

#endif
