// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magic_kfunc.h"
#include "unit.h"

#ifndef MKF_BPF_OBJDIR
#define MKF_BPF_OBJDIR "tests/bpf"
#endif

static int passed, failed, skipped;

void t_ok(const char *name)
{
	passed++;
	printf("ok   %s\n", name);
	fflush(stdout);
}

static void vfail(const char *name, const char *fmt, va_list args)
{
	failed++;
	printf("FAIL %s: ", name);
	vprintf(fmt, args);
	printf("\n");
	fflush(stdout);
}

void t_fail(const char *name, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vfail(name, fmt, args);
	va_end(args);
}

void t_skip(const char *name, const char *fmt, ...)
{
	const char *strict = getenv("MKF_STRICT");
	char why[1024];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);
	if (strict && !strcmp(strict, "1")) {
		t_fail(name, "%s (skipped, but MKF_STRICT=1 makes a skip a failure)", why);
		return;
	}
	skipped++;
	printf("SKIP %s: %s\n", name, why);
	fflush(stdout);
	fprintf(stderr, "*** SKIPPED: %s: %s\n", name, why);
}

bool t_check(const char *name, bool cond, const char *fmt, ...)
{
	va_list args;

	if (cond) {
		t_ok(name);
		return true;
	}
	va_start(args, fmt);
	vfail(name, fmt, args);
	va_end(args);
	return false;
}

int t_done(void)
{
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	if (failed)
		return 1;
	if (!passed && skipped)
		return 77;
	if (!passed) {
		fprintf(stderr, "no test case ran\n");
		return 1;
	}
	return 0;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	(void)fmt;
	(void)args;
	return 0;
}

void t_quiet_library(void)
{
	if (!getenv("MKF_TEST_VERBOSE")) {
		mkf_set_print(quiet_print);
		libbpf_set_print(quiet_print);
	}
}

bool t_libbpf_validates_btf(void)
{
	return libbpf_major_version() > 1 ||
	       (libbpf_major_version() == 1 && libbpf_minor_version() >= 2);
}

char t_log[16384];
bool t_log_clobber_errno;
static size_t t_log_len;

int t_log_capture(enum libbpf_print_level level, const char *fmt, va_list args)
{
	size_t room = sizeof(t_log) - t_log_len;
	int n;

	(void)level;
	n = vsnprintf(t_log + t_log_len, room, fmt, args);
	if (n > 0)
		t_log_len += (size_t)n < room ? (size_t)n : room - 1;
	if (t_log_clobber_errno)
		errno = 12345;
	return n;
}

void t_log_reset(void)
{
	t_log_len = 0;
	t_log[0] = '\0';
}

int t_write_btf(const char *path, const struct btf *btf)
{
	__u32 sz;
	const void *raw = btf__raw_data(btf, &sz);
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f || !raw) {
		if (f)
			fclose(f);
		return -1;
	}
	ok = fwrite(raw, 1, sz, f) == sz;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int t_read_file(const char *path, void **buf, size_t *sz)
{
	FILE *f = fopen(path, "rb");
	long n;

	*buf = NULL;
	*sz = 0;
	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -EIO;
	}
	*buf = malloc(n ? (size_t)n : 1);
	if (*buf && fread(*buf, 1, (size_t)n, f) == (size_t)n) {
		*sz = (size_t)n;
		fclose(f);
		return 0;
	}
	fclose(f);
	free(*buf);
	*buf = NULL;
	return -EIO;
}

int t_read_bpf_object(const char *base, void **buf, size_t *sz)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.bpf.o", MKF_BPF_OBJDIR, base);
	return t_read_file(path, buf, sz);
}

struct mkf_plan *t_plan(const void *buf, size_t sz, const struct mkf_kernel *k,
			const struct mkf_plan_opts *opts)
{
	struct mkf_object *obj = mkf_object__new(buf, sz, NULL);
	struct mkf_plan *plan = obj ? mkf_plan__compute(obj, k, opts) : NULL;
	int err = errno;

	mkf_object__free(obj);
	errno = err;
	return plan;
}

int t_rewrite(const void *buf, size_t sz, const struct mkf_plan *plan, void **out,
	      size_t *out_sz, const struct mkf_rewrite_opts *opts)
{
	struct mkf_object *obj = mkf_object__new(buf, sz, NULL);
	int err = obj ? mkf_object__rewrite(obj, plan, out, out_sz, opts) : -errno;

	mkf_object__free(obj);
	errno = -err;
	return err;
}

struct mkf_object *t_object(const char *base)
{
	struct mkf_object *obj;
	void *buf;
	size_t sz;
	int err = t_read_bpf_object(base, &buf, &sz);

	if (err) {
		errno = -err;
		return NULL;
	}
	obj = mkf_object__new(buf, sz, NULL);
	err = errno;
	free(buf);
	errno = err;
	return obj;
}
