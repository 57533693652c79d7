// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * kfunc-cost: P2 and P3 of "make bench", run inside a QEMU guest booted
 * with our patched 6.12 (bench/run starts it through tests/vm/vm-run).
 *
 *   kfunc-cost OBJECT [ROUNDS [REPEAT]]
 *
 * REPEAT 0 runs P2 only.
 *
 * P2, verifier cost: loads verify_magic and verify_impl of OBJECT (256
 * calls each, bench/kfunc_cost.bpf.c) ROUNDS times, alternating which
 * goes first, and reads "verification time N usec" from the verifier's
 * statistics (log level 4) of every load.
 *
 * P3, call cost: loads call_magic, call_impl and call_magic_twin (the
 * same code as call_magic) and runs each with BPF_PROG_TEST_RUN, REPEAT
 * times per run, ROUNDS rounds rotating the order, the programs loaded
 * again each round in that order; the kernel reports the mean time of
 * one run. magic/twin is the control: how much
 * two copies of one program differ where the code lands (TCG). Before
 * the runs, the code check (xlated-diff.h) says whether call_impl is
 * call_magic plus its dummy "r4 = 0" arguments and nothing else.
 *
 * Every line starts with the part it belongs to; the ratios are
 * magic / impl per round, summarised as median and range. Exits 1 when
 * a load or a run fails: a cost of a failing path means nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "guest.h"
#include "record.h"
#include "xlated-diff.h"

#define MAX_ROUNDS 100

static char vlog[1 << 16];

struct verify_cost {
	long usec;
	long insns;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median, min and max of N ratios (sorted in place): "PART LABEL: ...". */
static void summary(const char *part, const char *label, const char *what, double *r, int n)
{
	qsort(r, n, sizeof(*r), cmp_double);
	rec_printf(stdout, part, "%s: %s ratio median %.4f min %.4f max %.4f over %d rounds",
		   label, what, n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2, r[0], r[n - 1], n);
}

static long log_number(const char *key)
{
	const char *p = strstr(vlog, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* Load PROG alone from a fresh open of OBJ; its verifier statistics. */
static int verify_once(const char *obj_path, const char *prog_name, struct verify_cost *cost)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	int err;

	obj = bpf_object__open_file(obj_path, NULL);
	if (!obj) {
		fprintf(stderr, "error: cannot open %s: %s\n", obj_path, strerror(errno));
		return -1;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog_name));
	p = bpf_object__find_program_by_name(obj, prog_name);
	vlog[0] = 0;
	if (!p || bpf_program__set_log_buf(p, vlog, sizeof(vlog)) ||
	    bpf_program__set_log_level(p, 4)) {
		fprintf(stderr, "error: %s: no program %s\n", obj_path, prog_name);
		bpf_object__close(obj);
		return -1;
	}
	err = bpf_object__load(obj);
	cost->usec = log_number("verification time ");
	cost->insns = log_number("processed ");
	bpf_object__close(obj);
	if (err || cost->usec < 0 || cost->insns < 0) {
		fprintf(stderr, "error: %s: load %d, statistics:\n%s\n", prog_name, err, vlog);
		return -1;
	}
	return 0;
}

static int verifier_cost(const char *obj_path, int rounds)
{
	double ratio[MAX_ROUNDS];
	int i;

	for (i = 0; i < rounds; i++) {
		struct verify_cost magic, impl;
		bool magic_first = !(i % 2);

		if (magic_first && verify_once(obj_path, "verify_magic", &magic))
			return -1;
		if (verify_once(obj_path, "verify_impl", &impl))
			return -1;
		if (!magic_first && verify_once(obj_path, "verify_magic", &magic))
			return -1;
		ratio[i] = (double)magic.usec / (double)(impl.usec ? impl.usec : 1);
		rec_printf(stdout, "p2", "round %d: magic %ld usec %ld insns, impl %ld usec %ld "
			   "insns, ratio %.4f", i + 1, magic.usec, magic.insns, impl.usec, impl.insns,
			   ratio[i]);
	}
	summary("p2", "summary", "verification time magic/impl", ratio, rounds);
	return 0;
}

/* One BPF_PROG_TEST_RUN of FD, REPEAT times: mean ns per run. */
static long run_once(int fd, const char *name, unsigned int repeat)
{
	char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = repeat);
	int err;

	err = bpf_prog_test_run_opts(fd, &opts);
	if (err || opts.retval) {
		fprintf(stderr, "error: %s: test run %d, retval %u (the kfunc calls must "
			"succeed)\n", name, err, opts.retval);
		return -1;
	}
	return opts.duration;
}

/* What the kernel runs: the same code for both, but for the dummy NULL. */
static int print_code_size(int fd, const char *name)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "error: %s: no program info: %s\n", name, strerror(errno));
		return -1;
	}
	rec_printf(stdout, "p3", "%s: %u xlated insns, %u bytes jited%s", name,
		   info.xlated_prog_len / 8, info.jited_prog_len,
		   info.jited_prog_len ? "" : " (interpreted)");
	return 0;
}

/* The instructions the kernel runs for program FD (xlated): *insns, malloc'd. */
static int xlated_of(int fd, struct bpf_insn **insns, size_t *cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	*insns = NULL;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	*cnt = info.xlated_prog_len / sizeof(**insns);
	*insns = calloc(*cnt + 1, sizeof(**insns));
	if (!*insns)
		return -1;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = *cnt * sizeof(**insns);
	info.xlated_prog_insns = (__u64)(uintptr_t)*insns;
	len = sizeof(info);
	return bpf_obj_get_info_by_fd(fd, &info, &len);
}

/*
 * The kernel function a call's immediate names (an offset from
 * __bpf_call_base), from /proc/kallsyms; its number if that cannot say.
 */
static void call_name(__s32 imm, char *buf, size_t sz)
{
	unsigned long long base = 0, addr;
	char line[512], name[256], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	snprintf(buf, sz, "the function at %d from __bpf_call_base", imm);
	while (f && !base && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, "__bpf_call_base"))
			base = addr;
	if (f && base)
		rewind(f);
	while (f && base && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    addr == base + (long long)imm) {
			snprintf(buf, sz, "%s", name);
			break;
		}
	}
	if (f)
		fclose(f);
}

/*
 * P3's code check: call_impl as the verifier left it should be
 * call_magic plus the program's own dummy argument "r4 = 0" before each
 * call, which the verifier then overwrites; the line says what it is.
 */
static int code_check(int magic_fd, int impl_fd)
{
	const struct bpf_insn dummy = { .code = BPF_ALU64 | BPF_MOV | BPF_K,
					.dst_reg = BPF_REG_4 };
	struct bpf_insn *a = NULL, *b = NULL;
	struct xlated_diff d;
	size_t na = 0, nb = 0;
	int err = -1;

	if (xlated_of(magic_fd, &a, &na) || xlated_of(impl_fd, &b, &nb)) {
		fprintf(stderr, "error: p3: cannot read the programs' instructions: %s\n",
			strerror(errno));
	} else if (xlated_diff(a, na, b, nb, &dummy, &d)) {
		fprintf(stderr, "error: p3: out of memory\n");
	} else if (!d.same) {
		rec_printf(stdout, "p3", "code: call_impl's %zu xlated instructions are not "
			   "call_magic's %zu plus \"r4 = 0\": %s", nb, na, d.why);
		err = 0;
	} else {
		char fa[256] = "", fb[256] = "", apart[640] = "";

		if (d.calls_apart) {
			call_name(d.call_a, fa, sizeof(fa));
			call_name(d.call_b, fb, sizeof(fb));
			snprintf(apart, sizeof(apart), "; %zu of its calls go to %s, where "
				 "call_magic's go to %s", d.calls_apart, fb, fa);
		}
		rec_printf(stdout, "p3", "code: call_impl's %zu xlated instructions are "
			   "call_magic's %zu plus %zu \"r4 = 0\"%s; nothing else differs", nb, na,
			   d.extra, apart);
		err = 0;
	}
	free(a);
	free(b);
	return err;
}

/*
 * Load the call_* program NAME alone, from an object of its own: *fd is
 * its fd, the object to close is returned. Each program gets its own
 * maps, so the three runs stay alike.
 */
static struct bpf_object *load_one(const char *obj_path, const char *name, int *fd)
{
	struct bpf_object *obj;
	struct bpf_program *p;

	obj = bpf_object__open_file(obj_path, NULL);
	if (!obj) {
		fprintf(stderr, "error: cannot open %s: %s\n", obj_path, strerror(errno));
		return NULL;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
	if (bpf_object__load(obj)) {
		fprintf(stderr, "error: cannot load %s\n", name);
		bpf_object__close(obj);
		return NULL;
	}
	*fd = bpf_program__fd(bpf_object__find_program_by_name(obj, name));
	return obj;
}

static void close_all(struct bpf_object **obj, int n)
{
	while (n--) {
		bpf_object__close(obj[n]);
		obj[n] = NULL;
	}
}

/*
 * The programs are loaded again every round, in the order they run that
 * round: where the JIT puts a program (and so how TCG caches its code)
 * follows the load order, and a placement that favours one program in
 * every round would show as a cost of its call. The control, two copies
 * of the same code, measures what is left of such effects.
 */
static int call_cost(const char *obj_path, int rounds, unsigned int repeat)
{
	static const char *const names[] = { "call_magic", "call_impl", "call_magic_twin" };
	double ratio[MAX_ROUNDS], control[MAX_ROUNDS];
	struct bpf_object *obj[3] = {};
	int fd[3], i, j;

	for (i = 0; i < rounds; i++) {
		long ns[3];

		/* Each program first, second and third in turn, loaded in that order. */
		for (j = 0; j < 3; j++) {
			int k = (i + j) % 3;

			obj[j] = load_one(obj_path, names[k], &fd[k]);
			if (!obj[j])
				goto err;
			if (!i && print_code_size(fd[k], names[k]))
				goto err;
			/* Warm up: the first run also initialises the bpf_wq. */
			if (run_once(fd[k], names[k], 1000) < 0)
				goto err;
		}
		if (!i && code_check(fd[0], fd[1]))
			goto err;
		for (j = 0; j < 3; j++) {
			int k = (i + j) % 3;

			ns[k] = run_once(fd[k], names[k], repeat);
			if (ns[k] < 0)
				goto err;
		}
		close_all(obj, 3);
		ratio[i] = (double)ns[0] / (double)(ns[1] ? ns[1] : 1);
		control[i] = (double)ns[0] / (double)(ns[2] ? ns[2] : 1);
		rec_printf(stdout, "p3", "round %d: magic %ld ns/run, impl %ld ns/run, magic twin "
			   "%ld ns/run (repeat %u), ratio %.4f, control %.4f", i + 1, ns[0], ns[1],
			   ns[2], repeat, ratio[i], control[i]);
	}
	summary("p3", "summary", "test-run time magic/impl", ratio, rounds);
	summary("p3", "control summary", "test-run time magic/magic twin (same code)", control,
		rounds);
	return 0;
err:
	close_all(obj, 3);
	return -1;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 10;
	/* REPEAT 0: P2 only (make bench's P2 growth run on the large kernel). */
	long repeat = argc > 3 ? strtol(argv[3], NULL, 0) : 1000000;
	struct utsname u;
	struct stat st;

	guest_require(argv[0]);
	if (argc < 2 || rounds < 1 || rounds > MAX_ROUNDS || repeat < 0 || repeat > UINT32_MAX) {
		fprintf(stderr, "usage: %s OBJECT [ROUNDS (1-%d) [REPEAT (0: no P3)]]\n", argv[0],
			MAX_ROUNDS);
		return 2;
	}
	guest_libbpf_logs(false);
	uname(&u);
	rec_printf(stdout, "kernel:", "%s, vmlinux BTF %lld bytes", u.release,
		   stat("/sys/kernel/btf/vmlinux", &st) ? -1LL : (long long)st.st_size);
	if (verifier_cost(argv[1], rounds))
		return 1;
	if (repeat && call_cost(argv[1], rounds, repeat))
		return 1;
	return 0;
}
