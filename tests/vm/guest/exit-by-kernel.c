// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A user's test program for "magic-kfunc vm --run" (tests/vm/ci-test):
 * prints its arguments and the kernel's release, one line each on
 * standard output and standard error, then a line that looks like a
 * record of the guest program, and exits 0 on a 6.x kernel, 3 on any
 * other, so that each kernel has its own verdict.
 */
#include <stdio.h>
#include <sys/utsname.h>

int main(int argc, char **argv)
{
	struct utsname u;
	int i;

	if (uname(&u))
		return 1;
	for (i = 1; i < argc; i++)
		printf("argument %d: %s\n", i, argv[i]);
	fflush(stdout);
	fprintf(stderr, "release %s\n", u.release);
	printf("@cell 0 exit-by-kernel run ran 0\n");
	return u.release[0] == '6' && u.release[1] == '.' ? 0 : 3;
}
