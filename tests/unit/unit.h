/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Reporting for the C unit tests, the same as tests/lib/testlib.sh:
 * one line per case ("ok   name", "FAIL name: detail", "SKIP name: why"),
 * then "N passed, N failed, N skipped". A skip says why, on stdout and
 * loudly on stderr; with MKF_STRICT=1 a skip counts as a failure.
 */
#ifndef MKF_UNIT_H
#define MKF_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

void t_ok(const char *name);
__attribute__((format(printf, 2, 3)))
void t_fail(const char *name, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void t_skip(const char *name, const char *fmt, ...);
/* Pass if cond, else fail with the formatted detail. Returns cond. */
__attribute__((format(printf, 3, 4)))
bool t_check(const char *name, bool cond, const char *fmt, ...);
/* Pass if cond, else fail quoting the condition. */
#define T_EXPECT(name, cond) t_check((name), (cond), "expected: %s", #cond)
/* Closing line; exit status for automake: 0, 1 on failure, 77 if all skipped. */
int t_done(void);
/* Silence the library's messages unless MKF_TEST_VERBOSE is set. */
void t_quiet_library(void);
/*
 * What differs with the libbpf the test runs with (its version at run
 * time, libbpf_major_version()/libbpf_minor_version()): libbpf 1.2 and
 * later validate BTF when they parse it (btf__new(): type ids past the
 * end, string offsets past the strings, a FUNC whose type is not a
 * FUNC_PROTO), and refuse it with EINVAL before the library looks at it.
 * Measured: Debian 12's 1.1.2 does not, Debian 13's 1.5.0 and sid's
 * 1.7.0 do (scripts/check-libbpf), and so does bookworm-backports'
 * 1.4.6 by its source (btf_validate_type()); 1.2 and 1.3, which Debian
 * never shipped, are taken to do so too.
 */
bool t_libbpf_validates_btf(void);

/*
 * A print callback (mkf_set_print(), libbpf_set_print()) that appends
 * every message to t_log, until t_log_reset(). With t_log_clobber_errno
 * set, it sets errno to 12345 after each message, for tests that the
 * library keeps its own errno across its logging.
 */
extern char t_log[16384];
extern bool t_log_clobber_errno;
int t_log_capture(enum libbpf_print_level level, const char *fmt, va_list args);
void t_log_reset(void);

/* A whole file into a malloc'd buffer (*buf NULL on failure): 0 or a negative errno. */
int t_read_file(const char *path, void **buf, size_t *sz);

struct mkf_kernel;
struct mkf_object;
struct mkf_plan;
struct mkf_plan_opts;
struct mkf_rewrite_opts;
/*
 * The library's steps on bytes, for cases that have only bytes:
 * mkf_object__new() then mkf_plan__compute() (NULL with errno set), or
 * mkf_object__new() then mkf_object__rewrite() (0 or a negative errno).
 */
struct mkf_plan *t_plan(const void *buf, size_t sz, const struct mkf_kernel *k,
			const struct mkf_plan_opts *opts);
/* tests/bpf's BASE.bpf.o read by the library; NULL with errno set. */
struct mkf_object *t_object(const char *base);
int t_rewrite(const void *buf, size_t sz, const struct mkf_plan *plan, void **out,
	      size_t *out_sz, const struct mkf_rewrite_opts *opts);
/* The same for the BPF object BASE.bpf.o of tests/bpf (MKF_BPF_OBJDIR). */
int t_read_bpf_object(const char *base, void **buf, size_t *sz);

/* Write btf__raw_data() of BTF to PATH: 0, or -1 with errno set. */
int t_write_btf(const char *path, const struct btf *btf);

#endif
