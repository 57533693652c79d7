// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A .kconfig extern, for tests/malformed: libbpf 1.1 returns the size of
 * a .kconfig variable as its object pointer when it exceeds INT_MAX, so
 * the reader refuses such a variable (obj_check.c).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;

SEC("syscall")
int kconfig_user(void *ctx)
{
	return LINUX_KERNEL_VERSION > 0x60c00;
}

char LICENSE[] SEC("license") = "GPL";
