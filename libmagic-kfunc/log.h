/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Internal logging: every message goes through the one print callback. */
#ifndef MKF_LOG_H
#define MKF_LOG_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

__attribute__((format(printf, 2, 3)))
void mkf_print(enum libbpf_print_level level, const char *fmt, ...);
/*
 * Whether a message of this level reaches anyone: false only when no
 * callback is set, or when the default one would drop it. For words
 * that cost something to make.
 */
bool mkf_log_wants(enum libbpf_print_level level);

#define MKF_LOG_PREFIX "libmagic-kfunc: "
#define pr_warn(fmt, ...)  mkf_print(LIBBPF_WARN, MKF_LOG_PREFIX fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  mkf_print(LIBBPF_INFO, MKF_LOG_PREFIX fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) mkf_print(LIBBPF_DEBUG, MKF_LOG_PREFIX fmt, ##__VA_ARGS__)

/*
 * Per-call diagnostics. A public function whose options carry
 * err_buf/err_buf_sz opens a scope for the call; pr_err() logs a
 * warning and copies its first line into every enclosing scope that
 * has no message yet (the first error is the cause; what callers up
 * the stack warn afterwards restates it). Scopes are per thread.
 */
struct mkf_diag_scope {
	struct mkf_diag_scope *outer;
	char *buf;
	size_t sz;
	bool filled;
};

void mkf_diag_enter(struct mkf_diag_scope *scope, char *buf, size_t sz);
/* err: the call's result (0 or an errno, either sign). On failure
 * without a pr_err(), the buffer gets strerror(err). */
void mkf_diag_leave(struct mkf_diag_scope *scope, int err);

__attribute__((format(printf, 1, 2)))
void mkf_print_err(const char *fmt, ...);

/* A warning that is the cause of the call's failure. */
#define pr_err(fmt, ...) mkf_print_err(MKF_LOG_PREFIX fmt, ##__VA_ARGS__)

/*
 * CALL inside a diagnostics scope on the err_buf of OPTS (an options
 * struct; opts.h's OPTS_GET), FAILED (an expression of __ret, CALL's
 * value) telling failure: its errno then goes into the scope and is
 * kept. The value of CALL.
 */
#define MKF_WITH_DIAG(opts, call, failed)					\
	({									\
		struct mkf_diag_scope __scope;					\
		typeof(call) __ret;						\
		int __err;							\
										\
		mkf_diag_enter(&__scope, OPTS_GET(opts, err_buf, NULL),		\
			       OPTS_GET(opts, err_buf_sz, 0));			\
		__ret = (call);							\
		__err = (failed) ? errno : 0;					\
		mkf_diag_leave(&__scope, __err);				\
		errno = __err ? __err : errno;					\
		__ret;								\
	})

/* An accessor's value, or the zero value with errno EINVAL for NULL. */
#define MKF_GET(obj, expr, zero) ((obj) ? (expr) : (errno = EINVAL, (zero)))

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
