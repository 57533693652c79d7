// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The rewrite cache (see cache.h). An entry file is
 *
 *	struct entry_hdr, then the key text, the input object and the
 *	plan's decisions (cache_plan.h; none when the open used the input
 *	as it is)
 *
 * written to a temporary file and renamed into place, so a reader sees
 * a whole entry or none. Only a directory no other user can change is
 * used, and only entries of the caller's own user in it (cache_dir.h);
 * even so, an entry never holds what libbpf gets: the decisions are
 * applied again to the caller's own bytes (open.c).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr */
#include <dirent.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <bpf/libbpf.h>

#include "cache.h"
#include "cache_dir.h"
#include "cache_plan.h"
#include "kernel_load.h"
#include "log.h"
#include "opts.h"

#define ENTRY_MAGIC "MKFCACHE"
#define ENTRY_VERSION 2
#define ENTRY_PREFIX "mkf2-"
#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
#define CHUNK (64 * 1024)

struct entry_hdr {
	char magic[8];
	__u32 version;
	__u32 unchanged;	/* 1: the open used the input as it is */
	__u64 key_len, obj_sz, out_sz;	/* out: the plan's record */
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

struct self {
	const void *addr;	/* an address of this code */
	struct mkf_sb *key;
	bool found;
};

/* The GNU build ID among a module's notes, if it has one, into the key. */
static bool key_build_id(struct mkf_sb *key, const struct dl_phdr_info *info)
{
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			size_t name = (nh->n_namesz + 3) & ~3ul, desc = (nh->n_descsz + 3) & ~3ul;
			const unsigned char *d = (const unsigned char *)(p + sizeof(*nh) + name);
			__u32 j;

			if (name + desc > (size_t)(end - p) - sizeof(*nh))
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + sizeof(*nh), "GNU", 4) && nh->n_descsz) {
				mkf_sb_printf(key, "code build-id ");
				for (j = 0; j < nh->n_descsz; j++)
					mkf_sb_printf(key, "%02x", d[j]);
				mkf_sb_printf(key, "\n");
				return true;
			}
			p += sizeof(*nh) + name + desc;
		}
	}
	return false;
}

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	struct self *self = data;
	ElfW(Addr) a = (ElfW(Addr))self->addr;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		ElfW(Addr) start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || a < start || a - start >= ph->p_memsz)
			continue;
		self->found = true;
		if (key_build_id(self->key, info))
			return 1;
		/* No build ID: the file, the program's own through /proc. */
		if (info->dlpi_name && info->dlpi_name[0] == '/')
			key_file(self->key, "code", info->dlpi_name);
		else
			key_file(self->key, "code", "/proc/self/exe");
		return 1;
	}
	return 0;
}

/*
 * The code that decides (the shared library, or the program it is
 * linked into): its build ID, else its file. A rebuilt library may
 * decide otherwise under the same version number. Never argv[0],
 * which dladdr() names for code in the program itself.
 */
static void key_self(struct mkf_sb *key)
{
	struct self self = { .addr = (const void *)key_self, .key = key };

	dl_iterate_phdr(find_self, &self);
	if (!self.found)
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
	/* The user is in the key, so in the name: users sharing a directory never meet. */
	mkf_sb_printf(key, "magic-kfunc rewrite cache %d\nlibrary %s\nlibbpf %u.%u\neuid %u\n",
		      ENTRY_VERSION, mkf_version_string(), libbpf_major_version(),
		      libbpf_minor_version(), (unsigned int)geteuid());
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
	ce->dfd = -1;
	ce->weaken = weaken_unresolved;
	if (!mkf_cache_dir_allowed())
		return -EPERM;
	err = describe(&ce->key, &ce->per_boot, ce->boot, ko, allow_unresolved,
		       weaken_unresolved);
	if (!err) {
		ce->dfd = mkf_cache_dir_open(dir, true);
		err = ce->dfd < 0 ? ce->dfd : 0;
	}
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
	if (ce->dfd >= 0)
		close(ce->dfd);
	ce->dfd = -1;
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
		  struct mkf_plan **plan, bool *unchanged)
{
	struct entry_hdr h;
	char *chunk = NULL;
	void *buf = NULL;
	struct stat st;
	int fd, hit = 0;

	*plan = NULL;
	*unchanged = false;
	fd = mkf_cache_entry_open(ce->dfd, ce->dir, ce->name);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st))
		goto out;
	if (read_full(fd, &h, sizeof(h)) || memcmp(h.magic, ENTRY_MAGIC, sizeof(h.magic)) ||
	    h.version != ENTRY_VERSION || h.key_len != ce->key.len || h.obj_sz != obj_sz ||
	    h.unchanged > 1 || (h.unchanged && h.out_sz) || !(h.unchanged || h.out_sz) ||
	    h.out_sz > (__u64)st.st_size ||
	    (__u64)st.st_size != sizeof(h) + h.key_len + h.obj_sz + h.out_sz)
		goto out;
	chunk = malloc(CHUNK);
	if (!chunk || !same_bytes(fd, ce->key.buf, ce->key.len, chunk))
		goto out;
	/*
	 * The plan was made for the whole object; "unchanged" holds for the
	 * object whatever its DWARF, and the caller's own bytes go on.
	 */
	if (h.unchanged ? !same_outside_dwarf(fd, ce, obj, obj_sz, chunk) :
			  !same_bytes(fd, obj, obj_sz, chunk))
		goto out;
	if (!h.unchanged) {
		buf = malloc(h.out_sz);
		if (!buf || read_full(fd, buf, h.out_sz))
			goto out;
		*plan = mkf_cache_plan_decode(buf, h.out_sz, ce->weaken);
		if (!*plan) {
			pr_warn("rewrite cache: ignoring %s/%s: it holds decisions the library "
				"never makes\n", ce->dir, ce->name);
			goto out;
		}
	}
	*unchanged = h.unchanged;
	hit = 1;
out:
	free(buf);
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
	struct dirent *de;
	int fd;
	DIR *d;

	if (!ce->per_boot)
		return;
	fd = openat(ce->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (strncmp(n, ENTRY_PREFIX, plen) || strlen(n) < strlen(ce->name) ||
		    strspn(n + plen, "0123456789abcdef") != 8 || n[plen + 8] != '-' ||
		    !strncmp(n + plen, ce->boot, 8))
			continue;
		unlinkat(ce->dfd, n, 0);
	}
	closedir(d);
}

void mkf_cache_put(const struct mkf_cache_entry *ce, const void *obj, size_t obj_sz,
		   const struct mkf_plan *plan)
{
	struct entry_hdr h = { .version = ENTRY_VERSION };
	char tmp[300];
	void *rec = NULL;
	size_t rec_sz = 0;
	int fd, err = 0;

	if (plan && mkf_cache_plan_encode(plan, &rec, &rec_sz))
		return;
	memcpy(h.magic, ENTRY_MAGIC, sizeof(h.magic));
	h.unchanged = !plan;
	h.key_len = ce->key.len;
	h.obj_sz = obj_sz;
	h.out_sz = rec_sz;
	fd = mkf_cache_tmp_create(ce->dfd, ce->name, tmp, sizeof(tmp));
	if (fd < 0) {
		pr_warn("rewrite cache: cannot write in %s: %s\n", ce->dir, strerror(-fd));
		free(rec);
		return;
	}
	if (write_full(fd, &h, sizeof(h)) || write_full(fd, ce->key.buf, ce->key.len) ||
	    write_full(fd, obj, obj_sz) || (rec && write_full(fd, rec, rec_sz)))
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(ce->dfd, tmp, ce->dfd, ce->name))
		err = -errno;
	free(rec);
	if (err) {
		pr_warn("rewrite cache: cannot write %s/%s: %s\n", ce->dir, ce->name,
			strerror(-err));
		unlinkat(ce->dfd, tmp, 0);
		return;
	}
	prune_other_boots(ce);
}
