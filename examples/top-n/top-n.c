// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * top-n [--plain]: feed ten scores to the BPF program add_score(), which
 * keeps the four largest in an rbtree; read_top() hands them back in
 * ascending order. Prints them and checks them against the same
 * computed here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "example.h"
/*
 * The skeleton maps the tree's section, so it names the type. Debian
 * 12's <linux/bpf.h> (6.1) predates it: its UAPI layout (6.3+). Drop
 * this with a <linux/bpf.h> of 6.3 or later, which defines it (the
 * README's "Writing the BPF side").
 */
struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));
/* Through -I: the NAME-compat build finds compat/top-n.skel.h instead. */
#include <top-n.skel.h>

#define KFUNC "bpf_rbtree_add"
#define TOP_N 4		/* as in top-n.bpf.c */

static const __u64 scores[] = { 17, 3, 99, 42, 8, 64, 23, 99, 5, 71 };
#define NSCORES (sizeof(scores) / sizeof(scores[0]))

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

static int run(const struct example *ex, struct top_n *skel)
{
	__u64 want[NSCORES];
	size_t i;
	int rc;

	for (i = 0; i < NSCORES; i++) {
		struct { __u64 value; } in = { scores[i] };

		rc = example_run(ex, bpf_program__fd(skel->progs.add_score), "add_score()", &in,
				 sizeof(in), KFUNC);
		if (rc != EXAMPLE_OK)
			return rc;
	}
	rc = example_run(ex, bpf_program__fd(skel->progs.read_top), "read_top()", NULL, 0, KFUNC);
	if (rc != EXAMPLE_OK)
		return rc;
	memcpy(want, scores, sizeof(want));
	qsort(want, NSCORES, sizeof(want[0]), cmp_u64);
	printf("%s: top %u of %zu:", ex->name, skel->bss->top_cnt, NSCORES);
	for (i = 0; i < skel->bss->top_cnt && i < TOP_N; i++)
		printf(" %llu", (unsigned long long)skel->bss->top[i]);
	printf("\n");
	if (skel->bss->top_cnt != TOP_N ||
	    memcmp(skel->bss->top, want + NSCORES - TOP_N, sizeof(skel->bss->top)))
		return EXAMPLE_FAIL;
	return EXAMPLE_OK;
}

int main(int argc, char **argv)
{
	struct example ex;
	struct top_n *skel;
	int rc;

	example_init(&ex, argc, argv, "");
	skel = calloc(1, sizeof(*skel));
	if (!skel || top_n__create_skeleton(skel)) {
		fprintf(stderr, "%s: out of memory\n", ex.name);
		return EXAMPLE_FAIL;
	}
	/* The library's open call, as wq-counter.c spells it out. */
	rc = example_open_load(&ex, skel->skeleton, KFUNC);
	if (rc == EXAMPLE_OK)
		rc = run(&ex, skel);
	top_n__destroy(skel);
	return rc;
}
