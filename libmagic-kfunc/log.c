// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * One print callback for the whole library, with libbpf's type so a
 * program can hand the same function to both libraries.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	else if (strcasecmp(env, "info") && strcmp(env, "1"))
		fprintf(stderr, MKF_LOG_PREFIX "MKF_LOG_LEVEL='%s' is not warn, info or debug "
			"(0, 1, 2): using info\n", env);
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

bool mkf_log_wants(enum libbpf_print_level level)
{
	libbpf_print_fn_t fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);

	/* Only the default callback's threshold is known here. */
	return fn && (fn != default_print || (int)level <= default_level());
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

static __thread struct mkf_diag_scope *diag_top;

void mkf_diag_enter(struct mkf_diag_scope *scope, char *buf, size_t sz)
{
	scope->outer = diag_top;
	scope->buf = sz ? buf : NULL;
	scope->sz = scope->buf ? sz : 0;
	scope->filled = false;
	if (scope->buf)
		scope->buf[0] = '\0';
	diag_top = scope;
}

void mkf_diag_leave(struct mkf_diag_scope *scope, int err)
{
	diag_top = scope->outer;
	if (!scope->buf)
		return;
	/* Success leaves "", whatever was warned on the way. */
	if (!err)
		scope->buf[0] = '\0';
	else if (!scope->filled)
		snprintf(scope->buf, scope->sz, "%s", strerror(err < 0 ? -err : err));
}

static void diag_record(const char *msg)
{
	size_t n = strcspn(msg, "\n"), plen = strlen(MKF_LOG_PREFIX);
	struct mkf_diag_scope *s;

	if (!strncmp(msg, MKF_LOG_PREFIX, plen)) {
		msg += plen;
		n -= plen;
	}
	for (s = diag_top; s; s = s->outer) {
		size_t len = n < s->sz - 1 ? n : s->sz - 1;

		if (!s->buf || s->filled)
			continue;
		memcpy(s->buf, msg, len);
		s->buf[len] = '\0';
		s->filled = true;
	}
}

void mkf_print_err(const char *fmt, ...)
{
	libbpf_print_fn_t fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);
	int saved_errno = errno;
	char buf[512];
	va_list args;

	if (diag_top) {
		va_start(args, fmt);
		vsnprintf(buf, sizeof(buf), fmt, args);
		va_end(args);
		diag_record(buf);
	}
	if (fn) {
		va_start(args, fmt);
		fn(LIBBPF_WARN, fmt, args);
		va_end(args);
	}
	errno = saved_errno;
}
