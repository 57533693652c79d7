// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void mkf_sb_vprintf(struct mkf_sb *sb, const char *fmt, va_list args)
{
	va_list again;
	size_t need;
	int n;

	if (sb->failed)
		return;
	va_copy(again, args);
	n = vsnprintf(NULL, 0, fmt, args);
	if (n < 0) {
		sb->failed = true;
		goto out;
	}
	need = sb->len + (size_t)n + 1;
	if (need > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 128;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(sb->buf, cap);
		if (!p) {
			sb->failed = true;
			goto out;
		}
		sb->buf = p;
		sb->cap = cap;
	}
	vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, again);
	sb->len += (size_t)n;
out:
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
