/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Read-only view of a BPF ELF object: its BTF and its kfunc externs
 * (undefined symbols whose BTF FUNC sits in the .ksyms DATASEC).
 */
#ifndef MKF_OBJECT_H
#define MKF_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <gelf.h>
#include <bpf/btf.h>

#include "obj_image.h"

struct mkf_extern {
	char *name;		/* N: symbol and BTF FUNC name */
	char *essential;	/* E: N without a libbpf ___flavor suffix */
	size_t sym_idx;		/* in .symtab */
	__u32 func_id;		/* BTF FUNC */
	__u32 proto_id;		/* its FUNC_PROTO */
	bool weak;
	size_t call_cnt;	/* kfunc calls to it in the code sections */
};

struct mkf_btf_name {
	const char *name;
	__u32 id;
};

/*
 * One parse of an object, made once per open and used by every stage:
 * the plan reads it, the rewrite applies the plan to it.
 */
struct mkf_obj {
	/* The bytes parsed: the caller's, who keeps them while obj lives. */
	const void *src;
	size_t src_sz;
	struct mkf_obj_image img;	/* private copy of the image, for elf */
	Elf *elf;
	struct btf *btf;	/* parsed .BTF, NULL if none */
	size_t symtab_shndx;
	size_t sym_cnt;
	struct mkf_extern *externs;
	size_t extern_cnt, extern_cap;
	/* BTF FUNCs and VARs by name, then id; which ids .ksyms lists. */
	struct mkf_btf_name *btf_names;
	size_t btf_name_cnt;
	unsigned char *in_ksyms;
	/* Other symbols' and BTF FUNCs'/VARs' names, sorted (into elf, btf). */
	const char **kept_names;
	size_t kept_cnt;
};

/* libbpf's rule: strip only the last "X___Y" flavor suffix. */
size_t mkf_essential_name_len(const char *name);

/*
 * Parse buf (sz bytes, which must outlive obj) into obj. 0 or a
 * negative errno (after an error message); release with
 * mkf_obj_release() either way.
 */
int mkf_obj_read(struct mkf_obj *obj, const void *buf, size_t sz);
/*
 * The same for bytes that are the reader's own (a copy nobody else
 * holds, which must outlive obj and stay as they are): libelf reads
 * them in place when it reads without converting (a 64-bit object of
 * this machine's byte order), so no private image is made.
 */
int mkf_obj_read_own(struct mkf_obj *obj, void *buf, size_t sz);
/* The same, with buf's DWARF ranges (mkf_obj_dwarf_ranges()) already known. */
int mkf_obj_read_skip(struct mkf_obj *obj, const void *buf, size_t sz,
		      const struct mkf_range *dwarf, size_t dwarf_cnt);
/*
 * The rewrite's view of its own output: read in place (buf is the
 * rewrite's, and must outlive obj), with btf, the output's .BTF as the
 * rewrite already parsed it, taken over; no call counts, no names kept.
 * The types of btf below added_from are those of an object that was
 * read, unchanged but for FUNCs pointed at FUNC_PROTOs (btf_out.h):
 * only what was added is checked again.
 */
int mkf_obj_read_output(struct mkf_obj *obj, void *buf, size_t sz, struct btf *btf,
			__u32 added_from);
void mkf_obj_release(struct mkf_obj *obj);

/* Whether a symbol or BTF FUNC/VAR other than a kfunc extern has NAME. */
bool mkf_obj_name_taken(const struct mkf_obj *obj, const char *name);

/*
 * What holds a name besides the kfunc externs: its symbols and BTF
 * FUNCs/VARs. static_funcs is true when every one of them belongs to a
 * static function of .text (a subprogram, STB_LOCAL STT_FUNC symbol and
 * BTF FUNC of static linkage): such a name carries no ABI (libbpf
 * names no program after a subprogram, and finds neither by name), so
 * it may change. compat.bpf.h's wrappers, which clang 16 and later
 * emit out of line under the kernel function's name, are such.
 */
struct mkf_name_holders {
	size_t *syms;		/* symbol indexes, sym_cnt of them */
	size_t sym_cnt;
	__u32 *btf_ids;		/* BTF FUNC/VAR ids, btf_cnt of them */
	size_t btf_cnt;
	bool static_funcs;
};

/* 0, or -ENOMEM; release with mkf_name_holders_free(). */
int mkf_obj_name_holders(const struct mkf_obj *obj, const char *name,
			 struct mkf_name_holders *h);
void mkf_name_holders_free(struct mkf_name_holders *h);


#endif
