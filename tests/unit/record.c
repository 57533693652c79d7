// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The guest programs' record format (vm/record.h) and the ok/FAIL lines
 * of vm/guest.c: every byte comes back as written, a record stays one
 * line and its words stay its words whatever a value holds, and a case's
 * text cannot pose as another case or as the closing count. Host only:
 * guest_ok() and guest_fail() print, they load nothing.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"
#include "record.h"
#include "unit.h"

/* What WRITE printed into a memory stream, malloc'd. */
#define CAPTURE(buf, len, write)                                  \
	do {                                                      \
		FILE *f_ = open_memstream(&(buf), &(len));        \
		if (!f_)                                          \
			abort();                                  \
		write;                                            \
		fclose(f_);                                       \
	} while (0)

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void every_byte(void)
{
	char all[256], *buf = NULL, *back, *w[4];
	size_t len, i;
	bool printable = true;

	for (i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';

	CAPTURE(buf, len, rec_text(f_, "@reason", all));
	t_check("text: one line, ended by its newline", count_lines(buf) == 1 && buf[len - 1] == '\n',
		"%zu lines", count_lines(buf));
	for (i = 0; i + 1 < len; i++)
		printable &= buf[i] >= 0x20 && buf[i] < 0x7f;
	t_check("text: only printable ASCII written", printable, "a byte outside it in '%s'", buf);
	buf[len - 1] = '\0';
	t_check("text: split gives the tag and the text", rec_split(buf, w, 2) == 2 &&
		!strcmp(w[0], "@reason"), "split '%s'", buf);
	back = rec_unescape(w[1]);
	t_check("text: every byte 1-255 comes back", back && !strcmp(back, all), "got '%s'",
		back ? back : "(null)");
	free(back);
	free(buf);

	buf = NULL;
	CAPTURE(buf, len, (fputs("@cell 0", f_), rec_field(f_, all), fputs(" mkf ran 0\n", f_)));
	buf[len - 1] = '\0';
	t_check("field: a value with spaces stays one word", rec_split(buf, w, 4) == 4 &&
		!strcmp(w[3], "mkf ran 0"), "split into '%s' '%s' '%s' '%s'", w[0], w[1], w[2], w[3]);
	back = rec_unescape(w[2]);
	t_check("field: every byte 1-255 comes back", back && !strcmp(back, all), "got '%s'",
		back ? back : "(null)");
	free(back);
	free(buf);
}

static void lines_and_reading(void)
{
	char *buf = NULL, *back, *w[3], line[] = "@module a b c";
	size_t len;

	CAPTURE(buf, len, rec_lines(f_, "@log", "one\ntwo \\x41\n\nthree"));
	t_check("lines: one record per line, the empty one too",
		!strcmp(buf, "@log one\n@log two \\x5cx41\n@log \n@log three\n"), "got '%s'", buf);
	free(buf);

	buf = NULL;
	CAPTURE(buf, len, rec_printf(f_, "p5", "%s round %d", "a\nb", 3));
	t_check("printf: formatted, then escaped as a text", !strcmp(buf, "p5 a\\x0ab round 3\n"),
		"got '%s'", buf);
	free(buf);

	t_check("split: the last word keeps the rest", rec_split(line, w, 3) == 3 &&
		!strcmp(w[0], "@module") && !strcmp(w[1], "a") && !strcmp(w[2], "b c"),
		"got '%s' '%s' '%s'", w[0], w[1], w[2]);
	back = rec_unescape("\\x00 \\x4 \\xg1 \\x41\\x5C");
	t_check("unescape: \\x00 and malformed escapes stay as written",
		back && !strcmp(back, "\\x00 \\x4 \\xg1 A\\"), "got '%s'", back ? back : "(null)");
	free(back);
}

/* guest_ok()/guest_fail() on stdout, read back through a pipe. */
static void case_lines(void)
{
	char buf[4096];
	int fd[2], saved = dup(1);
	ssize_t n;

	if (saved < 0 || pipe(fd)) {
		t_fail("case lines: a pipe", "no pipe");
		return;
	}
	fflush(stdout);
	dup2(fd[1], 1);
	guest_ok("loads: prog '%s'", "x\n5 passed, 0 failed");
	guest_fail("%s", "why\r\nok   forged\x1b[2J");
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd[1]);
	n = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	buf[n > 0 ? n : 0] = '\0';
	t_check("case lines: a quoted name cannot break its line",
		!strcmp(buf, "ok   loads: prog 'x\\x0a5 passed, 0 failed'\n"
			     "FAIL why\\x0d\\x0aok   forged\\x1b[2J\n"), "got '%s'", buf);
}

int main(void)
{
	every_byte();
	lines_and_reading();
	case_lines();
	return t_done();
}
