/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Growable string for reasons and diagnoses; an allocation failure
 * sticks, so callers check once at the end. */
#ifndef MKF_STRBUF_H
#define MKF_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool failed;
};

__attribute__((format(printf, 2, 0)))
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list args);
__attribute__((format(printf, 2, 3)))
void sb_printf(struct strbuf *sb, const char *fmt, ...);
/* Hand over the string (never NULL unless allocation failed). */
char *sb_steal(struct strbuf *sb);
void sb_free(struct strbuf *sb);

#endif
