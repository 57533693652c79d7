# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The patched Linux 6.12 (magic kfuncs): patch series, config fragment and
# the script that builds it. Sources and build outputs live in the cache
# (see kernel/build.sh), never in the source or build tree.

kernel_patches = \
	kernel/patches/0000-cover-letter.patch \
	kernel/patches/0001-bpf-Fix-handling-maps-with-no-BTF-and-non-constant-o.patch \
	kernel/patches/0002-resolve_btfids-Read-kfunc-sets-in-a-new-magic-kfuncs.patch \
	kernel/patches/0003-resolve_btfids-Give-magic-kfuncs-a-short-prototype-a.patch \
	kernel/patches/0004-resolve_btfids-Refuse-misdeclared-magic-kfuncs.patch \
	kernel/patches/0005-resolve_btfids-Tag-kfuncs-with-bpf_kfunc-decl-tags.patch \
	kernel/patches/0006-kbuild-Rewrite-the-BTF-of-magic-kfuncs-in-vmlinux.patch \
	kernel/patches/0007-kbuild-Rewrite-the-BTF-of-magic-kfuncs-in-modules.patch \
	kernel/patches/0008-bpf-Hide-the-kernel-addresses-the-verifier-loads-fro.patch \
	kernel/patches/0009-bpf-Pair-kfuncs-with-verifier-provided-arguments-at-.patch \
	kernel/patches/0010-bpf-Record-the-ID-of-each-kfunc-call-once-for-the-sp.patch \
	kernel/patches/0011-bpf-Verify-kfunc-calls-with-magic-arguments-and-set-.patch \
	kernel/patches/0012-bpf-Attach-tracing-programs-to-magic-kfuncs-with-the.patch \
	kernel/patches/0013-bpf-Add-bpf_wq_set_callback-the-magic-form-of-bpf_wq.patch \
	kernel/patches/0014-bpf-docs-Document-KF_MAGIC_ARGS-and-the-__magic-anno.patch \
	kernel/patches/0015-selftests-bpf-Test-kfuncs-with-verifier-provided-arg.patch \
	kernel/patches/0016-resolve_btfids-Allow-struct-btf_struct_meta-and-node.patch \
	kernel/patches/0017-bpf-Support-magic-arguments-of-type-struct-btf_struc.patch \
	kernel/patches/0018-bpf-Add-the-magic-forms-of-the-allocator-and-graph-k.patch \
	kernel/patches/0019-bpf-docs-Document-the-btf_struct_meta-and-node-offse.patch \
	kernel/patches/0020-selftests-bpf-Test-the-magic-forms-of-the-allocator-.patch

# The out-of-tree test module, built by kernel/build.sh (GPL-2.0).
kernel_testmod = kernel/testmod/Kbuild kernel/testmod/mkf_testmod.c

EXTRA_DIST += kernel/build.sh kernel/local.mk kernel/config/magic-kfunc.config \
	kernel/config-debug/debug.config kernel/config-large/large.config \
	kernel/patches/series $(kernel_patches) $(kernel_testmod)

# Extra options for kernel/build.sh, e.g. make kernel KERNEL_BUILD_FLAGS='--jobs 4'
KERNEL_BUILD_FLAGS =

# Build the patched kernel (incrementally); prints nothing new when up to date.
kernel:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh $(KERNEL_BUILD_FLAGS)

# The series with the debug fragments (SMP, KASAN, lockdep, kmemleak).
kernel-debug:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --debug $(KERNEL_BUILD_FLAGS)

# The series on defconfig plus config-large: a distribution-sized BTF.
kernel-large:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --large $(KERNEL_BUILD_FLAGS)

# A tarball without a patch the series names builds no kernel: every
# patch, config fragment and testmod source of the tree must be listed.
dist-hook: dist-check-kernel
dist-check-kernel:
	@missing=0; \
	for f in $$(cd $(srcdir) && ls kernel/patches/*.patch kernel/config*/*.config \
			kernel/testmod/*.c kernel/testmod/Kbuild); do \
		if [ ! -f "$(distdir)/$$f" ]; then \
			echo "dist: $$f is not distributed (kernel/local.mk)" >&2; missing=1; \
		fi; \
	done; \
	test $$missing = 0

# The stock tree with the same config: the baseline of the superset test.
kernel-stock:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --stock $(KERNEL_BUILD_FLAGS)

# Bisectability: build after each patch of the series, and run checkpatch.
kernel-per-patch:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --per-patch $(KERNEL_BUILD_FLAGS)

# checkpatch.pl --strict on every patch of the series.
kernel-checkpatch:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --checkpatch $(KERNEL_BUILD_FLAGS)

.PHONY: kernel kernel-debug kernel-large dist-check-kernel kernel-stock kernel-per-patch kernel-checkpatch
