# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The kernel catalogue and its cache, the QEMU runner and the initramfs
# builder, the guest program of "magic-kfunc vm". Installed under
# pkglibexecdir (scripts, guest program) and pkgdatadir (the
# catalogue); the tests use them from here (tests/vm/kernels, vm-run).

vm_scripts = vm/kernels vm/vm-run vm/mkinitramfs vm/extract-btf vm/init
dist_pkglibexec_SCRIPTS = $(vm_scripts)
dist_pkgdata_DATA = vm/kernels.list vm/source-kernel.config

# The guest side of "magic-kfunc vm": static (libbpf.a and the
# library's archive), so that it runs in a bare initramfs. Built with the
# guest tests, or alone with --enable-vm-guest (configure.ac).
if VM_GUEST
pkglibexec_PROGRAMS = vm/mkf-vm-guest
vm_mkf_vm_guest_SOURCES = vm/mkf-vm-guest.c $(GUEST_COMMON)
vm_mkf_vm_guest_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libmagic-kfunc \
	$(GUEST_CPPFLAGS)
# --wrap: with -w the guest sees the bytes the library hands libbpf
# (vm/mkf-vm-guest.c, "same-bytes").
vm_mkf_vm_guest_LDFLAGS = $(GUEST_STATIC) -Wl,--wrap=bpf_object__open_mem
vm_mkf_vm_guest_LDADD = libmagic-kfunc/libmagic-kfunc.la $(GUEST_LIBS)
endif
