# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Examples: a BPF program and a loader each, the loader opening a
# bpftool-generated skeleton through libmagic-kfunc (or libbpf alone with
# --plain). Each BPF program is also built with -DMKF_COMPAT_IMPL (the
# header's compat macros, for loaders without the library) into a loader
# NAME-compat whose skeleton has the same name, so one loader source
# serves both. tests/matrix/compat-matrix runs them in QEMU guests.

examples_bpf_objects = examples/wq-counter/wq-counter.bpf.o \
	examples/stream-print/stream-print.bpf.o examples/task-work/task-work.bpf.o \
	examples/top-n/top-n.bpf.o
examples_compat_objects = $(examples_bpf_objects:.bpf.o=-compat.bpf.o)
examples_compat_skeletons = examples/wq-counter/compat/wq-counter.skel.h \
	examples/stream-print/compat/stream-print.skel.h \
	examples/task-work/compat/task-work.skel.h \
	examples/top-n/compat/top-n.skel.h
examples_skeletons = $(examples_bpf_objects:.bpf.o=.skel.h) $(examples_compat_skeletons)

EXTRA_DIST += examples/README.md examples/Makefile examples/common/example.bpf.h \
	tests/vm/examples-guard-test \
	$(examples_bpf_objects:.bpf.o=.bpf.c) \
	examples/wq-counter/README.md examples/stream-print/README.md \
	examples/task-work/README.md examples/top-n/README.md \
	examples/template/Makefile examples/template/README.md \
	examples/template/app.bpf.c examples/template/app.c
CLEANFILES += $(examples_bpf_objects) $(examples_compat_objects) $(examples_skeletons)

$(examples_bpf_objects) $(examples_compat_objects): examples/common/example.bpf.h \
	$(mkfbpf_HEADERS)

# The compat build of each program: same source, compat macros on.
$(examples_compat_objects): $(examples_bpf_objects:.bpf.o=.bpf.c)
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)src=$$(echo $@ | sed 's/-compat\.bpf\.o$$/.bpf.c/'); \
	test -f "$$src" || src=$(srcdir)/$$src; \
	$(CLANG) $(BPF_CFLAGS) -DMKF_COMPAT_IMPL -c "$$src" -o $@.tmp && mv $@.tmp $@

# Its skeleton in NAME/compat/, named as the plain one's (wq_counter, ...).
$(examples_compat_skeletons): $(examples_compat_objects)
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)name=$$(basename $(@F) .skel.h); \
	$(BPFTOOL) gen skeleton $(@D)/../$$name-compat.bpf.o name $$(echo $$name | tr -- '-' '_') \
		> $@.tmp && mv $@.tmp $@

if VM_TESTS
# The loaders are static guest programs: built by "make" so that the
# matrix can be run by hand, and only with the QEMU tests. They are
# never run on the build machine: this build links the harness's guard
# into each (tests/vm/guest/guest-only.c, a constructor), so they
# refuse to run outside a magic-kfunc test guest. Their sources do not
# know of it: examples/Makefile builds them for a user's machine.
BUILT_SOURCES += $(examples_skeletons) examples/include/magic-kfunc/magic_kfunc.h
examples_common = examples/common/example.c examples/common/example.h \
	tests/vm/guest/guest-only.c $(GUEST_COMMON)
# <magic-kfunc/magic_kfunc.h>, as installed: the library's header is
# copied into examples/include/ (the BPF-side headers are in headers/).
examples_cppflags = $(AM_CPPFLAGS) $(GUEST_CPPFLAGS) -I$(top_builddir)/examples/include \
	-I$(top_srcdir)/headers -I$(top_srcdir)/examples/common
examples_ldadd = libmagic-kfunc/libmagic-kfunc.la $(GUEST_LIBS)

examples/include/magic-kfunc/magic_kfunc.h: libmagic-kfunc/magic_kfunc.h
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)cp $(srcdir)/libmagic-kfunc/magic_kfunc.h $@
CLEANFILES += examples/include/magic-kfunc/magic_kfunc.h
TESTS += tests/vm/examples-guard-test

noinst_PROGRAMS += examples/wq-counter/wq-counter examples/wq-counter/wq-counter-compat \
	examples/stream-print/stream-print examples/stream-print/stream-print-compat \
	examples/task-work/task-work examples/task-work/task-work-compat \
	examples/top-n/top-n examples/top-n/top-n-compat

examples_wq_counter_wq_counter_SOURCES = examples/wq-counter/wq-counter.c $(examples_common)
examples_wq_counter_wq_counter_CPPFLAGS = $(examples_cppflags) -I$(top_builddir)/examples/wq-counter
examples_wq_counter_wq_counter_LDFLAGS = $(GUEST_STATIC)
examples_wq_counter_wq_counter_LDADD = $(examples_ldadd)
examples_wq_counter_wq_counter_compat_SOURCES = $(examples_wq_counter_wq_counter_SOURCES)
examples_wq_counter_wq_counter_compat_CPPFLAGS = $(examples_cppflags) \
	-I$(top_builddir)/examples/wq-counter/compat
examples_wq_counter_wq_counter_compat_LDFLAGS = $(GUEST_STATIC)
examples_wq_counter_wq_counter_compat_LDADD = $(examples_ldadd)

examples_stream_print_stream_print_SOURCES = examples/stream-print/stream-print.c \
	examples/stream-print/stream-read.c examples/stream-print/stream-read.h $(examples_common)
examples_stream_print_stream_print_CPPFLAGS = $(examples_cppflags) \
	-I$(top_builddir)/examples/stream-print
examples_stream_print_stream_print_LDFLAGS = $(GUEST_STATIC)
examples_stream_print_stream_print_LDADD = $(examples_ldadd)
examples_stream_print_stream_print_compat_SOURCES = $(examples_stream_print_stream_print_SOURCES)
examples_stream_print_stream_print_compat_CPPFLAGS = $(examples_cppflags) \
	-I$(top_builddir)/examples/stream-print/compat
examples_stream_print_stream_print_compat_LDFLAGS = $(GUEST_STATIC)
examples_stream_print_stream_print_compat_LDADD = $(examples_ldadd)

examples_task_work_task_work_SOURCES = examples/task-work/task-work.c $(examples_common)
examples_task_work_task_work_CPPFLAGS = $(examples_cppflags) -I$(top_builddir)/examples/task-work
examples_task_work_task_work_LDFLAGS = $(GUEST_STATIC)
examples_task_work_task_work_LDADD = $(examples_ldadd)
examples_task_work_task_work_compat_SOURCES = $(examples_task_work_task_work_SOURCES)
examples_task_work_task_work_compat_CPPFLAGS = $(examples_cppflags) \
	-I$(top_builddir)/examples/task-work/compat
examples_task_work_task_work_compat_LDFLAGS = $(GUEST_STATIC)
examples_task_work_task_work_compat_LDADD = $(examples_ldadd)

examples_top_n_top_n_SOURCES = examples/top-n/top-n.c $(examples_common)
examples_top_n_top_n_CPPFLAGS = $(examples_cppflags) -I$(top_builddir)/examples/top-n
examples_top_n_top_n_LDFLAGS = $(GUEST_STATIC)
examples_top_n_top_n_LDADD = $(examples_ldadd)
examples_top_n_top_n_compat_SOURCES = $(examples_top_n_top_n_SOURCES)
examples_top_n_top_n_compat_CPPFLAGS = $(examples_cppflags) -I$(top_builddir)/examples/top-n/compat
examples_top_n_top_n_compat_LDFLAGS = $(GUEST_STATIC)
examples_top_n_top_n_compat_LDADD = $(examples_ldadd)
endif
