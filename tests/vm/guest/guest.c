// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "guest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/libbpf.h>

static int passed, failed;

static bool cmdline_has(const char *word)
{
	char buf[4096];
	size_t n, len = strlen(word);
	FILE *f = fopen("/proc/cmdline", "r");
	char *p;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (p = buf; (p = strstr(p, word)); p += len) {
		bool starts = p == buf || p[-1] == ' ';
		bool ends = p[len] == ' ' || p[len] == '\n' || p[len] == '\0';

		if (starts && ends)
			return true;
	}
	return false;
}

void guest_require(const char *prog)
{
	struct statfs st;

	if (!cmdline_has("mkf.guest=1") || statfs("/", &st) ||
	    (st.f_type != RAMFS_MAGIC && st.f_type != TMPFS_MAGIC)) {
		fprintf(stderr,
			"%s: refusing to run: this is not a magic-kfunc test guest "
			"(it loads BPF programs; run it through magic-kfunc vm or tests/vm/vm-run)\n",
			prog);
		exit(2);
	}
}

static void report(bool ok, const char *fmt, va_list ap)
{
	if (ok)
		passed++;
	else
		failed++;
	fputs(ok ? "ok   " : "FAIL ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

void guest_ok(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(true, fmt, ap);
	va_end(ap);
}

void guest_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(false, fmt, ap);
	va_end(ap);
}

void guest_check(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(cond, fmt, ap);
	va_end(ap);
}

int guest_done(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	return failed || !passed ? 1 : 0;
}

static bool libbpf_verbose;

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void guest_libbpf_logs(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(print_libbpf);
}
