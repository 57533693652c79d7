# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# checkpatch --strict on the kernel series (needs the extracted kernel
# tree, so it runs with the other kernel tests).
EXTRA_DIST += tests/checkpatch/checkpatch-test
if VM_TESTS
TESTS += tests/checkpatch/checkpatch-test
endif
