// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * rewrite-cost: P1 of "make bench", the host-side cost of the library,
 * as ratios to one libbpf btf__parse() of the same kernel BTF.
 *
 *   rewrite-cost BTF OBJ [RUNS [WARM]]
 *
 * Every round, in one process and in alternating order (so that noise
 * from the rest of the machine hits all sides alike), times:
 *
 *   parse   btf__parse(BTF) + btf__free(): the baseline, what libbpf
 *           already does at every load that reads kernel BTF;
 *   cold    mkf_kernel__load(BTF) + mkf_object__new() + mkf_plan__compute()
 *           + mkf_object__rewrite() + frees, also split into its steps
 *           (the object's reading counts with the plan);
 *   added   mkf_kernel__new() on a BTF parsed outside the timer + plan +
 *           rewrite + frees: what the library adds for a program that
 *           has libbpf's parse of the kernel BTF already (mkf_kernel__load()
 *           reads the file through a view instead, kernel_view.h);
 *   warm    WARM times read + plan + rewrite of the object against one
 *           kernel description, per object;
 *   objbtf  WARM times btf__new() + btf__free() of the object's own .BTF,
 *           per object: what reading the object through libbpf costs at
 *           the least, for comparison with warm;
 *   objedit WARM times the same with one btf__add_str() between: the
 *           first edit makes libbpf copy the BTF and index every string,
 *           what any edit of the .BTF through libbpf's API pays;
 *   objcopy WARM times malloc + memcpy + free of the whole object: what
 *           writing a new image costs at the least.
 *
 * Then the peak memory: RUNS times, alternating, a fresh process (this
 * program again, "--peak-rss SIDE BTF OBJ") does only btf__parse(BTF),
 * only mkf_kernel__load(BTF), or the load with a plan and a rewrite of
 * OBJ, and reports its VmHWM (peak resident set) from /proc/self/status.
 *
 * Each ratio is taken per round against that round's parse, then the
 * median and spread over the rounds are printed, with the absolute
 * medians. Every plan and rewrite is checked (changes made, the same
 * output every time): a benchmark of a failing path is worthless, so a
 * mismatch aborts. No timing is ever judged: the targets are printed
 * for reference only. Both libraries print warnings only (the library's
 * default also prints one info line per rewritten extern).
 *
 * The process pins itself to the CPU it started on: the scheduler
 * moving it mid-round between CPUs of different speed (a virtual
 * machine's CPUs often are) would skew one side of that round.
 *
 * Reads files only; nothing is loaded into the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gelf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define BENCH_PROG "rewrite-cost"
#include "die.h"
#include "magic_kfunc.h"

#define DEFAULT_RUNS 21
#define DEFAULT_WARM 100
#define MIN_RUNS 3

enum sample {
	S_PARSE,		/* btf__parse + btf__free */
	S_COLD,			/* cold total */
	S_COLD_LOAD,		/* mkf_kernel__load (read through the view + describe) */
	S_COLD_PLAN,		/* mkf_plan__compute */
	S_COLD_REWRITE,		/* mkf_object__rewrite */
	S_COLD_FREE,		/* plan and kernel frees */
	S_ADDED,		/* added total */
	S_ADDED_NEW,		/* mkf_kernel__new on a parsed BTF */
	S_WARM,			/* warm, per object */
	S_WARM_PLAN,		/* its mkf_plan__compute */
	S_WARM_REWRITE,		/* its mkf_object__rewrite */
	S_OBJ_BTF,		/* btf__new + btf__free of the object's .BTF */
	S_OBJ_EDIT,		/* the same with a first btf__add_str */
	S_OBJ_COPY,		/* malloc + memcpy + free of the object */
	S_RSS_BASE,		/* kB: VmRSS of a fresh process before any work */
	S_RSS_PARSE,		/* kB: VmHWM after btf__parse */
	S_RSS_DESCRIBE,		/* kB: VmHWM after mkf_kernel__load */
	S_RSS_USE,		/* kB: VmHWM after load + plan + rewrite */
	S_CNT,
};

enum ratio {
	R_COLD,
	R_ADDED,
	R_WARM,
	R_OBJ_BTF,		/* object .BTF parse / kernel parse */
	R_RSS,			/* peak RSS describe / parse */
	R_RSS_ADDED,		/* the same above the process's own start */
	R_CNT,
};

struct bench {
	const char *btf_path;
	const char *obj_path;
	void *obj;
	size_t obj_sz;
	struct mkf_object *handle;	/* the library's reading, per run */
	/* The rewrite every run must reproduce. */
	void *ref;
	size_t ref_sz;
	/* The object's .BTF section (a copy). */
	void *obj_btf;
	size_t obj_btf_sz;
	size_t entry_cnt;
	size_t change_cnt;
	unsigned long warm;
	unsigned long runs;
	double *samples[S_CNT];	/* ms, one per round */
	double *ratios[R_CNT];
};

/*
 * Warnings only, for both libraries: the library's info messages (one
 * per rewritten extern) would time the terminal, not the library.
 */
static int print_warn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level != LIBBPF_WARN)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static double now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime: %s\n", strerror(errno));
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *read_file(const char *path, size_t *sz)
{
	struct stat st;
	size_t done = 0;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		die("%s: %s\n", path, strerror(errno));
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf)
		die("out of memory\n");
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("%s: %s\n", path, n ? strerror(errno) : "short read");
		done += n;
	}
	close(fd);
	*sz = done;
	return buf;
}

/* ---------------------------------------------------------------- */
/* Correctness: every measured run must do the real work.            */

/* The object read, then planned: what an open does before the rewrite. */
static struct mkf_plan *plan_checked(struct bench *b, const struct mkf_kernel *k)
{
	struct mkf_plan *plan;

	b->handle = mkf_object__new(b->obj, b->obj_sz, NULL);
	if (!b->handle)
		die("%s: mkf_object__new: %s\n", b->obj_path, strerror(errno));
	plan = mkf_plan__compute(b->handle, k, NULL);
	if (!plan)
		die("%s: mkf_plan__compute: %s\n", b->obj_path, strerror(errno));
	return plan;
}

static void rewrite_checked(struct bench *b, const struct mkf_plan *plan,
			    void **out, size_t *out_sz)
{
	int err = mkf_object__rewrite(b->handle, plan, out, out_sz, NULL);

	if (err)
		die("%s: mkf_object__rewrite: %s\n", b->obj_path, strerror(-err));
}

static void release(struct bench *b, struct mkf_plan *plan)
{
	mkf_plan__free(plan);
	mkf_object__free(b->handle);
	b->handle = NULL;
}

/* Checked outside the timers. */
static void verify(struct bench *b, const struct mkf_plan *plan, const void *out,
		   size_t out_sz, const char *what)
{
	if (mkf_plan__entry_cnt(plan) != b->entry_cnt ||
	    mkf_plan__change_cnt(plan) != b->change_cnt ||
	    mkf_plan__unresolved_cnt(plan))
		die("%s: %s: plan differs from the first one (%zu externs, %zu changes, %zu unresolved)\n",
		    b->obj_path, what, mkf_plan__entry_cnt(plan), mkf_plan__change_cnt(plan),
		    mkf_plan__unresolved_cnt(plan));
	if (out && (out_sz != b->ref_sz || memcmp(out, b->ref, out_sz)))
		die("%s: %s: rewritten object differs from the first rewrite\n", b->obj_path, what);
}

/* One untimed run: reference output, plan summary, and a warm-up. */
static void prepare(struct bench *b)
{
	MKF_OPTS(mkf_kernel_opts, kopts, .vmlinux_path = b->btf_path);
	size_t i, bind = 0, renamed = 0, shrink = 0, extend = 0, merged = 0;
	struct mkf_kernel *k;
	struct mkf_plan *plan;

	k = mkf_kernel__load(&kopts);
	if (!k)
		die("%s: mkf_kernel__load: %s\n", b->btf_path, strerror(errno));
	plan = plan_checked(b, k);
	b->entry_cnt = mkf_plan__entry_cnt(plan);
	b->change_cnt = mkf_plan__change_cnt(plan);
	if (!b->entry_cnt || !b->change_cnt)
		die("%s: %zu kfunc externs, %zu changes against %s: nothing to measure\n",
		    b->obj_path, b->entry_cnt, b->change_cnt, b->btf_path);
	if (mkf_plan__unresolved_cnt(plan))
		die("%s: %zu strong externs unresolved against %s\n", b->obj_path,
		    mkf_plan__unresolved_cnt(plan), b->btf_path);
	rewrite_checked(b, plan, &b->ref, &b->ref_sz);
	if (b->ref_sz == b->obj_sz && !memcmp(b->ref, b->obj, b->obj_sz))
		die("%s: the rewrite changed nothing\n", b->obj_path);

	for (i = 0; i < b->entry_cnt; i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);
		const char *kname = mkf_plan_entry__kernel_name(e);

		if (mkf_plan_entry__decision(e) != MKF_DECISION_BIND)
			continue;
		bind++;
		if (kname && strcmp(kname, mkf_plan_entry__name(e)))
			renamed++;
		if (mkf_plan_entry__proto_change(e) == MKF_PROTO_SHRINK)
			shrink++;
		if (mkf_plan_entry__proto_change(e) == MKF_PROTO_EXTEND)
			extend++;
		if (mkf_plan_entry__merged_into(e))
			merged++;
	}
	printf("object:  %s (%zu bytes): %zu kfunc externs, %zu bind, %zu changed "
	       "(%zu renamed, %zu shrunk, %zu extended, %zu merged); rewrite %zu bytes\n",
	       b->obj_path, b->obj_sz, b->entry_cnt, bind, b->change_cnt, renamed, shrink,
	       extend, merged, b->ref_sz);
	release(b, plan);
	mkf_kernel__free(k);
}

/* ---------------------------------------------------------------- */
/* The measured sides of one round.                                  */

static void run_parse(struct bench *b, unsigned long r)
{
	struct btf *btf;
	double t0, t1;

	t0 = now_ms();
	btf = btf__parse(b->btf_path, NULL);
	if (!btf)
		die("%s: btf__parse: %s\n", b->btf_path, strerror(errno));
	btf__free(btf);
	t1 = now_ms();
	b->samples[S_PARSE][r] = t1 - t0;
}

static void run_cold(struct bench *b, unsigned long r)
{
	MKF_OPTS(mkf_kernel_opts, kopts, .vmlinux_path = b->btf_path);
	double t0, t1, t2, t3, t4, t5;
	struct mkf_kernel *k;
	struct mkf_plan *plan;
	size_t out_sz;
	void *out;

	t0 = now_ms();
	k = mkf_kernel__load(&kopts);
	if (!k)
		die("%s: mkf_kernel__load: %s\n", b->btf_path, strerror(errno));
	t1 = now_ms();
	plan = plan_checked(b, k);
	t2 = now_ms();
	rewrite_checked(b, plan, &out, &out_sz);
	t3 = now_ms();
	/* The check is not the library's time: the clock stops for it. */
	verify(b, plan, out, out_sz, "cold");
	t4 = now_ms();
	release(b, plan);
	mkf_kernel__free(k);
	t5 = now_ms();
	free(out);

	b->samples[S_COLD_LOAD][r] = t1 - t0;
	b->samples[S_COLD_PLAN][r] = t2 - t1;
	b->samples[S_COLD_REWRITE][r] = t3 - t2;
	b->samples[S_COLD_FREE][r] = t5 - t4;
	b->samples[S_COLD][r] = (t3 - t0) + (t5 - t4);
}

static void run_added(struct bench *b, unsigned long r)
{
	struct mkf_kernel *k;
	struct mkf_plan *plan;
	double t0, t1, t2, t3, t4;
	struct btf *btf;
	size_t out_sz;
	void *out;

	/* libbpf's own work, outside the timer. */
	btf = btf__parse(b->btf_path, NULL);
	if (!btf)
		die("%s: btf__parse: %s\n", b->btf_path, strerror(errno));

	t0 = now_ms();
	k = mkf_kernel__new(btf);
	if (!k)
		die("%s: mkf_kernel__new: %s\n", b->btf_path, strerror(errno));
	t1 = now_ms();
	plan = plan_checked(b, k);
	rewrite_checked(b, plan, &out, &out_sz);
	t2 = now_ms();
	verify(b, plan, out, out_sz, "added");
	t3 = now_ms();
	release(b, plan);
	mkf_kernel__free(k);
	t4 = now_ms();
	free(out);
	btf__free(btf);

	b->samples[S_ADDED_NEW][r] = t1 - t0;
	b->samples[S_ADDED][r] = (t2 - t0) + (t4 - t3);
}

static void run_warm(struct bench *b, const struct mkf_kernel *k, unsigned long r)
{
	double total = 0, plan_t = 0, rewrite_t = 0, t0, t1, t2;
	struct mkf_plan *plan;
	unsigned long i;
	size_t out_sz;
	void *out;

	for (i = 0; i < b->warm; i++) {
		t0 = now_ms();
		plan = plan_checked(b, k);
		t1 = now_ms();
		rewrite_checked(b, plan, &out, &out_sz);
		t2 = now_ms();
		verify(b, plan, out, out_sz, "warm");
		total += t2 - t0;
		plan_t += t1 - t0;
		rewrite_t += t2 - t1;
		t0 = now_ms();
		release(b, plan);
		free(out);
		total += now_ms() - t0;
	}
	b->samples[S_WARM][r] = total / b->warm;
	b->samples[S_WARM_PLAN][r] = plan_t / b->warm;
	b->samples[S_WARM_REWRITE][r] = rewrite_t / b->warm;
}

/* The object's .BTF section, copied out with libelf. */
static void read_obj_btf(struct bench *b)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s\n", elf_errmsg(-1));
	elf = elf_memory(b->obj, b->obj_sz);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		die("%s: not an ELF object\n", b->obj_path);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".BTF"))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf)
			break;
		b->obj_btf = malloc(d->d_size);
		if (!b->obj_btf)
			die("out of memory\n");
		memcpy(b->obj_btf, d->d_buf, d->d_size);
		b->obj_btf_sz = d->d_size;
		break;
	}
	elf_end(elf);
	if (!b->obj_btf)
		die("%s: no .BTF\n", b->obj_path);
}

static void run_obj_btf(struct bench *b, unsigned long r)
{
	double t0 = now_ms();
	struct btf *btf;
	unsigned long i;

	for (i = 0; i < b->warm; i++) {
		btf = btf__new(b->obj_btf, b->obj_btf_sz);
		if (!btf)
			die("%s: btf__new of its .BTF: %s\n", b->obj_path, strerror(errno));
		btf__free(btf);
	}
	b->samples[S_OBJ_BTF][r] = (now_ms() - t0) / b->warm;

	t0 = now_ms();
	for (i = 0; i < b->warm; i++) {
		btf = btf__new(b->obj_btf, b->obj_btf_sz);
		if (!btf || btf__add_str(btf, "mkf_bench_new_string") < 0)
			die("%s: btf__new + btf__add_str of its .BTF: %s\n", b->obj_path,
			    strerror(errno));
		btf__free(btf);
	}
	b->samples[S_OBJ_EDIT][r] = (now_ms() - t0) / b->warm;

	t0 = now_ms();
	for (i = 0; i < b->warm; i++) {
		void *copy = malloc(b->obj_sz);

		if (!copy)
			die("out of memory\n");
		memcpy(copy, b->obj, b->obj_sz);
		/* Keep the copy from being optimised away. */
		__asm__ volatile("" : : "r"(copy) : "memory");
		free(copy);
	}
	b->samples[S_OBJ_COPY][r] = (now_ms() - t0) / b->warm;
}

/* ---------------------------------------------------------------- */
/* Peak memory, one fresh process per side.                          */

/* A "Vm...:" field of /proc/self/status, in kB. */
static long status_kb(const char *field)
{
	size_t len = strlen(field);
	char line[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		die("/proc/self/status: %s\n", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':') {
			kb = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	if (kb <= 0)
		die("/proc/self/status: no %s\n", field);
	return kb;
}

/*
 * The child: "--peak-rss SIDE BTF OBJ". Prints "peak-rss START PEAK"
 * (kB): the resident set before any work and the high-water mark after
 * it, with what the side built still held.
 */
static int peak_rss_child(const char *side, const char *btf_path, const char *obj_path)
{
	MKF_OPTS(mkf_kernel_opts, kopts, .vmlinux_path = btf_path);
	long start = status_kb("VmRSS"), peak;
	struct mkf_kernel *k = NULL;
	struct mkf_object *handle = NULL;
	struct mkf_plan *plan = NULL;
	struct btf *btf = NULL;
	void *obj = NULL, *out = NULL;
	size_t obj_sz, out_sz;

	if (!strcmp(side, "parse")) {
		btf = btf__parse(btf_path, NULL);
		if (!btf)
			die("%s: btf__parse: %s\n", btf_path, strerror(errno));
	} else if (!strcmp(side, "describe") || !strcmp(side, "use")) {
		k = mkf_kernel__load(&kopts);
		if (!k)
			die("%s: mkf_kernel__load: %s\n", btf_path, strerror(errno));
		if (!strcmp(side, "use")) {
			int err;

			obj = read_file(obj_path, &obj_sz);
			handle = mkf_object__new(obj, obj_sz, NULL);
			plan = handle ? mkf_plan__compute(handle, k, NULL) : NULL;
			if (!plan)
				die("%s: mkf_plan__compute: %s\n", obj_path, strerror(errno));
			err = mkf_object__rewrite(handle, plan, &out, &out_sz, NULL);
			if (err)
				die("%s: mkf_object__rewrite: %s\n", obj_path, strerror(-err));
		}
	} else {
		die("--peak-rss: unknown side '%s'\n", side);
	}
	peak = status_kb("VmHWM");
	printf("peak-rss %ld %ld\n", start, peak);
	free(out);
	free(obj);
	mkf_plan__free(plan);
	mkf_object__free(handle);
	mkf_kernel__free(k);
	btf__free(btf);
	return 0;
}

/* Runs one side in a fresh process; *start and *peak in kB. */
static void peak_rss_run(struct bench *b, const char *side, double *start, double *peak)
{
	char line[128];
	long s0, p0;
	int fds[2], status;
	pid_t pid;
	FILE *f;

	fflush(stdout);
	if (pipe(fds))
		die("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s\n", strerror(errno));
	if (!pid) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execl("/proc/self/exe", prog, "--peak-rss", side, b->btf_path, b->obj_path,
		      (char *)NULL);
		fprintf(stderr, "%s: cannot run itself again: %s\n", prog, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f)
		die("fdopen: %s\n", strerror(errno));
	if (!fgets(line, sizeof(line), f) || sscanf(line, "peak-rss %ld %ld", &s0, &p0) != 2)
		s0 = p0 = -1;
	fclose(f);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    s0 <= 0 || p0 < s0)
		die("peak RSS of '%s': the child process failed\n", side);
	*start = (double)s0;
	*peak = (double)p0;
}

static void run_rss(struct bench *b, unsigned long r)
{
	static const char *const order[2][3] = {
		{ "parse", "describe", "use" },
		{ "use", "describe", "parse" },
	};
	double start[3], peak;
	int i;

	for (i = 0; i < 3; i++) {
		const char *side = order[r % 2][i];
		enum sample s = !strcmp(side, "parse") ? S_RSS_PARSE :
				!strcmp(side, "describe") ? S_RSS_DESCRIBE : S_RSS_USE;

		peak_rss_run(b, side, &start[i], &peak);
		b->samples[s][r] = peak;
	}
	/* The same program every time: the smallest start is the base. */
	b->samples[S_RSS_BASE][r] = start[0] < start[1] ? start[0] : start[1];
	if (start[2] < b->samples[S_RSS_BASE][r])
		b->samples[S_RSS_BASE][r] = start[2];
}

/* ---------------------------------------------------------------- */
/* Statistics and report.                                            */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	double median, min, max, p10, p90;
};

/* Percentiles by linear interpolation between closest ranks. */
static double percentile(const double *sorted, size_t n, double p)
{
	double pos = p * (n - 1);
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

static struct stats stats_of(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));
	struct stats st;

	if (!s)
		die("out of memory\n");
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	st.median = percentile(s, n, 0.5);
	st.p10 = percentile(s, n, 0.1);
	st.p90 = percentile(s, n, 0.9);
	st.min = s[0];
	st.max = s[n - 1];
	free(s);
	return st;
}

/* Stay on one CPU: both sides of every round then run on the same one. */
static void pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set)) {
		printf("pinned: no (%s), the scheduler may move the rounds\n", strerror(errno));
		return;
	}
	printf("pinned: to CPU %d\n", cpu);
}

static void print_machine(void)
{
	char line[512], model[256] = "unknown";
	double load[3];
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (strncmp(line, "model name", 10) || !colon)
				continue;
			colon++;
			colon += strspn(colon, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(model, sizeof(model), "%s", colon);
			break;
		}
		fclose(f);
	}
	printf("machine: %ld cores online, %s", sysconf(_SC_NPROCESSORS_ONLN), model);
	if (getloadavg(load, 3) == 3)
		printf(", load average %.2f %.2f %.2f", load[0], load[1], load[2]);
	printf("\n");
}

static void print_row(const char *name, const double *v, size_t n)
{
	struct stats st = stats_of(v, n);

	printf("  %-44s %9.3f %9.3f %9.3f %9.3f %9.3f\n", name, st.median, st.p10, st.p90,
	       st.min, st.max);
}

static void print_kb_row(const char *name, const double *v, size_t n)
{
	struct stats st = stats_of(v, n);

	printf("  %-44s %9.0f %9.0f %9.0f %9.0f %9.0f\n", name, st.median, st.p10, st.p90,
	       st.min, st.max);
}

static void print_ratio(const char *name, const double *v, size_t n, const char *target)
{
	struct stats st = stats_of(v, n);
	char med[32], mid[64], all[64];

	snprintf(med, sizeof(med), "%.4fx", st.median);
	snprintf(mid, sizeof(mid), "%.4fx-%.4fx", st.p10, st.p90);
	snprintf(all, sizeof(all), "%.4fx-%.4fx", st.min, st.max);
	printf("  %-26s %9s  %-19s  %-19s  %s\n", name, med, mid, all, target);
}

static void report(struct bench *b)
{
	size_t n = b->runs;
	char warm_row[64];

	printf("\nabsolute, ms (median, p10, p90, min, max over %zu rounds)\n", n);
	printf("  %-44s %9s %9s %9s %9s %9s\n", "step", "median", "p10", "p90", "min", "max");
	print_row("parse: btf__parse + btf__free (baseline)", b->samples[S_PARSE], n);
	print_row("cold: total", b->samples[S_COLD], n);
	print_row("  mkf_kernel__load (view + index)", b->samples[S_COLD_LOAD], n);
	print_row("  mkf_object__new + mkf_plan__compute", b->samples[S_COLD_PLAN], n);
	print_row("  mkf_object__rewrite", b->samples[S_COLD_REWRITE], n);
	print_row("  frees (plan, object, kernel)", b->samples[S_COLD_FREE], n);
	print_row("added: total (no BTF parse)", b->samples[S_ADDED], n);
	print_row("  mkf_kernel__new on the parsed BTF", b->samples[S_ADDED_NEW], n);
	snprintf(warm_row, sizeof(warm_row), "warm: plan + rewrite, per object (x%lu)", b->warm);
	print_row(warm_row, b->samples[S_WARM], n);
	print_row("  mkf_object__new + mkf_plan__compute", b->samples[S_WARM_PLAN], n);
	print_row("  mkf_object__rewrite", b->samples[S_WARM_REWRITE], n);
	snprintf(warm_row, sizeof(warm_row), "objbtf: btf__new of the object's .BTF (x%lu)",
		 b->warm);
	print_row(warm_row, b->samples[S_OBJ_BTF], n);
	snprintf(warm_row, sizeof(warm_row), "objedit: + a first btf__add_str (x%lu)",
		 b->warm);
	print_row(warm_row, b->samples[S_OBJ_EDIT], n);
	snprintf(warm_row, sizeof(warm_row), "objcopy: malloc + memcpy, object (x%lu)",
		 b->warm);
	print_row(warm_row, b->samples[S_OBJ_COPY], n);

	printf("\nratios to the same round's parse (median, p10-p90, min-max)\n");
	printf("  %-26s %9s  %-19s  %-19s  %s\n", "ratio", "median", "p10-p90", "min-max",
	       "target (reference only)");
	print_ratio("cold / parse", b->ratios[R_COLD], n, "<= 0.5x (877 KB)");
	print_ratio("added / parse", b->ratios[R_ADDED], n,
		    "<= 0.5x (9 KB object), <= 0.2x (877 KB)");
	print_ratio("warm per object / parse", b->ratios[R_WARM], n,
		    "<= 0.01x (9 KB object), <= 0.05x (877 KB)");
	print_ratio("object .BTF parse / parse", b->ratios[R_OBJ_BTF], n, "-");
	printf("\ncold reads the file through the library's view, not libbpf's parse;\n"
	       "added starts from a BTF libbpf parsed outside the timer (index + plan +\n"
	       "rewrite).\n");

	printf("\npeak RSS, kB (VmHWM of a fresh process per side; median, p10, p90, min, max "
	       "over %zu processes per side)\n", n);
	printf("  %-44s %9s %9s %9s %9s %9s\n", "side", "median", "p10", "p90", "min", "max");
	print_kb_row("process at its start, before any work", b->samples[S_RSS_BASE], n);
	print_kb_row("parse: btf__parse", b->samples[S_RSS_PARSE], n);
	print_kb_row("describe: mkf_kernel__load", b->samples[S_RSS_DESCRIBE], n);
	print_kb_row("use: mkf_kernel__load + plan + rewrite", b->samples[S_RSS_USE], n);
	printf("\npeak RSS ratios (median, p10-p90, min-max)\n");
	print_ratio("peak RSS describe / parse", b->ratios[R_RSS], n, "<= 1.5x");
	print_ratio("added RSS describe / parse", b->ratios[R_RSS_ADDED], n, "-");
	printf("\nadded RSS: both peaks less the process at its start.\n");
}

static unsigned long parse_ulong(const char *s, const char *what, unsigned long min)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < min || v > 1000000)
		die("bad %s '%s' (at least %lu)\n", what, s, min);
	return v;
}

int main(int argc, char **argv)
{
	MKF_OPTS(mkf_kernel_opts, kopts);
	struct bench b = {
		.runs = DEFAULT_RUNS,
		.warm = DEFAULT_WARM,
	};
	struct mkf_kernel *warm_kernel;
	unsigned long r;
	int i;

	if (argc == 5 && !strcmp(argv[1], "--peak-rss")) {
		libbpf_set_print(print_warn);
		mkf_set_print(print_warn);
		return peak_rss_child(argv[2], argv[3], argv[4]);
	}
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s BTF OBJ [RUNS [WARM]]\n", prog);
		return 2;
	}
	/*
	 * Freed memory stays with the allocator: otherwise glibc hands each
	 * parse's megabytes back to the kernel and the next side faults
	 * them in again, and which side pays that depends on what ran
	 * before (in a VM, a fault costs far more than the parse's own
	 * work). Every side allocates the same way, so this is fair to all.
	 * The peak-memory children run without it.
	 */
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 64 << 20);
	b.btf_path = argv[1];
	b.obj_path = argv[2];
	if (argc > 3)
		b.runs = parse_ulong(argv[3], "run count", MIN_RUNS);
	if (argc > 4)
		b.warm = parse_ulong(argv[4], "warm object count", 1);

	for (i = 0; i < S_CNT; i++) {
		b.samples[i] = calloc(b.runs, sizeof(double));
		if (!b.samples[i])
			die("out of memory\n");
	}
	for (i = 0; i < R_CNT; i++) {
		b.ratios[i] = calloc(b.runs, sizeof(double));
		if (!b.ratios[i])
			die("out of memory\n");
	}
	b.obj = read_file(b.obj_path, &b.obj_sz);
	read_obj_btf(&b);
	printf("object .BTF: %zu bytes\n", b.obj_btf_sz);
	mkf_set_print(print_warn);
	libbpf_set_print(print_warn);

	printf("P1 rewrite cost (host): %lu rounds, %lu warm objects per round\n", b.runs, b.warm);
	print_machine();
	pin_cpu();
	printf("libraries: libbpf v%u.%u, libmagic-kfunc %s\n", libbpf_major_version(),
	       libbpf_minor_version(), mkf_version_string());
	{
		size_t btf_sz;
		void *btf_buf = read_file(b.btf_path, &btf_sz);

		/* Also leaves the file in the page cache for every side. */
		printf("kernel:  %s (%zu bytes)\n", b.btf_path, btf_sz);
		free(btf_buf);
	}
	prepare(&b);

	/* Warm side: one kernel description for all rounds. */
	kopts.vmlinux_path = b.btf_path;
	warm_kernel = mkf_kernel__load(&kopts);
	if (!warm_kernel)
		die("%s: mkf_kernel__load: %s\n", b.btf_path, strerror(errno));

	/* One untimed round first (allocator, caches), then the rounds. */
	for (r = 0; r <= b.runs; r++) {
		unsigned long slot = r ? r - 1 : 0;

		if (r % 2) {
			run_parse(&b, slot);
			run_cold(&b, slot);
			run_added(&b, slot);
			run_warm(&b, warm_kernel, slot);
			run_obj_btf(&b, slot);
		} else {
			run_obj_btf(&b, slot);
			run_warm(&b, warm_kernel, slot);
			run_added(&b, slot);
			run_cold(&b, slot);
			run_parse(&b, slot);
		}
	}
	mkf_kernel__free(warm_kernel);

	for (r = 0; r < b.runs; r++)
		run_rss(&b, r);

	for (r = 0; r < b.runs; r++) {
		double parse = b.samples[S_PARSE][r];

		if (parse <= 0)
			die("round %lu: btf__parse took no measurable time\n", r);
		b.ratios[R_COLD][r] = b.samples[S_COLD][r] / parse;
		b.ratios[R_ADDED][r] = b.samples[S_ADDED][r] / parse;
		b.ratios[R_WARM][r] = b.samples[S_WARM][r] / parse;
		b.ratios[R_OBJ_BTF][r] = b.samples[S_OBJ_BTF][r] / parse;
		b.ratios[R_RSS][r] = b.samples[S_RSS_DESCRIBE][r] / b.samples[S_RSS_PARSE][r];
		b.ratios[R_RSS_ADDED][r] =
			(b.samples[S_RSS_DESCRIBE][r] - b.samples[S_RSS_BASE][r]) /
			(b.samples[S_RSS_PARSE][r] - b.samples[S_RSS_BASE][r]);
	}
	report(&b);

	for (i = 0; i < S_CNT; i++)
		free(b.samples[i]);
	for (i = 0; i < R_CNT; i++)
		free(b.ratios[i]);
	free(b.ref);
	free(b.obj_btf);
	free(b.obj);
	return 0;
}
