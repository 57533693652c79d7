// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * mkf-guard: the guest-only guard of every guest program, alone. It
 * loads nothing, so the guard can be tested on the build machine too:
 * there it must refuse (exit 2); in a test guest it prints "in a test
 * guest" and exits 0.
 */
#include <stdio.h>

#include "guest.h"

int main(int argc, char **argv)
{
	(void)argc;
	guest_require(argv[0]);
	printf("%s: in a test guest\n", argv[0]);
	return 0;
}
