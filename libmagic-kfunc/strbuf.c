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

/* Append len bytes of s; into a fixed buffer, as much as fits. */
static void sb_append(struct mkf_sb *sb, const char *s, size_t len)
{
	if (sb->failed)
		return;
	if (sb->fixed) {
		if (len > sb->cap - sb->len - 1)
			len = sb->cap - sb->len - 1;
	} else if (!sb_reserve(sb, sb->len + len + 1)) {
		return;
	}
	memcpy(sb->buf + sb->len, s, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

/*
 * Reasons are built from many pieces, and vsnprintf() costs far more
 * than a copy: the conversions they use ("%s", "%d", "%u", "%zu" and
 * "%%", with no flag, width or precision) are formatted here. Tells,
 * before anything is consumed, whether fmt has only those.
 */
static bool is_simple(const char *fmt)
{
	const char *p = fmt;

	while ((p = strchr(p, '%'))) {
		if (p[1] == 's' || p[1] == 'd' || p[1] == 'u' || p[1] == '%')
			p += 2;
		else if (p[1] == 'z' && p[2] == 'u')
			p += 3;
		else
			return false;
	}
	return true;
}

static void sb_append_num(struct mkf_sb *sb, unsigned long long v, bool neg)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	sb_append(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/* fmt passed is_simple(). */
static void sb_format_simple(struct mkf_sb *sb, const char *fmt, va_list args)
{
	const char *p, *s;
	int d;

	while ((p = strchr(fmt, '%'))) {
		sb_append(sb, fmt, (size_t)(p - fmt));
		switch (p[1]) {
		case 's':
			s = va_arg(args, const char *);
			s = s ? s : "(null)";
			sb_append(sb, s, strlen(s));
			break;
		case 'd':
			d = va_arg(args, int);
			sb_append_num(sb, d < 0 ? 0ULL - (unsigned long long)(long long)d :
					  (unsigned long long)d, d < 0);
			break;
		case 'u':
			sb_append_num(sb, va_arg(args, unsigned int), false);
			break;
		case 'z':
			sb_append_num(sb, va_arg(args, size_t), false);
			p++;
			break;
		default:
			sb_append(sb, "%", 1);
		}
		fmt = p + 2;
	}
	sb_append(sb, fmt, strlen(fmt));
}

void mkf_sb_vprintf(struct mkf_sb *sb, const char *fmt, va_list args)
{
	va_list again;
	int n;

	if (is_simple(fmt)) {
		sb_format_simple(sb, fmt, args);
		return;
	}
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

void mkf_vsnprintf(char *buf, size_t sz, const char *fmt, va_list args)
{
	struct mkf_sb sb = { .buf = buf, .cap = sz, .fixed = true };

	if (!sz)
		return;
	buf[0] = '\0';
	if (is_simple(fmt))
		sb_format_simple(&sb, fmt, args);
	else
		vsnprintf(buf, sz, fmt, args);
}

void mkf_snprintf(char *buf, size_t sz, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	mkf_vsnprintf(buf, sz, fmt, args);
	va_end(args);
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
