// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The public API as a user links it (shared library, exported symbols
 * only): options validation, errno conventions, logging, loading kernel
 * BTF from files and directories, open_file/open_mem and the skeleton
 * helper (open only, never load).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "magic_kfunc.h"
#include "fixtures.h"
#include "kf_wq_new.skel.h"
#include "unit.h"

#ifndef MKF_UNIT_BUILDDIR
#define MKF_UNIT_BUILDDIR "tests/unit"
#endif

/* ---- capture the library's messages ---- */

static char logbuf[8192];
static size_t loglen;
static bool clobber_errno;

static int capture(enum libbpf_print_level level, const char *fmt, va_list args)
{
	int n;

	(void)level;
	n = vsnprintf(logbuf + loglen, sizeof(logbuf) - loglen, fmt, args);
	if (n > 0)
		loglen = loglen + (size_t)n < sizeof(logbuf) ? loglen + (size_t)n : sizeof(logbuf) - 1;
	if (clobber_errno)
		errno = 12345;
	return n;
}

static void log_reset(void)
{
	loglen = 0;
	logbuf[0] = 0;
}

/* ---- fixture files ---- */

static char tmpdir[1024];
static char vmlinux_path[4200], module_path[4200], dir_vmlinux[4200], dir_module[4200];
static char btfdir[1100];

static int write_btf(const char *path, const struct btf *btf)
{
	__u32 sz;
	const void *raw = btf__raw_data(btf, &sz);
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f || !raw)
		return -1;
	ok = fwrite(raw, 1, sz, f) == sz;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int make_files(enum fx_era era)
{
	const char *base = getenv("TMPDIR");
	struct btf *vm = fx_kernel(era), *mod = fx_module(vm, true);
	int err;

	snprintf(tmpdir, sizeof(tmpdir), "%s/mkf-unit-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(vmlinux_path, sizeof(vmlinux_path), "%s/vmlinux.btf", tmpdir);
	snprintf(module_path, sizeof(module_path), "%s/mkf_testmod.btf", tmpdir);
	snprintf(btfdir, sizeof(btfdir), "%s/btf", tmpdir);
	snprintf(dir_vmlinux, sizeof(dir_vmlinux), "%s/vmlinux", btfdir);
	snprintf(dir_module, sizeof(dir_module), "%s/mkf_testmod", btfdir);
	err = write_btf(vmlinux_path, vm) || write_btf(module_path, mod) ||
	      mkdir(btfdir, 0700) || write_btf(dir_vmlinux, vm) || write_btf(dir_module, mod);
	btf__free(mod);
	btf__free(vm);
	return err ? -1 : 0;
}

static void remove_files(void)
{
	unlink(dir_vmlinux);
	unlink(dir_module);
	rmdir(btfdir);
	unlink(vmlinux_path);
	unlink(module_path);
	rmdir(tmpdir);
}

static void object_path(const char *base, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s.bpf.o", MKF_UNIT_BUILDDIR, base);
}

/* ---- cases ---- */

static void test_version(void)
{
	char want[32];

	snprintf(want, sizeof(want), "v%u.%u.0", mkf_major_version(), mkf_minor_version());
	t_check("version string matches major/minor", !strcmp(mkf_version_string(), want),
		"got %s", mkf_version_string());
}

static void test_opts_validation(void)
{
	struct mkf_kernel_opts small = { .sz = 4 };
	struct {
		struct mkf_kernel_opts o;
		char newer[16];
	} big;
	struct mkf_kernel *k;

	log_reset();
	errno = 0;
	k = mkf_kernel__load(&small);
	t_check("opts: sz too small -> NULL, errno EINVAL", !k && errno == EINVAL, "errno %d", errno);
	t_check("opts: the message says why, with the library's prefix",
		strstr(logbuf, "libmagic-kfunc: mkf_kernel_opts size (4) is too small") != NULL,
		"log: %s", logbuf);

	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.vmlinux_path = vmlinux_path;
	big.newer[3] = 1;
	log_reset();
	k = mkf_kernel__load(&big.o);
	t_check("opts: unknown non-zero tail bytes -> EINVAL", !k && errno == EINVAL &&
		strstr(logbuf, "non-zero extra bytes"), "errno %d, log: %s", errno, logbuf);
	big.newer[3] = 0;
	k = mkf_kernel__load(&big.o);
	t_check("opts: unknown zero tail bytes are accepted", k != NULL, "errno %d", errno);
	mkf_kernel__free(k);
}

static void test_print_errno(void)
{
	MKF_OPTS(mkf_kernel_opts, opts, .vmlinux_path = "/nonexistent/vmlinux.btf");
	struct mkf_kernel *k;

	clobber_errno = true;
	log_reset();
	k = mkf_kernel__load(&opts);
	clobber_errno = false;
	t_check("errno survives a print callback that clobbers it", !k && errno == ENOENT,
		"errno %d", errno);
	t_check("missing file is reported", strstr(logbuf, "/nonexistent/vmlinux.btf") != NULL,
		"log: %s", logbuf);
}

static void test_kernel_files(void)
{
	const char *mods[] = { module_path };
	MKF_OPTS(mkf_kernel_opts, files, .vmlinux_path = vmlinux_path, .module_paths = mods,
		 .module_cnt = 1);
	MKF_OPTS(mkf_kernel_opts, dir, .btf_dir = btfdir);
	MKF_OPTS(mkf_kernel_opts, nomods, .btf_dir = btfdir, .skip_modules = true);
	MKF_OPTS(mkf_kernel_opts, bad, .module_paths = mods, .module_cnt = 1);
	struct mkf_kernel *k;

	k = mkf_kernel__load(&files);
	t_check("kernel from files: vmlinux + module split BTF",
		k && mkf_kernel__module_cnt(k) == 1 &&
		!strcmp(mkf_kernel__module_name(k, 0), "mkf_testmod") && mkf_kernel__has_kfunc_tags(k),
		"errno %d", errno);
	mkf_kernel__free(k);
	k = mkf_kernel__load(&dir);
	t_check("kernel from a btf_dir like /sys/kernel/btf", k && mkf_kernel__module_cnt(k) == 1,
		"errno %d", errno);
	t_check("module index past the end -> NULL, ENOENT",
		k && !mkf_kernel__module_name(k, 1) && errno == ENOENT, "errno %d", errno);
	mkf_kernel__free(k);
	k = mkf_kernel__load(&nomods);
	t_check("btf_dir with skip_modules", k && mkf_kernel__module_cnt(k) == 0, "errno %d", errno);
	mkf_kernel__free(k);
	k = mkf_kernel__load(&bad);
	t_check("module_paths without vmlinux_path -> EINVAL", !k && errno == EINVAL,
		"errno %d", errno);
	t_check("mkf_kernel__new(NULL) -> EINVAL", !mkf_kernel__new(NULL) && errno == EINVAL,
		"errno %d", errno);
}

static void test_running_kernel(void)
{
	struct mkf_kernel *k;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		t_skip("running kernel's BTF", "/sys/kernel/btf/vmlinux is not readable here: %s",
		       strerror(errno));
		return;
	}
	k = mkf_kernel__load(NULL);
	t_check("running kernel's BTF (read only, no bpf())", k != NULL, "errno %d", errno);
	mkf_kernel__free(k);
}

/* The same programs, maps and names as plain libbpf would give. */
static bool same_as_plain(struct bpf_object *obj, const char *path, char *why, size_t wsz)
{
	struct bpf_object *plain = bpf_object__open_file(path, NULL);
	struct bpf_program *p, *q;
	struct bpf_map *m, *n;
	bool ok = plain && obj && !strcmp(bpf_object__name(plain), bpf_object__name(obj));

	if (!ok)
		snprintf(why, wsz, "names differ or open failed");
	for (p = ok ? bpf_object__next_program(plain, NULL) : NULL,
	     q = ok ? bpf_object__next_program(obj, NULL) : NULL; ok && (p || q);
	     p = bpf_object__next_program(plain, p), q = bpf_object__next_program(obj, q)) {
		if (!p || !q || strcmp(bpf_program__name(p), bpf_program__name(q)) ||
		    bpf_program__insn_cnt(p) != bpf_program__insn_cnt(q)) {
			snprintf(why, wsz, "programs differ");
			ok = false;
		}
	}
	for (m = ok ? bpf_object__next_map(plain, NULL) : NULL,
	     n = ok ? bpf_object__next_map(obj, NULL) : NULL; ok && (m || n);
	     m = bpf_object__next_map(plain, m), n = bpf_object__next_map(obj, n)) {
		if (!m || !n || strcmp(bpf_map__name(m), bpf_map__name(n))) {
			snprintf(why, wsz, "maps differ: %s vs %s", m ? bpf_map__name(m) : "-",
				 n ? bpf_map__name(n) : "-");
			ok = false;
		}
	}
	bpf_object__close(plain);
	return ok;
}

static void test_open(void)
{
	struct btf *vm616 = fx_kernel(FX_616), *vm612 = fx_kernel(FX_612_DEB12);
	struct mkf_kernel *k616 = mkf_kernel__new(vm616), *k612 = mkf_kernel__new(vm612);
	struct mkf_plan *plan = NULL;
	MKF_OPTS(mkf_open_opts, mo, .kernel = k616, .plan = &plan);
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = vmlinux_path);
	MKF_OPTS(mkf_open_opts, mo_files, .kernel_opts = &ko);
	MKF_OPTS(mkf_open_opts, mo612, .kernel = k612);
	MKF_OPTS(mkf_open_opts, mo612_allow, .kernel = k612, .allow_unresolved = true);
	LIBBPF_OPTS(bpf_object_open_opts, custom, .btf_custom_path = vmlinux_path);
	const struct mkf_plan_entry *e;
	char path[4096], why[256] = "";
	struct bpf_object *obj;
	void *buf = NULL;
	size_t sz = 0;
	FILE *f;

	object_path("kf_wq_new", path, sizeof(path));
	obj = mkf_object__open_file(path, NULL, &mo);
	t_check("open_file: same object name, programs and maps as bpf_object__open_file",
		same_as_plain(obj, path, why, sizeof(why)), "%s", why);
	e = plan ? mkf_plan__find_entry(plan, "bpf_wq_set_callback") : NULL;
	t_check("open_file: the plan is handed back", e &&
		!strcmp(mkf_plan_entry__kernel_name(e), "bpf_wq_set_callback_impl") &&
		mkf_plan_entry__proto_change(e) == MKF_PROTO_EXTEND &&
		mkf_plan_entry__rule(e) == 4, "plan %p", (void *)plan);
	t_check("plan: entry past the end -> NULL, ENOENT",
		plan && !mkf_plan__entry(plan, 99) && errno == ENOENT, "errno %d", errno);
	T_EXPECT("plan: every entry has a reason", plan && mkf_plan__entry_cnt(plan) == 2 &&
		mkf_plan_entry__reason(mkf_plan__entry(plan, 0)) &&
		mkf_plan_entry__reason(mkf_plan__entry(plan, 1)));
	bpf_object__close(obj);
	mkf_plan__free(plan);
	plan = NULL;

	obj = mkf_object__open_file(path, NULL, &mo_files);
	t_check("open_file: kernel loaded from kernel_opts", obj != NULL, "errno %d", errno);
	bpf_object__close(obj);
	obj = mkf_object__open_file(path, &custom, NULL);
	t_check("open_file: libbpf's btf_custom_path names the target kernel", obj != NULL,
		"errno %d", errno);
	bpf_object__close(obj);

	f = fopen(path, "rb");
	if (f) {
		fseek(f, 0, SEEK_END);
		sz = (size_t)ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(sz);
		if (fread(buf, 1, sz, f) != sz)
			sz = 0;
		fclose(f);
	}
	obj = sz ? mkf_object__open_mem(buf, sz, NULL, &mo) : NULL;
	t_check("open_mem: opens the rewritten image", obj &&
		bpf_object__find_program_by_name(obj, "set_wq"), "errno %d", errno);
	bpf_object__close(obj);
	mkf_plan__free(plan);
	plan = NULL;
	free(buf);

	object_path("kf_list", path, sizeof(path));
	obj = mkf_object__open_file(path, NULL, &mo612);
	t_check("open_file: an unresolved strong extern fails with ESRCH", !obj && errno == ESRCH,
		"errno %d", errno);
	obj = mkf_object__open_file(path, NULL, &mo612_allow);
	t_check("open_file: allow_unresolved opens anyway", obj != NULL, "errno %d", errno);
	bpf_object__close(obj);

	object_path("does-not-exist", path, sizeof(path));
	t_check("open_file: missing file -> NULL, ENOENT",
		!mkf_object__open_file(path, NULL, &mo) && errno == ENOENT, "errno %d", errno);
	t_check("open_mem: NULL buffer -> EINVAL",
		!mkf_object__open_mem(NULL, 10, NULL, &mo) && errno == EINVAL, "errno %d", errno);

	mkf_kernel__free(k616);
	mkf_kernel__free(k612);
	btf__free(vm616);
	btf__free(vm612);
}

static void test_skeleton(void)
{
	struct btf *vm = fx_kernel(FX_616);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	MKF_OPTS(mkf_open_opts, mo, .kernel = k);
	struct kf_wq_new *skel = calloc(1, sizeof(*skel));
	const void *data;
	size_t data_sz;
	int err = -1;

	if (skel && !kf_wq_new__create_skeleton(skel)) {
		data = skel->skeleton->data;
		data_sz = skel->skeleton->data_sz;
		err = mkf_object__open_skeleton(skel->skeleton, NULL, &mo);
		t_check("skeleton: opens through the rewrite", !err && skel->obj &&
			skel->progs.set_wq && skel->progs.say && skel->maps.wq_map && skel->bss,
			"err %d", err);
		T_EXPECT("skeleton: embedded ELF pointer and size restored",
			skel->skeleton->data == data && skel->skeleton->data_sz == data_sz);
		t_check("skeleton: internal maps keep the skeleton's names",
			skel->maps.bss && !strcmp(bpf_map__name(skel->maps.bss), "kf_wq_ne.bss"),
			"got %s", skel->maps.bss ? bpf_map__name(skel->maps.bss) : "-");
	} else {
		t_fail("skeleton: opens through the rewrite", "create_skeleton failed");
	}
	/* The generated destroy is the only cleanup (valgrind checks the rest). */
	kf_wq_new__destroy(skel);
	T_EXPECT("skeleton: NULL -> EINVAL",
		mkf_object__open_skeleton(NULL, NULL, &mo) == -EINVAL && errno == EINVAL);
	mkf_kernel__free(k);
	btf__free(vm);
}

/*
 * The default callback's threshold comes from MKF_LOG_LEVEL, read once:
 * try each level in a child process, with stderr captured.
 */
static bool stderr_has(libbpf_print_fn_t dflt, const char *level, const char *needle)
{
	char out[16384], path[4096];
	size_t len = 0;
	ssize_t n;
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		return false;
	pid = fork();
	if (pid == 0) {
		MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = vmlinux_path);
		struct mkf_kernel *k;
		struct mkf_plan *plan;
		FILE *f;
		void *buf;
		long sz;

		dup2(pfd[1], 2);
		close(pfd[0]);
		if (level)
			setenv("MKF_LOG_LEVEL", level, 1);
		else
			unsetenv("MKF_LOG_LEVEL");
		mkf_set_print(dflt);
		/* A debug line (kernel loaded), info lines (rewrites planned). */
		k = mkf_kernel__load(&ko);
		object_path("kf_wq_old", path, sizeof(path));
		f = fopen(path, "rb");
		if (!f || !k)
			_exit(1);
		fseek(f, 0, SEEK_END);
		sz = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(sz);
		if (fread(buf, 1, sz, f) != (size_t)sz)
			_exit(1);
		fclose(f);
		plan = mkf_plan__compute(buf, sz, k, NULL);
		mkf_plan__free(plan);
		mkf_kernel__free(k);
		free(buf);
		fflush(stderr);
		_exit(0);
	}
	close(pfd[1]);
	while (len < sizeof(out) - 1 && (n = read(pfd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = 0;
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	return strstr(out, needle) != NULL;
}

static void test_log_levels(libbpf_print_fn_t dflt)
{
	const char *info = "libmagic-kfunc: object: extern 'bpf_wq_set_callback_impl' binds";
	const char *debug = "libmagic-kfunc: kernel BTF";

	T_EXPECT("default log level prints info, not debug",
		 stderr_has(dflt, NULL, info) && !stderr_has(dflt, NULL, debug));
	T_EXPECT("MKF_LOG_LEVEL=warn hides info", !stderr_has(dflt, "warn", info));
	T_EXPECT("MKF_LOG_LEVEL=debug shows debug", stderr_has(dflt, "debug", debug));
}

/* The kernel's functions, through the public accessors. */
static void test_kernel_funcs(void)
{
	struct btf *vm = fx_kernel(FX_70), *mod = fx_module(vm, true);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	const struct mkf_kfunc *fn, *impl, *m;
	size_t i, n, found = 0;

	if (!k || mkf_kernel__add_module(k, "mkf_testmod", mod)) {
		t_fail("kernel functions", "cannot describe the fixture kernel");
		goto out;
	}
	n = mkf_kernel__func_cnt(k);
	for (i = 0; i < n; i++)
		found += mkf_kernel__func(k, i) && mkf_kfunc__name(mkf_kernel__func(k, i));
	T_EXPECT("mkf_kernel__func: every index up to func_cnt", n > 0 && found == n);
	errno = 0;
	T_EXPECT("mkf_kernel__func: past the end is NULL, ENOENT",
		!mkf_kernel__func(k, n) && errno == ENOENT);
	fn = mkf_kernel__find_func(k, "bpf_wq_set_callback");
	impl = mkf_kernel__find_func(k, "bpf_wq_set_callback_impl");
	m = mkf_kernel__find_func(k, "mkf_testmod_magic");
	T_EXPECT("mkf_kernel__find_func: a tagged vmlinux kfunc",
		fn && !strcmp(mkf_kfunc__name(fn), "bpf_wq_set_callback") &&
		mkf_kfunc__btf(fn) == vm && !mkf_kfunc__module(fn) &&
		mkf_kfunc__has_kfunc_tag(fn) && mkf_kernel__func_callable(k, fn) &&
		btf__type_by_id(vm, mkf_kfunc__type_id(fn))->type == mkf_kfunc__proto_id(fn));
	T_EXPECT("mkf_kernel__find_func: a prototype-only _impl is not callable",
		impl && !mkf_kfunc__has_kfunc_tag(impl) && !mkf_kernel__func_callable(k, impl));
	T_EXPECT("mkf_kernel__find_func: a module kfunc names its module",
		m && mkf_kfunc__btf(m) == mod && mkf_kfunc__module(m) &&
		!strcmp(mkf_kfunc__module(m), "mkf_testmod"));
	errno = 0;
	T_EXPECT("mkf_kernel__find_func: no such name is NULL, ENOENT",
		!mkf_kernel__find_func(k, "no_such_function") && errno == ENOENT);
out:
	mkf_kernel__free(k);
	btf__free(mod);
	btf__free(vm);
}

/* The parameter rules, through the public entry point (the shared library). */
static void test_param_kind(void)
{
	struct btf *k = fx_kernel(FX_73);
	const char *why = NULL;
	bool by_type = true;
	int p;

	p = btf__type_by_id(k, btf__find_by_name_kind(k, "bpf_list_push_back_impl",
							BTF_KIND_FUNC))->type;
	T_EXPECT("mkf_btf__param_kind: meta__ign is provided, by its name",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 2, &by_type, &why) ==
		MKF_PARAM_PROVIDED && !by_type && why && !strcmp(why, "__ign"));
	T_EXPECT("mkf_btf__param_kind: the list node offset is a checked scalar",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 3, NULL, NULL) ==
		MKF_PARAM_CHECKED_SCALAR);
	T_EXPECT("mkf_btf__param_kind: head is an ordinary param",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 0, NULL, NULL) ==
		MKF_PARAM_NORMAL);
	T_EXPECT("mkf_btf__param_kind: out of range and NULL BTF are ordinary",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 9, NULL, NULL) ==
		MKF_PARAM_NORMAL && mkf_btf__param_kind(NULL, "x", p, 0, NULL, NULL) ==
		MKF_PARAM_NORMAL);
	p = btf__type_by_id(k, btf__find_by_name_kind(k, "bpf_wq_set_callback_impl",
							BTF_KIND_FUNC))->type;
	T_EXPECT("mkf_btf__param_kind: struct bpf_prog_aux * is provided, by its type",
		mkf_btf__param_kind(k, "bpf_wq_set_callback_impl", p, 3, &by_type, NULL) ==
		MKF_PARAM_PROVIDED && by_type);
	btf__free(k);
}

int main(void)
{
	libbpf_print_fn_t old;

	old = mkf_set_print(capture);
	T_EXPECT("mkf_set_print returns the previous (default) callback", old != NULL);
	if (make_files(FX_70)) {
		t_fail("fixture files", "cannot write fixture BTF files: %s", strerror(errno));
		return t_done();
	}
	test_version();
	test_log_levels(old);
	test_opts_validation();
	test_print_errno();
	t_quiet_library();
	test_kernel_files();
	test_running_kernel();
	test_open();
	test_skeleton();
	test_param_kind();
	test_kernel_funcs();
	remove_files();
	return t_done();
}
