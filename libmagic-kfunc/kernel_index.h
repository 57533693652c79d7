/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The kernel index: the target kernel's BTF (vmlinux + modules), its
 * FUNCs by name, which carry DECL_TAG "bpf_kfunc", and (kfuncs.c) its
 * kfuncs with verifier-provided parameters. No I/O: kernel_load.c
 * reads the files.
 */
#ifndef MKF_KERNEL_INDEX_H
#define MKF_KERNEL_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

#include "magic_kfunc.h"

struct mkf_kernel;

/* One FUNC of the target kernel. */
struct mkf_func {
	const struct mkf_kernel *kernel;	/* the index it belongs to */
	const char *name;	/* in the owning BTF's strings */
	const struct btf *btf;	/* vmlinux or a module's split BTF */
	__u32 id;		/* FUNC type id */
	__u32 proto;		/* its FUNC_PROTO id */
	int module;		/* index into modules, -1 for vmlinux */
	const char *module_name;	/* its name (stable: strdup'd), NULL for vmlinux */
	bool tagged;		/* a DECL_TAG "bpf_kfunc" points at it */
};

/* A kfunc with verifier-provided parameters (see magic_kfunc.h). */
struct mkf_kfunc {
	enum mkf_kfunc_shape shape;
	const struct mkf_func *func;	/* named after the kfunc */
	const struct mkf_func *impl;	/* a pair's foo_impl, else NULL */
	int provided;			/* trailing provided params of the full one */
};

/* The classification, made once (kfuncs.c) and published atomically. */
struct mkf_kfunc_list {
	struct mkf_kfunc *kfuncs;
	size_t cnt;
};

struct mkf_module {
	char *name;
	const struct btf *btf;
	bool owned;
};

struct mkf_kernel {
	const struct btf *vmlinux;
	bool vmlinux_owned;
	struct mkf_module *modules;
	size_t module_cnt;
	/* vmlinux's FUNCs, then each module's, in type id order. */
	struct mkf_func *funcs;
	size_t func_cnt;
	/*
	 * Open-addressing hash table by name, holding the first FUNC of each
	 * name: the one libbpf binds.
	 */
	struct mkf_slot {
		__u32 hash;	/* of the name: most probes stop here */
		__u32 idx;	/* funcs index + 1, 0 = empty */
	} *table;
	size_t table_size;		/* a power of two, or 0 */
	size_t tag_cnt;
	/* NULL until first asked for; reset when a module is added. */
	struct mkf_kfunc_list *kfuncs;
};

/*
 * The FUNC libbpf would bind for this name: first in vmlinux (lowest
 * id), else in the first module that has it. NULL if none.
 */
const struct mkf_func *mkf_kernel_find(const struct mkf_kernel *kernel, const char *name);

/* Tagged, or the kernel has no kfunc tags at all (pahole < 1.26). */
bool mkf_func_callable(const struct mkf_func *fn);

/* An index of vmlinux_btf alone; owned: freed with the kernel. */
struct mkf_kernel *mkf_kernel_new(const struct btf *vmlinux, bool owned);
/* Add and index a module's split BTF (owned: freed with the kernel). */
int mkf_kernel_add_module(struct mkf_kernel *k, const char *name, const struct btf *btf,
			  bool owned);

/* kfuncs.c: the classification, computed on first use. */
const struct mkf_kfunc_list *mkf_kernel_kfuncs(const struct mkf_kernel *k);
void mkf_kfunc_list_free(struct mkf_kfunc_list *list);

#endif
