// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The print callback shared by libmagic-kfunc and libbpf (see log.h). */
#include <stdarg.h>
#include <stdio.h>

#include <bpf/libbpf.h>
#include <magic_kfunc.h>

#include "log.h"

static bool debug_mode;

/*
 * Only with -d: errors reach the command through the library's err_buf
 * and its decisions through the report, so the libraries' warnings
 * would only repeat them.
 */
static int print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	if (!debug_mode)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void cli_log_init(bool debug)
{
	debug_mode = debug;
	mkf_set_print(print_fn);
	libbpf_set_print(print_fn);
}
