// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * One print callback for the whole library, with libbpf's type so a
 * program can hand the same function to both libraries.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "magic_kfunc.h"
#include "log.h"

/* Threshold of the default callback, read once from MKF_LOG_LEVEL. */
static int default_level(void)
{
	static int level = -1;
	const char *env;

	if (level >= 0)
		return level;
	/* Like libbpf's default: warnings and info, debug on request. */
	level = LIBBPF_INFO;
	env = getenv("MKF_LOG_LEVEL");
	if (!env)
		return level;
	if (!strcasecmp(env, "warn") || !strcmp(env, "0"))
		level = LIBBPF_WARN;
	else if (!strcasecmp(env, "debug") || !strcmp(env, "2"))
		level = LIBBPF_DEBUG;
	return level;
}

static int default_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if ((int)level > default_level())
		return 0;
	return vfprintf(stderr, fmt, args);
}

static libbpf_print_fn_t print_fn = default_print;

libbpf_print_fn_t mkf_set_print(libbpf_print_fn_t fn)
{
	/* Swapped atomically: a concurrent message sees old or new. */
	return __atomic_exchange_n(&print_fn, fn, __ATOMIC_ACQ_REL);
}

void mkf_print(enum libbpf_print_level level, const char *fmt, ...)
{
	libbpf_print_fn_t fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);
	int saved_errno = errno;
	va_list args;

	if (!fn)
		return;
	va_start(args, fmt);
	fn(level, fmt, args);
	va_end(args);
	/* A caller may be about to return errno: never clobber it. */
	errno = saved_errno;
}
