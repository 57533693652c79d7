/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The kernel index: the target kernel's BTF (vmlinux + modules), which
 * FUNCs carry DECL_TAG "bpf_kfunc", its FUNCs by name, and (kfuncs.c)
 * its kfuncs with verifier-provided parameters. No I/O: kernel_load.c
 * reads the files.
 *
 * Indexing is lazy, because a kernel has tens of thousands of FUNCs and
 * an object asks for a handful of names: describing a kernel makes one
 * pass over its types (the kfunc tags, and a compact list of its FUNCs);
 * a name is looked up by a scan of that list the first time it is asked
 * for, several names in one scan when the caller knows them all
 * (mkf_kernel_prefetch()), and the answer is cached. Only enumerating
 * every kfunc (kfuncs.c) indexes every name.
 */
#ifndef MKF_KERNEL_INDEX_H
#define MKF_KERNEL_INDEX_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

#include "magic_kfunc_introspect.h"
#include "kernel_view.h"

struct mkf_kernel;

/* One FUNC of the target kernel, made when first looked up. */
struct mkf_func {
	const struct mkf_kernel *kernel;	/* the index it belongs to */
	const char *name;	/* in the owning BTF's strings */
	/*
	 * What the resolver reads: vmlinux or a module's split BTF, or for
	 * a kernel read through views (kernel_view.h) own_btf, a small BTF
	 * of this FUNC alone, in which proto is its FUNC_PROTO's id.
	 */
	const struct btf *btf;
	__u32 id;		/* FUNC type id in the kernel's BTF (messages say it) */
	__u32 proto;		/* its FUNC_PROTO id in btf */
	__u32 kproto;		/* the same in the kernel's BTF */
	struct btf *own_btf;
	size_t part;		/* index into kernel->parts */
	int module;		/* index into modules, -1 for vmlinux */
	const char *module_name;	/* its name (stable: strdup'd), NULL for vmlinux */
	bool tagged;		/* a DECL_TAG "bpf_kfunc" points at it */
	/* Params (bit N: param N) a DECL_TAG "bpf_magic:<kind>" points at,
	 * and those of kind "off". */
	__u32 magic_params, magic_offs;
	size_t ref;		/* its index in kernel->refs */
	/* mkf_func_unsplit()'s answer plus 1, 0 until known; atomic. */
	int unsplit_memo;
};

/*
 * What is derived from the whole kernel by another file (kfuncs.c's
 * classification), kept with the kernel and dropped when a module is
 * added: freed through its own function, so that the index needs to
 * know nothing of it.
 */
struct mkf_kernel_memo {
	void (*free)(struct mkf_kernel_memo *memo);
};

static inline void mkf_kernel_memo_free(struct mkf_kernel_memo *memo)
{
	if (memo)
		memo->free(memo);
}

struct mkf_module {
	char *name;
	const struct btf *btf;
	bool owned;
};

/* A DECL_TAG "bpf_magic:<kind>" on parameter idx of FUNC id. */
struct mkf_magic_tag {
	__u32 id;
	__u32 idx;
	bool off;		/* kind "off": the node offset */
};

/*
 * One BTF object of the kernel: vmlinux (part 0), then each module.
 * A file read through a view has only the view until something asks
 * for the whole BTF (mkf_part_btf() parses it then); BTF libbpf parsed
 * has its btf, and a view over libbpf's own data when that can be had,
 * which describing it walks.
 */
struct mkf_btf_part {
	const struct btf *btf;
	struct mkf_btf_view *view;	/* owned */
	int module;		/* -1 for vmlinux */
	size_t first_ref, ref_cnt;	/* its FUNCs in kernel->refs */
	__u32 *tagged;		/* FUNC ids a bpf_kfunc tag points at, sorted */
	size_t tagged_cnt;
	/* Params a bpf_magic tag points at, sorted by FUNC id. */
	struct mkf_magic_tag *magic;
	size_t magic_cnt;
	/*
	 * Its own strings, offsets [str_start, str_start + str_len), read
	 * where libbpf keeps them (checked against btf__name_by_offset());
	 * strs is NULL when they cannot be, and names go through libbpf.
	 */
	const char *strs;
	__u32 str_start, str_len;
	/*
	 * Its refs are only the FUNCs kernel->func_filter let through (its
	 * view's walk was filtered, kernel_view.h) until complete_refs().
	 */
	bool filtered;
};

/* A name asked for: its FUNC, or none in the parts scanned so far. */
struct mkf_name {
	__u32 hash;
	const char *name;	/* the FUNC's own name, or owned_name */
	char *owned_name;	/* a copy while no FUNC has the name */
	const struct mkf_func *fn;	/* the FUNC libbpf binds, or NULL */
	size_t scanned;		/* parts [0, scanned) searched for it */
};

struct mkf_kernel {
	const struct btf *vmlinux;
	bool vmlinux_owned;
	/* The file vmlinux was read from (kernel_load.c), else NULL. */
	char *vmlinux_path;
	/*
	 * What else mkf_kernel__load() read, so that the kernel names its
	 * files (the rewrite cache keys by them): the module files given
	 * with vmlinux_path, or the BTF directory. files_known is false
	 * for a kernel made by mkf_kernel__new() or given a module since.
	 */
	bool files_known;
	char **module_paths;
	size_t module_path_cnt;
	char *btf_dir;		/* NULL when vmlinux_path was given */
	bool skip_modules;
	struct mkf_module *modules;
	size_t module_cnt;
	struct mkf_btf_part *parts;
	size_t part_cnt;
	/*
	 * Every FUNC of every part (struct mkf_func_ref, kernel_view.h),
	 * parts in order, ids ascending in each; a part's are
	 * [first_ref, first_ref + ref_cnt). vmlinux's view hands its list
	 * over as the start of this one.
	 */
	struct mkf_func_ref *refs;
	size_t ref_cnt, ref_cap;
	/*
	 * The filter the parts' views were walked with (an object's open
	 * knows the names it will ask for before the kernel is read), NULL
	 * when no part is filtered. A name it does not cover, or a call
	 * for every name, lists every FUNC first.
	 */
	unsigned char *func_filter;
	size_t tag_cnt;
	bool check_all;		/* mkf_btf_check() every part first */
	/*
	 * The name cache, behind lock (a const kernel may be shared by
	 * threads): open addressing over names[], at most half full.
	 */
	pthread_mutex_t lock;
	__u32 *slots;		/* names index + 1, 0 = empty */
	size_t slot_cnt;	/* a power of two, or 0 */
	struct mkf_name *names;
	size_t name_cnt, name_cap;
	/* mkf_funcs in chunks, so that their addresses never change. */
	struct mkf_func **chunks;
	size_t chunk_cnt, func_cnt;
	size_t full_parts;	/* parts whose every name is in the cache */
	size_t single_scans;	/* one-name scans so far: too many, index all */
	size_t views_unparsed;	/* parts read through a view, not parsed by libbpf */
	/* kfuncs.c's, NULL until first asked for; reset when a module is added. */
	struct mkf_kernel_memo *kfuncs;
};

/*
 * The options that load the same files again into *ko (pointing into
 * k): 0, or -ENOENT when k's files are not known (files_known).
 */
int mkf_kernel_files(const struct mkf_kernel *k, struct mkf_kernel_opts *ko);

/*
 * The FUNC libbpf would bind for this name: first in vmlinux (lowest
 * id), else in the first module that has it. NULL if none (or no memory).
 */
const struct mkf_func *mkf_kernel_find(const struct mkf_kernel *kernel, const char *name);
/* The same, with the index's error (0, -ENOMEM) in *err: NULL is then no answer. */
const struct mkf_func *mkf_kernel_find_err(const struct mkf_kernel *kernel, const char *name,
					   int *err);

/*
 * Look NAMES up in one scan, so that the mkf_kernel_find() calls that
 * follow are cache hits. Returns 0 or -ENOMEM.
 */
int mkf_kernel_prefetch(const struct mkf_kernel *kernel, const char *const *names, size_t cnt);

/* Index every name of every part (for enumerating all kfuncs). */
int mkf_kernel_index_all(const struct mkf_kernel *kernel);

/* The name of k->refs[ref] (checked by the describing pass). */
const char *mkf_ref_name(const struct mkf_kernel *k, size_t ref);

/* Tagged, or the kernel has no kfunc tags at all (pahole < 1.26). */
bool mkf_func_callable(const struct mkf_func *fn);

/*
 * An index of vmlinux_btf alone; owned: freed with the kernel;
 * check_all: check every type of it and of its modules.
 */
struct mkf_kernel *mkf_kernel_new(const struct btf *vmlinux, bool owned, bool check_all);
/* Add and index a module's split BTF (owned: freed with the kernel). */
int mkf_kernel_add_module(struct mkf_kernel *k, const char *name, const struct btf *btf,
			  bool owned);
/*
 * The same for BTF read through views (kernel_view.h), which the kernel
 * then owns, also when these fail. A module's view has vmlinux's as base.
 * FILTER (mkf_func_filter_new(), or NULL), which vmlinux's view was
 * walked with, is the kernel's too, also on failure; its modules' views
 * are to be walked with k->func_filter.
 */
struct mkf_kernel *mkf_kernel_new_view_filtered(struct mkf_btf_view *vmlinux,
						unsigned char *filter);
int mkf_kernel_add_module_view(struct mkf_kernel *k, const char *name,
			       struct mkf_btf_view *view);
/*
 * A filter (kernel_view.h) letting through the FUNCs named NAMES (and
 * any whose first eight bytes are one of theirs): what an object's open
 * reads a kernel with. NULL with errno 0 where a filter cannot serve
 * (a name shorter than eight bytes, a big-endian host), ENOMEM.
 */
unsigned char *mkf_func_filter_new(const char *const *names, size_t cnt);
/*
 * The whole libbpf BTF of part idx, parsed from its view the first time
 * (then owned by the kernel). NULL with errno when libbpf refuses it.
 */
const struct btf *mkf_part_btf(const struct mkf_kernel *k, size_t idx);

#endif
