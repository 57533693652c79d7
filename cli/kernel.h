/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Which kernel a command looks at: --btf FILE [--module-btf FILE]...,
 * or the running kernel's /sys/kernel/btf (files only, never bpf()).
 * For matrix: a list of kernels from --btf and --kernel-dir.
 */
#ifndef MKF_CLI_KERNEL_H
#define MKF_CLI_KERNEL_H

#include <stddef.h>
#include <magic_kfunc.h>

#include "cli.h"

#define RUNNING_BTF_DIR "/sys/kernel/btf"

/* One kernel of a matrix: its column label and vmlinux BTF file. */
struct kernel_spec {
	char *label;
	char *btf;
};

/*
 * Make every --btf and --module-btf readable by the library, which
 * seeks in the files it parses: "-" (standard input) and pipes (a
 * shell's <(...)) are copied into memory files first. Standard input
 * can be read once only, by one of these or by an object argument.
 * 0 or an exit code (the CLI error set).
 */
int cli_kernel_inputs(struct cli *cli);
void cli_kernel_inputs_free(struct cli *cli);

/*
 * Load the kernel selected by the options (at most one --btf). On
 * failure sets the CLI error and returns NULL.
 */
struct mkf_kernel *cli_kernel_load(struct cli *cli);

/* Load a matrix column's kernel (vmlinux only). NULL + CLI error. */
struct mkf_kernel *cli_kernel_load_spec(struct cli *cli, const struct kernel_spec *spec);

/*
 * The kernels of a matrix: every --btf in order, then each
 * --kernel-dir's <id>/vmlinux.btf in version order. 0 or an exit code
 * (the CLI error set).
 */
int cli_kernel_specs(struct cli *cli, struct kernel_spec **specs, size_t *cnt);
void cli_kernel_specs_free(struct kernel_spec *specs, size_t cnt);

/* Human description of the selected kernel, for report headers. */
const char *cli_kernel_source(const struct cli *cli);

/* The "kernel" member of a JSON report. */
void cli_kernel_json(struct cli *cli, const struct mkf_kernel *k);

#endif
