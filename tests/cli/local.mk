# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Host tests of the magic-kfunc command line tool, on the BPF objects of
# tests/bpf (cli_*, built by "make") and the real Debian kernel BTF of the
# harness cache. Files only: nothing is loaded into the running kernel.

TESTS += tests/cli/cli-test tests/cli/completion-test tests/cli/doctor-test tests/cli/vm-test
# mkf_testmod.c becomes split "module" BTF at test time (cc -g, pahole).
EXTRA_DIST += tests/cli/cli-test tests/cli/completion-test tests/cli/doctor-test tests/cli/vm-test \
	tests/cli/mkf_testmod.c tests/cli/junit.xsd

# The kernels doctor-test examines, one per shape doctor reports.
check_PROGRAMS += tests/cli/doctor-fixtures
tests_cli_doctor_fixtures_SOURCES = tests/cli/doctor-fixtures.c tests/unit/fixtures.c \
	tests/unit/fixtures.h
tests_cli_doctor_fixtures_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit $(LIBBPF_CFLAGS)
tests_cli_doctor_fixtures_LDADD = $(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)
