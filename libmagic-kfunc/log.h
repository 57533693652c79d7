/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal logging: every message goes through the one print callback. */
#ifndef MKF_LOG_H
#define MKF_LOG_H

#include <errno.h>
#include <stddef.h>
#include <bpf/libbpf.h>

__attribute__((format(printf, 2, 3)))
void mkf_print(enum libbpf_print_level level, const char *fmt, ...);

#define pr_warn(fmt, ...)  mkf_print(LIBBPF_WARN, "libmagic-kfunc: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  mkf_print(LIBBPF_INFO, "libmagic-kfunc: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) mkf_print(LIBBPF_DEBUG, "libmagic-kfunc: " fmt, ##__VA_ARGS__)

/* Return err (negative errno) with errno set, as every public function does. */
static inline int mkf_err(int err)
{
	if (err < 0)
		errno = -err;
	return err;
}

/* NULL with errno set, for functions returning pointers. */
static inline void *mkf_err_ptr(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

#endif
