// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A user's first program against the installed library. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <magic-kfunc/magic_kfunc.h>

int main(void)
{
	MKF_OPTS(mkf_kernel_opts, opts, .vmlinux_path = "/nonexistent/vmlinux.btf");
	struct mkf_kernel *k;

	mkf_set_print(NULL);
	k = mkf_kernel__load(&opts);
	if (k || errno != ENOENT) {
		printf("loading a missing BTF file: %s (want ENOENT)\n", k ? "succeeded" : strerror(errno));
		mkf_kernel__free(k);
		return 1;
	}
	printf("%s %u.%u\n", mkf_version_string(), mkf_major_version(), mkf_minor_version());
	return 0;
}
