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
	bool fixed;	/* buf is the caller's, cap bytes: truncate, never grow */
};

__attribute__((format(printf, 2, 0)))
void mkf_sb_vprintf(struct mkf_sb *sb, const char *fmt, va_list args);
__attribute__((format(printf, 2, 3)))
void mkf_sb_printf(struct mkf_sb *sb, const char *fmt, ...);
/*
 * snprintf() without its cost for the conversions mkf_sb_printf()
 * formats itself; truncates the same way. Nothing is returned: the
 * library's callers size their buffers for what they print.
 */
__attribute__((format(printf, 3, 0)))
void mkf_vsnprintf(char *buf, size_t sz, const char *fmt, va_list args);
__attribute__((format(printf, 3, 4)))
void mkf_snprintf(char *buf, size_t sz, const char *fmt, ...);
/* Hand over the string (never NULL unless allocation failed). */
char *mkf_sb_steal(struct mkf_sb *sb);
void mkf_sb_free(struct mkf_sb *sb);

#endif
