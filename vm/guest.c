// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * mkf-vm-guest [-v] {mkf|libbpf|both} OBJ...: the guest side of
 * "magic-kfunc vm". For every program of every object, and for each
 * mode asked (through libmagic-kfunc, through plain libbpf), open the
 * object afresh with only that program to load, load it, and run it
 * once with BPF_PROG_TEST_RUN if its type allows. One record per cell
 * on stdout, read back by the host (cli/vm.c):
 *
 *   @cell OBJ-INDEX PROGRAM MODE STATUS RETVAL
 *   @reason TEXT            the decisive line, when STATUS is "failed"
 *   @note TEXT              the test run's failure, when it failed
 *   @log TEXT               every message of libbpf and the library
 *                           (with -v only: a verifier log can be long)
 *   @end
 *
 * PROGRAM and TEXT come from the object (its names, and messages that
 * quote them): every byte of them that is not printable ASCII, and the
 * backslash, is written as \xNN, and so is a space in PROGRAM. A record
 * is one line whatever the object says, and PROGRAM one word: no name
 * can pose as a record of another program.
 *
 * STATUS is "ran" (RETVAL the program's return value), "loaded" (its
 * type has no test run, or the run failed: see @note) or "failed".
 * Runs only inside a magic-kfunc test guest: the guard refuses anywhere
 * else, before anything is opened.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <magic_kfunc.h>

#include "guest.h"

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

/* N bytes of S, escaped as the records need (see the top of this file). */
static void put_escaped(const char *s, size_t n, bool word)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\' || (word && c == ' '))
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

/* One record line: TAG, then TEXT escaped (a single word if WORD). */
static void put_record(const char *tag, const char *text, bool word)
{
	printf("%s ", tag);
	put_escaped(text, strlen(text), word);
	putchar('\n');
}

static void put_lines(const char *tag, const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchrnul(p, '\n');
		printf("%s ", tag);
		put_escaped(p, (size_t)(nl - p), false);
		putchar('\n');
		p = *nl ? nl + 1 : nl;
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

/* One cell: PROG of the object at PATH, loaded alone. */
static void cell(int idx, const char *path, const char *prog_name, bool library)
{
	char *text = NULL, *log = NULL, reason[1024] = "", note[256] = "", err[512];
	size_t text_sz = 0, log_sz = 0;
	const char *status = "failed";
	long long retval = 0;
	struct bpf_object *obj;
	struct bpf_program *p, *prog = NULL;

	msg = open_memstream(&text, &text_sz);
	if (verbose)
		all = open_memstream(&log, &log_sz);
	obj = open_obj(path, library, err, sizeof(err));
	if (!obj) {
		int e = errno;

		if (msg)
			fflush(msg);
		if (err[0])
			snprintf(reason, sizeof(reason), "open: %s", err);
		else
			snprintf(reason, sizeof(reason), "open: %s", strerror(e));
		goto out;
	}
	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), prog_name);

		bpf_program__set_autoload(p, me);
		if (me)
			prog = p;
	}
	if (!prog) {
		snprintf(reason, sizeof(reason), "open: no program '%s' in the object", prog_name);
		goto out;
	}
	if (bpf_object__load(obj)) {
		int e = errno;

		if (msg)
			fflush(msg);
		decisive(text ? text : "", reason, sizeof(reason));
		if (!strcmp(reason, "no message"))
			snprintf(reason, sizeof(reason), "load: %s", strerror(e));
		goto out;
	}
	status = "loaded";
	switch (run_input(bpf_program__type(prog))) {
	case RUN_NONE:
		break;
	default: {
		static unsigned char ctx[64], pkt[64];
		LIBBPF_OPTS(bpf_test_run_opts, run);
		enum run_input in = run_input(bpf_program__type(prog));

		if (in == RUN_CTX) {
			run.ctx_in = ctx;
			run.ctx_size_in = sizeof(ctx);
		} else if (in == RUN_PACKET) {
			run.data_in = pkt;
			run.data_size_in = sizeof(pkt);
			run.repeat = 1;
		}
		if (bpf_prog_test_run_opts(bpf_program__fd(prog), &run)) {
			snprintf(note, sizeof(note), "test run: %s", strerror(errno));
		} else {
			status = "ran";
			retval = (int)run.retval;
		}
		break;
	}
	}
out:
	if (msg) {
		fclose(msg);
		msg = NULL;
	}
	if (all) {
		fclose(all);
		all = NULL;
	}
	printf("@cell %d ", idx);
	put_escaped(prog_name, strlen(prog_name), true);
	printf(" %s %s %lld\n", library ? "mkf" : "libbpf", status, retval);
	if (reason[0])
		put_record("@reason", reason, false);
	if (note[0])
		put_record("@note", note, false);
	if (log)
		put_lines("@log", log);
	printf("@end\n");
	fflush(stdout);
	bpf_object__close(obj);
	free(text);
	free(log);
}

int main(int argc, char **argv)
{
	bool lib = false, plain = false;
	int i = 1, idx;

	guest_require(argv[0]);
	if (i < argc && !strcmp(argv[i], "-v")) {
		verbose = true;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [-v] {mkf|libbpf|both} OBJ...\n", argv[0]);
		return 2;
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
			put_record(tag, strerror(errno), false);
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
