// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libbpf's own messages (warnings and information) are kept in a buffer
 * for the case being run instead of going straight to the output: a case
 * can then assert on them (a missing extern never reaches the verifier),
 * and they are shown only when an outcome was not the expected one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "magic_kfunc.h"

#include "bpftest.h"

static char text[64 * 1024];
static size_t used;
static bool verbose;

static int capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;
	int n = 0;

	if (verbose) {
		va_copy(copy, ap);
		n = vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (level == LIBBPF_DEBUG)
		return n;
	if (used < sizeof(text) - 1) {
		size_t room = sizeof(text) - used;
		int w = vsnprintf(text + used, room, fmt, ap);

		/* A message cut short still ends the buffer with a NUL. */
		if (w > 0)
			used += (size_t)w < room ? (size_t)w : room - 1;
	}
	return n;
}

void bt_logs_install(bool v)
{
	verbose = v;
	libbpf_set_print(capture);
	mkf_set_print(capture);
}

void bt_logs_reset(void)
{
	used = 0;
	text[0] = '\0';
}

const char *bt_logs_text(void)
{
	return text;
}

void bt_print_indented(const char *title, const char *s, int max_lines)
{
	const char *p;
	int lines = 0;

	if (!s || !*s) {
		printf("    %s: (empty)\n", title);
		return;
	}
	for (p = s; *p; p++)
		lines += *p == '\n';
	if (p[-1] != '\n')
		lines++;
	printf("    %s:\n", title);
	if (lines > max_lines) {
		printf("      [... %d earlier lines left out]\n", lines - max_lines);
		for (; lines > max_lines; s++)
			lines -= *s == '\n';
	}
	while (*s) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		printf("      %.*s\n", len, s);
		s += len + (nl ? 1 : 0);
	}
	fflush(stdout);
}
