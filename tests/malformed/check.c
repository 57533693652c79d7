// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The library side of the malformed-input tests (tests/malformed/malformed-test
 * drives it, one case per run):
 *
 *   check --write-kernel OUT MODULE_OUT
 *	write the raw .BTF of a 7.0 fixture kernel (tests/unit/fixtures.c)
 *	and the split BTF of a module on top of it;
 *   check KIND INPUT ERRNO MESSAGE KERNEL_BTF BASE_OBJ
 *	feed INPUT to the public API: mkf_object__new(), mkf_object__open_mem()
 *	(or mkf_object__open_file() for KIND "path", mkf_kernel__load() for
 *	KIND "kbtf", "kball" (with check_all_types) and, as a module's BTF,
 *	"mbtf") and mkf_object__rewrite()
 *	(alone for KIND "plan": INPUT with BASE_OBJ's plan; for KIND "patch"
 *	INPUT's own plan, which must succeed, and an open and a rewrite that
 *	the call patching refuses), and check each
 *	fails with ERRNO (a name) and says MESSAGE. ERRNO ESRCH for "kbtf":
 *	the kernel loads, and the strong extern of BASE_OBJ fits nothing.
 *
 * Prints "ok   name" / "FAIL name: why" lines; exits 1 if any failed.
 * Never loads anything: libbpf only opens.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magic_kfunc.h"
#include "fixtures.h"

static char captured[8192];
static int failures;

static int capture(enum libbpf_print_level level, const char *fmt, va_list args)
{
	size_t len = strlen(captured);

	if (level == LIBBPF_WARN && len < sizeof(captured) - 1)
		vsnprintf(captured + len, sizeof(captured) - len, fmt, args);
	return 0;
}

static void check(bool cond, const char *what, const char *fmt, ...)
{
	va_list args;

	if (cond) {
		printf("ok   %s\n", what);
		return;
	}
	failures++;
	printf("FAIL %s: ", what);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	printf("\n");
}

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "0", 0 }, { "EINVAL", EINVAL }, { "ENOENT", ENOENT }, { "EISDIR", EISDIR },
	{ "EIO", EIO }, { "ESRCH", ESRCH }, { "ENOMEM", ENOMEM }, { "E2BIG", E2BIG },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "ENODATA", ENODATA },
};

static int errno_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	fprintf(stderr, "unknown errno name %s\n", name);
	exit(2);
}

static int read_all(const char *path, void **buf, size_t *sz)
{
	FILE *f = fopen(path, "rb");
	char *data = malloc(1);
	size_t n = 0;
	int c;

	if (!f || !data) {
		free(data);
		if (f)
			fclose(f);
		return -1;
	}
	while ((c = fgetc(f)) != EOF) {
		char *p = realloc(data, n + 2);

		if (!p) {
			free(data);
			fclose(f);
			return -1;
		}
		data = p;
		data[n++] = (char)c;
	}
	fclose(f);
	*buf = data;
	*sz = n;
	return 0;
}

static int write_btf(const struct btf *btf, const char *out)
{
	const void *raw;
	__u32 sz;
	FILE *f;

	raw = btf ? btf__raw_data(btf, &sz) : NULL;
	f = raw ? fopen(out, "wb") : NULL;
	if (!f || fwrite(raw, 1, sz, f) != sz || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", out);
		return 1;
	}
	return 0;
}

static int write_kernel(const char *out, const char *module_out)
{
	struct btf *btf = fx_kernel(FX_70);
	struct btf *mod = btf ? fx_module(btf, true) : NULL;
	int ret;

	ret = write_btf(btf, out) || write_btf(mod, module_out);
	btf__free(mod);
	btf__free(btf);
	return ret;
}

static struct mkf_kernel *load_kernel(const char *path)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = path);

	return mkf_kernel__load(&ko);
}

/* A NULL result with errno err and message msg in the captured warnings. */
static void expect_fail(const char *what, const void *res, int got, int err, const char *msg)
{
	char name[256];

	snprintf(name, sizeof(name), "%s fails with %s", what, strerror(err));
	check(!res && got == err, name, "returned %p, errno %d (%s)", res, got, strerror(got));
	snprintf(name, sizeof(name), "%s says \"%s\"", what, msg);
	check(strstr(captured, msg) != NULL, name, "library said: %s", captured);
}

int main(int argc, char **argv)
{
	const char *kind, *input, *msg, *kbtf, *base_path;
	struct mkf_plan *plan = NULL, *base_plan = NULL;
	struct mkf_object *mobj = NULL, *base_obj = NULL;
	struct mkf_kernel *k = NULL, *bad_k;
	void *buf = NULL, *base = NULL, *out = NULL;
	size_t sz = 0, base_sz = 0, out_sz = 0;
	struct bpf_object *obj;
	int err, ret;

	mkf_set_print(capture);
	libbpf_set_print(capture);
	if (argc == 4 && !strcmp(argv[1], "--write-kernel"))
		return write_kernel(argv[2], argv[3]);
	if (argc != 7) {
		fprintf(stderr, "usage: %s KIND INPUT ERRNO MESSAGE KERNEL_BTF BASE_OBJ\n", argv[0]);
		return 2;
	}
	kind = argv[1];
	input = argv[2];
	err = errno_of(argv[3]);
	msg = argv[4];
	kbtf = argv[5];
	base_path = argv[6];

	if (read_all(base_path, &base, &base_sz)) {
		fprintf(stderr, "cannot read %s\n", base_path);
		return 2;
	}
	k = load_kernel(kbtf);
	if (!k) {
		fprintf(stderr, "cannot load the good kernel BTF %s: %s\n", kbtf, captured);
		free(base);
		return 2;
	}
	base_obj = mkf_object__new(base, base_sz, NULL);
	base_plan = base_obj ? mkf_plan__compute(base_obj, k, NULL) : NULL;
	if (!base_plan || !mkf_plan__change_cnt(base_plan)) {
		fprintf(stderr, "%s: no plan with changes on the good kernel\n", base_path);
		return 2;
	}

	if (!strcmp(kind, "path")) {
		MKF_OPTS(mkf_open_opts, mo, .kernel = k);

		captured[0] = '\0';
		errno = 0;
		obj = mkf_object__open_file(input, NULL, &mo);
		expect_fail("mkf_object__open_file()", obj, errno, err, msg);
		bpf_object__close(obj);
	} else if (!strcmp(kind, "obj")) {
		MKF_OPTS(mkf_open_opts, mo, .kernel = k);

		if (read_all(input, &buf, &sz)) {
			fprintf(stderr, "cannot read %s\n", input);
			return 2;
		}
		captured[0] = '\0';
		errno = 0;
		mobj = mkf_object__new(buf, sz, NULL);
		/* An empty buffer is refused before it is read. */
		expect_fail("mkf_object__new()", mobj, errno, err, msg);
		captured[0] = '\0';
		errno = 0;
		obj = mkf_object__open_mem(buf, sz, NULL, &mo);
		expect_fail("mkf_object__open_mem()", obj, errno, err,
			    sz ? msg : "mkf_object__open_mem: no object given");
		bpf_object__close(obj);
	} else if (!strcmp(kind, "patch")) {
		char why[256] = "stale";
		MKF_OPTS(mkf_rewrite_opts, ro, .err_buf = why, .err_buf_sz = sizeof(why));
		MKF_OPTS(mkf_open_opts, mo, .kernel = k);

		if (read_all(input, &buf, &sz)) {
			fprintf(stderr, "cannot read %s\n", input);
			return 2;
		}
		/* The plan is fine: only its instruction patches cannot be made. */
		mobj = mkf_object__new(buf, sz, NULL);
		plan = mobj ? mkf_plan__compute(mobj, k, NULL) : NULL;
		check(plan && mkf_plan__change_cnt(plan), "mkf_plan__compute() plans call set-ups",
		      "errno %d", errno);
		captured[0] = '\0';
		errno = 0;
		ret = plan ? mkf_object__rewrite(mobj, plan, &out, &out_sz, &ro) : 0;
		check(ret == -err && errno == err && !out && !out_sz,
		      "mkf_object__rewrite() refuses the patch", "returned %d, errno %d", ret, errno);
		check(strstr(captured, msg) && strstr(why, msg), "mkf_object__rewrite() says why",
		      "library said: %s; err_buf: %s", captured, why);
		captured[0] = '\0';
		errno = 0;
		obj = mkf_object__open_mem(buf, sz, NULL, &mo);
		expect_fail("mkf_object__open_mem()", obj, errno, err, msg);
		bpf_object__close(obj);
	} else if (!strcmp(kind, "plan")) {
		char why[256] = "stale";
		MKF_OPTS(mkf_rewrite_opts, ro, .err_buf = why, .err_buf_sz = sizeof(why));

		if (read_all(input, &buf, &sz)) {
			fprintf(stderr, "cannot read %s\n", input);
			return 2;
		}
		mobj = mkf_object__new(buf, sz, NULL);
		check(mobj != NULL, "mkf_object__new() reads the other object", "errno %d", errno);
		captured[0] = '\0';
		errno = 0;
		ret = mobj ? mkf_object__rewrite(mobj, base_plan, &out, &out_sz, &ro) : 0;
		check(ret == -err && errno == err && !out && !out_sz,
		      "mkf_object__rewrite() with another object's plan fails",
		      "returned %d, errno %d, out %p", ret, errno, out);
		check(strstr(captured, msg) != NULL, "mkf_object__rewrite() says why",
		      "library said: %s", captured);
		check(strstr(why, msg) != NULL, "mkf_object__rewrite(): err_buf says it too",
		      "err_buf: %s", why);
	} else if (!strcmp(kind, "kbtf") || !strcmp(kind, "mbtf") || !strcmp(kind, "kball")) {
		/* mbtf: a module's BTF on top of the good kernel's; kball: checked whole. */
		bool module = !strcmp(kind, "mbtf");
		const char *modules[] = { input };
		MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = module ? kbtf : input,
			 .module_paths = module ? modules : NULL, .module_cnt = module ? 1 : 0,
			 .check_all_types = !strcmp(kind, "kball"));
		/* The one-call open names a kernel file through libbpf's option. */
		LIBBPF_OPTS(bpf_object_open_opts, lo, .btf_custom_path = input);
		bool via_open = !strcmp(kind, "kbtf");

		captured[0] = '\0';
		errno = 0;
		bad_k = mkf_kernel__load(&ko);
		if (err != ESRCH) {
			expect_fail("mkf_kernel__load()", bad_k, errno, err, msg);
		} else {
			/* Loads, but nothing in it is callable: the strong extern
			 * is unresolved and opening refuses the object. */
			check(bad_k != NULL, "mkf_kernel__load() accepts it", "errno %d", errno);
			plan = bad_k ? mkf_plan__compute(base_obj, bad_k, NULL) : NULL;
			check(plan && mkf_plan__unresolved_cnt(plan) == 1,
			      "mkf_plan__compute(): one unresolved extern", "plan %p", (void *)plan);
			ret = plan ? mkf_object__rewrite(base_obj, plan, &out, &out_sz, NULL) : -1;
			check(ret == 0 && out_sz == base_sz && !memcmp(out, base, base_sz),
			      "mkf_object__rewrite(): nothing to change", "returned %d", ret);
		}
		mkf_kernel__free(bad_k);
		if (via_open) {
			captured[0] = '\0';
			errno = 0;
			obj = mkf_object__open_mem(base, base_sz, &lo, NULL);
			expect_fail("mkf_object__open_mem()", obj, errno, err, msg);
			bpf_object__close(obj);
		}
	} else {
		fprintf(stderr, "unknown kind %s\n", kind);
		return 2;
	}
	free(out);
	free(buf);
	free(base);
	mkf_plan__free(plan);
	mkf_plan__free(base_plan);
	mkf_object__free(mobj);
	mkf_object__free(base_obj);
	mkf_kernel__free(k);
	return failures ? 1 : 0;
}
