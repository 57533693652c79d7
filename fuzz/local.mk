# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# libFuzzer targets: "make fuzz [FUZZ_SECONDS=N] [FUZZ_RUNS=N]
# [FUZZ_TARGETS=...] [FUZZ_DOC=docs/robustness.md]" builds them with
# clang (-fsanitize=fuzzer,address,undefined) and runs each for N
# seconds, or N executions (fuzz/run-fuzz). Nothing of the normal build
# or of "make check" depends on them.

EXTRA_DIST += fuzz/fuzz_object.c fuzz/fuzz_kernel.c fuzz/fuzz_cache.c fuzz/fuzz_common.h \
	fuzz/run-fuzz fuzz/btf-subset docs/robustness.md

FUZZ_SECONDS = 60
FUZZ_TARGETS = fuzz_object fuzz_kernel fuzz_cache

# The seed corpus comes from the objects the build makes.
fuzz: $(tests_bpf_objects)
	$(AM_V_at)FUZZ_CC='$(CLANG)' FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_DOC='$(FUZZ_DOC)' \
	FUZZ_CPPFLAGS='$(LIBBPF_CFLAGS) $(LIBELF_CFLAGS)' \
	FUZZ_LIBS='$(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)' \
	$(SHELL) $(srcdir)/fuzz/run-fuzz '$(abs_top_srcdir)' '$(abs_top_builddir)' \
		'$(FUZZ_SECONDS)' $(FUZZ_TARGETS)

.PHONY: fuzz
