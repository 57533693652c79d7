// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libFuzzer target over the kernel side: the input is a raw .BTF blob
 * taken as the target kernel's vmlinux BTF (btf__new() +
 * mkf_kernel__new()), and one of the unit objects tests/bpf builds
 * (which one: the input's size, as the header leaves no byte free) is
 * planned and rewritten against it. Every few inputs the blob goes through the file
 * loader (mkf_kernel__load()) too.
 *
 * MKF_FUZZ_WRITE_SEEDS=DIR: write the raw BTF of every fixture kernel
 * (tests/unit/fixtures.c) to DIR as seeds, and exit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "magic_kfunc.h"
#include "fixtures.h"
#include "fuzz_common.h"

#ifndef MKF_FUZZ_OBJDIR
#define MKF_FUZZ_OBJDIR "tests/bpf"
#endif

static const char *const names[] = {
	"unit_wq_new", "unit_wq_old", "unit_compat", "unit_list", "unit_clash",
};
#define NOBJS (sizeof(names) / sizeof(names[0]))
static void *objs[NOBJS];
static size_t obj_sz[NOBJS];
static struct mkf_object *handles[NOBJS];	/* the library's reading of each */
static char tmp_path[64];
static int tmp_fd = -1;

static void write_seeds(const char *dir)
{
	static const enum fx_era eras[] = {
		FX_612_DEB12, FX_616, FX_617, FX_618, FX_70, FX_73, FX_PATCHED_612, FX_OLD_PAHOLE,
	};
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		struct btf *btf = fx_kernel(eras[i]);
		const void *raw;
		__u32 n;
		FILE *f;

		raw = btf ? btf__raw_data(btf, &n) : NULL;
		snprintf(path, sizeof(path), "%s/fixture-%zu.btf", dir, i);
		f = raw ? fopen(path, "wb") : NULL;
		if (!f || fwrite(raw, 1, n, f) != n || fclose(f))
			abort();
		btf__free(btf);
	}
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("MKF_FUZZ_OBJDIR") ?: MKF_FUZZ_OBJDIR;
	char path[4096];
	size_t i;

	(void)argc;
	(void)argv;
	mkf_set_print(quiet);
	libbpf_set_print(quiet);
	if (getenv("MKF_FUZZ_WRITE_SEEDS"))
		write_seeds(getenv("MKF_FUZZ_WRITE_SEEDS"));
	for (i = 0; i < NOBJS; i++) {
		FILE *f;
		long n;

		snprintf(path, sizeof(path), "%s/%s.bpf.o", dir, names[i]);
		f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
			fprintf(stderr, "cannot read %s\n", path);
			abort();
		}
		objs[i] = malloc((size_t)n);
		obj_sz[i] = (size_t)n;
		if (!objs[i] || fread(objs[i], 1, obj_sz[i], f) != obj_sz[i])
			abort();
		fclose(f);
		handles[i] = mkf_object__new(objs[i], obj_sz[i], NULL);
		if (!handles[i])
			abort();
	}
	/* On tmpfs where there is one: one input in 16 is written. */
	snprintf(tmp_path, sizeof(tmp_path), "%s/mkf-fuzz-kernel.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	tmp_fd = mkstemp(tmp_path);
	if (tmp_fd < 0)
		abort();
	unlink(tmp_path); /* used through /proc/self/fd */
	return 0;
}

static void plan_one(const struct mkf_kernel *k, size_t i)
{
	struct mkf_plan *plan = mkf_plan__compute(handles[i], k, NULL);
	void *out = NULL;
	size_t out_sz = 0;

	if (!plan)
		return;
	if (!mkf_object__rewrite(handles[i], plan, &out, &out_sz, NULL))
		free(out);
	mkf_plan__free(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mkf_kernel *k;
	struct btf *btf;
	char path[64];

	btf = btf__new(data, size);
	if (!btf)
		return 0;
	k = mkf_kernel__new(btf);
	if (k)
		plan_one(k, size % NOBJS);
	mkf_kernel__free(k);
	btf__free(btf);

	/* The file loader, on one input in 16 (it is slower). */
	if (size && data[size - 1] % 16 == 0 && !ftruncate(tmp_fd, 0) &&
	    pwrite(tmp_fd, data, size, 0) == (ssize_t)size) {
		MKF_OPTS(mkf_kernel_opts, ko, .vmlinux_path = path);

		snprintf(path, sizeof(path), "/proc/self/fd/%d", tmp_fd);
		k = mkf_kernel__load(&ko);
		mkf_kernel__free(k);
	}
	return 0;
}
