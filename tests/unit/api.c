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

#include <gelf.h>

#include "magic_kfunc_introspect.h"
#include "kernel_index.h"
#include "fixtures.h"
#include "unit_wq_new.skel.h"
#include "unit.h"

#ifndef MKF_BPF_OBJDIR
#define MKF_BPF_OBJDIR "tests/bpf"
#endif

/* ---- fixture files ---- */

static char tmpdir[1024];
static char vmlinux_path[4200], module_path[4200], dir_vmlinux[4200], dir_module[4200];
static char btfdir[1100];

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
	err = t_write_btf(vmlinux_path, vm) || t_write_btf(module_path, mod) ||
	      mkdir(btfdir, 0700) || t_write_btf(dir_vmlinux, vm) || t_write_btf(dir_module, mod);
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

/* The FUNC libbpf binds for a name: the library's lookup (not exported). */
static const struct mkf_func *find_func(const struct mkf_kernel *k, const char *name)
{
	const struct mkf_func *fn = mkf_kernel_find(k, name);

	if (!fn)
		errno = ENOENT;
	return fn;
}

static void object_path(const char *base, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s.bpf.o", MKF_BPF_OBJDIR, base);
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

	t_log_reset();
	errno = 0;
	k = mkf_kernel__load(&small);
	t_check("opts: sz too small -> NULL, errno EINVAL", !k && errno == EINVAL, "errno %d", errno);
	t_check("opts: the message says why, with the library's prefix",
		strstr(t_log, "libmagic-kfunc: mkf_kernel_opts size (4) is too small") != NULL,
		"log: %s", t_log);

	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.vmlinux_path = vmlinux_path;
	big.newer[3] = 1;
	t_log_reset();
	k = mkf_kernel__load(&big.o);
	t_check("opts: unknown non-zero tail bytes -> EINVAL", !k && errno == EINVAL &&
		strstr(t_log, "non-zero extra bytes"), "errno %d, log: %s", errno, t_log);
	big.newer[3] = 0;
	k = mkf_kernel__load(&big.o);
	t_check("opts: unknown zero tail bytes are accepted", k != NULL, "errno %d", errno);
	mkf_kernel__free(k);
}

static void test_print_errno(void)
{
	MKF_OPTS(mkf_kernel_opts, opts, .vmlinux_path = "/nonexistent/vmlinux.btf");
	struct mkf_kernel *k;

	t_log_clobber_errno = true;
	t_log_reset();
	k = mkf_kernel__load(&opts);
	t_log_clobber_errno = false;
	t_check("errno survives a print callback that clobbers it", !k && errno == ENOENT,
		"errno %d", errno);
	t_check("missing file is reported", strstr(t_log, "/nonexistent/vmlinux.btf") != NULL,
		"log: %s", t_log);
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

/* Point a FUNC's name past the strings (libbpf 1.1 does not check). */
static int break_name(struct btf *btf, const char *func)
{
	int id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	struct btf_type *t;

	if (id <= 0)
		return -1;
	/* The BTF is the test's own, built in memory: it may be written. */
	t = (struct btf_type *)btf__type_by_id(btf, id);
	t->name_off = 0x7fffff00;
	return id;
}

/*
 * Describing a kernel checks the FUNCs and decl tags it reads; a bad
 * reference elsewhere is found only with check_all_types (what the CLI
 * sets before handing BTF to libbpf's btf_dump).
 */
static void test_kernel_check_all_types(void)
{
	struct btf *vm = fx_kernel(FX_70);
	char path[4300], why[256] = "", want[128];
	struct btf_type *t = NULL;
	struct mkf_kernel *k;
	__u32 id, n = vm ? btf__type_cnt(vm) : 0;

	for (id = 1; id < n; id++) {
		t = (struct btf_type *)btf__type_by_id(vm, id);
		if (btf_is_ptr(t))
			break;
	}
	if (!vm || id == n) {
		t_fail("check_all_types: fixture with a PTR", "none");
		btf__free(vm);
		return;
	}
	/* The BTF is the test's own, built in memory: it may be written. */
	t->type = n + 7;
	snprintf(path, sizeof(path), "%s/bad-ptr.btf", tmpdir);
	if (t_write_btf(path, vm)) {
		t_fail("check_all_types: write the fixture", "%s", path);
		btf__free(vm);
		return;
	}
	LIBBPF_OPTS(mkf_kernel_opts, lazy, .vmlinux_path = path);
	LIBBPF_OPTS(mkf_kernel_opts, all, .vmlinux_path = path, .check_all_types = true,
		    .err_buf = why, .err_buf_sz = sizeof(why));

	if (t_libbpf_validates_btf()) {
		/*
		 * libbpf >= 1.2 refuses the file itself. The view checks what
		 * 1.1 checks, so it takes the file; the FUNC whose prototype
		 * holds the PTR cannot be made into a BTF libbpf takes.
		 */
		k = mkf_kernel__load(&lazy);
		t_check("a PTR past the last type: the view takes it (as libbpf 1.1)", k != NULL,
			"errno %d", errno);
		t_check("... and a kfunc whose prototype reaches it is not found",
			k && !find_func(k, "bpf_wq_set_callback"), "found");
		mkf_kernel__free(k);
		errno = 0;
		k = mkf_kernel__load(&all);
		t_check("check_all_types: the same BTF -> NULL, EINVAL", !k && errno == EINVAL,
			"errno %d", errno);
		t_check("check_all_types: says libbpf cannot read it",
			strstr(why, "cannot read kernel BTF: Invalid argument") != NULL,
			"err_buf: %s", why);
		mkf_kernel__free(k);
		unlink(path);
		btf__free(vm);
		return;
	}
	k = mkf_kernel__load(&lazy);
	t_check("a PTR past the last type: loads without check_all_types (libbpf 1.1)", k != NULL,
		"errno %d", errno);
	t_check("... and its kfuncs are found",
		k && find_func(k, "bpf_wq_set_callback") != NULL,
		"not found");
	mkf_kernel__free(k);
	errno = 0;
	k = mkf_kernel__load(&all);
	t_check("check_all_types: the same BTF -> NULL, EINVAL", !k && errno == EINVAL,
		"errno %d", errno);
	snprintf(want, sizeof(want), "kernel BTF: BTF type [%u] refers to type [%u], past the last one",
		 id, n + 7);
	t_check("check_all_types: says which type", strstr(why, want) != NULL, "err_buf: %s", why);
	mkf_kernel__free(k);
	unlink(path);
	btf__free(vm);
}

/*
 * Lookups are answered from a cache filled by scans: every way of
 * filling it (one name, many names at once, a module added after a
 * miss, more misses than the one-name limit) gives the same answers.
 */
static void test_kernel_lookups(void)
{
	struct btf *vm = fx_kernel(FX_70), *mod = vm ? fx_module(vm, true) : NULL;
	struct mkf_kernel *k = vm ? mkf_kernel__new(vm) : NULL;
	const struct mkf_func *a, *b;
	char name[64];
	int i;

	if (!k || !mod) {
		t_fail("lookups: fixtures", "errno %d", errno);
		goto out;
	}
	a = find_func(k, "bpf_wq_set_callback");
	b = find_func(k, "bpf_wq_set_callback");
	t_check("lookups: the same FUNC twice (cached)", a && a == b &&
		!strcmp(mkf_func__name(a), "bpf_wq_set_callback"), "%p %p", (void *)a, (void *)b);
	errno = 0;
	t_check("lookups: a module kfunc before the module -> ENOENT",
		!find_func(k, "mkf_testmod_magic") && errno == ENOENT,
		"errno %d", errno);
	t_check("lookups: add the module", !mkf_kernel__add_module(k, "mkf_testmod", mod),
		"errno %d", errno);
	a = find_func(k, "mkf_testmod_magic");
	t_check("lookups: the miss is searched again in the new module",
		a && mkf_func__module(a) &&
		!strcmp(mkf_func__module(a), "mkf_testmod"), "%p", (void *)a);
	/* Past the one-name scan limit every name is indexed: same answers. */
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "no_such_function_%d", i);
		if (find_func(k, name))
			break;
	}
	t_check("lookups: 40 misses stay misses", i == 40, "'%s' found", name);
	b = find_func(k, "mkf_testmod_magic");
	t_check("lookups: after indexing every name, the same FUNC", a == b, "%p %p",
		(void *)a, (void *)b);
	b = find_func(k, "bpf_wq_set_callback");
	t_check("lookups: and vmlinux's kfunc too", b && b == find_func(k, "bpf_wq_set_callback") &&
		!mkf_func__module(b), "%p", (void *)b);
out:
	mkf_kernel__free(k);
	btf__free(mod);
	btf__free(vm);
}

/*
 * Kernel BTF handed over in memory (docs/errors.md, Kernel BTF): the
 * files of the same kind are tests/malformed's.
 */
static void test_kernel_btf_names(void)
{
	struct btf *vm = fx_kernel(FX_70), *bad_vm = fx_kernel(FX_70);
	struct btf *mod = vm ? fx_module(vm, true) : NULL;
	struct mkf_kernel *k = vm ? mkf_kernel__new(vm) : NULL;
	int vm_id = bad_vm ? break_name(bad_vm, "bpf_wq_set_callback") : -1;
	int mod_id = mod ? break_name(mod, "mkf_testmod_magic") : -1;
	libbpf_print_fn_t quiet = mkf_set_print(t_log_capture);
	char want[128];
	int ret;

	if (!k || vm_id < 0 || mod_id < 0) {
		t_fail("kernel BTF with a bad name: fixtures", "errno %d", errno);
		goto out;
	}
	t_log_reset();
	errno = 0;
	t_check("mkf_kernel__new: a name offset past the strings -> NULL, EINVAL",
		!mkf_kernel__new(bad_vm) && errno == EINVAL, "errno %d", errno);
	snprintf(want, sizeof(want),
		 "kernel BTF: BTF type [%d] has a name offset past the end of the strings", vm_id);
	t_check("mkf_kernel__new: says which type", strstr(t_log, want) != NULL,
		"log: %s", t_log);

	t_log_reset();
	errno = 0;
	ret = mkf_kernel__add_module(k, "mkf_testmod", mod);
	t_check("mkf_kernel__add_module: a name offset past the strings -> -EINVAL",
		ret == -EINVAL && errno == EINVAL && mkf_kernel__module_cnt(k) == 0,
		"returned %d, errno %d", ret, errno);
	snprintf(want, sizeof(want),
		 "module BTF: BTF type [%d] has a name offset past the end of the strings", mod_id);
	t_check("mkf_kernel__add_module: says which type", strstr(t_log, want) != NULL,
		"log: %s", t_log);
out:
	mkf_set_print(quiet);
	mkf_kernel__free(k);
	btf__free(mod);
	btf__free(bad_vm);
	btf__free(vm);
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

/* The binding of the undefined symbol named name in an ELF image. */
static int sym_bind(const void *buf, size_t sz, const char *name)
{
	Elf *e = elf_memory((char *)buf, sz);
	Elf_Scn *scn = NULL;
	int bind = -1;

	while (e && bind < 0 && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Sym sym;
		int i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && gelf_getsym(d, i, &sym); i++) {
			const char *n = elf_strptr(e, sh.sh_link, sym.st_name);

			if (n && !strcmp(n, name) && sym.st_shndx == SHN_UNDEF)
				bind = GELF_ST_BIND(sym.st_info);
		}
	}
	if (e)
		elf_end(e);
	return bind;
}

/* weaken_unresolved: the strong extern that fits nothing becomes weak. */
static void test_weaken(const struct mkf_kernel *k, const char *path)
{
	MKF_OPTS(mkf_plan_opts, po, .weaken_unresolved = true);
	MKF_OPTS(mkf_open_opts, oo, .kernel = k, .weaken_unresolved = true);
	const struct mkf_plan_entry *e;
	struct mkf_plan *plan = NULL;
	struct bpf_object *obj;
	void *buf = NULL, *out = NULL;
	size_t sz = 0, out_sz = 0;
	int err;

	err = k ? t_read_file(path, &buf, &sz) : -EINVAL;
	plan = err ? NULL : t_plan(buf, sz, k, &po);
	e = mkf_plan__find_entry(plan, "bpf_list_push_back");
	T_EXPECT("weaken: the plan makes the strong extern weak, not unresolved",
		 e && mkf_plan_entry__decision(e) == MKF_DECISION_WEAKEN &&
		 mkf_plan__unresolved_cnt(plan) == 0 && mkf_plan__change_cnt(plan) == 1 &&
		 strstr(mkf_plan_entry__reason(e), "weakened") &&
		 !strcmp(mkf_decision_str(MKF_DECISION_WEAKEN), "weaken"));
	err = plan ? t_rewrite(buf, sz, plan, &out, &out_sz, NULL) : -EINVAL;
	T_EXPECT("weaken: the original symbol is global, the rewritten one weak",
		 !err && sym_bind(buf, sz, "bpf_list_push_back") == STB_GLOBAL &&
		 sym_bind(out, out_sz, "bpf_list_push_back") == STB_WEAK);
	obj = mkf_object__open_file(path, NULL, &oo);
	t_check("weaken: mkf_object__open_file opens it (no ESRCH)", obj != NULL, "errno %d",
		errno);
	bpf_object__close(obj);
	mkf_plan__free(plan);
	free(out);
	free(buf);
}

/*
 * A partly tagged kernel (a pahole that tagged some kfuncs, not all):
 * Debian 12's 6.12 kfuncs, untagged, beside one tagged kfunc. The
 * verifier reads the kfunc ID sets, not the tags: plain libbpf binds
 * the untagged bpf_wq_set_callback_impl of unit_wq_old (strong) and the
 * load is the verifier's to decide. The library leaves the extern as
 * plain libbpf takes it: no ESRCH, no change, a warning that says so.
 */
static void test_partly_tagged(void)
{
	static const char ext[] = "bpf_wq_set_callback_impl";
	struct btf *vm = fx_kernel(FX_612_DEB12);
	struct mkf_kernel *k = NULL;
	const struct mkf_plan_entry *e;
	struct mkf_object *mobj = t_object("unit_wq_old");
	struct mkf_plan *plan = NULL;
	struct bpf_object *obj;
	char path[512];
	int other = -1;

	if (vm) {
		other = btf__add_func(vm, "mkf_other_kfunc", BTF_FUNC_GLOBAL,
				      btf__add_func_proto(vm, 0));
		if (other > 0)
			btf__add_decl_tag(vm, "bpf_kfunc", other, -1);
		k = mkf_kernel__new(vm);
	}
	MKF_OPTS(mkf_open_opts, mo, .kernel = k);
	plan = k && mobj ? mkf_plan__compute(mobj, k, NULL) : NULL;
	e = mkf_plan__find_entry(plan, ext);
	t_check("partly tagged: an untagged kfunc plain libbpf binds is left to it",
		other > 0 && mkf_kernel__has_kfunc_tags(k) && e &&
		mkf_plan_entry__decision(e) == MKF_DECISION_LEAVE &&
		mkf_plan_entry__libbpf_outcome(e) == MKF_LIBBPF_BINDS_UNTAGGED &&
		!mkf_plan_entry__kernel_name(e) && !mkf_plan_entry__func(e) &&
		mkf_plan__unresolved_cnt(plan) == 0 && mkf_plan__change_cnt(plan) == 0 &&
		mkf_plan__libbpf_verdict(plan) == MKF_LIBBPF_LOADS_IF_KFUNC &&
		strstr(mkf_plan_entry__reason(e), "the verifier decides"),
		"%s", e ? mkf_plan_entry__reason(e) : "no plan or entry");
	object_path("unit_wq_old", path, sizeof(path));
	t_log_reset();
	mkf_set_print(t_log_capture);
	obj = k ? mkf_object__open_file(path, NULL, &mo) : NULL;
	t_check("partly tagged: the object opens unchanged (no ESRCH), with a warning", obj &&
		strstr(t_log, "left as plain libbpf binds it"), "errno %d, log %s", errno, t_log);
	mkf_set_print(NULL);
	bpf_object__close(obj);
	mkf_plan__free(plan);
	mkf_object__free(mobj);
	mkf_kernel__free(k);
	btf__free(vm);
}

static void test_open(void)
{
	struct btf *vm616 = fx_kernel(FX_616);
	struct mkf_kernel *k616 = mkf_kernel__new(vm616);
	struct mkf_plan *plan = NULL;
	MKF_OPTS(mkf_open_opts, mo, .kernel = k616);
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = vmlinux_path);
	struct mkf_kernel *kfile = mkf_kernel__load(&ko);
	MKF_OPTS(mkf_open_opts, mo_files, .kernel = kfile);
	LIBBPF_OPTS(bpf_object_open_opts, custom, .btf_custom_path = vmlinux_path);
	struct mkf_object *mobj;
	struct mkf_kernel *kbare;
	struct btf *bare;
	const struct mkf_plan_entry *e;
	char path[4096], why[256] = "";
	struct bpf_object *obj;
	void *buf = NULL;
	size_t sz = 0;

	object_path("unit_wq_new", path, sizeof(path));
	obj = mkf_object__open_file(path, NULL, &mo);
	t_check("open_file: same object name, programs and maps as bpf_object__open_file",
		same_as_plain(obj, path, why, sizeof(why)), "%s", why);
	bpf_object__close(obj);
	/* The same in three steps, the plan in the caller's hands. */
	mobj = mkf_object__new_file(path, NULL);
	T_EXPECT("mkf_object__new_file: named as libbpf names it",
		 mobj && !strcmp(mkf_object__name(mobj), "unit_wq_new"));
	plan = mobj ? mkf_plan__compute(mobj, k616, NULL) : NULL;
	obj = plan ? mkf_object__open(mobj, plan, NULL) : NULL;
	t_check("mkf_object__open: as mkf_object__open_file",
		same_as_plain(obj, path, why, sizeof(why)), "%s", why);
	e = plan ? mkf_plan__find_entry(plan, "bpf_wq_set_callback") : NULL;
	T_EXPECT("mkf_plan_entry__func: the function bound, the kernel's",
		 e && mkf_plan_entry__func(e) &&
		 !strcmp(mkf_func__name(mkf_plan_entry__func(e)), "bpf_wq_set_callback_impl") &&
		 mkf_func__btf(mkf_plan_entry__func(e)) == vm616);
	/* Its weak bpf_wq_set_callback is not in 6.16: plain libbpf makes it 0. */
	t_check("mkf_plan__libbpf_verdict: plain libbpf loads it on 6.16, without the kfunc",
		plan && mkf_plan__libbpf_verdict(plan) == MKF_LIBBPF_LOADS_DEGRADED, "%s",
		plan ? mkf_libbpf_verdict_str(mkf_plan__libbpf_verdict(plan)) : "no plan");
	t_check("mkf_plan__compute: the plan of the object", e &&
		!strcmp(mkf_plan_entry__kernel_name(e), "bpf_wq_set_callback_impl") &&
		mkf_plan_entry__proto_change(e) == MKF_PROTO_EXTEND &&
		mkf_plan_entry__rule(e) == MKF_RULE_IMPL_EXTEND, "plan %p", (void *)plan);
	t_check("plan: entry past the end -> NULL, ENOENT",
		plan && !mkf_plan__entry(plan, 99) && errno == ENOENT, "errno %d", errno);
	T_EXPECT("plan: every entry has a reason", plan && mkf_plan__entry_cnt(plan) == 2 &&
		mkf_plan_entry__reason(mkf_plan__entry(plan, 0)) &&
		mkf_plan_entry__reason(mkf_plan__entry(plan, 1)));
	bpf_object__close(obj);
	mkf_plan__free(plan);
	plan = NULL;
	mkf_object__free(mobj);

	obj = mkf_object__open_file(path, NULL, &mo_files);
	t_check("open_file: a kernel loaded from its file", obj != NULL, "errno %d", errno);
	bpf_object__close(obj);
	obj = mkf_object__open_file(path, &custom, NULL);
	t_check("open_file: libbpf's btf_custom_path names the target kernel", obj != NULL,
		"errno %d", errno);
	bpf_object__close(obj);
	obj = mkf_object__open_file(path, &custom, &mo_files);
	t_check("open_file: btf_custom_path and the kernel naming one file", obj != NULL,
		"errno %d", errno);
	bpf_object__close(obj);
	custom.btf_custom_path = dir_vmlinux;
	obj = mkf_object__open_file(path, &custom, &mo_files);
	t_check("open_file: btf_custom_path and the kernel naming copies of one BTF", obj != NULL,
		"errno %d", errno);
	bpf_object__close(obj);
	custom.btf_custom_path = module_path;
	t_log_reset();
	mkf_set_print(t_log_capture);
	obj = mkf_object__open_file(path, &custom, &mo_files);
	t_check("open_file: btf_custom_path and the kernel naming different kernels is refused",
		!obj && errno == EINVAL && strstr(t_log, "name different kernels"), "errno %d, log %s",
		errno, t_log);
	mkf_set_print(NULL);
	bpf_object__close(obj);
	custom.btf_custom_path = vmlinux_path;

	t_read_file(path, &buf, &sz);
	obj = sz ? mkf_object__open_mem(buf, sz, NULL, &mo) : NULL;
	t_check("open_mem: opens the rewritten image", obj &&
		bpf_object__find_program_by_name(obj, "set_wq"), "errno %d", errno);
	bpf_object__close(obj);
	mkf_plan__free(plan);
	plan = NULL;
	free(buf);

	/* A kernel without any list kfunc: unit_list's strong extern fits nothing. */
	bare = btf__new_empty();
	if (bare)
		btf__add_int(bare, "int", 4, BTF_INT_SIGNED);
	kbare = bare ? mkf_kernel__new(bare) : NULL;
	MKF_OPTS(mkf_open_opts, mo_bare, .kernel = kbare);
	MKF_OPTS(mkf_open_opts, mo_bare_allow, .kernel = kbare, .allow_unresolved = true);
	object_path("unit_list", path, sizeof(path));
	obj = kbare ? mkf_object__open_file(path, NULL, &mo_bare) : NULL;
	t_check("open_file: an unresolved strong extern fails with ESRCH", !obj && errno == ESRCH,
		"errno %d", errno);
	obj = kbare ? mkf_object__open_file(path, NULL, &mo_bare_allow) : NULL;
	t_check("open_file: allow_unresolved opens anyway", obj != NULL, "errno %d", errno);
	bpf_object__close(obj);
	test_weaken(kbare, path);
	mkf_kernel__free(kbare);
	btf__free(bare);

	object_path("does-not-exist", path, sizeof(path));
	t_check("open_file: missing file -> NULL, ENOENT",
		!mkf_object__open_file(path, NULL, &mo) && errno == ENOENT, "errno %d", errno);
	t_check("open_mem: NULL buffer -> EINVAL",
		!mkf_object__open_mem(NULL, 10, NULL, &mo) && errno == EINVAL, "errno %d", errno);

	mkf_kernel__free(kfile);
	mkf_kernel__free(k616);
	btf__free(vm616);
}

static void test_skeleton(void)
{
	struct btf *vm = fx_kernel(FX_616);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	MKF_OPTS(mkf_open_opts, mo, .kernel = k);
	struct unit_wq_new *skel = calloc(1, sizeof(*skel));
	const void *data;
	size_t data_sz;
	int err = -1;

	if (skel && !unit_wq_new__create_skeleton(skel)) {
		data = skel->skeleton->data;
		data_sz = skel->skeleton->data_sz;
		err = mkf_object__open_skeleton(skel->skeleton, NULL, &mo);
		t_check("skeleton: opens through the rewrite", !err && skel->obj &&
			skel->progs.set_wq && skel->progs.say && skel->maps.wqs && skel->bss,
			"err %d", err);
		T_EXPECT("skeleton: embedded ELF pointer and size restored",
			skel->skeleton->data == data && skel->skeleton->data_sz == data_sz);
		t_check("skeleton: internal maps keep the skeleton's names",
			skel->maps.bss && !strcmp(bpf_map__name(skel->maps.bss), "unit_wq_.bss"),
			"got %s", skel->maps.bss ? bpf_map__name(skel->maps.bss) : "-");
	} else {
		t_fail("skeleton: opens through the rewrite", "create_skeleton failed");
	}
	/* The generated destroy is the only cleanup (valgrind checks the rest). */
	unit_wq_new__destroy(skel);
	T_EXPECT("skeleton: NULL -> EINVAL",
		mkf_object__open_skeleton(NULL, NULL, &mo) == -EINVAL && errno == EINVAL);

	/* The same with the plan in the caller's hands: mkf_skeleton__open(). */
	skel = calloc(1, sizeof(*skel));
	if (skel && !unit_wq_new__create_skeleton(skel)) {
		MKF_OPTS(mkf_object_opts, oo, .object_name = skel->skeleton->name);
		struct mkf_object *obj = mkf_object__new(skel->skeleton->data,
							 skel->skeleton->data_sz, &oo);
		struct mkf_object *other = t_object("unit_wq_old");
		struct mkf_plan *plan = obj ? mkf_plan__compute(obj, k, NULL) : NULL;
		struct mkf_plan *other_plan = other ? mkf_plan__compute(other, k, NULL) : NULL;

		data = skel->skeleton->data;
		data_sz = skel->skeleton->data_sz;
		err = other ? mkf_skeleton__open(skel->skeleton, other, other_plan, NULL) : 0;
		T_EXPECT("mkf_skeleton__open: another object than the skeleton's -> EINVAL",
			 err == -EINVAL && errno == EINVAL && !skel->obj);
		err = plan && other_plan ? mkf_skeleton__open(skel->skeleton, obj, other_plan, NULL)
					 : 0;
		T_EXPECT("mkf_skeleton__open: another object's plan -> EINVAL",
			 err == -EINVAL && errno == EINVAL && !skel->obj);
		err = plan ? mkf_skeleton__open(skel->skeleton, obj, plan, NULL) : -1;
		t_check("mkf_skeleton__open: opens through the plan's rewrite", !err && skel->obj &&
			skel->progs.set_wq && skel->maps.wqs && skel->bss, "err %d", err);
		T_EXPECT("mkf_skeleton__open: embedded ELF pointer and size restored",
			 skel->skeleton->data == data && skel->skeleton->data_sz == data_sz);
		mkf_plan__free(plan);
		mkf_plan__free(other_plan);
		mkf_object__free(obj);
		mkf_object__free(other);
	} else {
		t_fail("mkf_skeleton__open: opens through the plan's rewrite", "create_skeleton failed");
	}
	unit_wq_new__destroy(skel);
	mkf_kernel__free(k);
	btf__free(vm);
}

/* MKF_SKEL_OPEN(): calloc + NAME__create_skeleton + the open, in one call. */
static void test_skel_open_macro(void)
{
	struct btf *vm = fx_kernel(FX_616);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	MKF_OPTS(mkf_open_opts, mo, .kernel = k);
	struct mkf_open_opts bad = { .sz = 1 };
	struct unit_wq_new *skel;

	t_log_reset();
	mkf_set_print(t_log_capture);
	skel = MKF_SKEL_OPEN(unit_wq_new, NULL, &mo);
	mkf_set_print(NULL);
	t_check("MKF_SKEL_OPEN: opens through the rewrite",
		skel && skel->obj && skel->progs.set_wq && skel->maps.wqs && skel->bss,
		"errno %d", errno);
	t_check("MKF_SKEL_OPEN: the log says it binds bpf_wq_set_callback_impl on 6.16",
		strstr(t_log, "extern 'bpf_wq_set_callback'") &&
		strstr(t_log, "bpf_wq_set_callback_impl"), "log: %s", t_log);
	unit_wq_new__destroy(skel);

	errno = 0;
	skel = MKF_SKEL_OPEN(unit_wq_new, NULL, &bad);
	t_check("MKF_SKEL_OPEN: a refused open -> NULL, errno set (EINVAL)",
		!skel && errno == EINVAL, "errno %d", errno);
	unit_wq_new__destroy(skel);
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
		void *buf;
		size_t sz;

		dup2(pfd[1], 2);
		close(pfd[0]);
		if (level)
			setenv("MKF_LOG_LEVEL", level, 1);
		else
			unsetenv("MKF_LOG_LEVEL");
		mkf_set_print(dflt);
		/* A debug line (kernel loaded), info lines (rewrites planned). */
		k = mkf_kernel__load(&ko);
		object_path("unit_wq_old", path, sizeof(path));
		if (!k || t_read_file(path, &buf, &sz))
			_exit(1);
		plan = t_plan(buf, sz, k, NULL);
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
	T_EXPECT("MKF_LOG_LEVEL=bogus is said, and info is used",
		 stderr_has(dflt, "bogus", "MKF_LOG_LEVEL='bogus' is not warn, info or debug") &&
		 stderr_has(dflt, "bogus", info) && !stderr_has(dflt, "bogus", debug));
	T_EXPECT("MKF_LOG_LEVEL=info is not said", !stderr_has(dflt, "info", "MKF_LOG_LEVEL="));
}

/* The kernel's functions, through the public accessors. */
static void test_kernel_funcs(void)
{
	struct btf *vm = fx_kernel(FX_70), *mod = fx_module(vm, true);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	const struct mkf_func *fn, *impl, *m;

	if (!k || mkf_kernel__add_module(k, "mkf_testmod", mod)) {
		t_fail("kernel functions", "cannot describe the fixture kernel");
		goto out;
	}
	fn = find_func(k, "bpf_wq_set_callback");
	impl = find_func(k, "bpf_wq_set_callback_impl");
	m = find_func(k, "mkf_testmod_magic");
	T_EXPECT("mkf_kernel__find_func: a tagged vmlinux kfunc",
		fn && !strcmp(mkf_func__name(fn), "bpf_wq_set_callback") &&
		mkf_func__btf(fn) == vm && !mkf_func__module(fn) &&
		fn->tagged && mkf_func__is_callable(fn) &&
		btf__type_by_id(vm, fn->id)->type == mkf_func__proto_id(fn));
	T_EXPECT("mkf_kernel__find_func: a prototype-only _impl is not callable",
		impl && !impl->tagged && !mkf_func__is_callable(impl));
	T_EXPECT("mkf_kernel__btf, mkf_kernel__module_btf: the BTF given",
		mkf_kernel__btf(k) == vm && mkf_kernel__module_btf(k, 0) == mod &&
		!mkf_kernel__module_btf(k, 1) && errno == ENOENT);
	T_EXPECT("mkf_kernel__find_func: a module kfunc names its module",
		m && mkf_func__btf(m) == mod && mkf_func__module(m) &&
		!strcmp(mkf_func__module(m), "mkf_testmod"));
	errno = 0;
	T_EXPECT("mkf_kernel__find_func: no such name is NULL, ENOENT",
		!find_func(k, "no_such_function") && errno == ENOENT);
out:
	mkf_kernel__free(k);
	btf__free(mod);
	btf__free(vm);
}

/* A FUNC with a FUNC_PROTO of n (name, type) params. */
static void add_fn(struct btf *b, const char *name, int ret, int n, ...)
{
	va_list ap;
	int proto = btf__add_func_proto(b, ret), i, fn;

	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *pname = va_arg(ap, const char *);

		btf__add_func_param(b, pname, va_arg(ap, int));
	}
	va_end(ap);
	fn = btf__add_func(b, name, BTF_FUNC_GLOBAL, proto);
	(void)fn;
}

static void tag(struct btf *b, const char *name)
{
	btf__add_decl_tag(b, "bpf_kfunc", btf__find_by_name_kind(b, name, BTF_KIND_FUNC), -1);
}

static const struct mkf_kfunc *find_kfunc(const struct mkf_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < mkf_kernel__kfunc_cnt(k); i++)
		if (!strcmp(mkf_func__name(mkf_kfunc__func(mkf_kernel__kfunc(k, i))), name))
			return mkf_kernel__kfunc(k, i);
	return NULL;
}

/*
 * The classification, on a kernel made for it: one of each shape, and
 * what must not be one (a pair whose leading parameters differ, an
 * untagged function that merely takes a struct bpf_prog_aux *).
 */
static void test_kfunc_shapes(void)
{
	struct btf *b = btf__new_empty();
	struct mkf_kernel *k = NULL;
	const struct mkf_kfunc *kf;
	int i32, vptr, aux, auxp, lptr;
	size_t i, n;
	bool sorted = true;

	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	lptr = btf__add_ptr(b, btf__add_int(b, "long", 8, BTF_INT_SIGNED));
	vptr = btf__add_ptr(b, 0);
	aux = btf__add_struct(b, "bpf_prog_aux", 0);
	auxp = btf__add_ptr(b, aux);
	/* 7.x pair: the _impl is prototype-only. */
	add_fn(b, "p7", i32, 1, "x", i32);
	add_fn(b, "p7_impl", i32, 2, "x", i32, "aux", auxp);
	tag(b, "p7");
	/* Patched 6.12 pair: both callable. */
	add_fn(b, "pm", i32, 1, "x", i32);
	add_fn(b, "pm_impl", i32, 2, "x", i32, "aux__magic", auxp);
	tag(b, "pm");
	tag(b, "pm_impl");
	/* Leading parameter differs (int vs long *): not a pair, however named. */
	add_fn(b, "bad", i32, 1, "x", i32);
	add_fn(b, "bad_impl", lptr, 2, "x", lptr, "aux__magic", auxp);
	tag(b, "bad");
	tag(b, "bad_impl");
	/* Legacy, unsplit, proto-only. */
	add_fn(b, "leg_impl", i32, 2, "x", i32, "aux__prog", vptr);
	tag(b, "leg_impl");
	/* __ign alone proves nothing: the program passes it. */
	add_fn(b, "ign_impl", i32, 2, "x", i32, "aux__ign", vptr);
	tag(b, "ign_impl");
	add_fn(b, "uns", i32, 2, "x", i32, "aux", auxp);
	tag(b, "uns");
	add_fn(b, "po_impl", i32, 2, "x", i32, "aux", auxp);
	/* Not a kfunc at all, though it takes a struct bpf_prog_aux *. */
	add_fn(b, "bpf_prog_free_aux", 0, 1, "aux", auxp);

	k = mkf_kernel__new(b);
	n = mkf_kernel__kfunc_cnt(k);
	T_EXPECT("mkf_kernel__kfunc_cnt: six kfuncs with provided params", n == 6);
	kf = find_kfunc(k, "p7");
	T_EXPECT("shape: foo + proto-only foo_impl is a pair",
		kf && mkf_kfunc__shape(kf) == MKF_KFUNC_PAIR &&
		!strcmp(mkf_func__name(mkf_kfunc__impl(kf)), "p7_impl") &&
		mkf_kfunc__full(kf) == mkf_kfunc__impl(kf) && mkf_kfunc__provided_cnt(kf) == 1 &&
		!mkf_func__is_callable(mkf_kfunc__impl(kf)));
	kf = find_kfunc(k, "pm");
	T_EXPECT("shape: foo + callable foo_impl(..., aux__magic) is a pair",
		kf && mkf_kfunc__shape(kf) == MKF_KFUNC_PAIR &&
		mkf_func__is_callable(mkf_kfunc__impl(kf)));
	kf = find_kfunc(k, "bad_impl");
	T_EXPECT("shape: an _impl whose leading params differ from foo's is no pair",
		!find_kfunc(k, "bad") && kf && mkf_kfunc__shape(kf) == MKF_KFUNC_LEGACY &&
		!mkf_kfunc__impl(kf));
	kf = find_kfunc(k, "leg_impl");
	T_EXPECT("shape: callable foo_impl(..., void *aux__prog) alone is legacy",
		kf && mkf_kfunc__shape(kf) == MKF_KFUNC_LEGACY &&
		mkf_kfunc__full(kf) == mkf_kfunc__func(kf));
	T_EXPECT("shape: foo_impl(..., void *aux__ign) of an unknown kfunc is none",
		!find_kfunc(k, "ign_impl"));
	kf = find_kfunc(k, "uns");
	T_EXPECT("shape: tagged foo(..., struct bpf_prog_aux *) without _impl is unsplit",
		kf && mkf_kfunc__shape(kf) == MKF_KFUNC_UNSPLIT);
	kf = find_kfunc(k, "po_impl");
	T_EXPECT("shape: untagged foo_impl alone is proto-only",
		kf && mkf_kfunc__shape(kf) == MKF_KFUNC_PROTO_ONLY);
	T_EXPECT("shape: an untagged function taking struct bpf_prog_aux * is none",
		!find_kfunc(k, "bpf_prog_free_aux"));
	for (i = 1; i < n; i++) {
		const struct mkf_kfunc *a = mkf_kernel__kfunc(k, i - 1), *c = mkf_kernel__kfunc(k, i);

		sorted = sorted && (mkf_kfunc__shape(a) < mkf_kfunc__shape(c) ||
				    (mkf_kfunc__shape(a) == mkf_kfunc__shape(c) &&
				     strcmp(mkf_func__name(mkf_kfunc__func(a)),
					    mkf_func__name(mkf_kfunc__func(c))) < 0));
	}
	T_EXPECT("mkf_kernel__kfunc: sorted by shape, then name", sorted);
	errno = 0;
	T_EXPECT("mkf_kernel__kfunc: past the end is NULL, ENOENT",
		!mkf_kernel__kfunc(k, n) && errno == ENOENT);
	T_EXPECT("mkf_kfunc_shape_str names every shape",
		!strcmp(mkf_kfunc_shape_str(MKF_KFUNC_PAIR), "pair") &&
		!strcmp(mkf_kfunc_shape_str(MKF_KFUNC_LEGACY), "legacy") &&
		!strcmp(mkf_kfunc_shape_str(MKF_KFUNC_UNSPLIT), "unsplit") &&
		!strcmp(mkf_kfunc_shape_str(MKF_KFUNC_PROTO_ONLY), "proto-only") &&
		!mkf_kfunc_shape_str(0));
	mkf_kernel__free(k);
	btf__free(b);
}

/* The parameter rules, through the public entry point (the shared library). */
static void test_param_kind(void)
{
	struct btf *k = fx_kernel(FX_73);
	enum mkf_param_basis basis = MKF_PARAM_BASIS_NONE;
	int p;

	p = btf__type_by_id(k, btf__find_by_name_kind(k, "bpf_list_push_back_impl",
							BTF_KIND_FUNC))->type;
	T_EXPECT("mkf_btf__param_kind: meta__ign is provided, by its name",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 2, &basis) ==
		MKF_PARAM_PROVIDED && basis == MKF_PARAM_BASIS_SUFFIX_IGN);
	T_EXPECT("mkf_btf__param_kind: the list node offset is a checked scalar",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 3, &basis) ==
		MKF_PARAM_CHECKED_SCALAR && basis == MKF_PARAM_BASIS_KNOWN_SCALAR);
	T_EXPECT("mkf_btf__param_kind: head is an ordinary param",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 0, &basis) ==
		MKF_PARAM_NORMAL && basis == MKF_PARAM_BASIS_NONE);
	errno = 0;
	T_EXPECT("mkf_btf__param_kind: out of range is ordinary",
		mkf_btf__param_kind(k, "bpf_list_push_back_impl", p, 9, NULL) ==
		MKF_PARAM_NORMAL && errno == 0);
	T_EXPECT("mkf_btf__param_kind: NULL BTF is no answer: 0, EINVAL",
		mkf_btf__param_kind(NULL, "x", p, 0, NULL) == 0 && errno == EINVAL);
	p = btf__type_by_id(k, btf__find_by_name_kind(k, "bpf_wq_set_callback_impl",
							BTF_KIND_FUNC))->type;
	T_EXPECT("mkf_btf__param_kind: struct bpf_prog_aux * is provided, by its type",
		mkf_btf__param_kind(k, "bpf_wq_set_callback_impl", p, 3, &basis) ==
		MKF_PARAM_PROVIDED && basis == MKF_PARAM_BASIS_TYPE_PROG_AUX);
	T_EXPECT("mkf_param_basis_str: suffixes and types",
		!strcmp(mkf_param_basis_str(MKF_PARAM_BASIS_SUFFIX_MAGIC), "__magic") &&
		!strcmp(mkf_param_basis_str(MKF_PARAM_BASIS_TYPE_STRUCT_META),
			"struct btf_struct_meta *") && !mkf_param_basis_str(99));
	btf__free(k);
}

/* Every accessor given NULL: the zero value and EINVAL, never a crash. */
static void test_null_args(void)
{
	bool ok = true;

#define Z(expr) do { errno = 0; ok = ok && !(expr) && errno == EINVAL; } while (0)
	Z(mkf_kernel__has_kfunc_tags(NULL));
	Z(mkf_kernel__module_cnt(NULL));
	Z(mkf_kernel__module_name(NULL, 0));
	Z(mkf_kernel__btf(NULL));
	Z(mkf_kernel__module_btf(NULL, 0));
	Z(mkf_kernel__kfunc_cnt(NULL));
	Z(mkf_kernel__kfunc(NULL, 0));
	Z(mkf_func__name(NULL));
	Z(mkf_func__btf(NULL));
	Z(mkf_func__proto_id(NULL));
	Z(mkf_func__module(NULL));
	Z(mkf_func__is_callable(NULL));
	Z(mkf_kfunc__shape(NULL));
	Z(mkf_kfunc__func(NULL));
	Z(mkf_kfunc__impl(NULL));
	Z(mkf_kfunc__full(NULL));
	Z(mkf_kfunc__provided_cnt(NULL));
	Z(mkf_plan__entry_cnt(NULL));
	Z(mkf_plan__entry(NULL, 0));
	Z(mkf_plan__find_entry(NULL, "x"));
	Z(mkf_plan__unresolved_cnt(NULL));
	Z(mkf_plan__change_cnt(NULL));
	Z(mkf_plan_entry__name(NULL));
	Z(mkf_plan_entry__is_weak(NULL));
	Z(mkf_plan_entry__decision(NULL));
	Z(mkf_plan_entry__rule(NULL));
	Z(mkf_plan_entry__kernel_name(NULL));
	Z(mkf_plan_entry__module(NULL));
	Z(mkf_plan_entry__proto_change(NULL));
	Z(mkf_plan_entry__param_delta(NULL));
	Z(mkf_plan_entry__merged_into(NULL));
	Z(mkf_plan_entry__set_regs(NULL));
	Z(mkf_plan_entry__call_site_cnt(NULL));
	Z(mkf_plan_entry__libbpf_outcome(NULL));
	Z(mkf_plan_entry__reason(NULL));
	Z(mkf_plan_entry__func(NULL));
	Z(mkf_func__param_kind(NULL, 0, NULL));
	Z(mkf_btf__param_kind(NULL, "x", 1, 0, NULL));
	Z(mkf_plan__libbpf_verdict(NULL));
	Z(mkf_kernel__new(NULL));
	Z(mkf_object__new(NULL, 0, NULL));
	Z(mkf_object__new_file(NULL, NULL));
	Z(mkf_object__name(NULL));
	Z(mkf_plan__compute(NULL, NULL, NULL));
	Z(mkf_object__open(NULL, NULL, NULL));
	Z(mkf_object__open_mem(NULL, 0, NULL, NULL));
	Z(mkf_object__open_file(NULL, NULL, NULL));
	errno = 0;
	ok = ok && mkf_kernel__add_module(NULL, "m", NULL) == -EINVAL && errno == EINVAL;
	errno = 0;
	ok = ok && mkf_object__rewrite(NULL, NULL, NULL, NULL, NULL) == -EINVAL &&
	     errno == EINVAL;
	errno = 0;
	ok = ok && mkf_object__open_skeleton(NULL, NULL, NULL) == -EINVAL && errno == EINVAL;
	errno = 0;
	ok = ok && mkf_skeleton__open(NULL, NULL, NULL, NULL) == -EINVAL && errno == EINVAL;
#undef Z
	mkf_kernel__free(NULL);
	mkf_plan__free(NULL);
	mkf_object__free(NULL);
	T_EXPECT("NULL arguments: zero values and EINVAL everywhere", ok);
	/* 0 is no value of any enum: a NULL entry's answers name nothing. */
	T_EXPECT("NULL arguments: an enum answer is no valid value",
		 !mkf_rule_str(mkf_plan_entry__rule(NULL)) &&
		 !mkf_proto_change_str(mkf_plan_entry__proto_change(NULL)) &&
		 !mkf_libbpf_outcome_str(mkf_plan_entry__libbpf_outcome(NULL)) &&
		 !mkf_decision_str(mkf_plan_entry__decision(NULL)) &&
		 !mkf_kfunc_shape_str(mkf_kfunc__shape(NULL)) &&
		 !mkf_libbpf_verdict_str(mkf_plan__libbpf_verdict(NULL)));
}

/* The enum names the CLI prints, from the library. */
static void test_enum_names(void)
{
	T_EXPECT("mkf_rule_str: every rule",
		!strcmp(mkf_rule_str(MKF_RULE_NONE), "none") &&
		!strcmp(mkf_rule_str(MKF_RULE_SAME), "same") &&
		!strcmp(mkf_rule_str(MKF_RULE_EXTEND), "extend") &&
		!strcmp(mkf_rule_str(MKF_RULE_SHRINK), "shrink") &&
		!strcmp(mkf_rule_str(MKF_RULE_IMPL_EXTEND), "impl-extend") &&
		!strcmp(mkf_rule_str(MKF_RULE_IMPL_SAME), "impl-same"));
	errno = 0;
	T_EXPECT("mkf_*_str: an unknown value is NULL, EINVAL",
		!mkf_rule_str(42) && errno == EINVAL && !mkf_decision_str(0) &&
		!mkf_proto_change_str(7) && !mkf_libbpf_outcome_str(9));
	T_EXPECT("mkf_decision_str, mkf_proto_change_str, mkf_libbpf_outcome_str",
		!strcmp(mkf_decision_str(MKF_DECISION_LEAVE_WEAK), "leave-weak") &&
		!strcmp(mkf_proto_change_str(MKF_PROTO_SHRINK), "shrink") &&
		!strcmp(mkf_libbpf_outcome_str(MKF_LIBBPF_BINDS_UNCALLABLE), "binds-uncallable"));
	T_EXPECT("enum names of the untagged case",
		!strcmp(mkf_decision_str(MKF_DECISION_LEAVE), "leave") &&
		!strcmp(mkf_libbpf_outcome_str(MKF_LIBBPF_BINDS_UNTAGGED), "binds-untagged") &&
		!strcmp(mkf_libbpf_verdict_str(MKF_LIBBPF_LOADS_IF_KFUNC), "loads-if-kfunc"));
}

/* err_buf: the cause of a failure, "" after success; no log needed. */
static void test_err_buf(void)
{
	static const char junk[] = "not an ELF object at all, just text";
	struct btf *vm = fx_kernel(FX_70);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	char buf[256] = "stale", tiny[8];
	struct mkf_object *obj;

	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = "/nonexistent/vmlinux.btf",
		 .err_buf = buf, .err_buf_sz = sizeof(buf));
	T_EXPECT("err_buf: a missing kernel BTF file is named",
		!mkf_kernel__load(&ko) && errno == ENOENT &&
		strstr(buf, "/nonexistent/vmlinux.btf") && !strchr(buf, '\n') &&
		strncmp(buf, "libmagic-kfunc:", 15));
	MKF_OPTS(mkf_object_opts, po, .err_buf = buf, .err_buf_sz = sizeof(buf));
	obj = mkf_object__new(junk, sizeof(junk), &po);
	T_EXPECT("err_buf: a text file is not an ELF object, said so",
		!obj && errno == EINVAL && strstr(buf, "ELF"));
	MKF_OPTS(mkf_object_opts, small, .err_buf = tiny, .err_buf_sz = sizeof(tiny));
	obj = mkf_object__new(junk, sizeof(junk), &small);
	T_EXPECT("err_buf: truncated to err_buf_sz, NUL-terminated",
		!obj && strlen(tiny) == sizeof(tiny) - 1);
	MKF_OPTS(mkf_plan_opts, pk, .err_buf = buf, .err_buf_sz = sizeof(buf));
	T_EXPECT("err_buf: mkf_plan__compute without an object says so",
		 !mkf_plan__compute(NULL, k, &pk) && errno == EINVAL && strstr(buf, "no object"));
	MKF_OPTS(mkf_open_opts, oo, .kernel = k, .err_buf = buf, .err_buf_sz = sizeof(buf));
	T_EXPECT("err_buf: mkf_object__open_mem says why too",
		!mkf_object__open_mem(junk, sizeof(junk), NULL, &oo) && strstr(buf, "ELF"));
	mkf_kernel__free(k);
	btf__free(vm);
}

int main(void)
{
	libbpf_print_fn_t old;

	old = mkf_set_print(t_log_capture);
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
	test_kernel_btf_names();
	test_kernel_check_all_types();
	test_kernel_lookups();
	test_running_kernel();
	test_open();
	test_partly_tagged();
	test_skeleton();
	test_skel_open_macro();
	test_param_kind();
	test_kernel_funcs();
	test_kfunc_shapes();
	test_null_args();
	test_enum_names();
	test_err_buf();
	remove_files();
	return t_done();
}
