/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the example loaders share: the command line (--plain), opening
 * and loading a skeleton with plain libbpf, a test run, and the exit
 * codes. wq-counter.c makes its libmagic-kfunc calls itself, to show
 * them; the other loaders call example_open_load(), which does the same.
 *
 * Exit codes of every example:
 *   0  the program ran and its result was checked
 *   1  it failed (open or load refused, wrong result): see stderr
 *   3  not supported by this kernel: the kernel has no form of the kfunc
 *      (the library's plan left the weak extern unresolved, or, with
 *      --plain, the program found it 0 with bpf_ksym_exists())
 *  64  usage error
 */
#ifndef MKF_EXAMPLE_H
#define MKF_EXAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include <magic-kfunc/magic_kfunc.h>

#define EXAMPLE_OK		0
#define EXAMPLE_FAIL		1
#define EXAMPLE_UNSUPPORTED	3
#define EXAMPLE_USAGE		64

/* What a BPF program returns when bpf_ksym_exists() says its kfunc is
 * missing (EOPNOTSUPP). Keep in step with examples/common/example.bpf.h. */
#define EXAMPLE_RET_UNSUPPORTED	95

struct example {
	const char *name;	/* for messages */
	bool plain;		/* --plain: open with libbpf alone */
	int argc;		/* arguments left after the options */
	char **argv;
};

/* Parse "[--plain] [ARG]...". Exits with EXAMPLE_USAGE on a bad option. */
void example_init(struct example *ex, int argc, char **argv, const char *usage);

/* --plain: bpf_object__open_skeleton(). EXAMPLE_OK or EXAMPLE_FAIL. */
int example_open_plain(const struct example *ex, struct bpf_object_skeleton *s);

/*
 * Judge mkf_object__open_skeleton()'s result err and say what its plan
 * decided for kfunc. EXAMPLE_OK, EXAMPLE_FAIL, or EXAMPLE_UNSUPPORTED
 * when the plan left kfunc (a weak extern) unbound: this kernel has no
 * form of it, so loading would only run the program's fallback.
 */
int example_report(const struct example *ex, int err, const struct mkf_plan *plan,
		   const char *kfunc);

/*
 * What wq-counter.c spells out: open the skeleton through the library
 * (or plain libbpf with --plain), report the plan's decision for
 * kfunc, load. EXAMPLE_OK once loaded, else what to exit with.
 */
int example_open_load(const struct example *ex, struct bpf_object_skeleton *s,
		      const char *kfunc);

/* bpf_object__load_skeleton(). EXAMPLE_OK or EXAMPLE_FAIL. */
int example_load(const struct example *ex, struct bpf_object_skeleton *s);

/*
 * BPF_PROG_TEST_RUN once with ctx and judge what the program (named prog
 * in messages) returns: 0 is EXAMPLE_OK, EXAMPLE_RET_UNSUPPORTED means
 * kfunc is missing (EXAMPLE_UNSUPPORTED), anything else a failure.
 */
int example_run(const struct example *ex, int prog_fd, const char *prog, void *ctx,
		size_t ctx_sz, const char *kfunc);

/* Print "not supported by this kernel" and return EXAMPLE_UNSUPPORTED. */
int example_unsupported(const struct example *ex, const char *kfunc);

#endif
