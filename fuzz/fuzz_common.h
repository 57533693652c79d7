/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* What the fuzz targets share: a print callback that drops everything. */
#ifndef MKF_FUZZ_COMMON_H
#define MKF_FUZZ_COMMON_H

#include <stdarg.h>
#include <bpf/libbpf.h>

/* Messages of malformed inputs would drown libFuzzer's own output. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

#endif
