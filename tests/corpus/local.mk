# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The differential corpus (docs/corpus.md): real BPF programs (the BPF
# selftests of Debian's linux-source-6.12 and -7.2, and this project's)
# loaded on every catalogue kernel plainly and through the library, with
# Debian 12's libbpf and the newest: plain libbpf loads a program =>
# the library's output loads it, and its test run returns the same.
# "make check-corpus" runs it all and writes docs/corpus.md (hours; needs
# clang-19); "make check" runs a slice of it (tests/corpus/slice-test).

corpus_scripts = tests/corpus/build-selftests tests/corpus/run-kernels tests/corpus/report \
	tests/corpus/check-corpus tests/corpus/report-test tests/corpus/slice-test
EXTRA_DIST += $(corpus_scripts) tests/corpus/corpuslib.py

TESTS += tests/corpus/report-test
if VM_TESTS
TESTS += tests/corpus/slice-test
endif

check-corpus: $(noinst_PROGRAMS) $(pkglibexec_PROGRAMS) $(bin_PROGRAMS) $(noinst_DATA)
	$(AM_V_at)MKF_SRCDIR='$(abs_top_srcdir)' MKF_BUILDDIR='$(abs_top_builddir)' \
		QEMU='$(QEMU)' BUSYBOX='$(BUSYBOX)' MKF_LIBBPF_PREFIX='$(MKF_LIBBPF_PREFIX)' \
		$(SHELL) $(srcdir)/tests/corpus/check-corpus

.PHONY: check-corpus
