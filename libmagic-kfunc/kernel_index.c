// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Load the target kernel's BTF (running kernel or files) and index it. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magic_kfunc.h"
#include "btf_util.h"
#include "kernel_btf.h"
#include "log.h"
#include "opts.h"

#define KFUNC_TAG "bpf_kfunc"
#define DEFAULT_BTF_DIR "/sys/kernel/btf"

/* FNV-1a: cheap, and good enough for identifiers. */
static __u32 name_hash(const char *s)
{
	__u32 h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/*
 * Put funcs[i] into the hash table unless a FUNC of its name is there:
 * entries are added in vmlinux-then-modules, type id order, so the one
 * kept is the one libbpf binds.
 */
static void table_insert(struct mkf_kernel *k, size_t i)
{
	__u32 h = name_hash(k->funcs[i].name);
	size_t mask = k->table_size - 1, slot = h & mask;
	struct mkf_slot *e;

	for (; (e = &k->table[slot])->idx; slot = (slot + 1) & mask)
		if (e->hash == h && !strcmp(k->funcs[e->idx - 1].name, k->funcs[i].name))
			return;
	e->hash = h;
	e->idx = (__u32)i + 1;
}

/* Grow the table to keep it at most half full; rehash in insertion order. */
static int table_reserve(struct mkf_kernel *k, size_t func_cnt)
{
	size_t size = k->table_size ? k->table_size : 64, i;

	while (size < 2 * func_cnt)
		size *= 2;
	if (size == k->table_size)
		return 0;
	free(k->table);
	k->table = calloc(size, sizeof(*k->table));
	k->table_size = k->table ? size : 0;
	if (!k->table)
		return -ENOMEM;
	for (i = 0; i < k->func_cnt; i++)
		table_insert(k, i);
	return 0;
}

/*
 * Add the FUNCs a BTF object defines itself (for split BTF: not its
 * base's) to the index, marking those a bpf_kfunc decl tag points at.
 */
static int index_btf(struct mkf_kernel *k, const struct btf *btf, int module)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 start = base ? btf__type_cnt(base) : 1;
	__u32 end = btf__type_cnt(btf), id, nfuncs = 0;
	struct mkf_kfunc *funcs;
	unsigned char *tagged;
	int err;

	/* Names are compared as C strings below. */
	err = mkf_btf_check_names(btf, module < 0 ? "kernel BTF" : "module BTF");
	if (err)
		return err;
	tagged = calloc(end - start + 1, 1);
	if (!tagged)
		return -ENOMEM;
	/* Pass 1: decl tags on whole functions (component_idx -1). */
	for (id = start; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_func(t))
			nfuncs++;
		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1)
			continue;
		if (strcmp(btf__name_by_offset(btf, t->name_off), KFUNC_TAG))
			continue;
		if (t->type >= start && t->type < end)
			tagged[t->type - start] = 1;
		k->tag_cnt++;
	}

	funcs = realloc(k->funcs, (k->func_cnt + nfuncs) * sizeof(*funcs));
	if (!funcs && k->func_cnt + nfuncs) {
		free(tagged);
		return -ENOMEM;
	}
	k->funcs = funcs;
	err = table_reserve(k, k->func_cnt + nfuncs);
	if (err) {
		free(tagged);
		return err;
	}
	/* Pass 2: the FUNCs themselves. */
	for (id = start; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		struct mkf_kfunc *f;

		/* A FUNC must point at a FUNC_PROTO: the resolver relies on it. */
		if (!btf_is_func(t) || !btf__type_by_id(btf, t->type) ||
		    !btf_is_func_proto(btf__type_by_id(btf, t->type)))
			continue;
		f = &k->funcs[k->func_cnt++];
		f->name = btf__name_by_offset(btf, t->name_off);
		f->btf = btf;
		f->id = id;
		f->proto = t->type;
		f->module = module;
		f->module_name = module < 0 ? NULL : k->modules[module].name;
		f->tagged = tagged[id - start];
		table_insert(k, k->func_cnt - 1);
	}
	free(tagged);
	return 0;
}

const struct mkf_kfunc *mkf_kernel_find(const struct mkf_kernel *k, const char *name)
{
	__u32 h = name_hash(name);
	size_t mask = k->table_size - 1, slot;
	const struct mkf_slot *e;

	if (!k->table_size)
		return NULL;
	for (slot = h & mask; (e = &k->table[slot])->idx; slot = (slot + 1) & mask)
		if (e->hash == h && !strcmp(k->funcs[e->idx - 1].name, name))
			return &k->funcs[e->idx - 1];
	return NULL;
}

bool mkf_kfunc_callable(const struct mkf_kernel *k, const struct mkf_kfunc *fn)
{
	/* No tags anywhere means an old pahole, not "no kfuncs". */
	return fn->tagged || k->tag_cnt == 0;
}

const char *mkf_kfunc_module(const struct mkf_kernel *k, const struct mkf_kfunc *fn)
{
	(void)k;
	return fn->module_name;
}

size_t mkf_kernel__func_cnt(const struct mkf_kernel *kernel)
{
	return kernel ? kernel->func_cnt : 0;
}

const struct mkf_kfunc *mkf_kernel__func(const struct mkf_kernel *kernel, size_t idx)
{
	if (!kernel || idx >= kernel->func_cnt)
		return mkf_err_ptr(-ENOENT);
	return &kernel->funcs[idx];
}

const struct mkf_kfunc *mkf_kernel__find_func(const struct mkf_kernel *kernel, const char *name)
{
	const struct mkf_kfunc *fn = kernel && name ? mkf_kernel_find(kernel, name) : NULL;

	return fn ? fn : mkf_err_ptr(-ENOENT);
}

bool mkf_kernel__func_callable(const struct mkf_kernel *kernel, const struct mkf_kfunc *fn)
{
	return kernel && fn && mkf_kfunc_callable(kernel, fn);
}

const char *mkf_kfunc__name(const struct mkf_kfunc *fn)
{
	return fn ? fn->name : NULL;
}

const struct btf *mkf_kfunc__btf(const struct mkf_kfunc *fn)
{
	return fn ? fn->btf : NULL;
}

__u32 mkf_kfunc__type_id(const struct mkf_kfunc *fn)
{
	return fn ? fn->id : 0;
}

__u32 mkf_kfunc__proto_id(const struct mkf_kfunc *fn)
{
	return fn ? fn->proto : 0;
}

const char *mkf_kfunc__module(const struct mkf_kfunc *fn)
{
	return fn ? fn->module_name : NULL;
}

bool mkf_kfunc__has_kfunc_tag(const struct mkf_kfunc *fn)
{
	return fn && fn->tagged;
}

static struct mkf_kernel *kernel_new(const struct btf *vmlinux, bool owned)
{
	struct mkf_kernel *k = calloc(1, sizeof(*k));
	int err;

	if (!k)
		return NULL;
	k->vmlinux = vmlinux;
	k->vmlinux_owned = owned;
	err = index_btf(k, vmlinux, -1);
	if (err) {
		/* The caller still owns vmlinux on failure. */
		k->vmlinux_owned = false;
		mkf_kernel__free(k);
		errno = -err;
		return NULL;
	}
	return k;
}

struct mkf_kernel *mkf_kernel__new(const struct btf *vmlinux_btf)
{
	if (!vmlinux_btf || btf__base_btf(vmlinux_btf))
		return mkf_err_ptr(-EINVAL);
	return kernel_new(vmlinux_btf, false);
}

static int add_module(struct mkf_kernel *k, const char *name, const struct btf *btf, bool owned)
{
	struct mkf_module *mods;
	int err;

	if (!name || !*name || !btf || btf__base_btf(btf) != k->vmlinux)
		return -EINVAL;
	mods = realloc(k->modules, (k->module_cnt + 1) * sizeof(*mods));
	if (!mods)
		return -ENOMEM;
	k->modules = mods;
	mods[k->module_cnt].name = strdup(name);
	if (!mods[k->module_cnt].name)
		return -ENOMEM;
	mods[k->module_cnt].btf = btf;
	mods[k->module_cnt].owned = owned;
	k->module_cnt++;
	err = index_btf(k, btf, (int)k->module_cnt - 1);
	if (err) {
		k->module_cnt--;
		free(mods[k->module_cnt].name);
	}
	return err;
}

int mkf_kernel__add_module(struct mkf_kernel *kernel, const char *name,
			   const struct btf *module_btf)
{
	if (!kernel)
		return mkf_err(-EINVAL);
	return mkf_err(add_module(kernel, name, module_btf, false));
}

void mkf_kernel__free(struct mkf_kernel *k)
{
	size_t i;

	if (!k)
		return;
	/* Modules first: split BTF refers to its base. */
	for (i = 0; i < k->module_cnt; i++) {
		if (k->modules[i].owned)
			btf__free((struct btf *)k->modules[i].btf);
		free(k->modules[i].name);
	}
	free(k->modules);
	if (k->vmlinux_owned)
		btf__free((struct btf *)k->vmlinux);
	free(k->funcs);
	free(k->table);
	free(k);
}

bool mkf_kernel__has_kfunc_tags(const struct mkf_kernel *kernel)
{
	return kernel && kernel->tag_cnt > 0;
}

size_t mkf_kernel__module_cnt(const struct mkf_kernel *kernel)
{
	return kernel ? kernel->module_cnt : 0;
}

const char *mkf_kernel__module_name(const struct mkf_kernel *kernel, size_t idx)
{
	if (!kernel || idx >= kernel->module_cnt)
		return mkf_err_ptr(-ENOENT);
	return kernel->modules[idx].name;
}

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
	pr_warn("%s: cannot read %s: %s\n", path, what, msg);
	return err;
}

/* "dir/mod.ko.btf" -> "mod" */
static char *module_name_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strndup(base, strcspn(base, "."));
}

static int load_module_file(struct mkf_kernel *k, const char *name, const char *path)
{
	struct btf *btf = btf__parse_split(path, (struct btf *)k->vmlinux);
	int err;

	if (!btf)
		return parse_error(path, "module BTF");
	err = add_module(k, name, btf, true);
	if (err)
		btf__free(btf);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Modules of the running kernel, in name order: libbpf walks them in
 * BTF id order, which only the bpf() syscall can tell, and a kfunc
 * name defined by two modules is not something programs rely on.
 */
static int load_module_dir(struct mkf_kernel *k, const char *dir)
{
	char **names = NULL, path[4096];
	size_t cnt = 0, i;
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char **tmp;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		tmp = realloc(names, (cnt + 1) * sizeof(*names));
		if (!tmp || !(tmp[cnt] = strdup(de->d_name))) {
			names = tmp ? tmp : names;
			err = -ENOMEM;
			break;
		}
		names = tmp;
		cnt++;
	}
	closedir(d);
	/* names is NULL without modules: qsort() must not see it. */
	if (!err && cnt)
		qsort(names, cnt, sizeof(*names), cmp_str);
	for (i = 0; i < cnt; i++) {
		if (!err) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			/* A module may unload while we read: warn, go on. */
			if (load_module_file(k, names[i], path) == -ENOMEM)
				err = -ENOMEM;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

struct mkf_kernel *mkf_kernel__load(const struct mkf_kernel_opts *opts)
{
	const char *vmlinux_path, *dir;
	const char *const *module_paths;
	size_t module_cnt, i;
	struct mkf_kernel *k;
	char path[4096];
	struct btf *vm;
	int err = 0;

	if (!OPTS_VALID(opts, mkf_kernel_opts))
		return mkf_err_ptr(-EINVAL);
	vmlinux_path = OPTS_GET(opts, vmlinux_path, NULL);
	module_paths = OPTS_GET(opts, module_paths, NULL);
	module_cnt = OPTS_GET(opts, module_cnt, 0);
	dir = OPTS_GET(opts, btf_dir, NULL);
	if (!dir)
		dir = DEFAULT_BTF_DIR;
	if (module_cnt && (!module_paths || !vmlinux_path)) {
		pr_warn("module_paths need vmlinux_path\n");
		return mkf_err_ptr(-EINVAL);
	}

	if (!vmlinux_path) {
		snprintf(path, sizeof(path), "%s/vmlinux", dir);
		vmlinux_path = path;
	}
	/* Raw .BTF or an ELF with a .BTF section: btf__parse tells. */
	vm = btf__parse(vmlinux_path, NULL);
	if (!vm) {
		err = parse_error(vmlinux_path, "kernel BTF");
		return mkf_err_ptr(err);
	}
	k = kernel_new(vm, true);
	if (!k) {
		err = -errno;
		btf__free(vm);
		return mkf_err_ptr(err);
	}

	if (OPTS_GET(opts, vmlinux_path, NULL)) {
		for (i = 0; i < module_cnt && !err; i++) {
			char *name = module_name_of(module_paths[i]);

			err = name ? load_module_file(k, name, module_paths[i]) : -ENOMEM;
			free(name);
		}
	} else if (!OPTS_GET(opts, skip_modules, false)) {
		err = load_module_dir(k, dir);
	}
	if (err) {
		mkf_kernel__free(k);
		return mkf_err_ptr(err);
	}
	pr_debug("kernel BTF %s: %zu functions, %zu modules, %zu kfunc tags\n",
		 vmlinux_path, k->func_cnt, k->module_cnt, k->tag_cnt);
	return k;
}
