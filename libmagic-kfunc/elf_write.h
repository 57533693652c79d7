/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Write a copy of an ELF object with a few edits (laid out in memory;
 * libelf only reads):
 * symbol names (new names appended to the symbols' string table),
 * relocations moved from one symbol to another, and a new .BTF.
 * Section indexes, symbol indexes and everything else stay as they were.
 */
#ifndef MKF_ELF_WRITE_H
#define MKF_ELF_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "call_patch.h"

struct mkf_sym_edit {
	size_t sym_idx;
	/* New name; "" leaves the symbol nameless (libbpf then skips it). */
	const char *name;
	/* Relocations against sym_idx move to this symbol; -1: none. */
	long redirect_to;
	/* Make the symbol STB_WEAK. */
	bool weaken;
};

struct mkf_elf_edits {
	const struct mkf_sym_edit *syms;
	size_t sym_cnt;
	/*
	 * New contents of whole sections (call_patch.c: code, relocations,
	 * .symtab, .BTF.ext). The symbol and relocation edits above apply on
	 * top of a replaced .symtab or relocation section.
	 */
	const struct mkf_scn_edit *scns;
	size_t scn_cnt;
	/* New contents of .BTF; NULL keeps it. */
	const void *btf_data;
	size_t btf_size;
};

/* *out: malloc'd image (free(3)). */
int mkf_elf_write(const void *buf, size_t sz, const struct mkf_elf_edits *edits,
		    void **out, size_t *out_sz);

#endif
