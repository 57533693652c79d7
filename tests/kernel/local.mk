# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Verifier tests in QEMU guests: the generic guest runner mkf-bpftest, the
# per-kernel expectations for the bpf_wq programs of tests/bpf/, and the
# module test of our patched kernel (kernel/testmod).

EXTRA_DIST += tests/kernel/wq-test tests/kernel/module-test tests/kernel/graph-test \
	tests/kernel/superset-test tests/kernel/selftests-gate tests/kernel/selftests-progs \
	tests/kernel/guest-report.sh tests/kernel/untagged-test tests/kernel/btf-mmap-test

if VM_TESTS
# Built by "make" (not only "make check") so that a test script can be run
# by hand right after building.
noinst_PROGRAMS += tests/kernel/mkf-bpftest
tests_kernel_mkf_bpftest_SOURCES = tests/kernel/bpftest/main.c \
	tests/kernel/bpftest/args.c tests/kernel/bpftest/run.c \
	tests/kernel/bpftest/open.c tests/kernel/bpftest/logs.c \
	tests/kernel/bpftest/errname.c tests/kernel/bpftest/taint.c \
	tests/kernel/bpftest/xlated.c \
	tests/kernel/bpftest/bpftest.h \
	$(GUEST_COMMON)
tests_kernel_mkf_bpftest_CPPFLAGS = $(AM_CPPFLAGS) $(GUEST_CPPFLAGS) \
	-I$(top_srcdir)/libmagic-kfunc
tests_kernel_mkf_bpftest_LDFLAGS = $(GUEST_STATIC)
tests_kernel_mkf_bpftest_LDADD = libmagic-kfunc/libmagic-kfunc.la $(GUEST_LIBS)

TESTS += tests/kernel/wq-test tests/kernel/module-test tests/kernel/graph-test \
	tests/kernel/superset-test tests/kernel/selftests-gate tests/kernel/untagged-test

# In a guest (magic-kfunc vm --run): the vmlinux BTF file maps read-only.
check_PROGRAMS += tests/kernel/btf-mmap
tests_kernel_btf_mmap_SOURCES = tests/kernel/btf-mmap.c
tests_kernel_btf_mmap_LDFLAGS = $(GUEST_STATIC)
TESTS += tests/kernel/btf-mmap-test
endif

# The kernel tests on the debug build (kernel/build.sh --debug), with a
# registration stress on 2 CPUs: too slow for every "make check" (the
# debug kernel builds from scratch; see docs/kernel-tests.md).
check-debug-kernel: tests/kernel/mkf-bpftest tests/vm/btf-funcs
	MKF_SRCDIR=$(abs_top_srcdir) MKF_BUILDDIR=$(abs_top_builddir) \
		$(srcdir)/tests/kernel/module-test --debug

.PHONY: check-debug-kernel

# linux-source-6.12's test_progs on the stock and patched builds, and the
# series' own selftests (docs/kernel-tests.md): two builds of the tree's
# BPF programs, too slow for every "make check". Needs clang-19.
check-selftests:
	MKF_SRCDIR=$(abs_top_srcdir) MKF_BUILDDIR=$(abs_top_builddir) \
		$(srcdir)/tests/kernel/selftests-progs

.PHONY: check-selftests
