// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * load-cost: P5 of "make bench", the cost a user feels, run inside a
 * QEMU guest (bench/run boots one per kernel through tests/vm/vm-run).
 *
 *   load-cost ROUNDS OBJECT...
 *
 * For each OBJECT, ROUNDS times, alternating which goes first, times
 * open + load of the object's programs by plain libbpf
 * (bpf_object__open_file() + bpf_object__load()) and through the
 * library (mkf_object__open_file(), which describes the running
 * kernel, plans and rewrites the object, then the same load), and a
 * third way: through the library with the kernel described once,
 * before the rounds (mkf_open_opts.kernel), as a program that opens
 * several objects can do. Closing the object is not timed. The ratios
 * are library / plain per round, summarised as median and range.
 *
 * A fourth timing, in the same rotation, is the "floor": one libbpf
 * parse of the running kernel's BTF (btf__load_vmlinux_btf()), what a
 * first open cost on top of plain libbpf's while the library parsed
 * that BTF itself (it now reads it through a view, kernel_view.h). Its
 * ratio, (plain + parse) / plain, stays for reference.
 *
 * A fifth way is the library with its rewrite cache
 * (mkf_open_opts.cache_dir, filled by an untimed open before the
 * rounds): what a program that opens the same object again on the same
 * boot pays, as a service does at each start. The sixth is plain libbpf
 * again, the control: its ratio to plain is the noise of one ratio.
 *
 * An object that plain libbpf cannot load on this kernel has no ratio:
 * a line says so and the object is left out. Exits 1 when the library
 * cannot load an object plain libbpf loads, or when nothing could be
 * measured.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "guest.h"
#include "record.h"
#include "magic_kfunc.h"

#define MAX_ROUNDS 100

/* Warnings only: the library's info lines would time the console. */
static int print_warn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, args) : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The running kernel, described once for the third way. */
static struct mkf_kernel *kernel;

/* PLAIN_AGAIN is PLAIN once more: the control, what one ratio's noise is. */
enum way { PLAIN, LIBRARY, LIBRARY_DESCRIBED, PARSE, LIBRARY_CACHED, PLAIN_AGAIN, WAY_CNT };

/* The rewrite cache of the fifth way, in the working directory. */
#define CACHE_DIR "load-cost-rewrite-cache"

/* The floor: parse the running kernel's BTF, as the library starts by doing. */
static int parse_kernel(double *ms)
{
	double t0 = now_ms();
	struct btf *btf = btf__load_vmlinux_btf();

	*ms = now_ms() - t0;
	if (!btf)
		return -errno;
	btf__free(btf);
	return 0;
}

/* The step of the last open_load() that failed: "open" or "load". */
static const char *failed_step;

/* Open + load, timed; *ms is the time, the object is closed after. */
static int open_load(const char *path, enum way way, double *ms)
{
	MKF_OPTS(mkf_open_opts, mopts, .kernel = kernel);
	MKF_OPTS(mkf_open_opts, copts, .cache_dir = CACHE_DIR);
	struct bpf_object *obj;
	double t0;
	int err;

	if (way == PARSE)
		return parse_kernel(ms);
	t0 = now_ms();
	obj = way == PLAIN || way == PLAIN_AGAIN ? bpf_object__open_file(path, NULL) :
	      mkf_object__open_file(path, NULL, way == LIBRARY_DESCRIBED ? &mopts :
						 way == LIBRARY_CACHED ? &copts : NULL);
	if (!obj) {
		failed_step = "open";
		return -errno;
	}
	err = bpf_object__load(obj);
	*ms = now_ms() - t0;
	bpf_object__close(obj);
	failed_step = "load";
	return err;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* 1: measured, 0: plain libbpf cannot load it, -1: error. */
static int measure(const char *path, int rounds, const char *release)
{
	double plain_ms[MAX_ROUNDS], lib_ms[MAX_ROUNDS], desc_ms[MAX_ROUNDS];
	double parse_ms[MAX_ROUNDS], floor_ratio[MAX_ROUNDS], cached_ms[MAX_ROUNDS];
	double ratio[MAX_ROUNDS], desc_ratio[MAX_ROUNDS], cached_ratio[MAX_ROUNDS], ms;
	double again_ms[MAX_ROUNDS], control[MAX_ROUNDS];
	const char *name = base_name(path);
	static const enum way order[2][WAY_CNT] = {
		{ PLAIN, LIBRARY, PARSE, LIBRARY_DESCRIBED, LIBRARY_CACHED, PLAIN_AGAIN },
		{ PLAIN_AGAIN, LIBRARY_CACHED, LIBRARY_DESCRIBED, PARSE, LIBRARY, PLAIN },
	};
	int i, j, err;

	/* Untimed first: all must load, and caches are warm for all. */
	err = open_load(path, PLAIN, &ms);
	if (err) {
		rec_printf(stdout, "p5", "%s: plain libbpf cannot load it on %s (%s: %s): no ratio",
			   name, release, failed_step, strerror(-err));
		return 0;
	}
	err = open_load(path, LIBRARY, &ms);
	if (!err)
		err = open_load(path, LIBRARY_DESCRIBED, &ms);
	/* Also fills the rewrite cache for the rounds. */
	if (!err)
		err = open_load(path, LIBRARY_CACHED, &ms);
	if (err) {
		fprintf(stderr, "error: %s: the library cannot load what plain libbpf loads (%s: "
			"%s)\n", name, failed_step, strerror(-err));
		return -1;
	}
	for (i = 0; i < rounds; i++) {
		for (j = 0; j < WAY_CNT; j++) {
			enum way w = order[i % 2][j];
			double *to = w == PLAIN ? plain_ms : w == LIBRARY ? lib_ms :
				     w == PARSE ? parse_ms : w == LIBRARY_CACHED ? cached_ms :
				     w == PLAIN_AGAIN ? again_ms : desc_ms;

			if (open_load(path, w, &to[i]))
				return -1;
		}
		ratio[i] = lib_ms[i] / plain_ms[i];
		desc_ratio[i] = desc_ms[i] / plain_ms[i];
		cached_ratio[i] = cached_ms[i] / plain_ms[i];
		floor_ratio[i] = (plain_ms[i] + parse_ms[i]) / plain_ms[i];
		control[i] = again_ms[i] / plain_ms[i];
		rec_printf(stdout, "p5", "%s round %d: plain %.3f ms, library %.3f ms (ratio %.4f), "
			   "kernel described once %.3f ms (ratio %.4f), rewrite cache %.3f ms "
			   "(ratio %.4f), kernel BTF parse %.3f ms, plain again %.3f ms (ratio %.4f)",
			   name, i + 1, plain_ms[i], lib_ms[i], ratio[i], desc_ms[i], desc_ratio[i],
			   cached_ms[i], cached_ratio[i], parse_ms[i], again_ms[i], control[i]);
	}
	rec_printf(stdout, "p5", "%s: medians: plain %.3f ms, library %.3f ms, kernel described "
		   "once %.3f ms, rewrite cache %.3f ms, kernel BTF parse %.3f ms, plain again "
		   "%.3f ms", name, median(plain_ms, rounds), median(lib_ms, rounds),
		   median(desc_ms, rounds), median(cached_ms, rounds), median(parse_ms, rounds),
		   median(again_ms, rounds));
	/* median() sorts: first and last are the range. */
	ms = median(ratio, rounds);
	rec_printf(stdout, "p5", "summary: %s on %s: open + load library/plain ratio median %.4f "
		   "min %.4f max %.4f over %d rounds", name, release, ms, ratio[0],
		   ratio[rounds - 1], rounds);
	ms = median(desc_ratio, rounds);
	rec_printf(stdout, "p5", "described summary: %s on %s: open + load, kernel described "
		   "once, library/plain ratio median %.4f min %.4f max %.4f over %d rounds", name,
		   release, ms, desc_ratio[0], desc_ratio[rounds - 1], rounds);
	ms = median(cached_ratio, rounds);
	rec_printf(stdout, "p5", "cached summary: %s on %s: open + load, rewrite cache, "
		   "library/plain ratio median %.4f min %.4f max %.4f over %d rounds", name,
		   release, ms, cached_ratio[0], cached_ratio[rounds - 1], rounds);
	ms = median(control, rounds);
	rec_printf(stdout, "p5", "control summary: %s on %s: open + load, plain libbpf "
		   "again/plain ratio median %.4f min %.4f max %.4f over %d rounds", name,
		   release, ms, control[0], control[rounds - 1], rounds);
	ms = median(floor_ratio, rounds);
	rec_printf(stdout, "p5", "floor summary: %s on %s: (plain + one kernel BTF parse)/plain "
		   "ratio median %.4f min %.4f max %.4f over %d rounds", name, release, ms,
		   floor_ratio[0], floor_ratio[rounds - 1], rounds);
	return 1;
}

int main(int argc, char **argv)
{
	struct utsname u;
	int rounds, i, measured = 0, err;

	guest_require(argv[0]);
	if (argc < 3 || (rounds = atoi(argv[1])) < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: %s ROUNDS(1-%d) OBJECT...\n", argv[0], MAX_ROUNDS);
		return 2;
	}
	guest_libbpf_logs(false);
	mkf_set_print(print_warn);
	uname(&u);
	kernel = mkf_kernel__load(NULL);
	if (!kernel) {
		fprintf(stderr, "error: cannot describe the running kernel: %s\n", strerror(errno));
		return 1;
	}
	for (i = 2; i < argc; i++) {
		err = measure(argv[i], rounds, u.release);
		if (err < 0) {
			fprintf(stderr, "error: %s: a load failed\n", argv[i]);
			mkf_kernel__free(kernel);
			return 1;
		}
		measured += err;
	}
	mkf_kernel__free(kernel);
	if (!measured) {
		fprintf(stderr, "error: plain libbpf loaded none of the objects on %s\n", u.release);
		return 1;
	}
	return 0;
}
