/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Where the scripts of "vm" and "kernels" (vm-run, kernels), the guest
 * program and the kernel catalogue are, and running those scripts.
 */
#ifndef MKF_CLI_LIBEXEC_H
#define MKF_CLI_LIBEXEC_H

#include <limits.h>
#include <stdbool.h>

#include "cli.h"

struct vm_paths {
	char libexec[PATH_MAX];		/* kernels, vm-run, mkinitramfs, init */
	char guest[PATH_MAX + 64];	/* mkf-vm-guest */
	char catalogue[PATH_MAX + 64];	/* kernels.list */
};

/* A regular file that access(2) allows MODE on. */
bool is_file(const char *path, int mode);

/*
 * The environment first (MKF_LIBEXECDIR, MKF_VM_GUEST, MKF_KERNELS_LIST),
 * then the installed layout relative to this executable (so that a tree
 * installed with DESTDIR works where it lies), then the build tree
 * (cli/.libs/ or cli/ beside vm/). 0, or an exit code (the error set).
 */
int find_paths(struct cli *cli, struct vm_paths *p);

/*
 * Run SCRIPT (in the libexec dir, with MKF_KERNELS_LIST set) with ARGS
 * (NULL-terminated, at most 14); its standard output in *out
 * (NUL-terminated, to free), its standard error passed through.
 * Returns the exit status, or -1 with errno.
 */
int run_script(const struct vm_paths *p, const char *script, const char *const *args, char **out);
/*
 * Run ARGV (argv[0] a path or a name in PATH), with MKF_KERNELS_LIST set
 * to catalogue unless NULL; its standard output in *out (NUL-terminated,
 * to free), its standard error passed through. The exit status (128 +
 * the signal of a killed one), or -1 with errno.
 */
int run_capture(const char *const *argv, const char *catalogue, char **out);

#endif
