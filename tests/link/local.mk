# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Link test: a program built against the installed library (shared and static).
TESTS += tests/link/link-test
EXTRA_DIST += tests/link/link-test tests/link/hello.c
