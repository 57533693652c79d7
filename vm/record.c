// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The guest programs' record format: see record.h. */
#define _GNU_SOURCE /* strchrnul, vasprintf */
#include "record.h"

#include <stdlib.h>
#include <string.h>

void rec_escape(FILE *f, const char *s, size_t n, bool word)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\' || (word && c == ' '))
			fprintf(f, "\\x%02x", c);
		else
			putc(c, f);
	}
}

void rec_field(FILE *f, const char *s)
{
	putc(' ', f);
	rec_escape(f, s, strlen(s), true);
}

void rec_text(FILE *f, const char *tag, const char *s)
{
	fputs(tag, f);
	putc(' ', f);
	rec_escape(f, s, strlen(s), false);
	putc('\n', f);
}

void rec_lines(FILE *f, const char *tag, const char *s)
{
	const char *nl;

	while (*s) {
		nl = strchrnul(s, '\n');
		fputs(tag, f);
		putc(' ', f);
		rec_escape(f, s, (size_t)(nl - s), false);
		putc('\n', f);
		s = *nl ? nl + 1 : nl;
	}
}

void rec_vprintf(FILE *f, const char *tag, const char *fmt, va_list ap)
{
	char *text;

	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	rec_text(f, tag, text ? text : "(no memory for the text)");
	free(text);
}

void rec_printf(FILE *f, const char *tag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rec_vprintf(f, tag, fmt, ap);
	va_end(ap);
}

int rec_split(char *line, char **words, int max)
{
	int n = 0;

	while (n < max && *line) {
		words[n++] = line;
		if (n == max)
			break;
		line = strchrnul(line, ' ');
		if (*line)
			*line++ = '\0';
	}
	return n;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *rec_unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		int hi, lo;

		if (s[0] == '\\' && s[1] == 'x' && (hi = hex(s[2])) >= 0 && (lo = hex(s[3])) >= 0 &&
		    (hi || lo)) {
			*o++ = (char)(hi << 4 | lo);
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}
