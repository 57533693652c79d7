// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* C declarations through libbpf's btf_dump (see decl.h). */
#define _GNU_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <bpf/btf.h>

#include "decl.h"
#include "magic_kfunc_introspect.h"

struct dumper {
	const struct btf *btf;
	struct btf_dump *d;
};

struct decl_printer {
	struct dumper *dumps;
	size_t cnt;
	FILE *out;	/* the capture in progress */
};

struct decl_printer *decl_printer_new(void)
{
	return calloc(1, sizeof(struct decl_printer));
}

void decl_printer_free(struct decl_printer *dp)
{
	size_t i;

	if (!dp)
		return;
	for (i = 0; i < dp->cnt; i++)
		btf_dump__free(dp->dumps[i].d);
	free(dp->dumps);
	free(dp);
}

/* The dumpers are cached per BTF; each capture swaps the stream. */
static void dump_printf(void *ctx, const char *fmt, va_list args)
{
	struct decl_printer *dp = ctx;

	vfprintf(dp->out, fmt, args);
}

static struct btf_dump *dumper(struct decl_printer *dp, const struct btf *btf)
{
	struct dumper *d;
	size_t i;

	for (i = 0; i < dp->cnt; i++)
		if (dp->dumps[i].btf == btf)
			return dp->dumps[i].d;
	d = realloc(dp->dumps, (dp->cnt + 1) * sizeof(*d));
	if (!d)
		return NULL;
	dp->dumps = d;
	d[dp->cnt].btf = btf;
	d[dp->cnt].d = btf_dump__new(btf, dump_printf, dp, NULL);
	return d[dp->cnt++].d;
}

static void emit_decl(struct decl_printer *dp, const struct btf *btf, __u32 type,
		      const char *name)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);
	struct btf_dump *d = dumper(dp, btf);

	if (d)
		btf_dump__emit_type_decl(d, type, &o);
	else
		fputs("?", dp->out);
}

/* One parameter (idx >= 0) or the whole function (idx < 0), as C. */
static char *capture(struct decl_printer *dp, const struct mkf_func *fn, int idx)
{
	const struct btf *btf = mkf_func__btf(fn);
	const struct btf_type *proto = btf__type_by_id(btf, mkf_func__proto_id(fn));
	const struct btf_param *p = btf_params(proto);
	char *s = NULL;
	size_t len = 0;
	int i;

	dp->out = open_memstream(&s, &len);
	if (!dp->out)
		return NULL;
	if (idx >= 0) {
		emit_decl(dp, btf, p[idx].type, btf__name_by_offset(btf, p[idx].name_off));
	} else {
		/* "int name" then the params: right for every plain return type. */
		emit_decl(dp, btf, proto->type, mkf_func__name(fn));
		fputc('(', dp->out);
		for (i = 0; i < btf_vlen(proto); i++) {
			if (i)
				fputs(", ", dp->out);
			emit_decl(dp, btf, p[i].type, btf__name_by_offset(btf, p[i].name_off));
		}
		fputc(')', dp->out);
	}
	fclose(dp->out);
	dp->out = NULL;
	return s;
}

char *decl_function(struct decl_printer *dp, const struct mkf_func *fn)
{
	return capture(dp, fn, -1);
}

char *decl_param(struct decl_printer *dp, const struct mkf_func *fn, int idx)
{
	return capture(dp, fn, idx);
}
