# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Link test: a program built against the installed library (shared and static).
# Not with --enable-sanitizers: a user's program built with plain cc
# cannot link the instrumented library (no ASan runtime); the normal
# build runs it.
if !SANITIZERS
TESTS += tests/link/link-test
endif
EXTRA_DIST += tests/link/link-test tests/link/hello.c tests/link/readme.c
