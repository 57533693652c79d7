/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Aligned text tables for the human-readable reports. */
#ifndef MKF_CLI_TABLE_H
#define MKF_CLI_TABLE_H

#include <stdio.h>

struct table;

struct table *table_new(int ncols);
/* Append a row: ncols strings (NULL prints as "-"), copied. 0 or -ENOMEM. */
int table_add(struct table *t, const char *const *cells);
/* Print with columns padded to their widest cell, two spaces apart. */
void table_print(const struct table *t, FILE *out, const char *indent);
void table_free(struct table *t);

#endif
