// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "stream-read.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>

/*
 * enum bpf_cmd's BPF_PROG_STREAM_READ_BY_FD and its member of union
 * bpf_attr, as the BTF of 6.17, 6.18 and 7.3 declares them.
 */
#define EXAMPLE_BPF_PROG_STREAM_READ_BY_FD 37

struct stream_read_attr {
	__aligned_u64 stream_buf;
	__u32 stream_buf_len;
	__u32 stream_id;
	__u32 prog_fd;
};

int stream_read(int prog_fd, int stream_id, char *buf, size_t len)
{
	/* The kernel checks that the bytes past the member it uses are 0. */
	union {
		struct stream_read_attr s;
		char pad[128];
	} attr;
	long n;

	memset(&attr, 0, sizeof(attr));
	attr.s.stream_buf = (unsigned long)buf;
	attr.s.stream_buf_len = (__u32)len;
	attr.s.stream_id = (__u32)stream_id;
	attr.s.prog_fd = (__u32)prog_fd;
	n = syscall(__NR_bpf, EXAMPLE_BPF_PROG_STREAM_READ_BY_FD, &attr, sizeof(attr.s));
	return n < 0 ? -errno : (int)n;
}
