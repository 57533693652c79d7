// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The string builder of reasons and diagnoses (libmagic-kfunc/strbuf.c):
 * every piece appended is exactly what snprintf() gives for it, across
 * the reallocations of a growing buffer. A NULL "%s" prints "(null)",
 * as glibc does.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "strbuf.h"
#include "unit.h"

/*
 * The builder against vsnprintf() for the same arguments. Through
 * va_list, so that the compiler does not refuse the NULL on purpose.
 */
__attribute__((format(printf, 2, 3)))
static void expect_same(const char *name, const char *fmt, ...)
{
	char want[512], what[160];
	struct mkf_sb sb = {};
	va_list args, ap;
	char *s;

	va_start(args, fmt);
	va_copy(ap, args);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);

	mkf_sb_printf(&sb, "<");
	va_copy(ap, args);
	mkf_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	s = mkf_sb_steal(&sb);
	snprintf(what, sizeof(what), "%s", name);
	t_check(what, s && s[0] == '<' && !strcmp(s + 1, want), "got \"%s\", want \"<%s\"",
		s ? s : "(no memory)", want);
	free(s);
	va_end(args);
}

static void test_conversions(void)
{
	/* Hidden from the compiler's format checks: a NULL on purpose. */
	const char *volatile null = NULL;

	expect_same("plain text", "plain text, no conversion%s", "");
	expect_same("lone %s", "%s", "a string longer than the small buffer");
	expect_same("%s in text", "binds '%s' (%s), rule %s: ", "foo", "vmlinux [12]", "same");
	expect_same("NULL %s", "[%s]", null);
	expect_same("empty %s", "[%s][%s]", "", "");
	expect_same("%d zero", "%d", 0);
	expect_same("%d negative", "takes %d params, the program passes %d", -3, 7);
	expect_same("%d INT_MIN", "%d", INT_MIN);
	expect_same("%d INT_MAX", "%d", INT_MAX);
	expect_same("%u UINT_MAX", "[%u]", UINT_MAX);
	expect_same("%zu SIZE_MAX", "%zu bytes", SIZE_MAX);
	expect_same("%zu zero", "%zu", (size_t)0);
	expect_same("%% escapes", "100%% of %d%%", 5);
	expect_same("%s_impl", "%s_impl", "bpf_wq_set_callback");
	expect_same("mixed", "%s R%d %u %zu%%%s", "x", 1, 2u, (size_t)3, "y");
}

static void test_other_conversions(void)
{
	expect_same("%x", "0x%x", 0xbeefu);
	expect_same("width", "%09ld", 42L);
	expect_same("%lld", "%lld %s", -1LL, "z");
	expect_same("precision", "%.3s|%d", "abcdef", 9);
	expect_same("%z not u", "%zd", (ssize_t)-4);
}

static void test_growth(void)
{
	struct mkf_sb sb = {};
	char want[4096 + 1];
	size_t i;
	char *s;

	/* Many pieces across several reallocations, half of them formatted. */
	for (i = 0; i < 4096; i++) {
		want[i] = (char)('a' + i % 26);
		if (i % 2)
			mkf_sb_printf(&sb, "%s", (char[]){ want[i], '\0' });
		else
			mkf_sb_printf(&sb, "%c", want[i]);
	}
	want[i] = '\0';
	s = mkf_sb_steal(&sb);
	t_check("4096 pieces grow the buffer", s && !strcmp(s, want), "got %zu bytes",
		s ? strlen(s) : 0);
	free(s);
	s = mkf_sb_steal(&sb);
	t_check("an empty builder hands over \"\"", s && !*s, "got %s", s ? s : "NULL");
	free(s);
}

int main(void)
{
	test_conversions();
	test_other_conversions();
	test_growth();
	return t_done();
}
