/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Read-only view of a BPF ELF object: its BTF and its kfunc externs
 * (undefined symbols whose BTF FUNC sits in the .ksyms DATASEC).
 */
#ifndef MKF_OBJ_EXTERNS_H
#define MKF_OBJ_EXTERNS_H

#include <stdbool.h>
#include <stddef.h>
#include <gelf.h>
#include <bpf/btf.h>

struct mkf_extern {
	char *name;		/* N: symbol and BTF FUNC name */
	char *essential;	/* E: N without a libbpf ___flavor suffix */
	size_t sym_idx;		/* in .symtab */
	__u32 func_id;		/* BTF FUNC */
	__u32 proto_id;		/* its FUNC_PROTO */
	bool weak;
};

struct mkf_btf_name {
	const char *name;
	__u32 id;
};

struct mkf_object {
	void *buf;		/* private copy of the ELF image */
	size_t sz;
	Elf *elf;
	struct btf *btf;	/* parsed .BTF, NULL if none */
	size_t symtab_shndx;
	size_t sym_cnt;
	struct mkf_extern *externs;
	size_t extern_cnt;
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

int mkf_object_open(struct mkf_object *obj, const void *buf, size_t sz);
void mkf_object_close(struct mkf_object *obj);

/* Whether a symbol or BTF FUNC/VAR other than a kfunc extern has NAME. */
bool mkf_object_name_taken(const struct mkf_object *obj, const char *name);

/* ELF helpers shared with the rewriter. */
Elf_Scn *mkf_elf_find_scn(Elf *elf, const char *name, GElf_Shdr *shdr);

#endif
