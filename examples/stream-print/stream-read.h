/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Read a BPF program's stream (6.17 and later). Debian 12's headers and
 * libbpf 1.1 predate the command, so it is called with syscall(2).
 */
#ifndef MKF_EXAMPLE_STREAM_READ_H
#define MKF_EXAMPLE_STREAM_READ_H

#include <stddef.h>

#define EXAMPLE_BPF_STDOUT 1
#define EXAMPLE_BPF_STDERR 2

/* Read up to len bytes of stream stream_id of prog_fd into buf: the
 * number of bytes read, or a negative errno. */
int stream_read(int prog_fd, int stream_id, char *buf, size_t len);

#endif
