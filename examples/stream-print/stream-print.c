// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * stream-print [--plain] [N]: run the BPF program greet() N times
 * (default 3); each run prints one line into the program's stdout
 * stream. Reads the stream back, prints it and checks every line came.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "example.h"
#include "stream-read.h"
/* Through -I: the NAME-compat build finds compat/stream-print.skel.h instead. */
#include <stream-print.skel.h>

#define KFUNC "bpf_stream_vprintk"

/* Check the stream holds the line of every run, in order. */
static int check_lines(const struct example *ex, const char *text, unsigned int n)
{
	const char *p = text;
	unsigned int i;
	char want[64];

	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "run %u: %u squared is %u\n", i, i + 2,
			 (i + 2) * (i + 2));
		p = strstr(p, want);
		if (!p) {
			fprintf(stderr, "%s: line of run %u missing from the stream\n", ex->name, i);
			return EXAMPLE_FAIL;
		}
		p += strlen(want);
	}
	return EXAMPLE_OK;
}

static int run(const struct example *ex, struct stream_print *skel, unsigned int n)
{
	int fd = bpf_program__fd(skel->progs.greet);
	static char text[4096];
	unsigned int i;
	int len;

	for (i = 0; i < n; i++) {
		struct { __u32 run, value; } g = { .run = i, .value = i + 2 };
		int rc = example_run(ex, fd, "greet()", &g, sizeof(g), KFUNC);

		if (rc != EXAMPLE_OK)
			return rc;
	}
	len = stream_read(fd, EXAMPLE_BPF_STDOUT, text, sizeof(text) - 1);
	if (len < 0) {
		fprintf(stderr, "%s: reading the stream failed: %s\n", ex->name, strerror(-len));
		return EXAMPLE_FAIL;
	}
	text[len] = '\0';
	printf("%s: %d bytes from the program's stdout stream:\n%s", ex->name, len, text);
	return check_lines(ex, text, n);
}

int main(int argc, char **argv)
{
	struct example ex;
	struct stream_print *skel;
	unsigned int n = 3;
	int rc;

	example_init(&ex, argc, argv, "[N]");
	if (ex.argc > 0)
		n = (unsigned int)strtoul(ex.argv[0], NULL, 10);
	if (n < 1 || n > 50) {
		fprintf(stderr, "%s: N must be 1 to 50\n", ex.name);
		return EXAMPLE_USAGE;
	}

	skel = calloc(1, sizeof(*skel));
	if (!skel || stream_print__create_skeleton(skel)) {
		fprintf(stderr, "%s: out of memory\n", ex.name);
		return EXAMPLE_FAIL;
	}
	/* The library's open call, as wq-counter.c spells it out. */
	rc = example_open_load(&ex, skel->skeleton, KFUNC);
	if (rc == EXAMPLE_OK)
		rc = run(&ex, skel, n);
	stream_print__destroy(skel);
	return rc;
}
