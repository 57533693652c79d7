// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A small JSON reader (see json_read.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

#define MAX_DEPTH 64

struct parser {
	const char *p, *end;
	char *err;
	size_t err_sz;
	bool failed;
};

static void fail(struct parser *ps, const char *what)
{
	if (!ps->failed && ps->err_sz)
		snprintf(ps->err, ps->err_sz, "%s", what);
	ps->failed = true;
}

static void ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
				   *ps->p == '\r'))
		ps->p++;
}

static bool lit(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

static int hex4(struct parser *ps, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = ps->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	ps->p += 4;
	*out = v;
	return 0;
}

static char *put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A string, the opening quote already seen. Malloc'd. */
static char *string(struct parser *ps)
{
	const char *start = ps->p;
	char *out, *o;

	/* Escapes never make a string longer than its source. */
	while (ps->p < ps->end && *ps->p != '"')
		ps->p += *ps->p == '\\' && ps->p + 1 < ps->end ? 2 : 1;
	if (ps->p >= ps->end) {
		fail(ps, "unterminated string");
		return NULL;
	}
	out = malloc((size_t)(ps->p - start) + 1);
	if (!out) {
		fail(ps, strerror(ENOMEM));
		return NULL;
	}
	ps->p = start;
	o = out;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;
		unsigned int cp, lo;

		if (c < 0x20)
			goto bad;
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		switch (*ps->p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (hex4(ps, &cp) || !cp)
				goto bad;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (!lit(ps, "\\u") || hex4(ps, &lo) || lo < 0xdc00 || lo > 0xdfff)
					goto bad;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				goto bad;
			}
			o = put_utf8(o, cp);
			break;
		default:
			goto bad;
		}
	}
	ps->p++;
	*o = '\0';
	return out;
bad:
	free(out);
	fail(ps, "bad string");
	return NULL;
}

static void node_free(struct jr_node *n)
{
	size_t i;

	for (i = 0; i < n->cnt; i++) {
		node_free(&n->items[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->str);
}

static bool value(struct parser *ps, struct jr_node *n, int depth);

static bool members(struct parser *ps, struct jr_node *n, int depth, char close)
{
	bool obj = close == '}';

	ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return true;
	}
	for (;;) {
		struct jr_node *items;
		char *key = NULL;

		ws(ps);
		if (obj) {
			char **keys;

			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a member name");
				return false;
			}
			ps->p++;
			key = string(ps);
			if (!key)
				return false;
			ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				fail(ps, "expected ':'");
				return false;
			}
			ps->p++;
			keys = realloc(n->keys, (n->cnt + 1) * sizeof(*keys));
			if (!keys) {
				free(key);
				fail(ps, strerror(ENOMEM));
				return false;
			}
			n->keys = keys;
		}
		items = realloc(n->items, (n->cnt + 1) * sizeof(*items));
		if (!items) {
			free(key);
			fail(ps, strerror(ENOMEM));
			return false;
		}
		n->items = items;
		memset(&items[n->cnt], 0, sizeof(*items));
		if (obj)
			n->keys[n->cnt] = key;
		n->cnt++;
		if (!value(ps, &items[n->cnt - 1], depth + 1))
			return false;
		ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return true;
		}
		fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return false;
	}
}

static bool number(struct parser *ps, struct jr_node *n)
{
	const char *s = ps->p;
	char buf[64], *end;
	bool frac = false;
	size_t len;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		goto bad;
	if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9')
		goto bad;
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '.') {
		frac = true;
		ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			goto bad;
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		frac = true;
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			goto bad;
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	len = (size_t)(ps->p - s);
	if (len >= sizeof(buf))
		goto bad;
	memcpy(buf, s, len);
	buf[len] = '\0';
	n->type = JR_NUMBER;
	n->real = strtod(buf, NULL);
	if (!frac) {
		errno = 0;
		n->num = strtoll(buf, &end, 10);
		n->integer = !errno && !*end;
	}
	return true;
bad:
	fail(ps, "bad number");
	return false;
}

static bool value(struct parser *ps, struct jr_node *n, int depth)
{
	if (depth > MAX_DEPTH) {
		fail(ps, "nested too deep");
		return false;
	}
	ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end");
		return false;
	}
	switch (*ps->p) {
	case '{':
		ps->p++;
		n->type = JR_OBJECT;
		return members(ps, n, depth, '}');
	case '[':
		ps->p++;
		n->type = JR_ARRAY;
		return members(ps, n, depth, ']');
	case '"':
		ps->p++;
		n->type = JR_STRING;
		n->str = string(ps);
		return n->str != NULL;
	case 't':
	case 'f':
		n->type = JR_BOOL;
		n->boolean = *ps->p == 't';
		if (lit(ps, n->boolean ? "true" : "false"))
			return true;
		break;
	case 'n':
		if (lit(ps, "null"))
			return true;
		break;
	default:
		return number(ps, n);
	}
	fail(ps, "unexpected character");
	return false;
}

struct jr_node *jr_parse(const char *text, size_t len, char *err, size_t err_sz)
{
	struct parser ps = { .p = text, .end = text + len, .err = err, .err_sz = err_sz };
	struct jr_node *n = calloc(1, sizeof(*n));

	if (err_sz)
		err[0] = '\0';
	if (!n) {
		snprintf(err, err_sz, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (value(&ps, n, 0)) {
		ws(&ps);
		if (ps.p == ps.end)
			return n;
		fail(&ps, "trailing data");
	}
	/* Where it stopped. */
	if (err_sz) {
		size_t l = strlen(err);

		snprintf(err + l, err_sz - l, " at byte %zu", (size_t)(ps.p - text));
	}
	jr_free(n);
	return NULL;
}

void jr_free(struct jr_node *n)
{
	if (!n)
		return;
	node_free(n);
	free(n);
}

const struct jr_node *jr_get(const struct jr_node *obj, const char *key)
{
	size_t i;
	const struct jr_node *hit = NULL;

	if (!obj || obj->type != JR_OBJECT)
		return NULL;
	for (i = 0; i < obj->cnt; i++)
		if (!strcmp(obj->keys[i], key))
			hit = &obj->items[i];
	return hit;
}

const char *jr_str(const struct jr_node *obj, const char *key)
{
	const struct jr_node *n = jr_get(obj, key);

	return n && n->type == JR_STRING ? n->str : NULL;
}
