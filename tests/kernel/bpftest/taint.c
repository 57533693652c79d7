// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The kernel's taint flags: a load or a run that triggers a WARN or an
 * oops in the kernel (say, in a verifier change) taints it, even when
 * the case itself looks fine from user space.
 */
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>

#include "bpftest.h"

unsigned long bt_taint(void)
{
	unsigned long t = ~0UL;
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	if (f) {
		if (fscanf(f, "%lu", &t) != 1)
			t = ~0UL;
		fclose(f);
	}
	return t;
}

void bt_print_kernel_log(int max_lines)
{
	/* SYSLOG_ACTION_SIZE_BUFFER and SYSLOG_ACTION_READ_ALL (klogctl(3)). */
	static char buf[1 << 18];
	int n = klogctl(10, NULL, 0);

	if (n <= 0 || n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	n = klogctl(3, buf, n);
	buf[n > 0 ? n : 0] = '\0';
	bt_print_indented("kernel log", buf, max_lines);
}
