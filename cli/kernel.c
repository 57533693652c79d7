// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Kernel selection common to the commands (see kernel.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "kernel.h"
#include "log.h"
#include "magic_kfunc_introspect.h"

/* Whether arg is read from a stream the library cannot seek in. */
static bool is_stream(const char *arg)
{
	struct stat st;

	if (!strcmp(arg, "-"))
		return true;
	/* A file that cannot be read is for the library to report. */
	return !stat(arg, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* Copy the stream arg into a memory file, named by *copy. */
static int copy_stream(struct cli *cli, const char *arg, char **copy)
{
	const char *shown = strcmp(arg, "-") ? arg : "standard input";
	void *buf = NULL;
	size_t sz = 0;
	int err, fd = -1;

	err = read_file(arg, &buf, &sz);
	if (err)
		return cli_error(cli, "cannot read the kernel's BTF from %s: %s", shown,
				 strerror(-err));
	fd = memfd_create("magic-kfunc-btf", MFD_CLOEXEC);
	if (fd < 0 || write_all(fd, buf, sz) || asprintf(copy, "/proc/self/fd/%d", fd) < 0) {
		err = errno;
		free(buf);
		if (fd >= 0)
			close(fd);
		*copy = NULL;
		return cli_error(cli, "cannot keep the kernel's BTF from %s: %s", shown,
				 strerror(err));
	}
	/* The descriptor stays open: the copy lives as long as the command. */
	free(buf);
	return 0;
}

static int copy_streams(struct cli *cli, const char **args, size_t cnt, char ***copies)
{
	size_t i;
	int ret;

	if (!cnt)
		return 0;
	*copies = calloc(cnt, sizeof(**copies));
	if (!*copies)
		return cli_error(cli, "%s", strerror(ENOMEM));
	for (i = 0; i < cnt; i++) {
		if (!is_stream(args[i]))
			continue;
		ret = copy_stream(cli, args[i], &(*copies)[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static size_t count_stdin(const char **args, size_t cnt)
{
	size_t i, n = 0;

	for (i = 0; i < cnt; i++)
		n += !strcmp(args[i], "-");
	return n;
}

int cli_kernel_inputs(struct cli *cli)
{
	size_t n = count_stdin(cli->btf, cli->btf_cnt) +
		   count_stdin(cli->module_btf, cli->module_btf_cnt) +
		   count_stdin((const char **)cli->argv, (size_t)cli->argc);
	int ret;

	if (n > 1)
		return cli_usage_error(cli, "standard input (-) can be read only once");
	ret = copy_streams(cli, cli->btf, cli->btf_cnt, &cli->btf_copy);
	if (!ret)
		ret = copy_streams(cli, cli->module_btf, cli->module_btf_cnt,
				   &cli->module_btf_copy);
	return ret;
}

void cli_kernel_inputs_free(struct cli *cli)
{
	size_t i;

	for (i = 0; cli->btf_copy && i < cli->btf_cnt; i++)
		free(cli->btf_copy[i]);
	for (i = 0; cli->module_btf_copy && i < cli->module_btf_cnt; i++)
		free(cli->module_btf_copy[i]);
	free(cli->btf_copy);
	free(cli->module_btf_copy);
}

/* The file the library reads for the argument args[i]. */
static const char *input_file(const char **args, char **copies, size_t i)
{
	return copies && copies[i] ? copies[i] : args[i];
}

struct mkf_kernel *cli_kernel_load(struct cli *cli)
{
	const char *vmlinux = cli->btf_cnt ? input_file(cli->btf, cli->btf_copy, 0) : NULL;
	const char *shown = cli->btf_cnt ? cli->btf[0] : NULL;
	const char **modules = cli->module_btf;
	struct mkf_kernel *k;
	char why[512];
	size_t i;

	/*
	 * Module files on top of the running kernel's vmlinux: the library
	 * takes module paths only with an explicit vmlinux path.
	 */
	if (!vmlinux && cli->module_btf_cnt)
		vmlinux = shown = RUNNING_BTF_DIR "/vmlinux";
	if (cli->module_btf_copy) {
		modules = calloc(cli->module_btf_cnt, sizeof(*modules));
		if (!modules) {
			cli_error(cli, "%s", strerror(ENOMEM));
			return NULL;
		}
		for (i = 0; i < cli->module_btf_cnt; i++)
			modules[i] = input_file(cli->module_btf, cli->module_btf_copy, i);
	}
	MKF_OPTS(mkf_kernel_opts, opts,
		 .vmlinux_path = vmlinux,
		 .module_paths = modules,
		 .module_cnt = cli->module_btf_cnt,
		 .err_buf = why,
		 .err_buf_sz = sizeof(why),
		 /* decl.c hands kernel BTF to libbpf's btf_dump */
		 .check_all_types = true,
	);

	/* Warnings of a load that works (a module that vanished) reach
	 * stderr through the print callback. */
	k = mkf_kernel__load(&opts);
	if (modules != cli->module_btf)
		free(modules);
	if (!k)
		cli_error(cli, "cannot load the kernel's BTF (%s): %s", shown ? shown : RUNNING_BTF_DIR,
			  why);
	return k;
}

struct mkf_kernel *cli_kernel_load_spec(struct cli *cli, const struct kernel_spec *spec)
{
	struct mkf_kernel *k;
	char why[512];

	MKF_OPTS(mkf_kernel_opts, opts, .vmlinux_path = spec->btf,
		 .err_buf = why, .err_buf_sz = sizeof(why), .check_all_types = true);
	k = mkf_kernel__load(&opts);
	if (!k)
		cli_error(cli, "kernel %s: cannot load its BTF (%s): %s", spec->label, spec->btf,
			  why);
	return k;
}

/* "7.3" for ".../7.3/vmlinux.btf", else the file's base name. */
static char *kernel_label(const char *path)
{
	const char *base = strrchr(path, '/'), *dir;
	size_t len;

	base = base ? base + 1 : path;
	/* The harness cache and kernel trees name kernels by directory. */
	if ((!strcmp(base, "vmlinux.btf") || !strcmp(base, "vmlinux")) && base > path + 1) {
		dir = base - 1;
		while (dir > path && dir[-1] != '/')
			dir--;
		len = (size_t)(base - 1 - dir);
		if (len && strncmp(dir, ".", len) && strncmp(dir, "..", len))
			return strndup(dir, len);
	}
	return strdup(base);
}

static int add_spec(struct kernel_spec **specs, size_t *cnt, const char *label_src,
		    const char *btf)
{
	struct kernel_spec *s = realloc(*specs, (*cnt + 1) * sizeof(**specs));

	if (!s)
		return -ENOMEM;
	*specs = s;
	s[*cnt].btf = strdup(btf);
	s[*cnt].label = label_src ? strdup(label_src) : kernel_label(btf);
	if (!s[*cnt].btf || !s[*cnt].label) {
		free(s[*cnt].btf);
		free(s[*cnt].label);
		return -ENOMEM;
	}
	(*cnt)++;
	return 0;
}

/* "6.12-deb12" < "6.16" < "7.0": kernel ids sort like versions. */
static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int scan_dir(struct cli *cli, const char *dir, struct kernel_spec **specs, size_t *cnt)
{
	char **ids = NULL, **tmp, *path;
	size_t n = 0, i;
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return cli_error(cli, "--kernel-dir %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		/* Only entries that hold a kernel's BTF: the cache has others. */
		if (asprintf(&path, "%s/%s/vmlinux.btf", dir, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (access(path, R_OK)) {
			free(path);
			continue;
		}
		free(path);
		tmp = realloc(ids, (n + 1) * sizeof(*ids));
		if (!tmp) {
			err = -ENOMEM;
			break;
		}
		ids = tmp;
		ids[n] = strdup(de->d_name);
		if (!ids[n]) {
			err = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	/* ids is NULL for a directory without kernels: not for qsort(). */
	if (!err && n)
		qsort(ids, n, sizeof(*ids), cmp_version);
	for (i = 0; i < n && !err; i++) {
		if (asprintf(&path, "%s/%s/vmlinux.btf", dir, ids[i]) < 0) {
			err = -ENOMEM;
			break;
		}
		err = add_spec(specs, cnt, ids[i], path);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	if (err)
		return cli_error(cli, "--kernel-dir %s: %s", dir, strerror(-err));
	if (!n)
		return cli_error(cli, "--kernel-dir %s: no <id>/vmlinux.btf in it", dir);
	return 0;
}

int cli_kernel_specs(struct cli *cli, struct kernel_spec **specs, size_t *cnt)
{
	size_t i;
	int err;

	*specs = NULL;
	*cnt = 0;
	for (i = 0; i < cli->btf_cnt; i++) {
		/* A copied stream keeps its argument as its label. */
		if (add_spec(specs, cnt, cli->btf_copy && cli->btf_copy[i] ? cli->btf[i] : NULL,
			     input_file(cli->btf, cli->btf_copy, i)))
			return cli_error(cli, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < cli->kernel_dir_cnt; i++) {
		err = scan_dir(cli, cli->kernel_dir[i], specs, cnt);
		if (err)
			return err;
	}
	return 0;
}

void cli_kernel_specs_free(struct kernel_spec *specs, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++) {
		free(specs[i].label);
		free(specs[i].btf);
	}
	free(specs);
}

const char *cli_kernel_source(const struct cli *cli)
{
	if (cli->btf_cnt)
		return cli->btf[0];
	return "running kernel (" RUNNING_BTF_DIR ")";
}

void cli_kernel_json(struct cli *cli, const struct mkf_kernel *k)
{
	struct json_writer *jw = cli->jw;
	size_t i;

	jw_name(jw, "kernel");
	jw_start_object(jw);
	/* null: the running kernel, read from btf_dir. */
	jw_string_field(jw, "btf", cli->btf_cnt ? cli->btf[0] : NULL);
	if (!cli->btf_cnt)
		jw_string_field(jw, "btf_dir", RUNNING_BTF_DIR);
	jw_bool_field(jw, "kfunc_tags", mkf_kernel__has_kfunc_tags(k));
	jw_name(jw, "modules");
	jw_start_array(jw);
	for (i = 0; i < mkf_kernel__module_cnt(k); i++)
		jw_string(jw, mkf_kernel__module_name(k, i));
	jw_end_array(jw);
	jw_end_object(jw);
}
