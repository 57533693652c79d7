# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# P1 of "make bench": the host-side cost of describing a kernel, planning
# and rewriting an object, as ratios to one libbpf btf__parse() of the
# same BTF, and the peak memory of describing the kernel. "make
# bench-rewrite" builds and runs it against the newest cached 7.x kernel
# (it fails loudly when none is cached) through bench/run, host only, and
# writes its document to bench/performance.md in the build tree (or to
# BENCH_DOC); nothing of "make", "make check" or "make distcheck" builds
# or runs it. It reports numbers; the document's verdicts compare them
# with the targets, and no build fails on one.
#
#   make bench-rewrite [BENCH_ROUNDS=21] [BENCH_WARM=100] [BENCH_DOC=FILE]

BENCH_ROUNDS = 21
BENCH_WARM = 100

# Host programs, built on demand only.
EXTRA_PROGRAMS = bench/gen-kfuncs bench/rewrite-cost

bench_gen_kfuncs_SOURCES = bench/gen-kfuncs.c bench/die.h
bench_gen_kfuncs_CPPFLAGS = $(AM_CPPFLAGS) $(LIBBPF_CFLAGS)
bench_gen_kfuncs_LDADD = $(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)

bench_rewrite_cost_SOURCES = bench/rewrite-cost.c bench/die.h
bench_rewrite_cost_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libmagic-kfunc $(LIBBPF_CFLAGS)
# The library linked in (no libtool wrapper script around the timings).
bench_rewrite_cost_LDFLAGS = -static
bench_rewrite_cost_LDADD = libmagic-kfunc/libmagic-kfunc.la $(LIBBPF_LIBS) $(LIBELF_LIBS) \
	$(ZLIB_LIBS)

EXTRA_DIST += bench/bench-rewrite bench/write-doc bench/disasm-func bench/p5-boots

# The object measured: 64 kfunc externs generated from the kernel's own
# BTF, with a vmlinux.h dumped from it. All in the build tree.
bench_rewrite_generated = bench/rewrite-kernel bench/rewrite_kfuncs.vmlinux.h \
	bench/rewrite_kfuncs.bpf.c bench/rewrite_kfuncs.bpf.o \
	bench/rewrite_kfuncs_plain.bpf.c bench/rewrite_kfuncs_plain.bpf.o
CLEANFILES += $(EXTRA_PROGRAMS) $(bench_rewrite_generated) bench/performance.md

# "ID PATH SIZE MTIME" of the kernel: looked up at every run, rewritten
# only when the choice or the file changes, so that what depends on it
# is rebuilt only then.
bench/rewrite-kernel: bench-rewrite-lookup bench/$(am__dirstamp)
	$(AM_V_GEN)$(SHELL) $(srcdir)/bench/bench-rewrite kernel '$(abs_top_srcdir)' > $@.tmp || \
		{ rm -f $@.tmp; exit 1; }; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

bench/rewrite_kfuncs.vmlinux.h: bench/rewrite-kernel
	$(AM_V_GEN)$(BPFTOOL) btf dump file "$$(cut -f2 bench/rewrite-kernel)" format c \
		> $@.tmp && mv $@.tmp $@

bench/rewrite_kfuncs.bpf.c: bench/rewrite-kernel bench/gen-kfuncs$(EXEEXT)
	$(AM_V_GEN)bench/gen-kfuncs$(EXEEXT) -n 64 -i rewrite_kfuncs.vmlinux.h \
		"$$(cut -f2 bench/rewrite-kernel)" > $@.tmp && mv $@.tmp $@

# P5's 64-extern object: the same without the foo_impl externs of the
# older kernels' form, which plain libbpf cannot load on the kernel the
# externs come from (their _impl is a prototype there, no function).
bench/rewrite_kfuncs_plain.bpf.c: bench/rewrite-kernel bench/gen-kfuncs$(EXEEXT)
	$(AM_V_GEN)bench/gen-kfuncs$(EXEEXT) -n 64 -p 0 -i rewrite_kfuncs.vmlinux.h \
		"$$(cut -f2 bench/rewrite-kernel)" > $@.tmp && mv $@.tmp $@

# Kernels built with -fms-extensions (6.19 on) embed named structs as
# anonymous members: their vmlinux.h needs the same extension.
bench/rewrite_kfuncs.bpf.o bench/rewrite_kfuncs_plain.bpf.o: %.bpf.o: %.bpf.c \
		bench/rewrite_kfuncs.vmlinux.h
	$(AM_V_GEN)$(CLANG) $(BPF_CFLAGS) -fms-extensions -Wno-microsoft-anon-tag \
		-c $< -o $@.tmp && mv $@.tmp $@

bench-rewrite: bench/rewrite-cost$(EXEEXT) bench/rewrite_kfuncs.bpf.o bench/rewrite-kernel \
		tests/bpf/wq_old.bpf.o
	$(AM_V_at)echo "P1 kernel: $$(cut -f1 bench/rewrite-kernel)"; \
	doc='$(BENCH_DOC)'; test -n "$$doc" || doc=bench/performance.md; \
	BENCH_PARTS=p1 BENCH_ROUNDS='$(BENCH_ROUNDS)' BENCH_WARM='$(BENCH_WARM)' \
	BENCH_DOC="$$doc" BENCH_COMMAND='make bench-rewrite' \
	$(SHELL) $(srcdir)/bench/run '$(abs_top_srcdir)' '$(abs_top_builddir)' \
		"$$(cut -f2 bench/rewrite-kernel)"

bench-rewrite-lookup:

.PHONY: bench-rewrite bench-rewrite-lookup
