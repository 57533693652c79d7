# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# The kernel catalogue and its cache, the QEMU runner and the initramfs
# builder. Installed under pkglibexecdir (scripts) and pkgdatadir (the
# catalogue); the tests use them from here (tests/vm/kernels, vm-run).

vm_scripts = vm/kernels vm/vm-run vm/mkinitramfs vm/extract-btf vm/init
dist_pkglibexec_SCRIPTS = $(vm_scripts)
dist_pkgdata_DATA = vm/kernels.list
