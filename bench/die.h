/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The bench programs' way out: "PROG: message" on stderr, exit 1. The
 * including file defines BENCH_PROG, its name, first.
 */
#ifndef MKF_BENCH_DIE_H
#define MKF_BENCH_DIE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *prog = BENCH_PROG;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

#endif
