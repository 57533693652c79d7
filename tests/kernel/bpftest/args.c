// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The command line: global options, then cases. A case is OBJ PROG and
 * the options that follow them; the next bare word starts another case,
 * so one guest boot can run every case of a kernel in one process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpftest.h"

static const char usage_text[] =
	"usage: mkf-bpftest [-v] [--wait-ms MS] CASE...\n"
	"  CASE is OBJ PROG followed by what must happen; the next bare word\n"
	"  starts the next case. Only PROG of OBJ is loaded.\n"
	"  --name LABEL              name of the case in the report (default OBJ:PROG)\n"
	"  --mkf                     open OBJ through libmagic-kfunc (default: plain libbpf)\n"
	"  --rewrite-cache DIR       the same, with the library's rewrite cache in DIR\n"
	"  --btf FILE                the kernel's BTF from FILE (libbpf's btf_custom_path;\n"
	"                            with --mkf, the library's target too)\n"
	"  --cache hit|miss          the open takes the object from that cache, or not\n"
	"  --retval N                the load succeeds and one test run returns N\n"
	"  --retval-prog-id N        the same, returning the program's ID plus N\n"
	"  --wait-map MAP KEY VALUE  the load succeeds, the program runs once, and\n"
	"                            MAP[KEY] holds VALUE within the wait (for callbacks)\n"
	"  --wait-map-prog-id MAP KEY N  the same, MAP[KEY] holding the program's ID plus N\n"
	"                            (up to 8 map checks per case)\n"
	"  --xlated-imm64 zero|nonzero|noaddr  the load succeeds and the translated\n"
	"                            dump has plain 64-bit immediates, all zero, none\n"
	"                            zero, or some zero and none a kernel address\n"
	"  --attach TPROG            also load TPROG of OBJ (fentry, fexit...) and attach\n"
	"                            it before the run (up to 4 per case)\n"
	"  --attach-ids-agree        for each --attach: its link info and its program's\n"
	"                            info report the same target BTF ID\n"
	"  --expect-fail SUBSTR      the load fails and the verifier log contains SUBSTR\n"
	"  --expect-libbpf SUBSTR    the load fails and libbpf's messages contain SUBSTR\n"
	"                            (each may be given up to 4 times per case)\n"
	"  --errno NAME|N            the load fails with this error (e.g. EACCES)\n"
	"  A case with none of these only checks that the load succeeds.\n"
	"  -v            libbpf's debug output and every verifier log\n"
	"  --wait-ms MS  how long --wait-map polls (default 5000)\n";

static void __attribute__((noreturn)) usage(const char *why, const char *what)
{
	if (why)
		fprintf(stderr, "mkf-bpftest: %s%s%s\n", why, what ? ": " : "", what ? what : "");
	fputs(usage_text, stderr);
	exit(2);
}

static unsigned long long number(const char *s, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > max)
		usage("not a number in range", s);
	return v;
}

static const char *value_of(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage("missing value after", argv[*i]);
	return argv[++*i];
}

static void add_msg(const char **msgs, const char *msg)
{
	int i;

	for (i = 0; i < BT_MAX_MSGS && msgs[i]; i++)
		;
	if (i == BT_MAX_MSGS)
		usage("too many messages for one case", msg);
	msgs[i] = msg;
}

static void finish_case(struct bt_case *c)
{
	const char *base = strrchr(c->obj, '/');
	size_t len;

	if (c->expect_cache && !c->cache_dir)
		usage("--cache needs --rewrite-cache", c->label[0] ? c->label : c->prog);
	if ((c->run || c->nr_maps || c->nr_attach || c->xlated_imm64) && c->expect_fail)
		usage("a case cannot expect both a run and a failed load", c->label[0] ? c->label : c->prog);
	if (c->label[0])
		return;
	/* "wq_new.bpf.o" + "wq_new" reads as "wq_new"; otherwise "obj:prog". */
	base = base ? base + 1 : c->obj;
	len = strcspn(base, ".");
	if (strlen(c->prog) == len && !strncmp(base, c->prog, len))
		snprintf(c->label, sizeof(c->label), "%s%s", c->mkf ? "mkf " : "", c->prog);
	else
		snprintf(c->label, sizeof(c->label), "%s%.*s:%s", c->mkf ? "mkf " : "", (int)len,
			 base, c->prog);
}

int bt_parse(int argc, char **argv, struct bt_opts *opts, struct bt_case **cases)
{
	struct bt_case *list = calloc(argc, sizeof(*list)), *c = NULL;
	int i, n = 0;

	if (!list) {
		perror("mkf-bpftest");
		exit(2);
	}
	opts->verbose = false;
	opts->wait_ms = 5000;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-') {
			if (c && !c->prog) {
				c->prog = a;
				continue;
			}
			if (c)
				finish_case(c);
			c = &list[n++];
			c->obj = a;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(NULL, NULL);
		if (!c) {
			if (!strcmp(a, "-v"))
				opts->verbose = true;
			else if (!strcmp(a, "--wait-ms"))
				opts->wait_ms = number(value_of(argc, argv, &i), 600000);
			else
				usage("unknown option before the first case", a);
			continue;
		}
		if (!c->prog)
			usage("a case needs OBJ PROG before its options", a);
		if (!strcmp(a, "--mkf")) {
			c->mkf = true;
		} else if (!strcmp(a, "--rewrite-cache")) {
			c->mkf = true;
			c->cache_dir = value_of(argc, argv, &i);
		} else if (!strcmp(a, "--btf")) {
			c->btf = value_of(argc, argv, &i);
		} else if (!strcmp(a, "--cache")) {
			const char *v = value_of(argc, argv, &i);

			if (strcmp(v, "hit") && strcmp(v, "miss"))
				usage("--cache takes hit or miss", v);
			c->expect_cache = strcmp(v, "hit") ? BT_CACHE_MISS : BT_CACHE_HIT;
		} else if (!strcmp(a, "--name")) {
			snprintf(c->label, sizeof(c->label), "%s", value_of(argc, argv, &i));
		} else if (!strcmp(a, "--retval") || !strcmp(a, "--retval-prog-id")) {
			const char *v = value_of(argc, argv, &i);

			/* A negative N is what a program's "return -N" gives. */
			c->run = c->check_retval = true;
			c->retval_plus_prog_id = !strcmp(a, "--retval-prog-id");
			c->retval = v[0] == '-' ? -(__u32)number(v + 1, 0x80000000ULL)
						: (__u32)number(v, 0xffffffffULL);
		} else if (!strcmp(a, "--wait-map") || !strcmp(a, "--wait-map-prog-id")) {
			struct bt_map_check *m;

			if (c->nr_maps == BT_MAX_MAPS)
				usage("too many map checks for one case", a);
			m = &c->maps[c->nr_maps++];
			c->run = true;
			m->plus_prog_id = !strcmp(a, "--wait-map-prog-id");
			m->map = value_of(argc, argv, &i);
			m->key = number(value_of(argc, argv, &i), 0xffffffffULL);
			m->value = number(value_of(argc, argv, &i), ~0ULL);
		} else if (!strcmp(a, "--xlated-imm64")) {
			const char *v = value_of(argc, argv, &i);

			if (!strcmp(v, "zero"))
				c->xlated_imm64 = BT_IMM64_ZERO;
			else if (!strcmp(v, "nonzero"))
				c->xlated_imm64 = BT_IMM64_NONZERO;
			else if (!strcmp(v, "noaddr"))
				c->xlated_imm64 = BT_IMM64_NOADDR;
			else
				usage("--xlated-imm64 takes zero, nonzero or noaddr, not", v);
		} else if (!strcmp(a, "--attach")) {
			if (c->nr_attach == BT_MAX_ATTACH)
				usage("too many programs to attach for one case", a);
			c->attach[c->nr_attach++] = value_of(argc, argv, &i);
		} else if (!strcmp(a, "--attach-ids-agree")) {
			c->attach_ids_agree = true;
		} else if (!strcmp(a, "--expect-fail")) {
			c->expect_fail = true;
			add_msg(c->verifier_msg, value_of(argc, argv, &i));
		} else if (!strcmp(a, "--expect-libbpf")) {
			c->expect_fail = true;
			add_msg(c->libbpf_msg, value_of(argc, argv, &i));
		} else if (!strcmp(a, "--errno")) {
			const char *v = value_of(argc, argv, &i);

			c->expect_fail = true;
			c->err = v[0] >= '0' && v[0] <= '9' ? (int)number(v, 4095) : bt_errnum(v);
			if (!c->err)
				usage("unknown error name", v);
		} else {
			usage("unknown option", a);
		}
	}
	if (!c)
		usage("no case given", NULL);
	if (!c->prog)
		usage("the last case has no PROG", c->obj);
	finish_case(c);
	*cases = list;
	return n;
}
