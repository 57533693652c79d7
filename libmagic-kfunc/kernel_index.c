// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The kernel index: FUNCs of vmlinux and module BTF by name, with their
 * kfunc tags, and the public accessors of kernels and functions. BTF
 * comes in already parsed (kernel_load.c reads files).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magic_kfunc.h"
#include "btf_util.h"
#include "kernel_index.h"
#include "log.h"

#define KFUNC_TAG "bpf_kfunc"

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
	struct mkf_func *funcs;
	unsigned char *tagged;
	int err;

	/* Names are compared as C strings below. */
	err = mkf_btf_check(btf, module < 0 ? "kernel BTF" : "module BTF");
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
		struct mkf_func *f;

		/* A FUNC must point at a FUNC_PROTO: the resolver relies on it. */
		if (!btf_is_func(t) || !btf__type_by_id(btf, t->type) ||
		    !btf_is_func_proto(btf__type_by_id(btf, t->type)))
			continue;
		f = &k->funcs[k->func_cnt++];
		f->kernel = k;
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

const struct mkf_func *mkf_kernel_find(const struct mkf_kernel *k, const char *name)
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

bool mkf_func_callable(const struct mkf_func *fn)
{
	/* No tags anywhere means an old pahole, not "no kfuncs". */
	return fn->tagged || fn->kernel->tag_cnt == 0;
}

const struct mkf_func *mkf_kernel__find_func(const struct mkf_kernel *kernel, const char *name)
{
	const struct mkf_func *fn;

	if (!kernel || !name)
		return mkf_err_ptr(-EINVAL);
	fn = mkf_kernel_find(kernel, name);
	return fn ? fn : mkf_err_ptr(-ENOENT);
}

const char *mkf_func__name(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->name, NULL);
}

const struct btf *mkf_func__btf(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->btf, NULL);
}

__u32 mkf_func__type_id(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->id, 0);
}

__u32 mkf_func__proto_id(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->proto, 0);
}

const char *mkf_func__module(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->module_name, NULL);
}

bool mkf_func__has_kfunc_tag(const struct mkf_func *fn)
{
	return MKF_GET(fn, fn->tagged, false);
}

bool mkf_func__is_callable(const struct mkf_func *fn)
{
	return MKF_GET(fn, mkf_func_callable(fn), false);
}

struct mkf_kernel *mkf_kernel_new(const struct btf *vmlinux, bool owned)
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
	return mkf_kernel_new(vmlinux_btf, false);
}

int mkf_kernel_add_module(struct mkf_kernel *k, const char *name, const struct btf *btf, bool owned)
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
	/* A module may add pairs: classify again when next asked. */
	mkf_kfunc_list_free(k->kfuncs);
	k->kfuncs = NULL;
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
	return mkf_err(mkf_kernel_add_module(kernel, name, module_btf, false));
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
	mkf_kfunc_list_free(k->kfuncs);
	free(k->funcs);
	free(k->table);
	free(k);
}

bool mkf_kernel__has_kfunc_tags(const struct mkf_kernel *kernel)
{
	return MKF_GET(kernel, kernel->tag_cnt > 0, false);
}

const struct btf *mkf_kernel__btf(const struct mkf_kernel *kernel)
{
	return MKF_GET(kernel, kernel->vmlinux, NULL);
}

const struct btf *mkf_kernel__module_btf(const struct mkf_kernel *kernel, size_t idx)
{
	if (!kernel)
		return mkf_err_ptr(-EINVAL);
	if (idx >= kernel->module_cnt)
		return mkf_err_ptr(-ENOENT);
	return kernel->modules[idx].btf;
}

size_t mkf_kernel__module_cnt(const struct mkf_kernel *kernel)
{
	return MKF_GET(kernel, kernel->module_cnt, 0);
}

const char *mkf_kernel__module_name(const struct mkf_kernel *kernel, size_t idx)
{
	if (!kernel)
		return mkf_err_ptr(-EINVAL);
	if (idx >= kernel->module_cnt)
		return mkf_err_ptr(-ENOENT);
	return kernel->modules[idx].name;
}
