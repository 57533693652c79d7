/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * mkf-bpftest: a guest runner for declarative BPF load-and-run cases.
 * One case names a BPF object and one of its programs, and what must
 * happen: the load succeeds and a test run returns a value (possibly
 * relative to the program's ID) and makes an asynchronous callback, or
 * tracing programs of the same object attached for the run, write maps;
 * or the load fails with a given error and message.
 */
#ifndef MKF_BPFTEST_H
#define MKF_BPFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct bpf_object;

/* How many --expect-fail (or --expect-libbpf) one case may give. */
#define BT_MAX_MSGS 4
/* How many map checks and programs to attach one case may give. */
#define BT_MAX_MAPS 8
#define BT_MAX_ATTACH 4

/* MAP[KEY] must hold VALUE, or the program's ID plus VALUE. */
struct bt_map_check {
	const char *map;
	__u32 key;
	__u64 value;
	bool plus_prog_id;
};

struct bt_case {
	const char *obj;	/* path of the BPF object file */
	const char *prog;	/* the one program of the object to load */
	char label[128];	/* how the case is named in the report */
	bool mkf;		/* open through libmagic-kfunc, not plain libbpf */
	const char *cache_dir;	/* ... with this rewrite cache (mkf_open_opts) */
	const char *btf;	/* the kernel's BTF from this file (btf_custom_path) */
	enum { BT_CACHE_ANY, BT_CACHE_MISS, BT_CACHE_HIT } expect_cache;

	/* Load must succeed (none of the expect_* below is set). */
	bool run;		/* BPF_PROG_TEST_RUN once after loading */
	bool check_retval;
	bool retval_plus_prog_id;	/* the run returns the program's ID plus retval */
	__u32 retval;
	/* After the run, poll each map until the key holds the value. */
	struct bt_map_check maps[BT_MAX_MAPS];
	int nr_maps;
	/* Tracing programs of the object loaded and attached before the run. */
	const char *attach[BT_MAX_ATTACH];
	int nr_attach;
	/* Each attached program's link and program info report one target. */
	bool attach_ids_agree;
	/* After loading, check the BPF_LD_IMM64 immediates of the xlated dump. */
	enum { BT_IMM64_ANY, BT_IMM64_ZERO, BT_IMM64_NONZERO, BT_IMM64_NOADDR } xlated_imm64;

	/* Load must fail. */
	bool expect_fail;
	const char *verifier_msg[BT_MAX_MSGS];	/* substrings of the verifier log */
	const char *libbpf_msg[BT_MAX_MSGS];	/* substrings of libbpf's messages */
	int err;			/* the error bpf_object__load returns (> 0), or 0 */
};

/* Options that apply to every case. */
struct bt_opts {
	bool verbose;		/* libbpf debug output and every verifier log */
	unsigned int wait_ms;	/* how long --wait-map polls */
};

/* args.c: turn the command line into cases; exits with usage on error. */
int bt_parse(int argc, char **argv, struct bt_opts *opts, struct bt_case **cases);

/*
 * open.c: the only place objects are opened (NULL with errno set):
 * with plain libbpf, or through libmagic-kfunc for the running kernel,
 * printing the library's decision for each kfunc extern.
 */
struct bpf_object *bt_open_object(const struct bt_case *c);

/*
 * xlated.c: the program has plain BPF_LD_IMM64 instructions, and their
 * immediates read as c->xlated_imm64 says in its translated dump.
 */
void bt_check_xlated_imm64(const struct bt_case *c, int prog_fd);

/* logs.c: libbpf's messages, kept per case and shown when they matter. */
void bt_logs_install(bool verbose);
void bt_logs_reset(void);
const char *bt_logs_text(void);
/* Print TEXT indented under a title, keeping its last MAX_LINES lines. */
void bt_print_indented(const char *title, const char *text, int max_lines);

/* errname.c: "ESRCH" for ESRCH, and back (0 when unknown). */
const char *bt_errname(int err);
int bt_errnum(const char *name);

/* taint.c: /proc/sys/kernel/tainted (~0 if unreadable), and the kernel log. */
unsigned long bt_taint(void);
void bt_print_kernel_log(int max_lines);

/* run.c: run one case, reporting one ok/FAIL line per check. */
void bt_run_case(const struct bt_case *c, const struct bt_opts *opts);

#endif
