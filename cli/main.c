// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * magic-kfunc [OPTIONS] { explain | rewrite | kfuncs | matrix | doctor | vm |
 *                         kernels | help } ...
 *
 * Option parsing and dispatch (the table cmds[]: a command, its handler,
 * the options it takes and its arguments), in bpftool's grammar: commands may be
 * abbreviated to an unambiguous prefix, options may come before or
 * after the command, -j/-p switch every report and error to JSON.
 */
#define _GNU_SOURCE /* vasprintf */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <bpf/libbpf.h>
#include <magic_kfunc.h>

#include "cli.h"
#include "kernel.h"
#include "cli/magic-kfunc.help.h"
#include "log.h"

/* Options without a short form. */
enum {
	OPT_BTF = 256,
	OPT_MODULE_BTF,
	OPT_KERNEL_DIR,
	OPT_IN_PLACE,
	OPT_ALLOW_UNRESOLVED,
	OPT_WEAKEN_UNRESOLVED,
	OPT_JOBS,
	OPT_TIMEOUT,
	OPT_KERNEL,
	OPT_MODE,
	OPT_MARKDOWN,
	OPT_JUNIT,
	OPT_SHARD,
	OPT_RUN,
};

/* Keep in step with the man page's OPTIONS (tests/cli checks). */
static const struct option long_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "debug", no_argument, NULL, 'd' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ "btf", required_argument, NULL, OPT_BTF },
	{ "module-btf", required_argument, NULL, OPT_MODULE_BTF },
	{ "kernel-dir", required_argument, NULL, OPT_KERNEL_DIR },
	{ "output", required_argument, NULL, 'o' },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "allow-unresolved", no_argument, NULL, OPT_ALLOW_UNRESOLVED },
	{ "weaken-unresolved", no_argument, NULL, OPT_WEAKEN_UNRESOLVED },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "markdown", no_argument, NULL, OPT_MARKDOWN },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "run", required_argument, NULL, OPT_RUN },
	{ NULL, 0, NULL, 0 },
};
/*
 * '-': every non-option comes back in order as option 1, so options may
 * follow the command whatever POSIXLY_CORRECT says. ':': a missing
 * argument is reported as ':', and getopt prints nothing itself (JSON
 * mode must own every byte of stdout and the wording of errors).
 */
static const char short_options[] = "-:jpdVho:";

/*
 * The options a command may take, as bits: the command table says which
 * (one line per command: adding a command is a row and a handler).
 * -j, -p, -d, -V and -h are global.
 */
enum opt_bit {
	O_BTF = 1u << 0,		/* --btf, once */
	O_BTF_MANY = 1u << 1,		/* --btf, several times */
	O_MODULE_BTF = 1u << 2,
	O_KERNEL_DIR = 1u << 3,
	O_OUTPUT = 1u << 4,
	O_IN_PLACE = 1u << 5,
	O_ALLOW_UNRESOLVED = 1u << 6,
	O_WEAKEN_UNRESOLVED = 1u << 7,
	O_JOBS = 1u << 8,
	O_TIMEOUT = 1u << 9,
	O_KERNEL = 1u << 10,
	O_MODE = 1u << 11,
	O_MARKDOWN = 1u << 12,
	O_JUNIT = 1u << 13,
	O_SHARD = 1u << 14,
	O_RUN = 1u << 15,
};

/* Each bit's option, as the user types it. */
static const struct {
	unsigned int bit;
	const char *name;
} opt_names[] = {
	{ O_BTF, "--btf" }, { O_MODULE_BTF, "--module-btf" }, { O_KERNEL_DIR, "--kernel-dir" },
	{ O_OUTPUT, "-o" }, { O_IN_PLACE, "--in-place" },
	{ O_ALLOW_UNRESOLVED, "--allow-unresolved" }, { O_WEAKEN_UNRESOLVED, "--weaken-unresolved" },
	{ O_JOBS, "--jobs" }, { O_TIMEOUT, "--timeout" }, { O_KERNEL, "--kernel" },
	{ O_MODE, "--mode" }, { O_MARKDOWN, "--markdown" }, { O_JUNIT, "--junit" },
	{ O_SHARD, "--shard" }, { O_RUN, "--run" },
};

static int check_rewrite(struct cli *cli);
static int check_matrix(struct cli *cli);
static int check_vm(struct cli *cli);
static int run_help(struct cli *cli);

/* One row per command: its name, handler, options and arguments. */
static const struct cmd {
	const char *name;
	int (*run)(struct cli *cli);
	unsigned int opts;		/* enum opt_bit */
	int min_args, max_args;		/* max_args -1: any number */
	const char *args;		/* the arguments, for messages */
	int (*check)(struct cli *cli);	/* what else it requires, or NULL */
} cmds[] = {
	{ "explain", cmd_explain, O_BTF | O_MODULE_BTF | O_WEAKEN_UNRESOLVED, 1, -1, "OBJ...",
	  NULL },
	{ "rewrite", cmd_rewrite, O_BTF | O_MODULE_BTF | O_WEAKEN_UNRESOLVED | O_OUTPUT |
	  O_IN_PLACE | O_ALLOW_UNRESOLVED, 1, 1, "OBJ {-o OUT | --in-place}", check_rewrite },
	{ "kfuncs", cmd_kfuncs, O_BTF | O_MODULE_BTF, 0, 0, "", NULL },
	{ "matrix", cmd_matrix, O_BTF | O_BTF_MANY | O_KERNEL_DIR | O_WEAKEN_UNRESOLVED, 1, -1,
	  "OBJ... --btf FILE...", check_matrix },
	{ "doctor", cmd_doctor, O_BTF | O_MODULE_BTF, 0, -1, "[OBJ...]", NULL },
	{ "vm", cmd_vm, O_JOBS | O_TIMEOUT | O_KERNEL | O_MODE | O_MARKDOWN | O_JUNIT | O_SHARD |
	  O_RUN, 0, -1, "[--kernel ID|IMAGE]... OBJ... (or --run CMD, or merge JSON...)",
	  check_vm },
	{ "kernels", cmd_kernels, 0, 0, -1, "{list | fetch [ID...] | add ID IMAGE}", NULL },
	{ "help", run_help, 0, 0, 1, "[COMMAND]", NULL },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void set_error(struct cli *cli, const char *fmt, va_list args)
{
	/* The first error is the cause; later ones are consequences. */
	if (cli->error)
		return;
	if (vasprintf(&cli->error, fmt, args) < 0)
		cli->error = NULL;
}

int cli_error(struct cli *cli, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	set_error(cli, fmt, args);
	va_end(args);
	return EXIT_ERROR;
}

int cli_usage_error(struct cli *cli, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	set_error(cli, fmt, args);
	va_end(args);
	return EXIT_USAGE;
}

static int push(const char ***arr, size_t *cnt, const char *s)
{
	const char **a = realloc(*arr, (*cnt + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	a[(*cnt)++] = s;
	*arr = a;
	return 0;
}

static void print_version(struct cli *cli)
{
	if (cli->jw) {
		jw_start_object(cli->jw);
		jw_string_field(cli->jw, "version", PACKAGE_VERSION);
		jw_string_field(cli->jw, "libmagic_kfunc", mkf_version_string());
		jw_string_field(cli->jw, "libbpf", libbpf_version_string());
		jw_end_object(cli->jw);
		return;
	}
	fprintf(cli->out, "magic-kfunc %s (libmagic-kfunc %s, libbpf %s)\n", PACKAGE_VERSION,
		mkf_version_string(), libbpf_version_string());
}

/* Exact name, else the only command the word is a prefix of. */
static int find_cmd(struct cli *cli, const char *word, const struct cmd **cmd)
{
	size_t i, len = strlen(word), hits = 0;
	char names[128] = "";

	for (i = 0; i < NCMDS; i++) {
		if (!strcmp(word, cmds[i].name)) {
			*cmd = &cmds[i];
			return 0;
		}
		if (!strncmp(word, cmds[i].name, len)) {
			*cmd = &cmds[i];
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 hits++ ? ", " : "", cmds[i].name);
		}
	}
	if (hits == 1)
		return 0;
	if (hits)
		return cli_usage_error(cli, "ambiguous command '%s': could be %s", word, names);
	return cli_usage_error(cli, "unknown command '%s' (try 'magic-kfunc help')", word);
}

/* "explain, rewrite and matrix": the commands that take option bit. */
static void takers(unsigned int bit, char *buf, size_t sz)
{
	size_t i, n = 0, cnt = 0;

	for (i = 0; i < NCMDS; i++)
		cnt += !!(cmds[i].opts & bit);
	buf[0] = '\0';
	for (i = 0; i < NCMDS; i++) {
		if (!(cmds[i].opts & bit))
			continue;
		snprintf(buf + strlen(buf), sz - strlen(buf), "%s%s",
			 !n ? "" : n + 1 == cnt ? " and " : ", ", cmds[i].name);
		n++;
	}
}

/* What the table says of cmd: its options and its number of arguments. */
static int check_usage(struct cli *cli, const struct cmd *cmd)
{
	unsigned int stray = cli->given & ~cmd->opts;
	char who[128];
	size_t i;

	for (i = 0; stray && i < sizeof(opt_names) / sizeof(opt_names[0]); i++) {
		if (!(stray & opt_names[i].bit))
			continue;
		takers(opt_names[i].bit, who, sizeof(who));
		return cli_usage_error(cli, "%s: %s is for %s", cmd->name, opt_names[i].name, who);
	}
	if (cli->btf_cnt > 1 && !(cmd->opts & O_BTF_MANY))
		return cli_usage_error(cli, "%s: one --btf only (several are for matrix)", cmd->name);
	if (cli->argc < cmd->min_args)
		return cli_usage_error(cli, "%s: what to work on? %s %s", cmd->name, cmd->name,
				       cmd->args);
	if (cmd->max_args >= 0 && cli->argc > cmd->max_args)
		return cli_usage_error(cli, "%s: unexpected argument '%s' (%s %s)", cmd->name,
				       cli->argv[cmd->max_args], cmd->name, cmd->args);
	return cmd->check ? cmd->check(cli) : 0;
}

static int check_rewrite(struct cli *cli)
{
	if (!cli->output == !cli->in_place)
		return cli_usage_error(cli, "rewrite: give either -o OUT or --in-place");
	return 0;
}

static int check_matrix(struct cli *cli)
{
	if (!cli->btf_cnt && !cli->kernel_dir_cnt)
		return cli_usage_error(cli, "matrix: which kernels? give --btf FILE or "
				       "--kernel-dir DIR");
	return 0;
}

static int check_vm(struct cli *cli)
{
	if (cli->argc < 1 && !cli->run)
		return cli_usage_error(cli, "vm: which objects? vm [--kernel ID|IMAGE]... OBJ... "
				       "(or --run CMD, or merge JSON...)");
	if (cli->markdown && cli->json)
		return cli_usage_error(cli, "vm: --markdown or --json, not both");
	if (cli->junit && !strcmp(cli->junit, "-") && (cli->markdown || cli->json))
		return cli_usage_error(cli, "vm: --junit - is the report on standard output: "
				       "not with --markdown or --json");
	return 0;
}

/* A positive number of at most max, for --jobs and --timeout. */
static int parse_count(struct cli *cli, const char *opt, const char *arg, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > max)
		return cli_usage_error(cli, "%s wants a number from 1 to %d, not '%s'", opt, max, arg);
	*out = (int)v;
	return 0;
}

/* --shard I/N: 1 <= I <= N <= 1000. */
static int parse_shard(struct cli *cli, const char *arg)
{
	unsigned int i, n;
	int len = 0;

	const char *slash = strchr(arg, '/');

	if (sscanf(arg, "%u/%u%n", &i, &n, &len) != 2 || arg[len] || !isdigit((unsigned char)*arg) ||
	    !slash || !isdigit((unsigned char)slash[1]) || !n || n > 1000 || !i || i > n)
		return cli_usage_error(cli, "--shard wants I/N with 1 <= I <= N <= 1000, not '%s'", arg);
	cli->shard = i;
	cli->shards = n;
	return 0;
}

/* Parse argv into cli and words; 0 or an exit code (the CLI error set). */
static int parse_args(struct cli *cli, int argc, char **argv, const char ***words,
		      size_t *word_cnt, bool *help, bool *version)
{
	int c, ret = 0;
	bool enomem = false;

	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case 1:
			enomem |= push(words, word_cnt, optarg) != 0;
			break;
		case 'j': cli->json = true; break;
		case 'p': cli->json = cli->pretty = true; break;
		case 'd': cli->debug = true; break;
		case 'V': *version = true; break;
		case 'h': *help = true; break;
		case 'o': cli->output = optarg; cli->given |= O_OUTPUT; break;
		case OPT_BTF:
			enomem |= push(&cli->btf, &cli->btf_cnt, optarg) != 0;
			cli->given |= O_BTF;
			break;
		case OPT_MODULE_BTF:
			enomem |= push(&cli->module_btf, &cli->module_btf_cnt, optarg) != 0;
			cli->given |= O_MODULE_BTF;
			break;
		case OPT_KERNEL_DIR:
			enomem |= push(&cli->kernel_dir, &cli->kernel_dir_cnt, optarg) != 0;
			cli->given |= O_KERNEL_DIR;
			break;
		case OPT_IN_PLACE: cli->in_place = true; cli->given |= O_IN_PLACE; break;
		case OPT_ALLOW_UNRESOLVED:
			cli->allow_unresolved = true;
			cli->given |= O_ALLOW_UNRESOLVED;
			break;
		case OPT_WEAKEN_UNRESOLVED:
			cli->weaken_unresolved = true;
			cli->given |= O_WEAKEN_UNRESOLVED;
			break;
		case OPT_JOBS:
			if (parse_count(cli, "--jobs", optarg, 64, &cli->jobs))
				ret = EXIT_USAGE;
			cli->given |= O_JOBS;
			break;
		case OPT_TIMEOUT:
			if (parse_count(cli, "--timeout", optarg, 86400, &cli->timeout))
				ret = EXIT_USAGE;
			cli->given |= O_TIMEOUT;
			break;
		case OPT_KERNEL:
			enomem |= push(&cli->vm_kernel, &cli->vm_kernel_cnt, optarg) != 0;
			cli->given |= O_KERNEL;
			break;
		case OPT_MODE: cli->mode = optarg; cli->given |= O_MODE; break;
		case OPT_MARKDOWN: cli->markdown = true; cli->given |= O_MARKDOWN; break;
		case OPT_JUNIT: cli->junit = optarg; cli->given |= O_JUNIT; break;
		case OPT_SHARD:
			if (parse_shard(cli, optarg))
				ret = EXIT_USAGE;
			cli->given |= O_SHARD;
			break;
		case OPT_RUN: cli->run = optarg; cli->given |= O_RUN; break;
		case ':':
			/* Keep parsing: a later -j still decides the error's form. */
			ret = cli_usage_error(cli, "option '%s' needs an argument", argv[optind - 1]);
			break;
		default:
			/* getopt names a bad short option in optopt, a long one not at all. */
			if (optopt && strncmp(argv[optind - 1], "--", 2))
				ret = cli_usage_error(cli, "unknown option '-%c'", optopt);
			else
				ret = cli_usage_error(cli, "unknown or ambiguous option '%s'",
						      argv[optind - 1]);
			break;
		}
	}
	/* After "--": the rest are words, even if they start with '-'. */
	for (; optind < argc; optind++)
		enomem |= push(words, word_cnt, argv[optind]) != 0;
	if (enomem)
		return cli_error(cli, "%s", strerror(ENOMEM));
	return ret;
}

/* The whole help, or one command's (topic: its full name). */
static void print_help(const char *topic);

/* "help [COMMAND]": the whole help, or that command's. */
static int run_help(struct cli *cli)
{
	const struct cmd *about = NULL;
	int ret = cli->argc ? find_cmd(cli, cli->argv[0], &about) : 0;

	if (!ret)
		print_help(about ? about->name : NULL);
	return ret;
}

static void print_help(const char *topic)
{
	size_t i;

	for (i = 0; topic && i < sizeof(help_cmds) / sizeof(help_cmds[0]); i++) {
		if (!strcmp(help_cmds[i].name, topic)) {
			fputs(help_cmds[i].text, stdout);
			return;
		}
	}
	fputs(help_text, stdout);
}

int main(int argc, char **argv)
{
	struct cli cli = {};
	const char **words = NULL, *env;
	size_t word_cnt = 0;
	bool help = false, version = false;
	char *buf = NULL;
	size_t buf_len = 0;
	const struct cmd *cmd;
	int ret;

	ret = parse_args(&cli, argc, argv, &words, &word_cnt, &help, &version);
	env = getenv("MKF_LOG_LEVEL");
	if (env && (!strcasecmp(env, "debug") || !strcmp(env, "2")))
		cli.debug = true;
	else if (env && strcasecmp(env, "warn") && strcmp(env, "0") && strcasecmp(env, "info") &&
		 strcmp(env, "1"))
		fprintf(stderr, "magic-kfunc: MKF_LOG_LEVEL='%s' is not warn, info or debug "
			"(0, 1, 2): ignored\n", env);
	cli_log_init(cli.debug);

	/*
	 * JSON goes to memory first: only a complete document reaches
	 * stdout, and an error replaces it with {"error": ...}.
	 */
	cli.out = cli.json ? open_memstream(&buf, &buf_len) : stdout;
	if (!cli.out) {
		cli.out = stdout;
		cli.json = false;
		ret = cli_error(&cli, "%s", strerror(errno));
	}
	if (cli.json) {
		cli.jw = jw_new(cli.out, cli.pretty);
		if (!cli.jw)
			ret = cli_error(&cli, "%s", strerror(ENOMEM));
	}

	if (ret) {
		/* parse error */
	} else if (help) {
		print_help(NULL);
	} else if (version) {
		print_version(&cli);
	} else if (!word_cnt) {
		ret = cli_usage_error(&cli, "no command given (try 'magic-kfunc help')");
	} else {
		ret = find_cmd(&cli, words[0], &cmd);
		cli.argv = (char **)words + 1;
		cli.argc = (int)word_cnt - 1;
		/* bpftool's "CMD help": that command's help. */
		if (!ret && cmd->run != run_help && cli.argc && !strcmp(cli.argv[0], "help")) {
			cli.argv[0] = (char *)cmd->name;
			cli.argc = 1;
			find_cmd(&cli, "help", &cmd);
		}
		if (!ret)
			ret = check_usage(&cli, cmd);
		if (!ret)
			ret = cli_kernel_inputs(&cli);
		if (!ret)
			ret = cmd->run(&cli);
	}

	if (cli.json) {
		/*
		 * An error replaces the whole document. Exit status 3 or 4
		 * alone is not an error: explain's or vm's report is complete
		 * and is printed; so is a report with failed inputs in it.
		 */
		bool failed = cli.error || (ret != EXIT_OK && ret != EXIT_UNRESOLVED &&
					    ret != EXIT_CELLS_FAILED && !cli.partial);

		jw_free(cli.jw);
		fclose(cli.out);
		if (failed) {
			jw_write_error(stdout, cli.pretty, cli.error ? cli.error : strerror(EIO));
		} else if (buf_len) {
			fwrite(buf, 1, buf_len, stdout);
			fputc('\n', stdout);
		}
		free(buf);
	} else if (cli.error) {
		fprintf(stderr, "magic-kfunc: %s\n", cli.error);
	}

	free(cli.error);
	free(words);
	cli_kernel_inputs_free(&cli);
	free(cli.btf);
	free(cli.module_btf);
	free(cli.kernel_dir);
	free(cli.vm_kernel);
	if (fflush(stdout) || ferror(stdout))
		return EXIT_ERROR;
	return ret;
}
