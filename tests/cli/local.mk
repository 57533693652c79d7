# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Host tests of the magic-kfunc command line tool, on BPF objects built
# here and the real Debian kernel BTF of the harness cache. Files only:
# nothing is loaded into the running kernel.

TESTS += tests/cli/cli-test
tests_cli_objects = tests/cli/wq-new.bpf.o tests/cli/wq-old.bpf.o \
	tests/cli/wq-impl-aux.bpf.o tests/cli/stream-new.bpf.o \
	tests/cli/mod-user.bpf.o
# mkf_testmod.c becomes split "module" BTF at test time (cc -g, pahole).
EXTRA_DIST += tests/cli/cli-test tests/cli/cli_bpf.h tests/cli/mkf_testmod.c \
	$(tests_cli_objects:.bpf.o=.bpf.c)
CLEANFILES += $(tests_cli_objects)

# Built by "make", as tests/bpf's are: no guest needed, breakage shows
# early. (check_DATA is not set up by Makefile.am, and automake owns
# the test's .log target, so neither can carry the dependency.)
noinst_DATA += $(tests_cli_objects)
# The suffix rule knows only the .bpf.c.
$(tests_cli_objects): tests/cli/cli_bpf.h
