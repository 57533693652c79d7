/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Growable string for reasons and diagnoses; an allocation failure
 * sticks, so callers check once at the end. */
#ifndef MKF_STRBUF_H
#define MKF_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct mkf_sb {
	char *buf;
	size_t len;
	size_t cap;
	bool failed;
};

__attribute__((format(printf, 2, 0)))
void mkf_sb_vprintf(struct mkf_sb *sb, const char *fmt, va_list args);
__attribute__((format(printf, 2, 3)))
void mkf_sb_printf(struct mkf_sb *sb, const char *fmt, ...);
/* Hand over the string (never NULL unless allocation failed). */
char *mkf_sb_steal(struct mkf_sb *sb);
void mkf_sb_free(struct mkf_sb *sb);

#endif
