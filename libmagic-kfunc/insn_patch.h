/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Insert instructions into one code section S of a relocatable BPF ELF
 * object and keep every reference into and within S consistent
 * (docs/design.md, section 5): jumps, bpf-to-bpf calls, callback addresses,
 * relocation offsets, symbols of S and the .BTF.ext records of S.
 *
 * Pure: every buffer the caller passes is only read; results are new
 * malloc'd buffers, handed over only when the whole patch succeeded.
 * No I/O, no logging, no libbpf objects. Writing the ELF back is the
 * caller's job (call_patch.c hands the results to elf_write.c).
 *
 * Indexes are in instructions of the ORIGINAL section unless said
 * otherwise; ELF offsets (r_offset, st_value, .BTF.ext insn_off) are in
 * bytes, as clang writes them.
 */
#ifndef MKF_INSN_PATCH_H
#define MKF_INSN_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <elf.h>
#include <linux/bpf.h>

/*
 * One insertion: cnt instructions (copied verbatim) go before instruction
 * idx of S. Jumps that targeted idx land on the first of them; so do calls
 * and callback addresses when a function starts at idx (the patch belongs
 * to that function). Several insertions at the same idx are concatenated
 * in the order given.
 *
 * The inserted code must be self-contained, since no relocation is added
 * for it: jumps stay inside the block (a target one past its end is the
 * instruction that follows it), helper calls only (src_reg 0), ld_imm64
 * only as plain 64-bit constants (src_reg 0).
 */
struct mkf_ip_insert {
	size_t idx;
	const struct bpf_insn *insns;
	size_t cnt;
};

/*
 * Relocation section of the object, as found in the section headers.
 * Pass every SHT_REL section: references into S hide in any of them.
 */
struct mkf_ip_relsec {
	/* sh_info: index of the section the entries apply to. */
	Elf64_Word shndx;
	const Elf64_Rel *rels;
	size_t rel_cnt;
	/*
	 * Contents of section shndx when it holds code (SHF_EXECINSTR),
	 * else NULL. BPF objects use SHT_REL: the target of a call or
	 * callback address into S lives in the instruction, which therefore
	 * may have to change. Not read for S itself (mkf_ip_input.insns is).
	 */
	const struct bpf_insn *insns;
	size_t insn_cnt;
	/*
	 * Entries apply to a section libbpf never reads (DWARF: .debug_*).
	 * They are left as they are (their addends in the DWARF go stale)
	 * and only the relocation types pointing into S are checked.
	 */
	bool ignore;
};

struct mkf_ip_input {
	/* S: section index (< SHN_LORESERVE), name, instructions. */
	Elf64_Word shndx;
	const char *sec_name;
	const struct bpf_insn *insns;
	size_t insn_cnt;

	/* The whole symbol table (.symtab), entry 0 included. */
	const Elf64_Sym *syms;
	size_t sym_cnt;

	const struct mkf_ip_relsec *relsecs;
	size_t relsec_cnt;

	/*
	 * Raw .BTF.ext (NULL when the object has none) and its section
	 * index: clang emits .rel.BTF.ext, whose entries against S's section
	 * symbol must sit on insn_off fields of S's records (their addend is
	 * the field the patcher rewrites). 0 when there is no .BTF.ext.
	 */
	const void *btf_ext;
	size_t btf_ext_sz;
	Elf64_Word btf_ext_shndx;

	/*
	 * String section of .BTF (see mkf_ip_btf_strings()): .BTF.ext names
	 * each block's code section by an offset into it. Required with
	 * btf_ext.
	 */
	const char *btf_strs;
	size_t btf_strs_sz;
};

/* Per input relocation section, same order as mkf_ip_input.relsecs. */
struct mkf_ip_relsec_out {
	/* New entries (same count and order), NULL when none changed. */
	Elf64_Rel *rels;
	/*
	 * New contents of the section the entries apply to, same count, NULL
	 * when unchanged. Never set for S (see mkf_ip_output.insns).
	 */
	struct bpf_insn *insns;
};

struct mkf_ip_output {
	/* New contents of S: input count plus every insertion. */
	struct bpf_insn *insns;
	size_t insn_cnt;
	/* New symbol table, same count and order as the input. */
	Elf64_Sym *syms;
	/* relsec_cnt entries; NULL when relsec_cnt is 0. */
	struct mkf_ip_relsec_out *relsecs;
	size_t relsec_cnt;
	/* New .BTF.ext, same size and layout; NULL when none was given. */
	void *btf_ext;
	size_t btf_ext_sz;
};

/*
 * Insert ins[0..ins_cnt) into S (ins need not be sorted) and compute the
 * new S, symbol table, relocation sections, other code sections and
 * .BTF.ext. To patch several sections, call once per section and feed
 * each call the previous call's outputs: references from other sections
 * into S are fixed in the call that patches S.
 *
 * Returns 0 and fills *out (free with mkf_ip_output_free()), or a negative
 * errno: -EINVAL for anything that cannot be patched safely (an instruction
 * that does not decode, a jump, call or record pointing outside S or into
 * the second slot of an ld_imm64, an insertion point inside an ld_imm64 or
 * outside every function, a relocation type or position not understood,
 * a section without symbols, a malformed .BTF.ext, a jump whose new offset
 * overflows), -ENOMEM. On error *out is left untouched and, when err is
 * not NULL, err[0..err_sz) gets a one-line reason. Inputs are never
 * modified.
 */
int mkf_insn_patch(const struct mkf_ip_input *in, const struct mkf_ip_insert *ins,
		   size_t ins_cnt, struct mkf_ip_output *out, char *err, size_t err_sz);

/* Free what mkf_insn_patch() put in *out and zero it. NULL is fine. */
void mkf_ip_output_free(struct mkf_ip_output *out);

/*
 * Find the string section inside raw .BTF bytes (header checked: magic,
 * version 1, lengths within the data). *strs points into btf. Returns 0 or
 * -EINVAL.
 */
int mkf_ip_btf_strings(const void *btf, size_t btf_sz, const char **strs, size_t *strs_sz);

/*
 * Whether insn (with n instructions available from it) decodes as an
 * instruction the patcher can reason about; an ld_imm64 needs its second
 * slot (code 0) among the n. Exposed so callers can pick insertion points
 * with the same rules.
 */
bool mkf_insn_decodes(const struct bpf_insn *insn, size_t n);

#endif
