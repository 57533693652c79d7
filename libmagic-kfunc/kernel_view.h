/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A read-only view of a kernel's BTF file (vmlinux or a module's split
 * BTF): the file mapped (or read, where it cannot be mapped), its header
 * and string section checked as libbpf checks them, one pass over the
 * type records that checks each record's kind and extent and notes
 * where it starts. Nothing is decoded until asked for: a kernel has
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
	__u32 *offs;		/* offs[id - start_id]: where type id starts in types */
	struct mkf_func_ref *funcs;	/* its FUNCs, ids ascending */
	size_t func_cnt;
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
 */
int mkf_btf_view_open(struct mkf_btf_view *v, const char *path,
		      const struct mkf_btf_view *base);
/*
 * The same over LEN bytes at MEM that the caller keeps (libbpf's raw
 * data of a BTF it parsed): the view lists the records, the index
 * reads them in one walk instead of a call per type.
 */
int mkf_btf_view_open_mem(struct mkf_btf_view *v, const void *mem, size_t len,
			  const struct mkf_btf_view *base);
void mkf_btf_view_close(struct mkf_btf_view *v);

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
