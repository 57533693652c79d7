/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The target kernel's BTF (vmlinux + modules), indexed by function name,
 * with which FUNCs carry DECL_TAG "bpf_kfunc".
 */
#ifndef MKF_KERNEL_BTF_H
#define MKF_KERNEL_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

/* One FUNC of the target kernel. */
struct mkf_kfunc {
	const char *name;	/* in the owning BTF's strings */
	const struct btf *btf;	/* vmlinux or a module's split BTF */
	__u32 id;		/* FUNC type id */
	__u32 proto;		/* its FUNC_PROTO id */
	int module;		/* index into modules, -1 for vmlinux */
	const char *module_name;	/* its name (stable: strdup'd), NULL for vmlinux */
	bool tagged;		/* a DECL_TAG "bpf_kfunc" points at it */
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
	struct mkf_kfunc *funcs;
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
};

/*
 * The FUNC libbpf would bind for this name: first in vmlinux (lowest
 * id), else in the first module that has it. NULL if none.
 */
const struct mkf_kfunc *mkf_kernel_find(const struct mkf_kernel *kernel, const char *name);

/* Tagged, or the kernel has no kfunc tags at all (pahole < 1.26). */
bool mkf_kfunc_callable(const struct mkf_kernel *kernel, const struct mkf_kfunc *fn);

/* Module name, NULL for vmlinux. */
const char *mkf_kfunc_module(const struct mkf_kernel *kernel, const struct mkf_kfunc *fn);

#endif
