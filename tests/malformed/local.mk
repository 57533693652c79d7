# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Malformed inputs (bad objects, bad kernel BTF, unreadable files), made
# at test time from the unit objects of tests/bpf, through the library
# and the command line tool. MKF_VALGRIND=1 runs them under valgrind.

TESTS += tests/malformed/malformed-test
check_PROGRAMS += tests/malformed/check
EXTRA_DIST += tests/malformed/malformed-test tests/malformed/mutate.py \
	tests/malformed/errors-doc.py docs/errors.md \
	scripts/check-sanitizers scripts/check-valgrind

tests_malformed_check_SOURCES = tests/malformed/check.c \
	tests/unit/fixtures.c tests/unit/fixtures.h
tests_malformed_check_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libmagic-kfunc \
	-I$(top_srcdir)/tests/unit $(LIBBPF_CFLAGS) $(LIBELF_CFLAGS)
# A real program (no libtool wrapper), so valgrind runs it directly.
tests_malformed_check_LDFLAGS = -static
tests_malformed_check_LDADD = libmagic-kfunc/libmagic-kfunc.la \
	$(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)
EXTRA_tests_malformed_check_DEPENDENCIES = $(tests_bpf_unit_objects) cli/magic-kfunc

