// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Aligned text tables: collect every row first, widths come last. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/* Enough for every report; widths then need no allocation. */
#define MAX_COLS 16

struct table {
	int ncols;
	size_t nrows;
	char **cells;		/* nrows * ncols */
};

struct table *table_new(int ncols)
{
	struct table *t;

	if (ncols < 1 || ncols > MAX_COLS) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (t)
		t->ncols = ncols;
	return t;
}

int table_add(struct table *t, const char *const *cells)
{
	size_t base = t->nrows * (size_t)t->ncols;
	char **c;
	int i;

	c = realloc(t->cells, (base + (size_t)t->ncols) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	t->cells = c;
	for (i = 0; i < t->ncols; i++) {
		c[base + i] = strdup(cells[i] ? cells[i] : "-");
		if (!c[base + i]) {
			while (i--)
				free(c[base + i]);
			return -ENOMEM;
		}
	}
	t->nrows++;
	return 0;
}

void table_print(const struct table *t, FILE *out, const char *indent)
{
	size_t w[MAX_COLS] = {}, r, len;
	int i;

	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->ncols; i++) {
			len = strlen(t->cells[r * (size_t)t->ncols + i]);
			if (len > w[i])
				w[i] = len;
		}
	for (r = 0; r < t->nrows; r++) {
		fputs(indent, out);
		for (i = 0; i < t->ncols; i++) {
			const char *cell = t->cells[r * (size_t)t->ncols + i];

			/* No trailing blanks after the last column. */
			if (i == t->ncols - 1)
				fprintf(out, "%s\n", cell);
			else
				fprintf(out, "%-*s  ", (int)w[i], cell);
		}
	}
}

void table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}
