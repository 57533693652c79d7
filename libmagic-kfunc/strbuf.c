// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* Room for need bytes in all; false (and failed) if there is no memory. */
static bool sb_reserve(struct mkf_sb *sb, size_t need)
{
	size_t cap = sb->cap ? sb->cap : 256;
	char *p;

	if (need <= sb->cap)
		return true;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->failed = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void mkf_sb_vprintf(struct mkf_sb *sb, const char *fmt, va_list args)
{
	va_list again;
	int n;

	if (sb->failed || !sb_reserve(sb, sb->len + 1))
		return;
	/* Format once into the room there is; again only if it was short. */
	va_copy(again, args);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, args);
	if (n < 0) {
		sb->failed = true;
	} else if (sb->len + (size_t)n >= sb->cap) {
		if (sb_reserve(sb, sb->len + (size_t)n + 1))
			vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, again);
	}
	if (!sb->failed)
		sb->len += (size_t)n;
	va_end(again);
}

void mkf_sb_printf(struct mkf_sb *sb, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	mkf_sb_vprintf(sb, fmt, args);
	va_end(args);
}

char *mkf_sb_steal(struct mkf_sb *sb)
{
	char *s;

	if (sb->failed) {
		mkf_sb_free(sb);
		return NULL;
	}
	s = sb->buf ? sb->buf : strdup("");
	memset(sb, 0, sizeof(*sb));
	return s;
}

void mkf_sb_free(struct mkf_sb *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}
