/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * C text of kernel functions and their parameters, through libbpf's
 * btf_dump (one dumper per BTF: vmlinux and each module).
 */
#ifndef MKF_CLI_DECL_H
#define MKF_CLI_DECL_H

#include "magic_kfunc.h"

struct decl_printer;

struct decl_printer *decl_printer_new(void);
void decl_printer_free(struct decl_printer *dp);
/* "int foo(struct bpf_wq *wq, ...)": malloc'd, NULL on error. */
char *decl_function(struct decl_printer *dp, const struct mkf_func *fn);
/* "struct bpf_prog_aux *aux": malloc'd, NULL on error. */
char *decl_param(struct decl_printer *dp, const struct mkf_func *fn, int idx);

#endif
