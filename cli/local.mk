# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# magic-kfunc: the command line tool (included by the top-level
# Makefile.am; paths are relative to the top source directory).

bin_PROGRAMS += cli/magic-kfunc

cli_magic_kfunc_SOURCES = \
	cli/main.c cli/cli.h \
	cli/explain.c cli/rewrite.c cli/kfuncs.c cli/matrix.c cli/doctor.c \
	cli/vm.c cli/vm.h cli/vm_report.c cli/vm_merge.c cli/sha256.c \
	cli/json_read.c cli/json_read.h \
	cli/kernels.c cli/libexec.c cli/libexec.h \
	cli/report.c cli/report.h \
	cli/kernel.c cli/kernel.h \
	cli/decl.c cli/decl.h \
	cli/file.c cli/file.h \
	cli/json.c cli/json.h \
	cli/log.c cli/log.h \
	cli/table.c cli/table.h \
	vm/record.c vm/record.h
nodist_cli_magic_kfunc_SOURCES = cli/magic-kfunc.help.h
cli_magic_kfunc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libmagic-kfunc -I$(top_srcdir)/vm \
	$(LIBBPF_CFLAGS) $(LIBELF_CFLAGS) \
	-DMKF_BINDIR='"$(bindir)"' -DMKF_PKGLIBEXECDIR='"$(pkglibexecdir)"' \
	-DMKF_PKGDATADIR='"$(pkgdatadir)"'
cli_magic_kfunc_LDADD = libmagic-kfunc/libmagic-kfunc.la \
	$(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)

# The man page is the one source of the --help text.
dist_man8_MANS = cli/magic-kfunc.8
BUILT_SOURCES += cli/magic-kfunc.help.h
cli/magic-kfunc.help.h: cli/magic-kfunc.8 cli/man2help.awk
	$(AM_V_GEN)$(MKDIR_P) cli && \
	$(AWK) -f $(srcdir)/cli/man2help.awk $(srcdir)/cli/magic-kfunc.8 > $@.tmp && mv $@.tmp $@
CLEANFILES += cli/magic-kfunc.help.h
EXTRA_DIST += cli/man2help.awk

# bash completion, from the same man page.
bashcompletiondir = $(datadir)/bash-completion/completions
bashcompletion_DATA = cli/completion/magic-kfunc
cli/completion/magic-kfunc: cli/magic-kfunc.8 cli/man2completion.awk
	$(AM_V_GEN)$(MKDIR_P) cli/completion && \
	$(AWK) -f $(srcdir)/cli/man2completion.awk $(srcdir)/cli/magic-kfunc.8 > $@.tmp && mv $@.tmp $@
CLEANFILES += cli/completion/magic-kfunc
EXTRA_DIST += cli/man2completion.awk
