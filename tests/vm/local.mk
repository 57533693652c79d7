# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The QEMU harness: kernel catalogue, initramfs builder, VM runner, the
# static guest runner and the smoke test.

# The catalogue, the runner and the initramfs builder are in vm/ (installed
# for "magic-kfunc vm"); tests/vm/kernels and vm-run call them there.
vm_harness_files = tests/vm/kernels tests/vm/vm-run tests/vm/smoke-test tests/vm/harness-vm-test \
	tests/vm/vm-test tests/vm/ci-test
EXTRA_DIST += $(vm_harness_files) tests/vm/guest/smoke.bpf.c tests/vm/guest/vm-cells.bpf.c \
	tests/vm/guest/vm-rcu-leak.bpf.c tests/vm/guest/vm-rcu-wait.bpf.c \
	tests/vm/guest/exit-by-kernel.c docs/ci/github-workflow.yml

# Every test may need the catalogue's kernels (host tests read their
# BTF): with the VM tests on, fetch them before any test runs. Offline
# with an empty cache this is fatal only in strict mode (CI); elsewhere
# the tests that need the files skip loudly. A host-only run
# (--disable-vm-tests, as in distcheck) never fetches: it uses what the
# cache holds.
check_DATA += kernels-fetched
#
# The stock 6.12 builds meanwhile: the kernel tests compare against it
# anyway, and once it is built kernel/build.sh makes the patched tree from
# a copy of it, recompiling only what the series touches. So the kernels
# of our series ("patched" in the catalogue) are fetched right after it,
# still beside the other kernels' downloads and builds: the end of one
# kernel build (linking, BTF) leaves a CPU free for the other.
if VM_TESTS
kernels-fetched:
	@kbuild=$${MKF_KERNEL_BUILD:-$(srcdir)/kernel/build.sh}; \
	kernels=$(srcdir)/tests/vm/kernels; \
	ours=$$("$$kernels" entries | awk '$$2 == "patched" { print $$1 }'); \
	others=$$("$$kernels" list | grep -vxF "$$ours"); \
	( "$$kbuild" --stock >&2 || \
		echo "*** warning: the stock kernel did not build: the tests that compare with it fail" >&2; \
	  test -z "$$ours" || "$$kernels" fetch $$ours >&2 ) & ours_pid=$$!; \
	"$$kernels" fetch $$others >&2; rc=$$?; \
	wait $$ours_pid || rc=1; \
	if test $$rc = 0; then :; \
	elif test "$${MKF_STRICT:-0}" = 1; then exit 1; \
	else echo "*** warning: the kernel catalogue could not be fetched: tests that need it will skip" >&2; fi
else
kernels-fetched:
	@echo "host-only run: kernels are not fetched; tests that need one use the cache or skip" >&2
endif
.PHONY: kernels-fetched

# Host tests of the harness's own tools (no guest).
TESTS += tests/harness-test
EXTRA_DIST += tests/harness-test

# Host tool: what a kernel's BTF says about given functions.
noinst_PROGRAMS += tests/vm/btf-funcs
tests_vm_btf_funcs_SOURCES = tests/vm/btf-funcs.c
tests_vm_btf_funcs_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS)
tests_vm_btf_funcs_LDADD = $(LIBBPF_LIBS)

# Static programs for the guests (linked with libbpf.a).
GUEST_STATIC = -all-static
GUEST_LIBS = $(MKF_LIBBPF_LDFLAGS) -lbpf -lelf -lz
# The guest programs' common part (vm/): the guard, the ok/FAIL lines and
# the record format (vm/record.h) every guest program writes.
GUEST_COMMON = vm/guest.c vm/guest.h vm/record.c vm/record.h
GUEST_CPPFLAGS = -I$(top_srcdir)/vm

if VM_TESTS
check_PROGRAMS += tests/vm/guest/mkf-smoke
tests_vm_guest_mkf_smoke_SOURCES = tests/vm/guest/smoke.c $(GUEST_COMMON)
nodist_tests_vm_guest_mkf_smoke_SOURCES = tests/vm/guest/smoke.skel.h
tests_vm_guest_mkf_smoke_CPPFLAGS = $(AM_CPPFLAGS) $(GUEST_CPPFLAGS) -I$(top_builddir)/tests/vm/guest
tests_vm_guest_mkf_smoke_LDFLAGS = $(GUEST_STATIC)
tests_vm_guest_mkf_smoke_LDADD = $(GUEST_LIBS)
BUILT_SOURCES += tests/vm/guest/smoke.skel.h
CLEANFILES += tests/vm/guest/smoke.skel.h tests/vm/guest/smoke.bpf.o

TESTS += tests/vm/smoke-test

# The harness's own guarantees, with real boots (the guard, nonces, 125).
check_PROGRAMS += tests/vm/guest/mkf-guard
tests_vm_guest_mkf_guard_SOURCES = tests/vm/guest/guard.c $(GUEST_COMMON)
tests_vm_guest_mkf_guard_CPPFLAGS = $(AM_CPPFLAGS) $(GUEST_CPPFLAGS)
tests_vm_guest_mkf_guard_LDFLAGS = $(GUEST_STATIC)
tests_vm_guest_mkf_guard_LDADD = $(GUEST_LIBS)
TESTS += tests/vm/harness-vm-test

# "magic-kfunc vm" with real boots, and from an installed prefix.
check_DATA += tests/vm/guest/vm-cells.bpf.o tests/vm/guest/vm-rcu-leak.bpf.o \
	tests/vm/guest/vm-rcu-wait.bpf.o
CLEANFILES += tests/vm/guest/vm-cells.bpf.o tests/vm/guest/vm-rcu-leak.bpf.o \
	tests/vm/guest/vm-rcu-wait.bpf.o
TESTS += tests/vm/vm-test
# In CI: the documented workflow's commands, shards and merge, --run.
TESTS += tests/vm/ci-test
endif

# The demo: every catalogue kernel booted, and what it offers.
demo: tests/vm/btf-funcs $(check_PROGRAMS) $(noinst_PROGRAMS)
	$(AM_V_at)MKF_SRCDIR='$(abs_top_srcdir)' MKF_BUILDDIR='$(abs_top_builddir)' \
		QEMU='$(QEMU)' BUSYBOX='$(BUSYBOX)' $(SHELL) $(srcdir)/scripts/demo

.PHONY: demo
