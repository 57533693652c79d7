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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <elf.h>

#include "magic_kfunc.h"
#include "cache.h"
#include "fixtures.h"
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
		if (strncmp(de->d_name, "mkf1-", 5))
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
static bool open_ok(const char *path, const struct mkf_open_opts *mo)
{
	struct bpf_object *obj;

	int err;

	t_log_reset();
	obj = mkf_object__open_file(path, NULL, mo);
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
 * Overwrite the first bytes of an entry's output (cache.c's layout: a
 * 40-byte header whose last three fields are the key's, the object's
 * and the output's sizes, then those three).
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
	MKF_OPTS(mkf_open_opts, mo, .kernel_opts = &ko, .cache_dir = cachedir);
	MKF_OPTS(mkf_open_opts, plain, .kernel_opts = &ko);
	MKF_OPTS(mkf_open_opts, weak, .kernel_opts = &ko, .cache_dir = cachedir,
		 .weaken_unresolved = true);
	char path[4096], name[256] = "", entry[4400];
	struct bpf_object *cached, *computed;
	struct timespec times[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	struct stat st;
	int fd;

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
	cached = mkf_object__open_file(path, NULL, &mo);
	t_check("second open: from the cache, one info line", cached && logged(HIT) &&
		!logged("bpf_wq_set_callback_impl"), "log: %s", t_log);
	computed = mkf_object__open_file(path, NULL, &plain);
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
		obj = n && n < sizeof(buf) ? mkf_object__open_mem(buf, n, NULL, &mo) : NULL;
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
	t_check("damaged output: the ELF magic of the stored output overwritten",
		!damage_output(entry), "errno %d", errno);
	t_check("damaged output: not handed over, said so, the open succeeds",
		open_ok(path, &mo) && !logged(HIT) && logged("is not a sound object"),
		"log: %s", t_log);
	t_check("damaged output: written again, a hit next", open_ok(path, &mo) && logged(HIT),
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
	MKF_OPTS(mkf_open_opts, mo, .kernel_opts = &ko, .cache_dir = cachedir);
	char path[4096], dwarf[1200], rel[1200], pad[1200], name[256] = "", pad_name[256] = "";
	char entry[4400], pad_entry[4400];

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
	struct mkf_plan *plan = NULL;
	MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpath);
	MKF_OPTS(mkf_open_opts, with_plan, .kernel_opts = &ko, .cache_dir = cachedir,
		 .plan = &plan);
	MKF_OPTS(mkf_open_opts, with_kernel, .kernel = k, .cache_dir = cachedir);
	MKF_OPTS(mkf_open_opts, mo, .kernel_opts = &ko, .cache_dir = cachedir);
	char path[4096], file[1200];
	int before;

	obj_path("unit_wq_new", path, sizeof(path));
	t_check("an entry for this object and kernel", open_ok(path, &mo) && open_ok(path, &mo) &&
		logged(HIT), "log: %s", t_log);
	before = entries(NULL, 0);
	t_check("a plan asked for: computed, not cached", open_ok(path, &with_plan) && plan &&
		!logged(HIT) && entries(NULL, 0) == before, "plan %p, log: %s", (void *)plan,
		t_log);
	mkf_plan__free(plan);
	t_check("a kernel given as a struct: not cached", open_ok(path, &with_kernel) &&
		!logged(HIT) && entries(NULL, 0) == before, "log: %s", t_log);
	mkf_kernel__free(k);
	btf__free(vm);

	/* A strong extern that fits nothing: the open fails and keeps nothing. */
	{
		struct btf *bare = btf__new_empty();
		MKF_OPTS(mkf_kernel_opts, kb, .vmlinux_path = file);
		MKF_OPTS(mkf_open_opts, bare_mo, .kernel_opts = &kb, .cache_dir = cachedir);

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
	}

	/* A directory that cannot be one: the open works, and says so. */
	snprintf(file, sizeof(file), "%s/not-a-dir", tmpdir);
	close(open(file, O_CREAT | O_WRONLY, 0600));
	{
		MKF_OPTS(mkf_open_opts, file_mo, .kernel_opts = &ko, .cache_dir = file);

		obj_path("unit_wq_new", path, sizeof(path));
		t_check("cache_dir is a file: opens anyway, warns", open_ok(path, &file_mo) &&
			logged("rewrite cache: cannot"), "log: %s", t_log);
	}
}

/* A BTF directory, as for the running kernel: the boot id and every file. */
static void test_btf_dir(void)
{
	MKF_OPTS(mkf_kernel_opts, ko, .btf_dir = btfdir);
	MKF_OPTS(mkf_open_opts, mo, .kernel_opts = &ko, .cache_dir = cachedir);
	char path[4096], boot[64] = "", stale[1300], stale_tmp[1400], mod[1200];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	bool have_boot = f && fgets(boot, sizeof(boot), f) && strlen(boot) >= 8;

	if (f)
		fclose(f);
	obj_path("unit_wq_new", path, sizeof(path));
	if (!have_boot) {
		t_skip("btf_dir entries are per boot", "no /proc/sys/kernel/random/boot_id here");
	} else {
		/* An entry of another boot: never matches again, removed on a write. */
		snprintf(stale, sizeof(stale), "%s/mkf1-%s-0123456789abcdef", cachedir,
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

int main(void)
{
	mkf_set_print(t_log_capture);
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
	remove_tree(tmpdir);
	return t_done();
}
