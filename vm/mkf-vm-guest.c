// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * mkf-vm-guest [-v] [-w] [-k] [-m DIR] {mkf|libbpf|both} OBJ...: the guest
 * side of "magic-kfunc vm"; mkf-vm-guest [-k] [-m DIR] run CMD [ARG]...:
 * of "vm --run". For every program of every object, and for each
 * mode asked (through libmagic-kfunc, through plain libbpf), open the
 * object afresh with only that program to load, load it, and run it
 * once with BPF_PROG_TEST_RUN if its type allows. Records on stdout
 * (the format is record.h's), read back by the host (cli/vm.c):
 *
 *   @kernel RELEASE         with -k: the running kernel's release, first
 *   @module NAME loaded     with -m: each DIR/\*.ko, in name order,
 *   @module NAME failed TEXT  inserted before anything else runs
 *   @cell OBJ-INDEX PROGRAM MODE STATUS RETVAL
 *   @reason TEXT            the decisive line, when STATUS is "failed"
 *   @note TEXT              the test run's failure, when it failed
 *   @log TEXT               every message of libbpf and the library
 *                           (with -v only: a verifier log can be long)
 *   @decided HOW            with -w, how the cell was decided (below)
 *   @end
 *   @object OBJ-INDEX unreadable TEXT   an object libbpf cannot open
 *   @done                   the last record: every cell was written
 *
 * -w (for large corpora, tests/corpus/): each object is first opened
 * and loaded whole, every program at once, and each program then run
 * in turn; only when that load fails is every program loaded alone
 * (HOW "whole" for cells decided by the whole load or by an open that
 * failed, which no choice of program changes). And a library cell
 * whose open handed libbpf the object's own bytes under the name
 * plain libbpf gives it is plain libbpf's cell (HOW "same-bytes"):
 * libbpf then does for both exactly the same thing.
 *
 * PROGRAM, NAME, RELEASE and TEXT come from the object, the module
 * files and the kernel (names, and messages that quote them): escaped
 * (record.h), a record is one line whatever they say, and PROGRAM one
 * word: no name can pose as a record of another program.
 *
 * STATUS is "ran" (RETVAL the program's return value), "loaded" (its
 * type has no test run, or the run failed: see @note) or "failed".
 *
 * run CMD [ARG]...: run CMD with its standard output and error on a
 * pipe, and report one cell of object 0, PROGRAM the file name of CMD,
 * MODE "run": STATUS "ran" if it exited 0, else "failed" with @reason
 * (the exit status or signal, and the last line it printed); RETVAL
 * the exit status, or minus the signal. Then what it printed (its last
 * 32 KiB), one "@output TEXT" record per line, escaped as above: what
 * the command prints cannot pose as a record.
 * Runs only inside a magic-kfunc test guest: the guard refuses anywhere
 * else, before anything is opened.
 */
#define _GNU_SOURCE /* open_memstream */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <magic_kfunc.h>

#include "guest.h"
#include "record.h"

static bool verbose;

/*
 * The messages of libbpf and the library during one cell: warnings and
 * information in msg (the reason is looked for there), and with -v
 * every message, debug too, in all (sent as the log).
 */
static FILE *msg, *all;

static int capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;
	int n = 0;

	if (all) {
		va_copy(copy, ap);
		n = vfprintf(all, fmt, copy);
		va_end(copy);
	}
	if (msg && level != LIBBPF_DEBUG)
		n = vfprintf(msg, fmt, ap);
	return n;
}

/* The line is verifier bookkeeping, not the reason. */
static bool boring(const char *line)
{
	static const char *const skip[] = {
		"processed ", "verification time", "stack depth", "max_states_per_insn",
		"-- END PROG LOAD LOG --", "mark_precise",
	};
	size_t i;

	if (!*line)
		return true;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(line, skip[i], strlen(skip[i])))
			return true;
	return false;
}

/*
 * The decisive line of a failed load: the verifier's last word if it
 * spoke, else libbpf's (or the library's) first specific warning.
 */
static void decisive(const char *text, char *out, size_t out_sz)
{
	const char *begin = strstr(text, "-- BEGIN PROG LOAD LOG --");
	char *copy = strdup(text), *line, *save = NULL;
	const char *best = NULL, *before = NULL;
	bool in_log = false;

	snprintf(out, out_sz, "%s", "no message");
	if (!copy)
		return;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (begin) {
			if (strstr(line, "-- BEGIN PROG LOAD LOG --")) {
				in_log = true;
				continue;
			}
			if (strstr(line, "-- END PROG LOAD LOG --"))
				in_log = false;
			if (in_log && !boring(line)) {
				before = best;
				best = line;
			}
			continue;
		}
		if (strstr(line, "failed to load object") || strstr(line, "failed to load program") ||
		    strstr(line, "prog '") == line)
			continue;
		if (!best || strstr(best, "failed to load BPF skeleton"))
			best = line;
	}
	if (best && before && best[0] == 'R' && strstr(best, " value is outside of the allowed")) {
		/* A bounds check's second line: the first one names the access. */
		snprintf(out, out_sz, "%s (%s)", before, best);
	} else if (best) {
		if (!strncmp(best, "libbpf: ", 8))
			best += 8;
		snprintf(out, out_sz, "%s", best);
	}
	free(copy);
}

/* A type BPF_PROG_TEST_RUN serves, and what it needs. */
enum run_input { RUN_NONE, RUN_CTX, RUN_PACKET, RUN_BARE };

static enum run_input run_input(enum bpf_prog_type type)
{
	switch (type) {
	case BPF_PROG_TYPE_SYSCALL:
		return RUN_CTX;
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
		return RUN_PACKET;
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return RUN_BARE;
	default:
		return RUN_NONE;
	}
}

static struct bpf_object *open_obj(const char *path, bool library, char *err, size_t err_sz)
{
	MKF_OPTS(mkf_open_opts, mopts, .err_buf = err, .err_buf_sz = err_sz);

	err[0] = '\0';
	if (library)
		return mkf_object__open_file(path, NULL, &mopts);
	return bpf_object__open_file(path, NULL);
}

/* What one cell came to. */
struct outcome {
	const char *status;	/* ran, loaded, failed */
	long long retval;
	char reason[1024];	/* failed: the decisive line */
	char note[256];		/* loaded: why the test run did not run */
	char *log;		/* with -v: every message */
	const char *decided;	/* with -w: whole, same-bytes; NULL: alone */
};

static void outcome_init(struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->status = "failed";
}

struct run_task {
	int prog_fd, ret, err;
	struct bpf_test_run_opts *run;
};

static int run_task_fn(void *arg)
{
	struct run_task *t = arg;

	t->ret = bpf_prog_test_run_opts(t->prog_fd, t->run);
	t->err = errno;
	return 0;
}

/*
 * BPF_PROG_TEST_RUN in a task of its own, which exits right after.
 * The program runs in the calling task, and one that a kernel wrongly
 * verified can return with that task's kernel state still held: 6.16
 * to 6.18 accept a bpf_throw() from a subprogram under
 * bpf_rcu_read_lock(), bpf_preempt_disable() or bpf_local_irq_save()
 * (the BPF selftests' exceptions_fail, reject_subprog_*), whose unwind
 * skips the unlock. A task that kept an RCU read-side section would
 * wait for itself in its next synchronize_rcu() (a map-in-map update
 * of a later object's load) until the boot's timeout; a task's exit
 * drops what it leaked. The task shares this one's memory (CLONE_VM,
 * and CLONE_VFORK: this one waits), on a stack touched beforehand: with
 * preemption left disabled it must not fault a page in, which a
 * fork()ed child, copy-on-write, would.
 */
static int test_run_task(int prog_fd, struct bpf_test_run_opts *run)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	static bool stack_touched;
	struct run_task t = { .prog_fd = prog_fd, .ret = -1, .err = EIO, .run = run };
	pid_t pid;
	int st;

	if (!stack_touched) {
		memset(stack, 1, sizeof(stack));
		stack_touched = true;
	}
	pid = clone(run_task_fn, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, &t);
	if (pid < 0)
		return bpf_prog_test_run_opts(prog_fd, run);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	errno = t.err;
	return t.ret;
}

/* Run PROG once if its type has a test run: "ran", else a note. */
static void test_run(struct bpf_program *prog, struct outcome *o)
{
	static unsigned char ctx[64], pkt[64];
	LIBBPF_OPTS(bpf_test_run_opts, run);
	enum run_input in = run_input(bpf_program__type(prog));

	o->status = "loaded";
	if (in == RUN_NONE)
		return;
	if (in == RUN_CTX) {
		run.ctx_in = ctx;
		run.ctx_size_in = sizeof(ctx);
	} else if (in == RUN_PACKET) {
		run.data_in = pkt;
		run.data_size_in = sizeof(pkt);
		run.repeat = 1;
	}
	if (test_run_task(bpf_program__fd(prog), &run)) {
		snprintf(o->note, sizeof(o->note), "test run: %s", strerror(errno));
	} else {
		o->status = "ran";
		o->retval = (int)run.retval;
	}
}

/* An open that failed: its reason, from the library's err_buf or errno. */
static void open_failed(struct outcome *o, const char *err, int e)
{
	o->status = "failed";
	if (err[0])
		snprintf(o->reason, sizeof(o->reason), "open: %s", err);
	else
		snprintf(o->reason, sizeof(o->reason), "open: %s", strerror(e));
}

/* PROG of the object at PATH, loaded alone. */
static void run_alone(const char *path, const char *prog_name, bool library, struct outcome *o)
{
	char *text = NULL, *log = NULL, err[512];
	size_t text_sz = 0, log_sz = 0;
	struct bpf_object *obj;
	struct bpf_program *p, *prog = NULL;

	outcome_init(o);
	msg = open_memstream(&text, &text_sz);
	if (verbose)
		all = open_memstream(&log, &log_sz);
	obj = open_obj(path, library, err, sizeof(err));
	if (!obj) {
		int e = errno;

		if (msg)
			fflush(msg);
		open_failed(o, err, e);
		goto out;
	}
	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), prog_name);

		bpf_program__set_autoload(p, me);
		if (me)
			prog = p;
	}
	if (!prog) {
		snprintf(o->reason, sizeof(o->reason), "open: no program '%s' in the object", prog_name);
		goto out;
	}
	if (bpf_object__load(obj)) {
		int e = errno;

		if (msg)
			fflush(msg);
		decisive(text ? text : "", o->reason, sizeof(o->reason));
		if (!strcmp(o->reason, "no message"))
			snprintf(o->reason, sizeof(o->reason), "load: %s", strerror(e));
		goto out;
	}
	test_run(prog, o);
out:
	if (msg) {
		fclose(msg);
		msg = NULL;
	}
	if (all) {
		fclose(all);
		all = NULL;
	}
	o->log = log;
	bpf_object__close(obj);
	free(text);
}

/* The records of one cell. */
static void emit(int idx, const char *prog_name, bool library, const struct outcome *o)
{
	printf("@cell %d", idx);
	rec_field(stdout, prog_name);
	printf(" %s %s %lld\n", library ? "mkf" : "libbpf", o->status, o->retval);
	if (o->reason[0])
		rec_text(stdout, "@reason", o->reason);
	if (o->note[0])
		rec_text(stdout, "@note", o->note);
	if (o->log)
		rec_lines(stdout, "@log", o->log);
	if (o->decided)
		printf("@decided %s\n", o->decided);
	printf("@end\n");
	fflush(stdout);
}

/* One cell: PROG of the object at PATH, loaded alone. */
static void cell(int idx, const char *path, const char *prog_name, bool library)
{
	struct outcome o;

	run_alone(path, prog_name, library, &o);
	emit(idx, prog_name, library, &o);
	free(o.log);
}

/* --- -w: whole objects first ------------------------------------------ */

/*
 * The bytes the library hands libbpf. The guest is linked with
 * --wrap=bpf_object__open_mem (vm/local.mk): the library's call lands
 * here first, and is compared, while armed, with the object's own bytes
 * and the name plain libbpf's open gives it (the file's base name up to
 * its first '.', at most BPF_OBJ_NAME_LEN - 1 bytes, as libbpf keeps it).
 */
static struct {
	bool armed, seen, same;
	const void *want;
	size_t want_sz;
	char want_name[BPF_OBJ_NAME_LEN];
} handed;

struct bpf_object *__real_bpf_object__open_mem(const void *buf, size_t sz,
					       const struct bpf_object_open_opts *opts);
struct bpf_object *__wrap_bpf_object__open_mem(const void *buf, size_t sz,
					       const struct bpf_object_open_opts *opts);

struct bpf_object *__wrap_bpf_object__open_mem(const void *buf, size_t sz,
					       const struct bpf_object_open_opts *opts)
{
	if (handed.armed) {
		size_t end = offsetof(struct bpf_object_open_opts, object_name) +
			     sizeof(opts->object_name);
		const char *name = opts && opts->sz >= end ? opts->object_name : NULL;

		handed.seen = true;
		handed.same = sz == handed.want_sz && !memcmp(buf, handed.want, sz) && name &&
			      !strncmp(name, handed.want_name, sizeof(handed.want_name) - 1);
	}
	return __real_bpf_object__open_mem(buf, sz, opts);
}

static void *slurp(const char *path, size_t *sz)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*sz = buf ? (size_t)n : 0;
	fclose(f);
	return buf;
}

/*
 * Every program of the object at PATH (names[], n of them) in one mode:
 * the whole object first, each program alone if that load fails. With
 * plain (plain libbpf's outcomes, for a library run), a library open
 * that hands libbpf the object's own bytes takes them.
 */
static void run_whole(const char *path, char **names, size_t n, bool library,
		      const struct outcome *plain, struct outcome *outs)
{
	char err[512];
	const char *base = strrchr(path, '/');
	void *bytes = NULL;
	struct bpf_object *obj;
	struct bpf_program *p;
	size_t i;

	for (i = 0; i < n; i++)
		outcome_init(&outs[i]);
	if (library && plain) {
		bytes = slurp(path, &handed.want_sz);
		handed.want = bytes;
		base = base ? base + 1 : path;
		snprintf(handed.want_name, sizeof(handed.want_name), "%.*s",
			 (int)strcspn(base, "."), base);
		handed.armed = bytes != NULL;
		handed.seen = handed.same = false;
	}
	obj = open_obj(path, library, err, sizeof(err));
	handed.armed = false;
	free(bytes);
	if (!obj) {
		int e = errno;

		for (i = 0; i < n; i++) {
			open_failed(&outs[i], err, e);
			outs[i].decided = "whole";
		}
		return;
	}
	if (library && plain && handed.seen && handed.same) {
		bpf_object__close(obj);
		for (i = 0; i < n; i++) {
			outs[i] = plain[i];
			outs[i].log = NULL;
			outs[i].decided = "same-bytes";
		}
		return;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, true);
	if (!bpf_object__load(obj)) {
		for (i = 0; i < n; i++) {
			p = bpf_object__find_program_by_name(obj, names[i]);
			if (p) {
				test_run(p, &outs[i]);
			} else {
				snprintf(outs[i].reason, sizeof(outs[i].reason),
					 "open: no program '%s' in the object", names[i]);
			}
			outs[i].decided = "whole";
		}
		bpf_object__close(obj);
		return;
	}
	bpf_object__close(obj);
	for (i = 0; i < n; i++)
		run_alone(path, names[i], library, &outs[i]);
}

/* -w: one object, plain libbpf first (the library's cells may be its). */
static void object_whole(int idx, const char *path, struct bpf_object *names_obj, bool lib,
			 bool plain)
{
	struct bpf_program *p;
	struct outcome *po = NULL, *lo = NULL;
	char **names = NULL;
	size_t n = 0, i;

	bpf_object__for_each_program(p, names_obj)
		n++;
	names = calloc(n ? n : 1, sizeof(*names));
	po = calloc(n ? n : 1, sizeof(*po));
	lo = calloc(n ? n : 1, sizeof(*lo));
	if (!names || !po || !lo) {
		printf("@object %d unreadable %s\n", idx, strerror(ENOMEM));
		goto out;
	}
	i = 0;
	bpf_object__for_each_program(p, names_obj)
		names[i++] = (char *)bpf_program__name(p);
	/* Nothing is logged per cell here: -v logs only cells loaded alone. */
	if (plain)
		run_whole(path, names, n, false, NULL, po);
	if (lib)
		run_whole(path, names, n, true, plain ? po : NULL, lo);
	for (i = 0; i < n; i++) {
		if (lib)
			emit(idx, names[i], true, &lo[i]);
		if (plain)
			emit(idx, names[i], false, &po[i]);
	}
	for (i = 0; lo && i < n; i++)
		free(lo[i].log);
	for (i = 0; po && i < n; i++)
		free(po[i].log);
out:
	free(names);
	free(po);
	free(lo);
}

/* --- run: a command of the user's ------------------------------------------ */

#define OUTPUT_MAX 32768

/* What a command printed: its last OUTPUT_MAX bytes, and how many went before. */
struct output {
	char buf[OUTPUT_MAX];
	size_t len;
	unsigned long long cut;
};

/* N bytes more (N at most 4096, a read's chunk), the oldest dropped past OUTPUT_MAX. */
static void keep(struct output *o, const char *p, size_t n)
{
	if (o->len + n > OUTPUT_MAX) {
		size_t drop = o->len + n - OUTPUT_MAX;

		memmove(o->buf, o->buf + drop, o->len - drop);
		o->len -= drop;
		o->cut += drop;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

/* Read FD into O until it has nothing more; false at its end. */
static bool drain(int fd, struct output *o)
{
	char chunk[4096];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n > 0) {
			keep(o, chunk, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
}

/* The last line of O that is not empty, as "TEXT" in OUT (at most OUT_SZ). */
static void last_line(const struct output *o, char *out, size_t out_sz)
{
	size_t end = o->len, start;

	while (end && (o->buf[end - 1] == '\n' || o->buf[end - 1] == '\r' ||
		       o->buf[end - 1] == ' ' || o->buf[end - 1] == '\t'))
		end--;
	start = end;
	while (start && o->buf[start - 1] != '\n')
		start--;
	if (end - start >= out_sz)
		start = end - (out_sz - 1);
	memcpy(out, o->buf + start, end - start);
	out[end - start] = '\0';
}

static int run_command(char **argv)
{
	static struct output out;
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	char reason[1024], last[512];
	const char *status = "failed";
	long long retval;
	int fd[2], st = 0;
	bool open_pipe = true, exited = false;
	pid_t pid;
	size_t i;

	if (pipe(fd))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		/* A process group of its own: what it leaves running is stopped with it. */
		setpgid(0, 0);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		fprintf(stderr, "%s: cannot run it: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	fcntl(fd[0], F_SETFL, fcntl(fd[0], F_GETFL) | O_NONBLOCK);
	/* Until it exits: its output as it comes; then what is left in the pipe. */
	while (!exited) {
		struct pollfd p = { .fd = fd[0], .events = POLLIN };

		if (open_pipe && poll(&p, 1, 100) > 0)
			open_pipe = drain(fd[0], &out);
		else if (!open_pipe)
			poll(NULL, 0, 100);
		if (waitpid(pid, &st, WNOHANG) == pid)
			exited = true;
	}
	if (open_pipe)
		drain(fd[0], &out);
	close(fd[0]);
	kill(-pid, SIGKILL);

	/* The decisive line: the verdict, and what the command said last. */
	for (i = 0; i < out.len; i++)
		if (!out.buf[i])
			out.buf[i] = ' ';
	last_line(&out, last, sizeof(last));
	if (WIFEXITED(st)) {
		retval = WEXITSTATUS(st);
		if (!retval)
			status = "ran";
		snprintf(reason, sizeof(reason), "exit status %lld%s%s", retval, last[0] ? ": " : "",
			 last[0] ? last : ", no output");
	} else {
		retval = -(long long)WTERMSIG(st);
		snprintf(reason, sizeof(reason), "killed by signal %d (%s)%s%s", WTERMSIG(st),
			 strsignal(WTERMSIG(st)), last[0] ? ": " : "", last[0] ? last : ", no output");
	}
	printf("@cell 0");
	rec_field(stdout, name);
	printf(" run %s %lld\n", status, retval);
	if (strcmp(status, "ran"))
		rec_text(stdout, "@reason", reason);
	if (out.cut)
		printf("@output [the first %llu bytes are not shown]\n", out.cut);
	for (i = 0; i < out.len;) {
		char *nl = memchr(out.buf + i, '\n', out.len - i);
		size_t n = nl ? (size_t)(nl - (out.buf + i)) : out.len - i;

		printf("@output ");
		rec_escape(stdout, out.buf + i, n, false);
		putchar('\n');
		i += n + 1;
	}
	printf("@end\n@done\n");
	fflush(stdout);
	return 0;
}

/* -k: the release of the kernel this runs on. */
static void report_kernel(void)
{
	struct utsname u;

	printf("@kernel");
	rec_field(stdout, uname(&u) ? "-" : u.release);
	putchar('\n');
}

static int cmp_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_module(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".ko");
}

/*
 * -m DIR: insert each DIR/\*.ko, in name order (the host numbers them in
 * the order it was given them), and say how each went. A module that
 * fails is reported, not fatal: the cells then show what its absence
 * changes.
 */
static void insert_modules(const char *dir)
{
	struct dirent **names = NULL;
	int i, n = scandir(dir, &names, is_module, cmp_names);

	if (n < 0) {
		/* No directory: no module to insert (the host sent none). */
		if (errno != ENOENT) {
			printf("@module");
			rec_field(stdout, dir);
			printf(" failed ");
			rec_escape(stdout, strerror(errno), strlen(strerror(errno)), false);
			putchar('\n');
		}
		return;
	}
	for (i = 0; i < n; i++) {
		char path[4096];
		int fd, err = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			err = errno;
		if (fd >= 0)
			close(fd);
		printf("@module");
		rec_field(stdout, names[i]->d_name);
		if (err) {
			printf(" failed ");
			rec_escape(stdout, strerror(err), strlen(strerror(err)), false);
			putchar('\n');
		} else {
			printf(" loaded\n");
		}
		free(names[i]);
	}
	free(names);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	bool lib = false, plain = false, whole = false, kernel = false;
	const char *modules = NULL;
	int i = 1, idx;

	guest_require(argv[0]);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = true;
		else if (!strcmp(argv[i], "-w"))
			whole = true;
		else if (!strcmp(argv[i], "-k"))
			kernel = true;
		else if (!strcmp(argv[i], "-m") && i + 1 < argc)
			modules = argv[++i];
		else
			break;
	}
	if (i >= argc || argv[i][0] == '-') {
		fprintf(stderr,
			"usage: %s [-v] [-w] [-k] [-m DIR] {mkf|libbpf|both} OBJ...\n"
			"       %s [-k] [-m DIR] run CMD [ARG]...\n", argv[0], argv[0]);
		return 2;
	}
	if (kernel)
		report_kernel();
	if (modules)
		insert_modules(modules);
	fflush(stdout);
	if (!strcmp(argv[i], "run")) {
		if (i + 1 >= argc) {
			fprintf(stderr, "%s: run: which command?\n", argv[0]);
			return 2;
		}
		return run_command(argv + i + 1);
	}
	if (!strcmp(argv[i], "mkf") || !strcmp(argv[i], "both"))
		lib = true;
	if (!strcmp(argv[i], "libbpf") || !strcmp(argv[i], "both"))
		plain = true;
	if (!lib && !plain) {
		fprintf(stderr, "%s: mode must be mkf, libbpf or both\n", argv[0]);
		return 2;
	}
	libbpf_set_print(capture);
	mkf_set_print(capture);
	for (idx = 0, i++; i < argc; i++, idx++) {
		/* The program names, from an open that loads nothing. */
		struct bpf_object *obj = bpf_object__open_file(argv[i], NULL);
		struct bpf_program *p;

		if (!obj) {
			char tag[64];

			snprintf(tag, sizeof(tag), "@object %d unreadable", idx);
			rec_text(stdout, tag, strerror(errno));
			continue;
		}
		if (whole) {
			object_whole(idx, argv[i], obj, lib, plain);
			bpf_object__close(obj);
			continue;
		}
		bpf_object__for_each_program(p, obj) {
			if (lib)
				cell(idx, argv[i], bpf_program__name(p), true);
			if (plain)
				cell(idx, argv[i], bpf_program__name(p), false);
		}
		bpf_object__close(obj);
	}
	printf("@done\n");
	return 0;
}
