/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The record format of every guest program (the guest side of
 * "magic-kfunc vm", the tests' and the benchmarks' guest programs) and
 * of the host code that reads them back (cli/vm.c):
 *
 *   TAG FIELD... [TEXT]
 *
 * one line per record. A FIELD is one word: every byte of it that is
 * not printable ASCII, the backslash and the space are written as \xNN.
 * TEXT, last, is escaped the same way except that it keeps its spaces.
 * So a record is one line and its words are its words whatever the
 * values say: a program name, a verifier message or a command's output
 * cannot pose as another record, whatever bytes they hold.
 *
 * Pure C, no I/O but the FILE given: built into the static guest
 * programs and into the CLI alike.
 */
#ifndef MKF_RECORD_H
#define MKF_RECORD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* N bytes of S, escaped (a FIELD if WORD, else TEXT). */
void rec_escape(FILE *f, const char *s, size_t n, bool word);
/* " FIELD": S escaped as one word, after a space. */
void rec_field(FILE *f, const char *s);
/* "TAG TEXT\n": S escaped as TEXT. */
void rec_text(FILE *f, const char *tag, const char *s);
/* One "TAG TEXT" record per line of S. */
void rec_lines(FILE *f, const char *tag, const char *s);
/* "TAG TEXT\n", TEXT formatted as printf() does, then escaped. */
void rec_printf(FILE *f, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with a va_list. */
void rec_vprintf(FILE *f, const char *tag, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * Reading. rec_split() cuts LINE in place at its spaces into at most
 * MAX words (the last one keeps what follows it, spaces included, when
 * there are more) and returns how many; rec_unescape() gives a field's
 * or a text's bytes back (malloc'd; NULL without memory). A \x00 stays
 * as written: the values read back are C strings.
 */
int rec_split(char *line, char **words, int max);
char *rec_unescape(const char *s);

#endif
