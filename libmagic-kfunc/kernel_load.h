/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What kernel_load.c shares: how it reads a kernel's BTF directory, and
 * a load for the names an object asks for.
 */
#ifndef MKF_KERNEL_LOAD_H
#define MKF_KERNEL_LOAD_H

#include <stddef.h>

/* Where the running kernel's BTF lives (mkf_kernel_opts.btf_dir). */
#define MKF_DEFAULT_BTF_DIR "/sys/kernel/btf"

/*
 * The files of a BTF directory ("vmlinux" and one per module), in name
 * order, without dot files: *names (each and the array malloc'd, free
 * with mkf_btf_dir_free()) and *cnt. 0 or a negative errno.
 */
int mkf_btf_dir_list(const char *dir, char ***names, size_t *cnt);
void mkf_btf_dir_free(char **names, size_t cnt);

struct mkf_kernel_opts;
/*
 * mkf_kernel__load() for a caller that knows every name it will look up
 * (an object's open): the files read through views list only the FUNCs
 * those names may be (kernel_index.h, func_filter); any other name
 * still gets its answer, after a walk that lists them all.
 */
struct mkf_kernel *mkf_kernel_load_for(const struct mkf_kernel_opts *opts,
				       const char *const *names, size_t cnt);

#endif
