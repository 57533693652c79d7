// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The kernel loader: read a kernel's BTF from files (the running
 * kernel's /sys/kernel/btf, or paths the caller names) and hand it to
 * the index (kernel_index.c). All of the kernel side's I/O is here and
 * in kernel_view.c, which maps or reads the files this one names.
 *
 * Two ways to read a file. By default, through a view (kernel_view.h):
 * the file is mapped, not parsed, and only the FUNCs an object asks
 * for are decoded; its header, strings and every record's kind and
 * extent are checked as libbpf 1.1's parse checks them. With
 * mkf_kernel_opts.check_all_types, which the command line sets for
 * every BTF file its user names, libbpf parses the file (btf__parse(),
 * with the validation of the libbpf linked) and every type is checked
 * as well. A file the view does not take (an ELF file, BTF of the other
 * byte order, BTF the view finds broken) goes to libbpf, whose parse
 * reads it or says what is wrong with it.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "magic_kfunc.h"
#include "btf_util.h"
#include "kernel_index.h"
#include "kernel_load.h"
#include "kernel_view.h"
#include "log.h"
#include "opts.h"


/*
 * Warn about a failed btf__parse*() and return its negative errno.
 * libbpf's own codes (LIBBPF_ERRNO__*, "wrong format" and the like) are
 * not errno values: callers get EINVAL for them.
 */
static int parse_error(const char *path, const char *what)
{
	int err = -errno;
	char msg[128];

	if (-err >= __LIBBPF_ERRNO__START && -err < __LIBBPF_ERRNO__END) {
		libbpf_strerror(err, msg, sizeof(msg));
		err = -EINVAL;
	} else {
		snprintf(msg, sizeof(msg), "%s", strerror(-err));
	}
	pr_err("%s: cannot read %s: %s\n", path, what, msg);
	return err;
}

/*
 * What a file given as kernel or module BTF is, before libbpf parses
 * it, so that a wrong file gets its own words: a directory, a BPF
 * object (which has a .BTF too), an ELF file without .BTF. 0 when it
 * may be BTF; else the error, said.
 */
static int check_btf_file(const char *path, const char *what)
{
	unsigned char ident[EI_NIDENT + 4];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st))
		return 0; /* btf__parse() says why */
	if (S_ISDIR(st.st_mode)) {
		pr_err("%s: is a directory, not %s\n", path, what);
		return -EISDIR;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	n = read(fd, ident, sizeof(ident));
	close(fd);
	if (n < (ssize_t)sizeof(ident) || memcmp(ident, ELFMAG, SELFMAG))
		return 0;
	/* e_machine, in the file's byte order, right after e_type. */
	if ((ident[EI_DATA] == ELFDATA2LSB ? ident[EI_NIDENT + 2] | ident[EI_NIDENT + 3] << 8
					   : ident[EI_NIDENT + 2] << 8 | ident[EI_NIDENT + 3]) == EM_BPF) {
		pr_err("%s: is a BPF object, not %s\n", path, what);
		return -EINVAL;
	}
	return 0;
}

/* A parse that failed for a file that exists: say what is wrong with it. */
static int parse_failed(const char *path, const char *what)
{
	int err = -errno;
	struct stat st;

	/*
	 * libbpf 1.1 says ENOENT, later ones ENODATA, for an ELF file
	 * without .BTF: neither names the cause.
	 */
	if ((err == -ENOENT || err == -ENODATA) && !stat(path, &st)) {
		pr_err("%s: cannot read %s: an ELF file without a .BTF section\n", path, what);
		return -ENODATA;
	}
	errno = -err;
	return parse_error(path, what);
}

/*
 * Split BTF (a module's) has its own strings only, after its base's; a
 * complete BTF's start with the empty string. libbpf parses a complete
 * one as split, meaning nonsense, so a vmlinux given as a module's BTF
 * would pass unnoticed.
 */
static bool is_complete_btf(const struct btf *btf)
{
	__u32 size;
	const void *raw = btf__raw_data(btf, &size);
	struct btf_header hdr;

	if (!raw || size < sizeof(hdr))
		return false;
	memcpy(&hdr, raw, sizeof(hdr));
	return hdr.str_len > 1 && (__u64)hdr.hdr_len + hdr.str_off < size &&
	       !((const char *)raw)[hdr.hdr_len + hdr.str_off];
}

/* "dir/mod.ko.btf" -> "mod" */
static char *module_name_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strndup(base, strcspn(base, "."));
}

/* A view of PATH in *out (malloc'd), or the view's negative errno. */
static int open_view(const char *path, const struct mkf_btf_view *base,
		     const unsigned char *filter, struct mkf_btf_view **out)
{
	struct mkf_btf_view *v = malloc(sizeof(*v));
	int err;

	if (!v)
		return -ENOMEM;
	err = mkf_btf_view_open_filtered(v, path, base, filter);
	if (err) {
		free(v);
		return err;
	}
	*out = v;
	return 0;
}

/* 0 and the module added, or the view's error (the caller asks libbpf). */
static int load_module_view(struct mkf_kernel *k, const char *name, const char *path)
{
	struct mkf_btf_view *v;
	int err = open_view(path, k->parts[0].view, k->func_filter, &v);

	if (err)
		return err;
	if (mkf_btf_view_is_complete(v)) {
		pr_err("%s: is a complete BTF (a vmlinux?), not a module's split BTF\n", path);
		mkf_btf_view_close(v);
		free(v);
		return -ECANCELED;	/* said: libbpf need not look */
	}
	return mkf_kernel_add_module_view(k, name, v);
}

static int load_module_file(struct mkf_kernel *k, const char *name, const char *path)
{
	const struct btf *base;
	struct btf *btf;
	int err = check_btf_file(path, "a module's BTF");

	if (err)
		return err;
	if (k->parts[0].view) {
		err = load_module_view(k, name, path);
		if (err == -ECANCELED)
			return -EINVAL;
		if (!err || err == -ENOMEM)
			return err;
	}
	base = k->vmlinux ? k->vmlinux : mkf_part_btf(k, 0);
	if (!base)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	btf = btf__parse_split(path, (struct btf *)base);
	if (!btf)
		return parse_failed(path, "module BTF");
	if (is_complete_btf(btf)) {
		pr_err("%s: is a complete BTF (a vmlinux?), not a module's split BTF\n", path);
		btf__free(btf);
		return -EINVAL;
	}
	/* check_all_types: the BTF goes to code that trusts it (btf_dump). */
	err = k->check_all ? mkf_btf_check_cycles(btf, "module BTF") : 0;
	if (!err)
		err = mkf_kernel_add_module(k, name, btf, true);
	if (err)
		btf__free(btf);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int mkf_btf_dir_list(const char *dir, char ***names, size_t *cnt)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;
	int err = 0;
	DIR *d;

	*names = NULL;
	*cnt = 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char **tmp;

		if (de->d_name[0] == '.')
			continue;
		tmp = realloc(v, (n + 1) * sizeof(*v));
		if (!tmp || !(tmp[n] = strdup(de->d_name))) {
			v = tmp ? tmp : v;
			err = -ENOMEM;
			break;
		}
		v = tmp;
		n++;
	}
	closedir(d);
	if (err) {
		mkf_btf_dir_free(v, n);
		return err;
	}
	/* v is NULL for an empty directory: qsort() must not see it. */
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*names = v;
	*cnt = n;
	return 0;
}

void mkf_btf_dir_free(char **names, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
}

/*
 * Modules of the running kernel, in name order: libbpf walks them in
 * BTF id order, which only the bpf() syscall can tell, and a kfunc
 * name defined by two modules is not something programs rely on.
 */
static int load_module_dir(struct mkf_kernel *k, const char *dir)
{
	char **names, path[4096];
	size_t cnt, i;
	int err = mkf_btf_dir_list(dir, &names, &cnt);

	for (i = 0; i < cnt && !err; i++) {
		if (!strcmp(names[i], "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* A module may unload while we read: warn, go on. */
		if (load_module_file(k, names[i], path) == -ENOMEM)
			err = -ENOMEM;
	}
	mkf_btf_dir_free(names, cnt);
	return err;
}

/* What was read, in k (mkf_kernel_files() gives it back). */
static int remember_files(struct mkf_kernel *k, const struct mkf_kernel_opts *opts)
{
	const char *const *module_paths = OPTS_GET(opts, module_paths, NULL);
	size_t i, module_cnt = OPTS_GET(opts, module_cnt, 0);

	if (!OPTS_GET(opts, vmlinux_path, NULL)) {
		k->btf_dir = strdup(OPTS_GET(opts, btf_dir, NULL) ?: MKF_DEFAULT_BTF_DIR);
		if (!k->btf_dir)
			return -ENOMEM;
		k->skip_modules = OPTS_GET(opts, skip_modules, false);
	} else if (module_cnt) {
		k->module_paths = calloc(module_cnt, sizeof(*k->module_paths));
		if (!k->module_paths)
			return -ENOMEM;
		for (i = 0; i < module_cnt; i++) {
			k->module_paths[i] = strdup(module_paths[i]);
			if (!k->module_paths[i])
				return -ENOMEM;
			k->module_path_cnt++;
		}
	}
	k->files_known = true;
	return 0;
}

/* FILTER (owned), when not NULL: what the views list of the FUNCs (kernel_view.h). */
static struct mkf_kernel *load(const struct mkf_kernel_opts *opts, unsigned char *filter)
{
	const char *vmlinux_path, *dir;
	const char *const *module_paths;
	size_t module_cnt, i;
	struct mkf_kernel *k;
	char path[4096];
	struct btf *vm;
	int err = 0;

	if (!OPTS_VALID(opts, mkf_kernel_opts)) {
		free(filter);
		return mkf_err_ptr(-EINVAL);
	}
	vmlinux_path = OPTS_GET(opts, vmlinux_path, NULL);
	module_paths = OPTS_GET(opts, module_paths, NULL);
	module_cnt = OPTS_GET(opts, module_cnt, 0);
	dir = OPTS_GET(opts, btf_dir, NULL);
	if (!dir)
		dir = MKF_DEFAULT_BTF_DIR;
	if (module_cnt && (!module_paths || !vmlinux_path)) {
		pr_err("module_paths need vmlinux_path\n");
		free(filter);
		return mkf_err_ptr(-EINVAL);
	}

	if (!vmlinux_path) {
		snprintf(path, sizeof(path), "%s/vmlinux", dir);
		vmlinux_path = path;
	}
	err = check_btf_file(vmlinux_path, "a kernel's BTF");
	k = NULL;
	if (!err && !OPTS_GET(opts, check_all_types, false)) {
		struct mkf_btf_view *view;

		err = open_view(vmlinux_path, NULL, filter, &view);
		if (!err) {
			k = mkf_kernel_new_view_filtered(view, filter);
			if (!k)
				return mkf_err_ptr(-errno);
			filter = NULL;
		} else if (err != -ENOMEM) {
			err = 0;	/* libbpf reads it, or says why not */
		}
	}
	/* libbpf's parse lists every FUNC. */
	free(filter);
	if (err)
		return mkf_err_ptr(err);
	if (!k) {
		/* Raw .BTF or an ELF with a .BTF section: btf__parse tells. */
		vm = btf__parse(vmlinux_path, NULL);
		if (!vm) {
			err = parse_failed(vmlinux_path, "kernel BTF");
			return mkf_err_ptr(err);
		}
		k = mkf_kernel_new(vm, true, OPTS_GET(opts, check_all_types, false));
		if (!k) {
			err = -errno;
			btf__free(vm);
			return mkf_err_ptr(err);
		}
	}
	err = 0;
	k->vmlinux_path = strdup(vmlinux_path);
	if (!k->vmlinux_path) {
		mkf_kernel__free(k);
		return mkf_err_ptr(-ENOMEM);
	}
	/*
	 * Once every reference is known to be in range (mkf_kernel_new()).
	 * check_all_types never reads through a view: vmlinux is libbpf's.
	 */
	if (k->check_all)
		err = mkf_btf_check_cycles(k->vmlinux, "kernel BTF");

	if (OPTS_GET(opts, vmlinux_path, NULL)) {
		for (i = 0; i < module_cnt && !err; i++) {
			char *name = module_name_of(module_paths[i]);

			err = name ? load_module_file(k, name, module_paths[i]) : -ENOMEM;
			free(name);
		}
	} else if (!err && !OPTS_GET(opts, skip_modules, false)) {
		err = load_module_dir(k, dir);
	}
	if (!err)
		err = remember_files(k, opts);
	if (err) {
		mkf_kernel__free(k);
		return mkf_err_ptr(err);
	}
	pr_debug("kernel BTF %s: %zu functions%s, %zu modules, %zu kfunc tags\n", vmlinux_path,
		 k->ref_cnt, k->func_filter ? " of the names asked for" : "", k->module_cnt,
		 k->tag_cnt);
	return k;
}

struct mkf_kernel *mkf_kernel_load_for(const struct mkf_kernel_opts *opts,
				       const char *const *names, size_t cnt)
{
	unsigned char *filter = mkf_func_filter_new(names, cnt);

	if (!filter && errno == ENOMEM)
		return mkf_err_ptr(-ENOMEM);
	return load(opts, filter);
}

struct mkf_kernel *mkf_kernel__load(const struct mkf_kernel_opts *opts)
{
	struct mkf_diag_scope scope;
	struct mkf_kernel *k;
	int err;

	mkf_diag_enter(&scope, OPTS_GET(opts, err_buf, NULL), OPTS_GET(opts, err_buf_sz, 0));
	k = load(opts, NULL);
	err = k ? 0 : errno;
	mkf_diag_leave(&scope, err);
	return k ? k : mkf_err_ptr(-err);
}
