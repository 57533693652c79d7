// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The rewrite cache of mkf_object__open_*() (mkf_open_opts.cache_dir),
 * through the public API with kernels read from fixture files: what a
 * second open takes from it, what makes it miss (the kernel's files,
 * the object, the options), and entries it must not trust. Opens only,
 * never loads.
 */
#define _GNU_SOURCE	/* memmem */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <elf.h>

#include "magic_kfunc.h"
#include "cache.h"
#include "cache_plan.h"
#include "fixtures.h"
#include "plan.h"
#include "unit.h"

#ifndef MKF_BPF_OBJDIR
#define MKF_BPF_OBJDIR "tests/bpf"
#endif

#define HIT "from the rewrite cache"
#define HIT_UNCHANGED "the rewrite cache has it"

static bool logged(const char *s)
{
	return strstr(t_log, s) != NULL;
}

static char tmpdir[1024], kpath[1100], kpath2[1100], btfdir[1100], cachedir[1100];
static char modpath[1100];

static int make_files(void)
{
	const char *base = getenv("TMPDIR");
	struct btf *k616 = fx_kernel(FX_616), *k70 = fx_kernel(FX_70);
	struct btf *mod = k616 ? fx_module(k616, true) : NULL;
	char path[1200];
	int err;

	snprintf(tmpdir, sizeof(tmpdir), "%s/mkf-cache-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(kpath, sizeof(kpath), "%s/k616.btf", tmpdir);
	snprintf(kpath2, sizeof(kpath2), "%s/k70.btf", tmpdir);
	snprintf(btfdir, sizeof(btfdir), "%s/btf", tmpdir);
	snprintf(cachedir, sizeof(cachedir), "%s/cache", tmpdir);
	snprintf(modpath, sizeof(modpath), "%s/mkf_testmod.btf", tmpdir);
	snprintf(path, sizeof(path), "%s/vmlinux", btfdir);
	err = !k616 || !k70 || !mod || t_write_btf(kpath, k616) || t_write_btf(kpath2, k70) ||
	      mkdir(btfdir, 0700) || t_write_btf(path, k616) || t_write_btf(modpath, mod);
	btf__free(mod);
	btf__free(k616);
	btf__free(k70);
	return err ? -1 : 0;
}

static void remove_tree(const char *dir)
{
	char path[4200];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Entries in the cache directory; the last one's name in *last. */
static int entries(char *last, size_t sz)
{
	struct dirent *de;
	DIR *d = opendir(cachedir);
	int n = 0;

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "mkf2-", 5))
			continue;
		n++;
		if (last)
			snprintf(last, sz, "%s", de->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

static void obj_path(const char *base, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s.bpf.o", MKF_BPF_OBJDIR, base);
}

/* Open PATH with MO and close it; true if it opened. */
/*
 * The kernel the opens below target, as files: one file is libbpf's
 * btf_custom_path (the open loads it, and the cache keys by it); a BTF
 * directory is loaded first and given as mkf_open_opts.kernel (the
 * cache keys by the files it was loaded from). Unless the options name
 * a kernel themselves.
 */
static const struct mkf_kernel_opts *target;

static struct bpf_object *open_obj(const char *path, const void *buf, size_t sz,
				   const struct mkf_open_opts *mo)
{
	LIBBPF_OPTS(bpf_object_open_opts, lo);
	struct mkf_open_opts m = *mo;
	struct mkf_kernel *k = NULL;
	struct bpf_object *obj;
	int err;

	if (!m.kernel && target && target->btf_dir) {
		k = mkf_kernel__load(target);
		if (!k)
			return NULL;
		m.kernel = k;
	} else if (!m.kernel && target) {
		lo.btf_custom_path = target->vmlinux_path;
	}
	obj = path ? mkf_object__open_file(path, &lo, &m) : mkf_object__open_mem(buf, sz, &lo, &m);
	err = errno;
	mkf_kernel__free(k);
	errno = err;
	return obj;
}

static bool open_ok(const char *path, const struct mkf_open_opts *mo)
{
	struct bpf_object *obj;

	int err;

	t_log_reset();
	obj = open_obj(path, NULL, 0, mo);
	err = errno;
	bpf_object__close(obj);
	errno = err;
	return obj != NULL;
}

/* Both objects have the same programs with the same instructions. */
static bool same_programs(struct bpf_object *a, struct bpf_object *b)
{
	struct bpf_program *pa, *pb;
	int n = 0;

	if (!a || !b)
		return false;
	pb = bpf_object__next_program(b, NULL);
	bpf_object__for_each_program(pa, a) {
		if (!pb || strcmp(bpf_program__name(pa), bpf_program__name(pb)) ||
		    bpf_program__insn_cnt(pa) != bpf_program__insn_cnt(pb) ||
		    memcmp(bpf_program__insns(pa), bpf_program__insns(pb),
			   bpf_program__insn_cnt(pa) * sizeof(struct bpf_insn)))
			return false;
		pb = bpf_object__next_program(b, pb);
		n++;
	}
	return !pb && n > 0;
}

enum flip {
	FLIP_DWARF,	/* "clang version" as "Clang version", in .debug_str */
	FLIP_DWARF_REL,	/* the first byte of the first .rel.debug_* section */
	FLIP_PADDING,	/* e_ident[EI_NIDENT - 1], which no reader looks at */
};

/* Where in buf (an ELF64 object of this machine's byte order) to flip; NULL if nowhere. */
static char *flip_at(char *buf, size_t n, enum flip how)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
	const Elf64_Shdr *sh;
	size_t i;

	if (how == FLIP_PADDING)
		return n > EI_NIDENT ? buf + EI_NIDENT - 1 : NULL;
	if (how == FLIP_DWARF)
		return memmem(buf, n, "clang version", 13);
	if (n < sizeof(*eh) || eh->e_shoff > n || eh->e_shstrndx >= eh->e_shnum ||
	    (n - eh->e_shoff) / sizeof(*sh) < eh->e_shnum)
		return NULL;
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	for (i = 1; i < eh->e_shnum; i++) {
		size_t name = sh[eh->e_shstrndx].sh_offset + sh[i].sh_name;

		if (name < n - 11 && !strncmp(buf + name, ".rel.debug_", 11) && sh[i].sh_size &&
		    sh[i].sh_offset < n)
			return buf + sh[i].sh_offset;
	}
	return NULL;
}

/* A copy of SRC at DST, one byte apart (see enum flip). */
static int flip_copy(const char *src, const char *dst, enum flip how)
{
	FILE *f = fopen(src, "rb");
	char *buf = NULL, *p = NULL;
	long n = -1;
	int err = -1;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET))
		buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
		p = flip_at(buf, (size_t)n, how);
	if (f)
		fclose(f);
	if (p) {
		*p = how == FLIP_DWARF ? 'C' : *p ^ 0x5a;
		f = fopen(dst, "wb");
		err = f && fwrite(buf, 1, (size_t)n, f) == (size_t)n ? 0 : -1;
		if (f && fclose(f))
			err = -1;
	}
	free(buf);
	return err;
}

/*
 * Overwrite the first bytes of what an entry keeps of the rewrite
 * (cache.c's layout: a 40-byte header whose last three fields are the
 * key's, the object's and that part's sizes, then those three).
 */
static int damage_output(const char *entry)
{
	unsigned long long sz[3];
	int fd = open(entry, O_RDWR), err = -1;

	if (fd < 0)
		return -1;
	if (pread(fd, sz, sizeof(sz), 16) == sizeof(sz) && sz[2] >= 4 &&
	    pwrite(fd, "JUNK", 4, (off_t)(40 + sz[0] + sz[1])) == 4)
		err = 0;
	close(fd);
	return err;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_size;
}

static void test_hit_and_miss(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	MKF_OPTS(mkf_open_opts, mo, .cache_dir = cachedir);
	MKF_OPTS(mkf_open_opts, plain);
	MKF_OPTS(mkf_open_opts, weak, .cache_dir = cachedir,
		 .weaken_unresolved = true);
	char path[4096], name[256] = "", entry[4400];
	struct bpf_object *cached, *computed;
	struct timespec times[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	struct stat st;
	int fd;

	target = &ko;

	obj_path("unit_wq_new", path, sizeof(path));
	t_check("first open: opens, takes nothing from the cache", open_ok(path, &mo) &&
		!logged(HIT), "errno %d, log: %s", errno, t_log);
	t_check("first open: creates the directory, mode 0700, with one entry",
		!stat(cachedir, &st) && (st.st_mode & 0777) == 0700 &&
		entries(name, sizeof(name)) == 1, "entries %d", entries(NULL, 0));
	snprintf(entry, sizeof(entry), "%s/%s", cachedir, name);
	t_check("the entry is the caller's alone (mode 0600) and holds the whole object",
		!stat(entry, &st) && (st.st_mode & 0777) == 0600 &&
		st.st_size > file_size(path), "mode %o size %lld", st.st_mode & 0777,
		(long long)st.st_size);

	t_log_reset();
	cached = open_obj(path, NULL, 0, &mo);
	t_check("second open: from the cache, one info line", cached && logged(HIT) &&
		!logged("bpf_wq_set_callback_impl"), "log: %s", t_log);
	computed = open_obj(path, NULL, 0, &plain);
	t_check("second open: the same programs, instruction for instruction, as an open "
		"without cache", same_programs(cached, computed), "%p %p", (void *)cached,
		(void *)computed);
	bpf_object__close(cached);
	bpf_object__close(computed);
	t_check("second open: no new entry", entries(NULL, 0) == 1, "entries %d",
		entries(NULL, 0));

	/* open_mem goes through the same cache: the bytes are the key, not the path. */
	{
		FILE *f = fopen(path, "rb");
		char buf[1 << 16];
		size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
		struct bpf_object *obj;

		if (f)
			fclose(f);
		t_log_reset();
		obj = n && n < sizeof(buf) ? open_obj(NULL, buf, n, &mo) : NULL;
		t_check("open_mem of the same bytes: from the cache", obj && logged(HIT),
			"%zu bytes, log: %s", n, t_log);
		bpf_object__close(obj);
	}
	t_check("weaken_unresolved is part of the key: a miss", open_ok(path, &weak) &&
		!logged(HIT) && entries(NULL, 0) == 2, "entries %d", entries(NULL, 0));
	unlink(entry);
	t_check("removing an entry: a miss, written again", open_ok(path, &mo) && !logged(HIT) &&
		!stat(entry, &st), "log: %s", t_log);

	/* The kernel's file changes (same content, another time): its key changes. */
	utimensat(AT_FDCWD, kpath, times, 0);
	t_check("the kernel's BTF file changed: a miss", open_ok(path, &mo) && !logged(HIT),
		"log: %s", t_log);
	t_check("the kernel's BTF file changed: then a hit", open_ok(path, &mo) && logged(HIT),
		"log: %s", t_log);

	/* Another kernel: its own entry. */
	ko.vmlinux_path = kpath2;
	t_check("another kernel file: a miss", open_ok(path, &mo) && !logged(HIT),
		"log: %s", t_log);
	t_check("another kernel file, nothing to change: then a hit that hands the object "
		"over as it is", open_ok(path, &mo) && logged(HIT_UNCHANGED), "log: %s", t_log);
	ko.vmlinux_path = kpath;

	/* Entries the open must not trust (one entry, to know its name). */
	remove_tree(cachedir);
	open_ok(path, &mo);
	t_check("a fresh directory: one entry", entries(name, sizeof(name)) == 1, "entries %d",
		entries(NULL, 0));
	snprintf(entry, sizeof(entry), "%s/%s", cachedir, name);
	t_check("corrupt entry: a hit before it is damaged", open_ok(path, &mo) && logged(HIT),
		"log: %s", t_log);
	fd = open(entry, O_WRONLY);
	t_check("corrupt entry: truncated by one byte", fd >= 0 &&
		!ftruncate(fd, file_size(entry) - 1), "errno %d", errno);
	if (fd >= 0)
		close(fd);
	t_check("corrupt entry: a miss, and the open succeeds", open_ok(path, &mo) &&
		!logged(HIT), "log: %s", t_log);
	t_check("corrupt entry: written again whole, a hit next", open_ok(path, &mo) &&
		logged(HIT), "log: %s", t_log);
	/* Another object's entry under this one's name: the bytes decide. */
	{
		char other[4096], flipped[1200], fname[256] = "", fentry[4400];

		obj_path("unit_wq_old", other, sizeof(other));
		t_check("another object: its own entry", open_ok(other, &mo) && !logged(HIT) &&
			entries(NULL, 0) == 2, "entries %d", entries(NULL, 0));
		/* The same size, one byte apart, outside the DWARF. */
		snprintf(flipped, sizeof(flipped), "%s/flipped.bpf.o", tmpdir);
		t_check("an object one byte apart", !flip_copy(path, flipped, FLIP_PADDING),
			"errno %d", errno);
		remove_tree(cachedir);
		open_ok(flipped, &mo);
		entries(fname, sizeof(fname));
		snprintf(fentry, sizeof(fentry), "%s/%s", cachedir, fname);
		t_check("the object one byte apart: a hit from its own entry",
			open_ok(flipped, &mo) && logged(HIT), "log: %s", t_log);
		open_ok(path, &mo);
		t_check("the object one byte apart: another file name",
			entries(NULL, 0) == 2 && strcmp(entry, fentry), "%s", fentry);
		t_check("this object's entry renamed to that one's name: a miss",
			!rename(entry, fentry) && open_ok(flipped, &mo) && !logged(HIT) &&
			!logged(HIT_UNCHANGED), "log: %s", t_log);
		t_check("then that object's own entry again: a hit", open_ok(flipped, &mo) &&
			logged(HIT), "log: %s", t_log);

		/* One byte apart in the DWARF: the name leaves it out, the compare does not. */
		t_check("an object one byte apart in its DWARF", !flip_copy(path, flipped, FLIP_DWARF),
			"errno %d", errno);
		remove_tree(cachedir);
		open_ok(flipped, &mo);
		t_check("one byte apart in its DWARF: the same file name as the object",
			entries(fname, sizeof(fname)) == 1 && !strcmp(strrchr(entry, '/') + 1, fname),
			"%s, not %s", fname, entry);
		t_check("one byte apart in its DWARF: the object's own open misses",
			open_ok(path, &mo) && !logged(HIT) && !logged(HIT_UNCHANGED),
			"log: %s", t_log);
		t_check("one byte apart in its DWARF: the last one written keeps the file",
			open_ok(path, &mo) && logged(HIT) && open_ok(flipped, &mo) &&
			!logged(HIT) && open_ok(flipped, &mo) && logged(HIT) &&
			entries(NULL, 0) == 1, "entries %d, log: %s", entries(NULL, 0), t_log);
		open_ok(path, &mo);
	}
	/* An entry whose output is no object: checked before libbpf gets it. */
	t_check("damaged decisions: the first bytes of the stored decisions overwritten",
		!damage_output(entry), "errno %d", errno);
	t_check("damaged decisions: not used, said so, the open succeeds",
		open_ok(path, &mo) && !logged(HIT) && logged("decisions the library never makes"),
		"log: %s", t_log);
	t_check("damaged decisions: written again, a hit next", open_ok(path, &mo) && logged(HIT),
		"log: %s", t_log);
	/* Another user's entry (root can make one; others cannot). */
	if (chown(entry, 65534, 65534)) {
		t_skip("an entry of another user: ignored", "chown(2) to another user: %s (not root)",
		       strerror(errno));
	} else {
		t_check("an entry of another user: ignored, said so", open_ok(path, &mo) &&
			!logged(HIT) && logged("ignoring"), "log: %s", t_log);
		t_check("an entry of another user: replaced by the caller's own",
			!stat(entry, &st) && st.st_uid == geteuid() && open_ok(path, &mo) &&
			logged(HIT), "uid %u, log: %s", st.st_uid, t_log);
	}
	chmod(entry, 0666);
	t_check("an entry others may write: ignored, said so", open_ok(path, &mo) &&
		!logged(HIT) && logged("ignoring"), "log: %s", t_log);
	t_check("an entry others may write: replaced by one of mode 0600",
		!stat(entry, &st) && (st.st_mode & 0777) == 0600 && open_ok(path, &mo) &&
		logged(HIT), "mode %o, log: %s", st.st_mode & 0777, t_log);
}

/*
 * An entry that hands libbpf the object as it is serves objects that
 * differ from it only in their DWARF: the open passes on the caller's
 * bytes, and the name and the compare leave the DWARF out.
 */
static void test_unchanged_dwarf(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath2);
	MKF_OPTS(mkf_open_opts, mo, .cache_dir = cachedir);
	char path[4096], dwarf[1200], rel[1200], pad[1200], name[256] = "", pad_name[256] = "";
	char entry[4400], pad_entry[4400];

	target = &ko;

	obj_path("unit_wq_new", path, sizeof(path));
	snprintf(dwarf, sizeof(dwarf), "%s/dwarf.bpf.o", tmpdir);
	snprintf(rel, sizeof(rel), "%s/rel.bpf.o", tmpdir);
	snprintf(pad, sizeof(pad), "%s/pad.bpf.o", tmpdir);
	t_check("unchanged: objects one byte apart in DWARF, its relocations, the ELF header",
		!flip_copy(path, dwarf, FLIP_DWARF) && !flip_copy(path, rel, FLIP_DWARF_REL) &&
		!flip_copy(path, pad, FLIP_PADDING), "errno %d", errno);
	remove_tree(cachedir);
	t_check("unchanged: the first open writes an entry that hands the object over",
		open_ok(path, &mo) && open_ok(path, &mo) && logged(HIT_UNCHANGED) &&
		entries(name, sizeof(name)) == 1, "log: %s", t_log);
	t_check("unchanged: one byte apart in its DWARF: a hit of that entry",
		open_ok(dwarf, &mo) && logged(HIT_UNCHANGED), "log: %s", t_log);
	t_check("unchanged: one byte apart in a DWARF relocation: a hit of that entry",
		open_ok(rel, &mo) && logged(HIT_UNCHANGED) && entries(NULL, 0) == 1,
		"entries %d, log: %s", entries(NULL, 0), t_log);
	t_check("unchanged: one byte apart in the ELF header: a miss, its own entry",
		open_ok(pad, &mo) && !logged(HIT_UNCHANGED) && entries(NULL, 0) == 2,
		"entries %d, log: %s", entries(NULL, 0), t_log);
	/* The compare, not the name: the first entry under the other's name. */
	remove_tree(cachedir);
	open_ok(pad, &mo);
	entries(pad_name, sizeof(pad_name));
	snprintf(pad_entry, sizeof(pad_entry), "%s/%s", cachedir, pad_name);
	remove_tree(cachedir);
	open_ok(path, &mo);
	snprintf(entry, sizeof(entry), "%s/%s", cachedir, name);
	t_check("unchanged: that entry renamed to the other object's name: a miss",
		!rename(entry, pad_entry) && open_ok(pad, &mo) && !logged(HIT_UNCHANGED) &&
		!logged(HIT), "log: %s", t_log);
}

static void test_not_used(void)
{
	struct btf *vm = fx_kernel(FX_616);
	struct mkf_kernel *k = vm ? mkf_kernel__new(vm) : NULL;
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	struct mkf_kernel *kfile = mkf_kernel__load(&ko);
	MKF_OPTS(mkf_open_opts, with_files, .kernel = kfile, .cache_dir = cachedir);
	struct mkf_object *obj;
	struct mkf_plan *plan;
	struct bpf_object *bo;
	MKF_OPTS(mkf_open_opts, with_kernel, .kernel = k, .cache_dir = cachedir);
	MKF_OPTS(mkf_open_opts, mo, .cache_dir = cachedir);
	char path[4096], file[1200];
	int before;

	target = &ko;

	obj_path("unit_wq_new", path, sizeof(path));
	t_check("an entry for this object and kernel", open_ok(path, &mo) && open_ok(path, &mo) &&
		logged(HIT), "log: %s", t_log);
	before = entries(NULL, 0);
	/* The plan in the caller's hands: three steps, no cache. */
	obj = mkf_object__new_file(path, NULL);
	plan = obj ? mkf_plan__compute(obj, kfile, NULL) : NULL;
	t_log_reset();
	bo = plan ? mkf_object__open(obj, plan, NULL) : NULL;
	t_check("mkf_object__open: computed, not cached", bo && !logged(HIT) &&
		entries(NULL, 0) == before, "log: %s", t_log);
	bpf_object__close(bo);
	mkf_plan__free(plan);
	mkf_object__free(obj);
	t_check("a kernel loaded from its files: the same entry (keyed by its files)",
		open_ok(path, &with_files) && logged(HIT) && entries(NULL, 0) == before,
		"log: %s", t_log);
	mkf_kernel__free(kfile);
	t_check("a kernel given as a struct: not cached", open_ok(path, &with_kernel) &&
		!logged(HIT) && entries(NULL, 0) == before, "log: %s", t_log);
	mkf_kernel__free(k);
	btf__free(vm);

	/* A strong extern that fits nothing: the open fails and keeps nothing. */
	{
		struct btf *bare = btf__new_empty();
		MKF_OPTS(mkf_kernel_opts, kb, .vmlinux_path = file);
		MKF_OPTS(mkf_open_opts, bare_mo, .cache_dir = cachedir);

		target = &kb;
		snprintf(file, sizeof(file), "%s/bare.btf", tmpdir);
		if (bare)
			btf__add_int(bare, "int", 4, BTF_INT_SIGNED);
		t_check("bare kernel file", bare && !t_write_btf(file, bare), "errno %d", errno);
		btf__free(bare);
		obj_path("unit_list", path, sizeof(path));
		before = entries(NULL, 0);
		t_check("unresolved strong extern: ESRCH, nothing kept",
			!open_ok(path, &bare_mo) && errno == ESRCH && entries(NULL, 0) == before,
			"errno %d, entries %d", errno, entries(NULL, 0));
		t_check("unresolved strong extern: ESRCH again", !open_ok(path, &bare_mo) &&
			errno == ESRCH, "errno %d", errno);
		target = &ko;
	}

	/* A directory that cannot be one: the open works, and says so. */
	snprintf(file, sizeof(file), "%s/not-a-dir", tmpdir);
	close(open(file, O_CREAT | O_WRONLY, 0600));
	{
		MKF_OPTS(mkf_open_opts, file_mo, .cache_dir = file);

		obj_path("unit_wq_new", path, sizeof(path));
		t_check("cache_dir is a file: opens anyway, warns", open_ok(path, &file_mo) &&
			logged("rewrite cache: cannot"), "log: %s", t_log);
	}
}

/* A BTF directory, as for the running kernel: the boot id and every file. */
static void test_btf_dir(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .btf_dir = btfdir);
	MKF_OPTS(mkf_open_opts, mo, .cache_dir = cachedir);
	char path[4096], boot[64] = "", stale[1300], stale_tmp[1400], mod[1200];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	bool have_boot = f && fgets(boot, sizeof(boot), f) && strlen(boot) >= 8;

	target = &ko;

	if (f)
		fclose(f);
	obj_path("unit_wq_new", path, sizeof(path));
	if (!have_boot) {
		t_skip("btf_dir entries are per boot", "no /proc/sys/kernel/random/boot_id here");
	} else {
		/* An entry of another boot: never matches again, removed on a write. */
		snprintf(stale, sizeof(stale), "%s/mkf2-%s-0123456789abcdef", cachedir,
			 strncmp(boot, "00000000", 8) ? "00000000" : "ffffffff");
		snprintf(stale_tmp, sizeof(stale_tmp), "%s.tmpAbC123", stale);
		close(open(stale, O_CREAT | O_WRONLY, 0600));
		close(open(stale_tmp, O_CREAT | O_WRONLY, 0600));
		t_check("btf_dir: a miss, written", open_ok(path, &mo) && !logged(HIT),
			"log: %s", t_log);
		t_check("btf_dir: the entry of another boot is removed", access(stale, F_OK) &&
			errno == ENOENT, "errno %d", errno);
		t_check("btf_dir: so is a temporary file of another boot", access(stale_tmp, F_OK) &&
			errno == ENOENT, "errno %d", errno);
	}
	t_check("btf_dir: then a hit", open_ok(path, &mo) && logged(HIT), "log: %s", t_log);
	snprintf(mod, sizeof(mod), "%s/mkf_testmod", btfdir);
	t_check("btf_dir: a module's BTF appears", !rename(modpath, mod), "errno %d", errno);
	t_check("btf_dir: a new module file: a miss", open_ok(path, &mo) && !logged(HIT),
		"log: %s", t_log);
	t_check("btf_dir: with the module: then a hit", open_ok(path, &mo) && logged(HIT),
		"log: %s", t_log);
	ko.skip_modules = true;
	t_check("btf_dir, skip_modules: its own key, a miss", open_ok(path, &mo) &&
		!logged(HIT), "log: %s", t_log);
	ko.skip_modules = false;
	t_check("btf_dir: writing it kept this boot's other entries", open_ok(path, &mo) &&
		logged(HIT), "log: %s", t_log);
}

/*
 * The check an open makes before it writes an entry: the kernel's files
 * are still those its key describes (a module that came or went while
 * the kernel was read would otherwise be remembered wrong).
 */
static void test_key_holds(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	struct timespec times[2] = { { .tv_sec = 1100000000 }, { .tv_sec = 1100000000 } };
	struct mkf_cache_entry ce;
	static const char obj[] = "not an object";
	int err;

	err = mkf_cache_prepare(&ce, cachedir, &ko, false, false, obj, sizeof(obj));
	t_check("key_holds: an entry's key", !err, "err %d", err);
	if (err)
		return;
	t_check("key_holds: the same files: holds", mkf_cache_key_holds(&ce, &ko, false, false),
		"key:\n%s", ce.key.buf);
	t_check("key_holds: other options: does not", !mkf_cache_key_holds(&ce, &ko, true, false),
		"key:\n%s", ce.key.buf);
	utimensat(AT_FDCWD, kpath, times, 0);
	t_check("key_holds: the kernel's file changed since: does not",
		!mkf_cache_key_holds(&ce, &ko, false, false), "key:\n%s", ce.key.buf);
	ko.vmlinux_path = kpath2;
	t_check("key_holds: another kernel file: does not",
		!mkf_cache_key_holds(&ce, &ko, false, false), "key:\n%s", ce.key.buf);
	mkf_cache_release(&ce);
}

/* --- entries someone else wrote ---------------------------------------- */

static char self_exe[4096];

/* A regular file's bytes (malloc'd), or NULL. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len = -1;
	struct stat st;

	if (f && !fstat(fileno(f), &st) && S_ISREG(st.st_mode) && !fseek(f, 0, SEEK_END) &&
	    (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET))
		buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	*n = buf ? (size_t)len : 0;
	return buf;
}

/* FROM copied to TO with MODE; 0 or -1. */
static int copy_file(const char *from, const char *to, mode_t mode)
{
	size_t n;
	char *buf = slurp(from, &n);
	int fd = buf ? open(to, O_WRONLY | O_CREAT | O_TRUNC, mode) : -1, err = -1;

	if (fd >= 0 && write(fd, buf, n) == (ssize_t)n && !fchmod(fd, mode))
		err = 0;
	if (fd >= 0 && close(fd))
		err = -1;
	free(buf);
	return err;
}

/*
 * Rewrite an entry in place (its owner and mode stay): its header, key,
 * object and what it keeps of the rewrite (cache.c's layout: a 40-byte
 * header whose last three fields are those sizes), with OBJ and TAIL
 * instead of the object and the rest when given. What anyone who may
 * write the file can make of it.
 */
static int forge(const char *entry, const void *obj, size_t obj_sz, const void *tail,
		 size_t tail_sz)
{
	size_t n, off = 40;
	char *buf = slurp(entry, &n);
	unsigned long long sz[3];
	int fd, err = -1;

	if (!buf || n < off)
		goto out;
	memcpy(sz, buf + 16, sizeof(sz));
	if (n != off + sz[0] + sz[1] + sz[2])
		goto out;
	if (!obj) {
		obj = buf + off + sz[0];
		obj_sz = sz[1];
	}
	if (!tail) {
		tail = buf + off + sz[0] + sz[1];
		tail_sz = sz[2];
	}
	fd = open(entry, O_WRONLY | O_TRUNC);
	if (fd < 0)
		goto out;
	sz[1] = obj_sz;
	sz[2] = tail_sz;
	memcpy(buf + 16, sz, sizeof(sz));
	if (write(fd, buf, off + sz[0]) == (ssize_t)(off + sz[0]) &&
	    write(fd, obj, obj_sz) == (ssize_t)obj_sz && write(fd, tail, tail_sz) == (ssize_t)tail_sz)
		err = 0;
	if (close(fd))
		err = -1;
out:
	free(buf);
	return err;
}

/* PATH opened with MO has the programs, instruction for instruction, of an open without cache. */
static bool as_computed(const char *path, const struct mkf_open_opts *mo,
			const struct mkf_open_opts *plain)
{
	struct bpf_object *a, *b;
	bool same;

	t_log_reset();
	a = open_obj(path, NULL, 0, mo);
	b = open_obj(path, NULL, 0, plain);
	same = same_programs(a, b);
	bpf_object__close(a);
	bpf_object__close(b);
	return same;
}

/*
 * An entry, whoever wrote it, cannot change what the open hands libbpf:
 * it keeps decisions that are applied to the caller's bytes again, and
 * only decisions the planner can make.
 */
static void test_forged(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	MKF_OPTS(mkf_open_opts, mo, .cache_dir = cachedir);
	MKF_OPTS(mkf_open_opts, plain);
	char path[4096], other[4096], name[256] = "", oname[256] = "", entry[4400], oentry[4400];
	size_t n, on;
	char *buf, *obuf;

	target = &ko;

	obj_path("unit_wq_new", path, sizeof(path));
	obj_path("unit_list", other, sizeof(other));
	buf = slurp(path, &n);
	obuf = slurp(other, &on);
	remove_tree(cachedir);
	t_check("forged: an entry for another object that the kernel makes the rewrite change",
		buf && obuf && open_ok(other, &mo) && entries(oname, sizeof(oname)) == 1 &&
		open_ok(other, &mo) && logged(HIT), "log: %s", t_log);
	snprintf(oentry, sizeof(oentry), "%s/%s", cachedir, oname);
	remove_tree(cachedir);
	t_check("forged: an entry for this object", open_ok(path, &mo) &&
		entries(name, sizeof(name)) == 1 && open_ok(path, &mo) && logged(HIT),
		"log: %s", t_log);
	snprintf(entry, sizeof(entry), "%s/%s", cachedir, name);

	/* What the entry keeps of the rewrite replaced by another object. */
	t_check("forged: the entry's rewrite replaced by another object's bytes",
		!forge(entry, NULL, 0, obuf, on), "errno %d", errno);
	t_check("forged: another object in the entry: the open hands libbpf this object's "
		"own rewrite", as_computed(path, &mo, &plain) && !logged(HIT), "log: %s", t_log);
	t_check("forged: another object in the entry: said so",
		logged("decisions the library never makes"), "log: %s", t_log);

	/* Another object's entry, claiming to be this object's. */
	remove_tree(cachedir);
	open_ok(other, &mo);
	t_check("forged: another object's entry under this object's name, with its bytes",
		!forge(oentry, buf, n, NULL, 0) && !rename(oentry, entry), "errno %d", errno);
	t_check("forged: another object's decisions: the open hands libbpf this object's own "
		"rewrite", as_computed(path, &mo, &plain) && !logged(HIT), "log: %s", t_log);
	t_check("forged: another object's decisions: said so", logged("does not apply"),
		"log: %s", t_log);
	free(buf);
	free(obuf);
}

/* Decisions that the planner never makes are refused when an entry is read. */
static void test_plan_decode(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	struct mkf_kernel *k = mkf_kernel__load(&ko);
	struct mkf_plan *plan = NULL;
	char path[4096];
	void *rec = NULL, *rec2;
	size_t n = 0, rec_sz = 0, rec2_sz, i, bound = 0;
	char *buf;
	static const struct {
		const char *what;
		int field;
	} bad[] = {
		{ "bound to another kernel function", 0 },
		{ "a register set before the call that the program passes (R1)", 1 },
		{ "made weak when the open did not ask for it", 2 },
		{ "merged into itself", 3 },
		{ "renamed to a hidden name that is not its own", 4 },
		{ "a prototype extended past five parameters", 5 },
		{ "an unknown decision", 6 },
		{ "an extended prototype without the kernel's types", 7 },
	};

	obj_path("unit_list", path, sizeof(path));
	buf = slurp(path, &n);
	if (buf && k)
		plan = t_plan(buf, n, k, NULL);
	t_check("decode: a plan that changes the object", plan && plan->change_cnt &&
		!mkf_cache_plan_encode(plan, &rec, &rec_sz), "errno %d", errno);
	for (i = 0; plan && i < plan->entry_cnt; i++)
		if (plan->entries[i].decision == MKF_DECISION_BIND &&
		    plan->entries[i].change == MKF_PROTO_EXTEND)
			bound = i;
	mkf_plan__free(plan);
	plan = rec ? mkf_cache_plan_decode(rec, rec_sz, false) : NULL;
	t_check("decode: the record of a real plan reads back, and writes the same bytes",
		plan && !mkf_cache_plan_encode(plan, &rec2, &rec2_sz) && rec2_sz == rec_sz &&
		!memcmp(rec, rec2, rec_sz), "plan %p", (void *)plan);
	if (plan)
		free(rec2);
	mkf_plan__free(plan);
	for (i = 0; rec && i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mkf_plan *p = mkf_cache_plan_decode(rec, rec_sz, false), *q = NULL;
		struct mkf_plan_entry *e = p ? &p->entries[bound] : NULL;
		char what[256];

		if (e) {
			switch (bad[i].field) {
			case 0:
				free(e->kernel_name);
				e->kernel_name = strdup("bpf_probe_read_kernel");
				break;
			case 1:
				e->set_regs |= 1u << 1;
				break;
			case 2:
				e->decision = MKF_DECISION_WEAKEN;
				free(e->kernel_name);
				e->kernel_name = NULL;
				e->change = MKF_PROTO_SAME;
				e->delta = 0;
				e->set_regs = 0;
				e->extra_proto = 0;
				break;
			case 3:
				e->merged_into = (long)bound;
				break;
			case 4:
				e->decision = MKF_DECISION_LEAVE_WEAK;
				e->hidden_name = strdup("mkf_hidden_bpf_probe_read_kernel");
				break;
			case 5:
				e->delta = 9;
				break;
			case 6:
				e->decision = (enum mkf_decision)77;
				break;
			case 7:
				btf__free(p->types);
				p->types = NULL;
				break;
			}
			if (!mkf_cache_plan_encode(p, &rec2, &rec2_sz)) {
				q = mkf_cache_plan_decode(rec2, rec2_sz, false);
				free(rec2);
			} else {
				e = NULL;
			}
		}
		snprintf(what, sizeof(what), "decode: refused: %s", bad[i].what);
		t_check(what, e && !q && errno == EINVAL, "entry %zu, plan %p", bound, (void *)q);
		mkf_plan__free(p);
		mkf_plan__free(q);
	}
	free(rec);
	free(buf);
	mkf_kernel__free(k);
}

/* Run fn in a child; true if it ended within 10 s (else it is killed). */
static bool ends_in_time(bool (*fn)(void *), void *arg, bool *result)
{
	pid_t pid = fork();
	int i, status;

	if (pid < 0)
		return false;
	if (!pid)
		_exit(fn(arg) ? 0 : 1);
	for (i = 0; i < 200; i++) {
		struct timespec ts = { 0, 50000000 };

		if (waitpid(pid, &status, WNOHANG) == pid) {
			*result = WIFEXITED(status) && !WEXITSTATUS(status);
			return true;
		}
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return false;
}

struct open_args {
	const char *path;
	const struct mkf_open_opts *mo;
	const char *want;	/* in the log */
};

static bool open_logs(void *arg)
{
	struct open_args *a = arg;

	return open_ok(a->path, a->mo) && (!a->want || logged(a->want));
}

/* A FIFO where the entry would be: never waited on. */
static void test_fifo(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	MKF_OPTS(mkf_open_opts, mo, .cache_dir = cachedir);
	char path[4096], name[256] = "", entry[4400];
	struct open_args a = { path, &mo, "ignoring" };
	bool ok = false;

	target = &ko;

	obj_path("unit_wq_new", path, sizeof(path));
	remove_tree(cachedir);
	open_ok(path, &mo);
	entries(name, sizeof(name));
	snprintf(entry, sizeof(entry), "%s/%s", cachedir, name);
	t_check("fifo: a FIFO at the entry's name in the caller's own directory",
		!unlink(entry) && !mkfifo(entry, 0600), "errno %d", errno);
	t_check("fifo: the open does not wait on it (10 s at most)",
		ends_in_time(open_logs, &a, &ok), "still blocked after 10 s");
	t_check("fifo: opens, and says it ignores it", ok, "log: %s", t_log);
}

/*
 * Run ARGV as user 65534 (setpriv --reuid=65534 --regid=65534
 * --clear-groups), with CAP_BPF in its ambient set if CAP_BPF; its
 * output in out. Its exit status, or -1.
 */
static int as_nobody(bool cap_bpf, char *out, size_t out_sz, const char *const *argv)
{
	const char *args[32] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" };
	int n = 4, fds[2], status;
	ssize_t r;
	size_t len = 0;
	pid_t pid;

	if (cap_bpf) {
		args[n++] = "--inh-caps=+bpf";
		args[n++] = "--ambient-caps=+bpf";
	}
	while (*argv && n < 31)
		args[n++] = *argv++;
	args[n] = NULL;
	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execvp(args[0], (char *const *)args);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (r = read(fds[0], out + len, out_sz - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The second user's side of the tests below (main: --step ...). */
static int step(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[0], "open")) {
		MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = argv[2]);
		MKF_OPTS(mkf_open_opts, mo, .cache_dir = argv[1]);
		MKF_OPTS(mkf_open_opts, plain);
		bool same;

		target = &ko;
		same = as_computed(argv[3], &mo, &plain);

		printf("%s\n%s", same ? "same" : "different", t_log);
		return same ? 0 : 1;
	}
	if (argc == 5 && !strcmp(argv[0], "name")) {
		MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = argv[2]);
		struct mkf_cache_entry ce;
		size_t n;
		char *buf = slurp(argv[3], &n);

		if (!buf || mkf_cache_prepare(&ce, argv[1], &ko, false, false, buf, n))
			return 2;
		printf("%s\n", !strcmp(argv[4], "key") ? ce.key.buf : ce.name);
		mkf_cache_release(&ce);
		free(buf);
		return 0;
	}
	return 2;
}

/* The first line of the key that starts with "code " (what identifies this code). */
static bool code_line(const char *key, char *line, size_t sz)
{
	const char *p = strstr(key, "\ncode ");

	if (!p)
		return false;
	p++;
	snprintf(line, sz, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

/* The code is known by its build ID, not by the name it was run under. */
static void test_key_code(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	struct mkf_cache_entry ce;
	char path[4096], mine[512] = "", theirs[512] = "", out[16384];
	const char *argv[] = { "/bin/true", "--step", "name", cachedir, kpath, path, "key", NULL };
	size_t n = 0, len = 0;
	char *buf;
	int fds[2], status = -1;
	pid_t pid;
	ssize_t r;

	obj_path("unit_wq_new", path, sizeof(path));
	buf = slurp(path, &n);
	if (buf && !mkf_cache_prepare(&ce, cachedir, &ko, false, false, buf, n)) {
		code_line(ce.key.buf, mine, sizeof(mine));
		mkf_cache_release(&ce);
	}
	free(buf);
	t_check("key: names the code by its build ID", !strncmp(mine, "code build-id ", 14),
		"%s", mine);
	/* The same program, run as "/bin/true". */
	if (pipe(fds))
		return;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		execv(self_exe, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (r = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	t_check("key: the same code run under another argv[0] has the same key",
		!status && code_line(out, theirs, sizeof(theirs)) && !strcmp(mine, theirs),
		"'%s' against '%s'", theirs, mine);
}

static bool root_key_names_root(const char *path)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	struct mkf_cache_entry ce;
	size_t n;
	char *buf = slurp(path, &n);
	bool ok = false;

	if (buf && !mkf_cache_prepare(&ce, cachedir, &ko, false, false, buf, n)) {
		ok = strstr(ce.key.buf, "\neuid 0\n") != NULL;
		mkf_cache_release(&ce);
	}
	free(buf);
	return ok;
}

/*
 * A second user (uid 65534, through setpriv) on the same machine: what
 * it can put in the way of a root open, and of a process of its own
 * that holds a capability it does not.
 */
static void test_other_user(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	MKF_OPTS(mkf_open_opts, plain);
	char path[4096], other[4096], shared[1200], victim[1200], link_dir[1300], mid[1400];
	char theirs[1200], name[256] = "", entry[4400], out[16384], fifo[1500], own[1200];
	const char *mkfifo_argv[] = { "mkfifo", fifo, NULL };
	const char *ln_argv[] = { "ln", "-s", victim, link_dir, NULL };
	const char *ln2_argv[] = { "ln", "-s", victim, link_dir, NULL };
	const char *open_argv[] = { self_exe, "--step", "open", theirs, kpath, path, NULL };
	const char *name_argv[] = { self_exe, "--step", "name", theirs, kpath, path, "name", NULL };
	const char *key_argv[] = { self_exe, "--step", "name", theirs, kpath, path, "key", NULL };
	size_t on;
	char *obuf;
	bool ok = false;
	int rc;

	target = &ko;

	if (geteuid() != 0 || as_nobody(false, out, sizeof(out),
					 (const char *const[]){ "true", NULL })) {
		t_skip("a second user", "not root, or setpriv --reuid=65534 does not run: %s", out);
		return;
	}
	/*
	 * The second user must reach the fixtures, the objects and this
	 * program: tmpdir becomes 0755, and gets copies of them (the build
	 * directory may be closed to others, as scripts/check-sanitizers's).
	 */
	chmod(tmpdir, 0755);
	obj_path("unit_wq_new", path, sizeof(path));
	obj_path("unit_list", other, sizeof(other));
	snprintf(shared, sizeof(shared), "%s/unit_wq_new.bpf.o", tmpdir);
	snprintf(victim, sizeof(victim), "%s/unit_list.bpf.o", tmpdir);
	snprintf(own, sizeof(own), "%s/cache-test", tmpdir);
	if (copy_file(path, shared, 0644) || copy_file(other, victim, 0644) ||
	    copy_file(self_exe, own, 0755)) {
		t_fail("a second user", "cannot copy the objects and this program to %s: %s",
		       tmpdir, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s", shared);
	snprintf(other, sizeof(other), "%s", victim);
	snprintf(self_exe, sizeof(self_exe), "%s", own);
	snprintf(shared, sizeof(shared), "%s/shared", tmpdir);
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	snprintf(own, sizeof(own), "%s/own", tmpdir);
	mkdir(shared, 0777);
	chmod(shared, 01777);
	mkdir(victim, 0700);
	mkdir(own, 0700);

	/* Its FIFO in a shared directory, at the name of root's entry. */
	{
		MKF_OPTS(mkf_open_opts, mo, .cache_dir = own);
		MKF_OPTS(mkf_open_opts, smo, .cache_dir = shared);
		struct open_args a = { path, &smo, NULL };

		open_ok(path, &mo);
		snprintf(fifo, sizeof(fifo), "%s/", shared);
		{
			DIR *d = opendir(own);
			struct dirent *de;

			while (d && (de = readdir(d)))
				if (!strncmp(de->d_name, "mkf2-", 5))
					snprintf(fifo, sizeof(fifo), "%s/%s", shared, de->d_name);
			if (d)
				closedir(d);
		}
		rc = as_nobody(false, out, sizeof(out), mkfifo_argv);
		t_check("other user: its FIFO at root's entry name in a mode-1777 directory",
			!rc, "exit %d: %s", rc, out);
		if (!t_check("other user: its FIFO: root's open does not hang (10 s at most)",
			     ends_in_time(open_logs, &a, &ok) && ok,
			     "still blocked after 10 s, or failed"))
			unlink(fifo);	/* the open below would hang too */
		t_check("other user: a directory others may write: not used, said so",
			open_ok(path, &smo) && logged("is writable by others"), "log: %s", t_log);
	}

	/* Its link as the cache directory, to a directory of root's. */
	snprintf(link_dir, sizeof(link_dir), "%s/cache", shared);
	{
		MKF_OPTS(mkf_open_opts, lmo, .cache_dir = link_dir);
		DIR *d;
		int n = 0;

		rc = as_nobody(false, out, sizeof(out), ln_argv);
		t_check("other user: its link as root's cache directory", !rc, "exit %d: %s", rc,
			out);
		t_check("other user: its link: the open works, and says it does not use it",
			open_ok(path, &lmo) && open_ok(path, &lmo) && logged("symbolic link"),
			"log: %s", t_log);
		d = opendir(victim);
		while (d && readdir(d))
			n++;
		if (d)
			closedir(d);
		t_check("other user: its link: root writes nothing where it points", n == 2,
			"%d names in %s", n - 2, victim);
		/* The same link on the way to the directory. */
		snprintf(mid, sizeof(mid), "%s/cache/sub", shared);
		lmo.cache_dir = mid;
		t_check("other user: its link on the way: not used, said so",
			open_ok(path, &lmo) && logged("the link cache belongs to uid 65534"),
			"log: %s", t_log);
		d = opendir(victim);
		n = 0;
		while (d && readdir(d))
			n++;
		if (d)
			closedir(d);
		t_check("other user: its link on the way: nothing written where it points",
			n == 2, "%d names in %s", n - 2, victim);
		(void)ln2_argv;
	}

	/* Its own directory as root's cache directory. */
	snprintf(theirs, sizeof(theirs), "%s/theirs", tmpdir);
	mkdir(theirs, 0700);
	t_check("other user: a directory of its own", !chown(theirs, 65534, 65534),
		"errno %d", errno);
	{
		MKF_OPTS(mkf_open_opts, tmo, .cache_dir = theirs);

		t_check("other user: its directory as root's cache: not used, said so",
			open_ok(path, &tmo) && logged("belongs to uid 65534"), "log: %s", t_log);
	}

	/* Its own cache, read by a process of its own with CAP_BPF. */
	rc = as_nobody(false, out, sizeof(out), open_argv);
	t_check("other user: its own open with a cache: an entry", !rc && strstr(out, "same"),
		"exit %d: %s", rc, out);
	rc = as_nobody(false, out, sizeof(out), key_argv);
	t_check("other user: its key names its user (root's names root)",
		!rc && strstr(out, "\neuid 65534\n") && root_key_names_root(path),
		"exit %d: %s", rc, out);
	rc = as_nobody(false, out, sizeof(out), name_argv);
	t_check("other user: its entry's name is not root's for the same object and kernel",
		!rc && sscanf(out, "%255s", name) == 1 && !strstr(fifo, name),
		"exit %d: %s (root's: %s)", rc, out, fifo);
	snprintf(entry, sizeof(entry), "%s/%s", theirs, name);
	obuf = name[0] ? slurp(other, &on) : NULL;
	t_check("other user: its entry's rewrite replaced by another object",
		obuf && !forge(entry, NULL, 0, obuf, on), "errno %d", errno);
	free(obuf);
	rc = as_nobody(true, out, sizeof(out), open_argv);
	t_check("other user, with CAP_BPF: opens the object's own rewrite", !rc,
		"exit %d: %s", rc, out);
	t_check("other user, with CAP_BPF: no cache, said so",
		strstr(out, "holds capabilities its user does not have") != NULL, "%s", out);
	rc = as_nobody(false, out, sizeof(out), open_argv);
	t_check("other user, without: its forged entry is not used either", !rc &&
		strstr(out, "decisions the library never makes"), "exit %d: %s", rc, out);
	(void)plain;
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	self_exe[n > 0 ? n : 0] = '\0';
	mkf_set_print(t_log_capture);
	if (argc > 2 && !strcmp(argv[1], "--step")) {
		libbpf_set_print(NULL);
		return step(argc - 2, argv + 2);
	}
	libbpf_set_print(NULL);
	if (make_files()) {
		t_fail("fixture files", "cannot write fixture BTF files: %s", strerror(errno));
		return t_done();
	}
	test_hit_and_miss();
	test_unchanged_dwarf();
	test_not_used();
	test_btf_dir();
	test_key_holds();
	test_forged();
	test_plan_decode();
	test_fifo();
	test_key_code();
	test_other_user();
	remove_tree(tmpdir);
	return t_done();
}
