# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The patched Linux 6.12 (magic kfuncs): patch series, config fragment and
# the script that builds it. Sources and build outputs live in the cache
# (see kernel/build.sh), never in the source or build tree.

kernel_patches = \
	kernel/patches/0001-resolve_btfids-Add-a-BTF-pass-for-kfuncs-with-KF_MAG.patch \
	kernel/patches/0002-kbuild-Rewrite-the-BTF-of-magic-kfuncs-in-vmlinux.patch \
	kernel/patches/0003-kbuild-Rewrite-the-BTF-of-magic-kfuncs-in-modules.patch \
	kernel/patches/0004-bpf-Pair-magic-kfuncs-with-their-_impl-twin-at-regis.patch \
	kernel/patches/0005-bpf-Verify-calls-to-magic-kfuncs-and-provide-their-m.patch \
	kernel/patches/0006-bpf-Attach-tracing-programs-to-magic-kfuncs-with-the.patch \
	kernel/patches/0007-bpf-Make-bpf_wq_set_callback-a-magic-kfunc.patch \
	kernel/patches/0008-bpf-docs-Document-KF_MAGIC_ARGS-and-the-__magic-anno.patch \
	kernel/patches/0009-resolve_btfids-Tag-kfuncs-with-bpf_kfunc-decl-tags.patch

# The out-of-tree test module, built by kernel/build.sh (GPL-2.0).
kernel_testmod = kernel/testmod/Kbuild kernel/testmod/mkf_testmod.c

EXTRA_DIST += kernel/build.sh kernel/local.mk kernel/config/magic-kfunc.config \
	kernel/patches/series $(kernel_patches) $(kernel_testmod)

# Extra options for kernel/build.sh, e.g. make kernel KERNEL_BUILD_FLAGS='--jobs 4'
KERNEL_BUILD_FLAGS =

# Build the patched kernel (incrementally); prints nothing new when up to date.
kernel:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh $(KERNEL_BUILD_FLAGS)

# Bisectability: build after each patch of the series, and run checkpatch.
kernel-per-patch:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --per-patch $(KERNEL_BUILD_FLAGS)

# checkpatch.pl --strict on every patch of the series.
kernel-checkpatch:
	$(AM_V_GEN)$(srcdir)/kernel/build.sh --checkpatch $(KERNEL_BUILD_FLAGS)

.PHONY: kernel kernel-per-patch kernel-checkpatch
