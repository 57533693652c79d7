// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The rewrite cache (see cache.h). An entry file is
 *
 *	struct entry_hdr, then the key text, the input object and the
 *	output (none when the open used the input as it is)
 *
 * written to a temporary file and renamed into place, so a reader sees
 * a whole entry or none. Entries are trusted only when they are regular
 * files of the caller's own user that no one else may write: the
 * output goes to libbpf, and the caller re-reads it with the library's
 * own checks before it does (open.c).
 */
#define _GNU_SOURCE	/* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <bpf/libbpf.h>

#include "cache.h"
#include "kernel_load.h"
#include "log.h"
#include "opts.h"

#define ENTRY_MAGIC "MKFCACHE"
#define ENTRY_VERSION 1
#define ENTRY_PREFIX "mkf1-"
#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
#define CHUNK (64 * 1024)

struct entry_hdr {
	char magic[8];
	__u32 version;
	__u32 unchanged;	/* 1: the open used the input as it is */
	__u64 key_len, obj_sz, out_sz;
};

/*
 * 64-bit hash for file names only (lookups compare the bytes): four
 * independent lanes, so it runs at memory speed on large objects.
 */
static __u64 hash_bytes(const void *data, size_t n, __u64 seed)
{
	const unsigned char *s = data;
	__u64 h[4] = { seed ^ 0x9e3779b97f4a7c15ull, seed + 0xc2b2ae3d27d4eb4full,
		       ~seed, seed * 0x165667b19e3779f9ull };
	__u64 w, r;
	size_t i = 0;
	int l;

	for (; i + 32 <= n; i += 32) {
		for (l = 0; l < 4; l++) {
			memcpy(&w, s + i + 8 * l, sizeof(w));
			h[l] = (h[l] ^ w) * 0x9e3779b97f4a7c15ull;
			h[l] ^= h[l] >> 31;
		}
	}
	for (; i < n; i++)
		h[0] = (h[0] ^ s[i]) * 0x100000001b3ull;
	r = n;
	for (l = 0; l < 4; l++) {
		r = (r ^ h[l]) * 0xff51afd7ed558ccdull;
		r ^= r >> 33;
	}
	return r;
}

/*
 * The object's part of the file name: its bytes outside its DWARF and
 * the DWARF's relocations (ce->dwarf), and where those lie. In an
 * object built with -g they are most of the bytes, and hashing them
 * was most of the cost of a hit. Objects that differ only there share
 * a name; the compare tells them apart (unless the entry hands libbpf
 * the input unchanged, see cache.h), and the last one written keeps the
 * file.
 */
static __u64 hash_object(const struct mkf_cache_entry *ce, const void *obj, size_t sz,
			 __u64 seed)
{
	__u64 h = hash_bytes(ce->dwarf, ce->dwarf_cnt * sizeof(*ce->dwarf), seed);
	size_t i, pos = 0;

	for (i = 0; i < ce->dwarf_cnt; i++) {
		h = hash_bytes((const char *)obj + pos, ce->dwarf[i].off - pos, h);
		pos = ce->dwarf[i].end;
	}
	return hash_bytes((const char *)obj + pos, sz - pos, h);
}

static void key_file(struct mkf_sb *key, const char *what, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		mkf_sb_printf(key, "%s %s: %s\n", what, path, strerror(errno));
		return;
	}
	mkf_sb_printf(key, "%s %s: dev %llu ino %llu size %lld mtime %lld.%09ld ctime %lld.%09ld\n",
		      what, path, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		      (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		      (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

/* Every file of a BTF directory, as kernel_load.c reads it. */
static int key_dir(struct mkf_sb *key, const char *dir, bool skip_modules)
{
	char **names, path[4096];
	size_t cnt, i;
	int err;

	if (skip_modules) {
		snprintf(path, sizeof(path), "%s/vmlinux", dir);
		key_file(key, "vmlinux", path);
		return 0;
	}
	err = mkf_btf_dir_list(dir, &names, &cnt);
	for (i = 0; i < cnt; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		key_file(key, "btf", path);
	}
	mkf_btf_dir_free(names, cnt);
	return err;
}

/* The first eight characters of this boot's id, if the kernel says. */
static bool read_boot(char boot[9], struct mkf_sb *key)
{
	char id[64] = "";
	ssize_t n;
	int fd = open(BOOT_ID_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, id, sizeof(id) - 1);
	close(fd);
	if (n < 8)
		return false;
	id[n] = '\0';
	id[strcspn(id, "\n")] = '\0';
	if (strspn(id, "0123456789abcdef") < 8)
		return false;
	memcpy(boot, id, 8);
	boot[8] = '\0';
	mkf_sb_printf(key, "boot %s\n", id);
	return true;
}

/*
 * The file this code was loaded from (the shared library, or the
 * program it is linked into): a rebuilt library may decide otherwise
 * under the same version number.
 */
static void key_self(struct mkf_sb *key)
{
	Dl_info info;

	if (dladdr((void *)key_self, &info) && info.dli_fname && *info.dli_fname == '/')
		key_file(key, "code", info.dli_fname);
	else
		key_file(key, "code", "/proc/self/exe");
}

/*
 * The key text: what identifies the kernel's BTF files, the library and
 * the options. *per_boot and boot tell whether it names this boot.
 */
static int describe(struct mkf_sb *key, bool *per_boot, char boot[9],
		    const struct mkf_kernel_opts *ko, bool allow_unresolved,
		    bool weaken_unresolved)
{
	const char *vmlinux = OPTS_GET(ko, vmlinux_path, NULL);
	const char *const *mods = OPTS_GET(ko, module_paths, NULL);
	size_t i, mod_cnt = OPTS_GET(ko, module_cnt, 0);
	int err = 0;

	*per_boot = false;
	mkf_sb_printf(key, "magic-kfunc rewrite cache %d\nlibrary %s\nlibbpf %u.%u\n",
		      ENTRY_VERSION, mkf_version_string(), libbpf_major_version(),
		      libbpf_minor_version());
	key_self(key);
	mkf_sb_printf(key, "allow_unresolved %d weaken_unresolved %d check_all_types %d\n",
		      allow_unresolved, weaken_unresolved,
		      (int)OPTS_GET(ko, check_all_types, false));
	if (vmlinux) {
		key_file(key, "vmlinux", vmlinux);
		for (i = 0; mods && i < mod_cnt; i++)
			key_file(key, "module", mods[i]);
	} else {
		const char *bdir = OPTS_GET(ko, btf_dir, NULL);

		/* A kernel's BTF files are only the same within one boot. */
		*per_boot = read_boot(boot, key);
		err = key_dir(key, bdir ? bdir : MKF_DEFAULT_BTF_DIR,
			      OPTS_GET(ko, skip_modules, false));
	}
	if (!err && key->failed)
		err = -ENOMEM;
	return err;
}

int mkf_cache_prepare(struct mkf_cache_entry *ce, const char *dir,
		      const struct mkf_kernel_opts *ko, bool allow_unresolved,
		      bool weaken_unresolved, const void *obj, size_t obj_sz)
{
	__u64 h;
	int err;

	memset(ce, 0, sizeof(*ce));
	ce->dir = dir;
	err = describe(&ce->key, &ce->per_boot, ce->boot, ko, allow_unresolved,
		       weaken_unresolved);
	if (err) {
		mkf_cache_release(ce);
		return err;
	}
	ce->dwarf_cnt = mkf_obj_dwarf_ranges(obj, obj_sz, &ce->dwarf);
	h = hash_object(ce, obj, obj_sz, hash_bytes(ce->key.buf, ce->key.len, 0));
	snprintf(ce->name, sizeof(ce->name), ENTRY_PREFIX "%s-%016llx",
		 ce->per_boot ? ce->boot : "files", (unsigned long long)h);
	return 0;
}

bool mkf_cache_key_holds(const struct mkf_cache_entry *ce, const struct mkf_kernel_opts *ko,
			 bool allow_unresolved, bool weaken_unresolved)
{
	struct mkf_sb now = {};
	char boot[9];
	bool per_boot, same;

	same = !describe(&now, &per_boot, boot, ko, allow_unresolved, weaken_unresolved) &&
	       now.len == ce->key.len && !memcmp(now.buf, ce->key.buf, now.len);
	mkf_sb_free(&now);
	return same;
}

void mkf_cache_release(struct mkf_cache_entry *ce)
{
	mkf_sb_free(&ce->key);
	free(ce->dwarf);
	ce->dwarf = NULL;
	ce->dwarf_cnt = 0;
}

static int read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;	/* 0: the file is shorter than its header says */
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The next N bytes of fd are exactly DATA's. */
static bool same_bytes(int fd, const void *data, size_t n, char *chunk)
{
	const char *p = data;

	while (n) {
		size_t k = n < CHUNK ? n : CHUNK;

		if (read_full(fd, chunk, k) || memcmp(chunk, p, k))
			return false;
		p += k;
		n -= k;
	}
	return true;
}

/*
 * The same for the object, but for its DWARF (ce->dwarf): those ranges
 * of fd are skipped, not read.
 */
static bool same_outside_dwarf(int fd, const struct mkf_cache_entry *ce, const void *obj,
			       size_t obj_sz, char *chunk)
{
	const char *p = obj;
	size_t i, pos = 0;

	for (i = 0; i < ce->dwarf_cnt; i++) {
		const struct mkf_range *r = &ce->dwarf[i];

		if (!same_bytes(fd, p + pos, r->off - pos, chunk) ||
		    lseek(fd, (off_t)(r->end - r->off), SEEK_CUR) < 0)
			return false;
		pos = r->end;
	}
	return same_bytes(fd, p + pos, obj_sz - pos, chunk);
}

int mkf_cache_get(const struct mkf_cache_entry *ce, const void *obj, size_t obj_sz,
		  void **out, size_t *out_sz, bool *unchanged)
{
	struct entry_hdr h;
	char path[4200], *chunk = NULL;
	void *buf = NULL;
	struct stat st;
	int fd, hit = 0;

	*out = NULL;
	*out_sz = 0;
	*unchanged = false;
	snprintf(path, sizeof(path), "%s/%s", ce->dir, ce->name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out;
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		pr_warn("rewrite cache: ignoring %s: not the caller's own, or writable by others\n",
			path);
		goto out;
	}
	if (read_full(fd, &h, sizeof(h)) || memcmp(h.magic, ENTRY_MAGIC, sizeof(h.magic)) ||
	    h.version != ENTRY_VERSION || h.key_len != ce->key.len || h.obj_sz != obj_sz ||
	    h.unchanged > 1 || (h.unchanged && h.out_sz) ||
	    h.out_sz > (__u64)st.st_size ||
	    (__u64)st.st_size != sizeof(h) + h.key_len + h.obj_sz + h.out_sz)
		goto out;
	chunk = malloc(CHUNK);
	if (!chunk || !same_bytes(fd, ce->key.buf, ce->key.len, chunk))
		goto out;
	/* An output embeds the object's DWARF; an unchanged entry passes on the caller's. */
	if (h.unchanged ? !same_outside_dwarf(fd, ce, obj, obj_sz, chunk) :
			  !same_bytes(fd, obj, obj_sz, chunk))
		goto out;
	if (!h.unchanged) {
		buf = malloc(h.out_sz ? h.out_sz : 1);
		if (!buf || read_full(fd, buf, h.out_sz)) {
			free(buf);
			goto out;
		}
		*out = buf;
		*out_sz = h.out_sz;
	}
	*unchanged = h.unchanged;
	hit = 1;
out:
	free(chunk);
	close(fd);
	return hit;
}

static int write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Entries of earlier boots can never match again (their key names
 * another boot): drop them, and their writers' leftover temporary
 * files, when a new one is written.
 */
static void prune_other_boots(const struct mkf_cache_entry *ce)
{
	size_t plen = strlen(ENTRY_PREFIX);
	char path[4200];
	struct dirent *de;
	DIR *d;

	if (!ce->per_boot)
		return;
	d = opendir(ce->dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (strncmp(n, ENTRY_PREFIX, plen) || strlen(n) < strlen(ce->name) ||
		    strspn(n + plen, "0123456789abcdef") != 8 || n[plen + 8] != '-' ||
		    !strncmp(n + plen, ce->boot, 8))
			continue;
		snprintf(path, sizeof(path), "%s/%s", ce->dir, n);
		unlink(path);
	}
	closedir(d);
}

void mkf_cache_put(const struct mkf_cache_entry *ce, const void *obj, size_t obj_sz,
		   const void *out, size_t out_sz)
{
	struct entry_hdr h = { .version = ENTRY_VERSION };
	char path[4200], tmp[4300];
	int fd, err = 0;

	memcpy(h.magic, ENTRY_MAGIC, sizeof(h.magic));
	h.unchanged = !out;
	h.key_len = ce->key.len;
	h.obj_sz = obj_sz;
	h.out_sz = out ? out_sz : 0;
	if (mkdir(ce->dir, 0700) && errno != EEXIST) {
		pr_warn("rewrite cache: cannot create %s: %s\n", ce->dir, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", ce->dir, ce->name);
	snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		pr_warn("rewrite cache: cannot write in %s: %s\n", ce->dir, strerror(errno));
		return;
	}
	if (write_full(fd, &h, sizeof(h)) || write_full(fd, ce->key.buf, ce->key.len) ||
	    write_full(fd, obj, obj_sz) || (out && write_full(fd, out, out_sz)))
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		pr_warn("rewrite cache: cannot write %s: %s\n", path, strerror(-err));
		unlink(tmp);
		return;
	}
	prune_other_boots(ce);
}
