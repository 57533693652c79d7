// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The print callback shared by libmagic-kfunc and libbpf (see log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <magic_kfunc.h>

#include "log.h"

static bool debug_mode;
static bool capturing;
static char *captured;
static size_t captured_len;

/* "libmagic-kfunc: " and "libbpf: " say nothing in a one-line error. */
static const char *strip_prefix(const char *msg)
{
	static const char *const prefixes[] = { "libmagic-kfunc: ", "libbpf: " };
	size_t i, n;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		n = strlen(prefixes[i]);
		if (!strncmp(msg, prefixes[i], n))
			return msg + n;
	}
	return msg;
}

/* Only the first warning: the cause; later ones restate it. */
static void keep(const char *msg)
{
	size_t n = strcspn(msg, "\n");
	char *p;

	if (captured_len)
		return;

	/* Losing a message to ENOMEM only makes the error less precise. */
	p = realloc(captured, captured_len + n + 2);
	if (!p)
		return;
	captured = p;
	memcpy(captured, msg, n);
	captured[n] = '\0';
	captured_len = n;
}

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	char buf[1024], *msg = buf;
	va_list copy;
	int n;

	if (level > LIBBPF_WARN && !debug_mode)
		return 0;
	va_copy(copy, args);
	n = vsnprintf(buf, sizeof(buf), fmt, copy);
	va_end(copy);
	if (n < 0)
		return 0;
	/* Resolver diagnoses span several lines: do not truncate them. */
	if ((size_t)n >= sizeof(buf)) {
		msg = malloc((size_t)n + 1);
		if (!msg)
			return 0;
		vsnprintf(msg, (size_t)n + 1, fmt, args);
	}
	if (debug_mode)
		fputs(msg, stderr);
	if (capturing && level == LIBBPF_WARN)
		keep(strip_prefix(msg));
	else if (!debug_mode)
		fputs(msg, stderr);
	if (msg != buf)
		free(msg);
	return n;
}

void cli_log_init(bool debug)
{
	debug_mode = debug;
	mkf_set_print(print_fn);
	libbpf_set_print(print_fn);
}

void cli_log_capture_begin(void)
{
	captured_len = 0;
	if (captured)
		captured[0] = '\0';
	capturing = true;
}

const char *cli_log_capture_end(void)
{
	capturing = false;
	return captured_len ? captured : "";
}

void cli_log_fini(void)
{
	free(captured);
	captured = NULL;
	captured_len = 0;
}
