# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The compatibility matrix: every example x every catalogue kernel x
# {libmagic-kfunc, plain libbpf, plain libbpf + compat macros}, run in
# QEMU guests, each cell's outcome asserted. "make compat-matrix"
# rewrites docs/compat-matrix.md from a real run.

EXTRA_DIST += tests/matrix/compat-matrix docs/compat-matrix.md

if VM_TESTS
TESTS += tests/matrix/compat-matrix
endif

compat-matrix: $(noinst_PROGRAMS)
	$(AM_V_at)MKF_SRCDIR='$(abs_top_srcdir)' MKF_BUILDDIR='$(abs_top_builddir)' \
		QEMU='$(QEMU)' BUSYBOX='$(BUSYBOX)' MKF_LIBBPF_LIBDIR='$(MKF_LIBBPF_LIBDIR)' \
		$(SHELL) $(srcdir)/tests/matrix/compat-matrix --write '$(srcdir)/docs/compat-matrix.md'

.PHONY: compat-matrix

# The same matrix with guest loaders linked with each newer libbpf
# (scripts/build-libbpf), as more columns of docs/compat-matrix.md.
compat-matrix-libbpf: $(noinst_PROGRAMS)
	$(AM_V_at)$(SHELL) $(srcdir)/scripts/compat-matrix-libbpf

.PHONY: compat-matrix-libbpf
