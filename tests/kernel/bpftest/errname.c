// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Error names, so that reports and cases say ESRCH rather than 3. */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "bpftest.h"

/* Larger than any errno value Linux defines. */
#define BT_ERRNO_MAX 256

const char *bt_errname(int err)
{
	const char *name = err > 0 ? strerrorname_np(err) : NULL;

	return name ? name : "E?";
}

int bt_errnum(const char *name)
{
	int i;

	for (i = 1; i < BT_ERRNO_MAX; i++) {
		const char *n = strerrorname_np(i);

		if (n && !strcasecmp(n, name))
			return i;
	}
	return 0;
}
