// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Streaming JSON writer (see json.h). */
#include <stdlib.h>

#include "json.h"

#define MAX_DEPTH 32

struct json_writer {
	FILE *out;
	bool pretty;
	int depth;
	/* Per level: has a value been written yet (comma needed)? */
	bool has_item[MAX_DEPTH];
	/* A name was just written: the value follows on the same line. */
	bool after_name;
};

struct json_writer *jw_new(FILE *out, bool pretty)
{
	struct json_writer *jw = calloc(1, sizeof(*jw));

	if (!jw)
		return NULL;
	jw->out = out;
	jw->pretty = pretty;
	return jw;
}

void jw_free(struct json_writer *jw)
{
	free(jw);
}

static void newline(struct json_writer *jw)
{
	int i;

	if (!jw->pretty)
		return;
	fputc('\n', jw->out);
	for (i = 0; i < jw->depth; i++)
		fputs("    ", jw->out);
}

/* Separator and indentation before a value or a name. */
static void before_item(struct json_writer *jw)
{
	if (jw->after_name) {
		jw->after_name = false;
		return;
	}
	if (jw->depth > 0) {
		if (jw->has_item[jw->depth])
			fputc(',', jw->out);
		jw->has_item[jw->depth] = true;
		newline(jw);
	}
}

/* Length of the valid UTF-8 sequence at s, 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are invalid. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * JSON strings must be valid UTF-8 with control characters escaped.
 * File names can hold any byte: an invalid one becomes U+FFFD rather
 * than producing a document a parser rejects.
 */
static void write_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	fputc('"', out);
	while (*s) {
		switch (*s) {
		case '"': fputs("\\\"", out); s++; continue;
		case '\\': fputs("\\\\", out); s++; continue;
		case '\n': fputs("\\n", out); s++; continue;
		case '\r': fputs("\\r", out); s++; continue;
		case '\t': fputs("\\t", out); s++; continue;
		case '\b': fputs("\\b", out); s++; continue;
		case '\f': fputs("\\f", out); s++; continue;
		}
		if (*s < 0x20) {
			fprintf(out, "\\u%04x", *s);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (!n) {
			fputs("\\ufffd", out);
			s++;
			continue;
		}
		fwrite(s, 1, (size_t)n, out);
		s += n;
	}
	fputc('"', out);
}

static void open_container(struct json_writer *jw, char c)
{
	before_item(jw);
	fputc(c, jw->out);
	/* Deeper than any document this tool writes: keep writing, flat. */
	if (jw->depth < MAX_DEPTH - 1)
		jw->depth++;
	jw->has_item[jw->depth] = false;
}

static void close_container(struct json_writer *jw, char c)
{
	bool had = jw->has_item[jw->depth];

	if (jw->depth > 0)
		jw->depth--;
	if (had)
		newline(jw);
	fputc(c, jw->out);
}

void jw_start_object(struct json_writer *jw)
{
	open_container(jw, '{');
}

void jw_end_object(struct json_writer *jw)
{
	close_container(jw, '}');
}

void jw_start_array(struct json_writer *jw)
{
	open_container(jw, '[');
}

void jw_end_array(struct json_writer *jw)
{
	close_container(jw, ']');
}

void jw_name(struct json_writer *jw, const char *name)
{
	before_item(jw);
	write_string(jw->out, name);
	fputs(jw->pretty ? ": " : ":", jw->out);
	jw->after_name = true;
}

void jw_string(struct json_writer *jw, const char *s)
{
	before_item(jw);
	if (s)
		write_string(jw->out, s);
	else
		fputs("null", jw->out);
}

void jw_int(struct json_writer *jw, long long v)
{
	before_item(jw);
	fprintf(jw->out, "%lld", v);
}

void jw_bool(struct json_writer *jw, bool v)
{
	before_item(jw);
	fputs(v ? "true" : "false", jw->out);
}

void jw_null(struct json_writer *jw)
{
	before_item(jw);
	fputs("null", jw->out);
}

void jw_string_field(struct json_writer *jw, const char *name, const char *s)
{
	jw_name(jw, name);
	jw_string(jw, s);
}

void jw_int_field(struct json_writer *jw, const char *name, long long v)
{
	jw_name(jw, name);
	jw_int(jw, v);
}

void jw_bool_field(struct json_writer *jw, const char *name, bool v)
{
	jw_name(jw, name);
	jw_bool(jw, v);
}

void jw_write_error(FILE *out, bool pretty, const char *msg)
{
	struct json_writer jw = { .out = out, .pretty = pretty };

	jw_start_object(&jw);
	jw_string_field(&jw, "error", msg);
	jw_end_object(&jw);
	fputc('\n', out);
}
