/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A read-only view of a kernel's BTF file (vmlinux or a module's split
 * BTF): the file mapped (or read, where it cannot be mapped), its header
 * and string section checked as libbpf checks them, one pass over the
 * type records that checks each record's kind and extent and notes
 * where every 16th starts. Nothing is decoded until asked for: a kernel has
 * over a hundred thousand types and the resolver reads a few dozen.
 *
 * mkf_btf_view_extract() gives the resolver what it reads of one FUNC
 * as a small libbpf BTF: the FUNC, its FUNC_PROTO and every type those
 * reach through pointers, arrays, modifiers and typedefs. Structs,
 * unions and enums come without members: libbpf's compatibility rules
 * and the resolver's messages look at their kind and name only.
 */
#ifndef MKF_KERNEL_VIEW_H
#define MKF_KERNEL_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

/*
 * A FUNC as the walk over the records saw it: checked, not yet indexed
 * (the index keeps its FUNCs in the same form, kernel_index.h). The
 * name stays an offset until asked for.
 */
struct mkf_func_ref {
	__u32 name_off;
	__u32 id;
};

/*
 * A filter of FUNC names (mkf_btf_view_open_filtered()): a byte per
 * key, MKF_FUNC_KEYS keys, a name's key made of its first eight bytes
 * (read as one little-endian word: the filter is for little-endian
 * hosts). Names that share their first eight bytes share a key.
 */
#define MKF_FUNC_KEYS (1u << 16)

static inline __u32 mkf_func_key(__u64 first8)
{
	return (__u32)((first8 * 0x9e3779b97f4a7c15ull) >> 48);
}

/* Records per noted offset (struct mkf_btf_view's offs). */
#define VIEW_STRIDE 16

struct mkf_btf_view {
	char *path;		/* the file */
	void *mem;		/* the file: mapped, or read into malloc'd memory */
	size_t mem_len;
	bool mapped;
	bool borrowed;		/* mem is the caller's (mkf_btf_view_open_mem()) */
	const char *types;	/* the type section */
	__u32 types_len;
	const char *strs;	/* its own strings */
	__u32 str_len;
	__u32 str_start;	/* offset of strs[0]: the base's str_len for split BTF */
	__u32 start_id;		/* its first type id: 1, or the base's type count */
	__u32 end_id;		/* one past its last type id */
	/*
	 * Where every VIEW_STRIDE-th record starts in types (id start_id,
	 * start_id + VIEW_STRIDE, ...): the others are found from there.
	 * A table of every record's would be half a megabyte of fresh
	 * pages to fill at each open, for the few dozen the resolver reads.
	 */
	__u32 *offs;
	size_t offs_len;	/* bytes mapped for it */
	size_t table_len;	/* bytes mapped for picks */
	struct mkf_func_ref *funcs;	/* its FUNCs, ids ascending */
	size_t func_cnt;
	/*
	 * funcs holds only the FUNCs a filter did not rule out: every one
	 * whose name has eight bytes in its own strings and a key the
	 * filter has, and every one whose name has not (the walk checked
	 * the others as it checks every FUNC). mkf_btf_view_funcs() lists
	 * them all.
	 */
	bool funcs_filtered;
	/*
	 * Whether every FUNC is named in its own strings and not extern,
	 * and the highest type id a FUNC refers to: the walk notes what
	 * the index checks of each FUNC (kernel_index.c).
	 */
	bool funcs_plain;
	__u32 func_max_type;
	__u32 func_max_name;	/* the highest name offset in strs, when plain */
	__u32 *picks;		/* ids of its DECL_TAGs and DATASECs, ascending */
	size_t pick_cnt;
	const struct mkf_btf_view *base;	/* split BTF's base, else NULL */
};

/*
 * Open PATH as raw BTF (split on BASE when BASE is not NULL). 0, or a
 * negative errno: -EPROTO for a file that is not raw BTF of this host's
 * byte order (an ELF file, say: libbpf reads those), -EINVAL for BTF
 * that libbpf's parse would refuse too, the open(2)/read(2) errno. Says
 * nothing: the caller decides what to tell (and may ask libbpf).
 *
 * funcs lists only the FUNCs whose names FILTER (a MKF_FUNC_KEYS-byte
 * table, read during the call only) does not rule out: an object's open
 * asks for a few names, and most of a kernel's tens of thousands of
 * FUNCs then need no entry. FILTER NULL: all.
 */
int mkf_btf_view_open_filtered(struct mkf_btf_view *v, const char *path,
			       const struct mkf_btf_view *base, const unsigned char *filter);
/*
 * The same over LEN bytes at MEM that the caller keeps (libbpf's raw
 * data of a BTF it parsed): the view lists the records, the index
 * reads them in one walk instead of a call per type.
 */
int mkf_btf_view_open_mem(struct mkf_btf_view *v, const void *mem, size_t len,
			  const struct mkf_btf_view *base);
void mkf_btf_view_close(struct mkf_btf_view *v);

/*
 * Every FUNC of the view (not its base's), ids ascending, in *out
 * (malloc'd; NULL when there is none) and *cnt: for a view whose walk
 * was filtered. 0 or -ENOMEM.
 */
int mkf_btf_view_funcs(const struct mkf_btf_view *v, struct mkf_func_ref **out, size_t *cnt);

/* Type ID (the base's for ids below start_id), NULL for 0 and past the end. */
const struct btf_type *mkf_btf_view_type(const struct mkf_btf_view *v, __u32 id);
/* The string at OFF (the base's below str_start), NULL past the end. */
const char *mkf_btf_view_str(const struct mkf_btf_view *v, __u32 off);
/* Bytes from the string at OFF to the end of its string section (0: none). */
size_t mkf_btf_view_str_room(const struct mkf_btf_view *v, __u32 off);

/* Its own strings begin with the empty string and hold more: complete BTF. */
bool mkf_btf_view_is_complete(const struct mkf_btf_view *v);

/*
 * A small BTF holding FUNC func_id of the view (its own or its base's)
 * and what the resolver reads of it (see the top of this file); *proto
 * gets the FUNC_PROTO's id in it. NULL with errno: EINVAL when those
 * types refer to ids or names that do not exist or to kinds a prototype
 * cannot hold, ENOMEM.
 */
struct btf *mkf_btf_view_extract(const struct mkf_btf_view *v, __u32 func_id, __u32 *proto);

/* A libbpf BTF of the whole file (split on base_btf for a module). */
struct btf *mkf_btf_view_parse(const struct mkf_btf_view *v, struct btf *base_btf);

#endif
