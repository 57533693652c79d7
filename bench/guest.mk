# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# P2, P3 and P5 of "make bench": the guest programs and their BPF objects,
# run in guests by bench/run. Built with the other guest programs, so
# that "make" compiles them and a broken bench shows before it is run.

EXTRA_DIST += bench/kfunc_cost.bpf.c
CLEANFILES += bench/kfunc_cost.bpf.o
bench/kfunc_cost.bpf.o: tests/bpf/bpf_test.h $(mkfbpf_HEADERS)

if VM_TESTS
noinst_PROGRAMS += bench/kfunc-cost
noinst_DATA += bench/kfunc_cost.bpf.o
bench_kfunc_cost_SOURCES = bench/kfunc-cost.c bench/xlated-diff.c bench/xlated-diff.h \
	$(GUEST_COMMON)
bench_kfunc_cost_CPPFLAGS = $(AM_CPPFLAGS) $(GUEST_CPPFLAGS)
bench_kfunc_cost_LDFLAGS = $(GUEST_STATIC)
bench_kfunc_cost_LDADD = $(GUEST_LIBS)

# P5: open + load of the examples, through the library and plain libbpf.
noinst_PROGRAMS += bench/load-cost
bench_load_cost_SOURCES = bench/load-cost.c $(GUEST_COMMON)
bench_load_cost_CPPFLAGS = $(AM_CPPFLAGS) $(GUEST_CPPFLAGS) \
	-I$(top_srcdir)/libmagic-kfunc
bench_load_cost_LDFLAGS = $(GUEST_STATIC)
bench_load_cost_LDADD = libmagic-kfunc/libmagic-kfunc.la $(GUEST_LIBS)
endif

# "make bench": every part, then one table (bench/run), written to
# docs/performance.md in the source tree (or BENCH_DOC); P1's programs
# and object come from bench/local.mk.
EXTRA_DIST += bench/run bench/build-cost docs/performance.md
if VM_TESTS
bench: bench/kfunc-cost bench/kfunc_cost.bpf.o bench/rewrite-cost$(EXEEXT) \
		bench/rewrite_kfuncs.bpf.o bench/rewrite_kfuncs_plain.bpf.o bench/rewrite-kernel \
		tests/bpf/wq_old.bpf.o \
		bench/load-cost $(examples_bpf_objects)
	$(AM_V_at)doc='$(BENCH_DOC)'; test -n "$$doc" || doc='$(srcdir)/docs/performance.md'; \
	QEMU='$(QEMU)' BUSYBOX='$(BUSYBOX)' BPFTOOL='$(BPFTOOL)' MAKE='$(MAKE)' \
	BENCH_DOC="$$doc" BENCH_COMMAND='make bench' \
	$(SHELL) $(srcdir)/bench/run '$(abs_top_srcdir)' '$(abs_top_builddir)' \
		"$$(cut -f2 bench/rewrite-kernel)"
else
bench:
	@echo "make bench: P2 and P3 run in QEMU guests, which this build leaves out" \
		"(configured with --disable-vm-tests or --enable-sanitizers)" >&2; exit 1
endif
.PHONY: bench
