/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The rewrite cache of mkf_object__open_*() (mkf_open_opts.cache_dir):
 * what the planner decided for an object on a kernel, kept in a file
 * so that the next open of the same object on the same kernel skips
 * reading the kernel's BTF and planning (docs/rewrite-cache.md).
 *
 * An entry holds its key (what identifies the kernel, the library, the
 * user and the options), the whole input object and the plan's
 * decisions (cache_plan.h), which a hit applies again to the caller's
 * bytes. A lookup compares key and object byte for byte: the file name
 * (a hash of the key and of the object outside its DWARF) only finds
 * the candidate, it decides nothing. An entry that hands libbpf the
 * input unchanged holds for any object with the same bytes outside the
 * DWARF and its relocations: the open passes the caller's own bytes
 * on, and nothing that decided "unchanged" reads those (obj_image.h).
 */
#ifndef MKF_CACHE_H
#define MKF_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "magic_kfunc.h"
#include "obj_image.h"
#include "strbuf.h"

struct mkf_plan;

struct mkf_cache_entry {
	const char *dir;
	int dfd;		/* dir, opened and checked (cache_dir.h) */
	bool weaken;		/* the open's weaken_unresolved */
	struct mkf_sb key;	/* the identity text, compared on lookup */
	char name[64];		/* file name inside dir */
	bool per_boot;		/* the key names this boot (running kernel) */
	char boot[9];		/* its first eight boot_id characters */
	/* The object's DWARF (mkf_obj_dwarf_ranges()), left out of the name. */
	struct mkf_range *dwarf;
	size_t dwarf_cnt;
};

/*
 * Describe what the output depends on: the kernel's BTF files as the
 * kernel options name them (NULL: the running kernel's directory), the
 * library's code and libbpf's version, the effective user, and the
 * open options that change the output; and open the directory (created
 * if missing) if this process may use one there (cache_dir.h). 0 or a
 * negative errno (after a warning when the directory is refused).
 */
int mkf_cache_prepare(struct mkf_cache_entry *ce, const char *dir,
		      const struct mkf_kernel_opts *ko, bool allow_unresolved,
		      bool weaken_unresolved, const void *obj, size_t obj_sz);

/*
 * Whether ce's key still describes what the kernel options name (the
 * same files, boot, library and options): describe again and compare.
 */
bool mkf_cache_key_holds(const struct mkf_cache_entry *ce, const struct mkf_kernel_opts *ko,
			 bool allow_unresolved, bool weaken_unresolved);

/*
 * 1 with *plan (to apply to obj, then free), or *unchanged set when
 * the open hands libbpf the input as it is; 0 when there is no valid
 * entry.
 */
int mkf_cache_get(const struct mkf_cache_entry *ce, const void *obj, size_t obj_sz,
		  struct mkf_plan **plan, bool *unchanged);

/* Keep PLAN's decisions (NULL: unchanged) for the next open; warns if it cannot. */
void mkf_cache_put(const struct mkf_cache_entry *ce, const void *obj, size_t obj_sz,
		   const struct mkf_plan *plan);

void mkf_cache_release(struct mkf_cache_entry *ce);

#endif
