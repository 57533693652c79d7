# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# examples/template built out of the tree against the installed package
# (host), and its loader run in QEMU guests (VM tests). Not with
# --enable-sanitizers: a user's cc cannot link the instrumented library.
if !SANITIZERS
TESTS += tests/template/template-test
if VM_TESTS
TESTS += tests/template/template-vm-test
endif
endif
EXTRA_DIST += tests/template/template-test tests/template/template-vm-test
