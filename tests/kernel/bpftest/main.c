// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * mkf-bpftest: load BPF programs in a test guest and check that each one
 * loads and runs, or is refused for the stated reason. See args.c for
 * the cases' syntax. Closes with one more check: the kernel's taint flags
 * did not change (no WARN or oops along the way). Runs only inside a
 * magic-kfunc test guest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "bpftest.h"
#include "guest.h"

int main(int argc, char **argv)
{
	struct bt_case *cases;
	struct bt_opts opts;
	unsigned long before, now;
	struct utsname u;
	int i, n;

	guest_require(argv[0]);
	n = bt_parse(argc, argv, &opts, &cases);
	bt_logs_install(opts.verbose);
	if (!uname(&u))
		printf("# mkf-bpftest: %d cases on Linux %s\n", n, u.release);
	before = now = bt_taint();
	for (i = 0; i < n; i++) {
		unsigned long t;

		bt_run_case(&cases[i], &opts);
		/* Name the first case after which the kernel was tainted. */
		t = bt_taint();
		if (t != now)
			printf("# kernel taint %#lx -> %#lx after %s\n", now, t, cases[i].label);
		now = t;
	}
	guest_check(now == before, "kernel taint unchanged by the cases (%#lx, was %#lx)", now,
		    before);
	if (now != before)
		bt_print_kernel_log(40);
	free(cases);
	return guest_done();
}
