// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libFuzzer target over the rewrite cache's read path: what an open
 * does with an entry file someone else may have written. Byte 0 picks
 * one of the unit objects tests/bpf builds and a fixture kernel (its
 * BTF written to a file, as a cache_dir open reads it); with bit 7 of
 * byte 0 set, the rest is the whole entry file; else the rest is what
 * an entry keeps of the rewrite (cache_plan.h), after a header, key and
 * object that match. mkf_cache_get() reads it; decisions it accepts are
 * applied to the object (mkf_object__rewrite(), which reads the result
 * back with the reader's checks), as an open does before libbpf.
 *
 * MKF_FUZZ_WRITE_SEEDS=DIR: write the records of the real plans (each
 * object against each kernel) to DIR as seeds, and exit.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "magic_kfunc.h"
#include "cache.h"
#include "cache_plan.h"
#include "fixtures.h"
#include "fuzz_common.h"

#ifndef MKF_FUZZ_OBJDIR
#define MKF_FUZZ_OBJDIR "tests/bpf"
#endif

static const char *const names[] = {
	"unit_wq_new", "unit_wq_old", "unit_compat", "unit_list", "unit_clash",
};
static const enum fx_era eras[] = { FX_612_DEB12, FX_616, FX_70, FX_73 };
#define NOBJS (sizeof(names) / sizeof(names[0]))
#define NERAS (sizeof(eras) / sizeof(eras[0]))
#define NCASES (NOBJS * NERAS)

/* cache.c's entry header (a test of the format, not of the API). */
struct entry_hdr {
	char magic[8];
	__u32 version;
	__u32 unchanged;
	__u64 key_len, obj_sz, out_sz;
};

static void *objs[NOBJS];
static size_t obj_sz[NOBJS];
static struct mkf_object *handles[NOBJS];	/* the library's reading of each */
static struct mkf_cache_entry entries[NCASES];
/* On tmpfs where there is one: an entry is written for every input. */
static char dir[64];
static char cache_dir[sizeof(dir) + 16];

static void *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	long len;
	void *buf;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "cannot read %s\n", path);
		abort();
	}
	buf = malloc((size_t)len);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
		abort();
	fclose(f);
	*n = (size_t)len;
	return buf;
}

static void write_file(const char *path, const void *a, size_t an, const void *b, size_t bn)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (an && write(fd, a, an) != (ssize_t)an) ||
	    (bn && write(fd, b, bn) != (ssize_t)bn) || close(fd))
		abort();
}

/* Seeds: the record of every real plan, after its case's selector byte. */
static void write_seeds(const char *out)
{
	size_t c;

	for (c = 0; c < NCASES; c++) {
		struct btf *btf = fx_kernel(eras[c % NERAS]);
		struct mkf_kernel *k = btf ? mkf_kernel__new(btf) : NULL;
		struct mkf_plan *plan = k ? mkf_plan__compute(handles[c / NERAS], k, NULL) : NULL;
		unsigned char sel = (unsigned char)c;
		char path[4200];
		void *rec;
		size_t n;

		if (plan && !mkf_cache_plan_encode(plan, &rec, &n)) {
			snprintf(path, sizeof(path), "%s/record-%s-%zu", out, names[c / NERAS],
				 c % NERAS);
			write_file(path, &sel, 1, rec, n);
			free(rec);
		}
		mkf_plan__free(plan);
		mkf_kernel__free(k);
		btf__free(btf);
	}
	exit(0);
}

/* The entries, the kernels' files and their directories, at exit. */
static void remove_dir(void)
{
	const char *sub[] = { cache_dir, dir };
	char path[4200];
	struct dirent *de;
	size_t i;

	for (i = 0; i < 2; i++) {
		DIR *d = opendir(sub[i]);

		while (d && (de = readdir(d))) {
			snprintf(path, sizeof(path), "%s/%s", sub[i], de->d_name);
			unlink(path);
		}
		if (d)
			closedir(d);
		rmdir(sub[i]);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *objdir = getenv("MKF_FUZZ_OBJDIR") ?: MKF_FUZZ_OBJDIR;
	char path[4200];
	size_t i;

	(void)argc;
	(void)argv;
	mkf_set_print(quiet);
	libbpf_set_print(quiet);
	for (i = 0; i < NOBJS; i++) {
		snprintf(path, sizeof(path), "%s/%s.bpf.o", objdir, names[i]);
		objs[i] = slurp(path, &obj_sz[i]);
		handles[i] = mkf_object__new(objs[i], obj_sz[i], NULL);
		if (!handles[i])
			abort();
	}
	if (getenv("MKF_FUZZ_WRITE_SEEDS"))
		write_seeds(getenv("MKF_FUZZ_WRITE_SEEDS"));
	snprintf(dir, sizeof(dir), "%s/mkf-fuzz-cache.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	snprintf(cache_dir, sizeof(cache_dir), "%s/cache", dir);
	for (i = 0; i < NERAS; i++) {
		struct btf *btf = fx_kernel(eras[i]);
		const void *raw;
		__u32 n;

		raw = btf ? btf__raw_data(btf, &n) : NULL;
		if (!raw)
			abort();
		snprintf(path, sizeof(path), "%s/kernel-%zu.btf", dir, i);
		write_file(path, raw, n, NULL, 0);
		btf__free(btf);
	}
	for (i = 0; i < NCASES; i++) {
		static char kpaths[NERAS][4200];
		MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = kpaths[i % NERAS]);

		snprintf(kpaths[i % NERAS], sizeof(kpaths[0]), "%s/kernel-%zu.btf", dir, i % NERAS);
		/* Odd cases: weaken_unresolved, which allows other decisions. */
		if (mkf_cache_prepare(&entries[i], cache_dir, &ko, false, i % 2, objs[i / NERAS],
				      obj_sz[i / NERAS]))
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct mkf_cache_entry *ce;
	struct mkf_plan *plan = NULL;
	struct entry_hdr h = { .version = 2 };
	char path[4200];
	size_t o;
	bool unchanged;
	void *out = NULL;
	size_t out_sz = 0;

	if (size < 1)
		return 0;
	ce = &entries[(data[0] & 0x7f) % NCASES];
	o = ((data[0] & 0x7f) % NCASES) / NERAS;
	snprintf(path, sizeof(path), "%s/%s", cache_dir, ce->name);
	if (data[0] & 0x80) {
		write_file(path, data + 1, size - 1, NULL, 0);
	} else {
		char *head = malloc(sizeof(h) + ce->key.len + obj_sz[o]);

		if (!head)
			abort();
		memcpy(h.magic, "MKFCACHE", 8);
		h.unchanged = size == 1;
		h.key_len = ce->key.len;
		h.obj_sz = obj_sz[o];
		h.out_sz = size - 1;
		memcpy(head, &h, sizeof(h));
		memcpy(head + sizeof(h), ce->key.buf, ce->key.len);
		memcpy(head + sizeof(h) + ce->key.len, objs[o], obj_sz[o]);
		write_file(path, head, sizeof(h) + ce->key.len + obj_sz[o], data + 1, size - 1);
		free(head);
	}
	if (mkf_cache_get(ce, objs[o], obj_sz[o], &plan, &unchanged) && plan) {
		/* The rewrite reads its output back and checks it, as for an open. */
		if (!mkf_object__rewrite(handles[o], plan, &out, &out_sz, NULL))
			free(out);
		mkf_plan__free(plan);
	}
	return 0;
}
