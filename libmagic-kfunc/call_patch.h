/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Register set-up before kfunc calls: for each extern that binds an
 * _impl whose appended parameters include a verifier-checked scalar,
 * insert "RN = 0" right before every call to it, in every code section,
 * through the instruction patcher (insn_patch.c). The result is a list
 * of replaced section contents for the ELF writer.
 */
#ifndef MKF_CALL_PATCH_H
#define MKF_CALL_PATCH_H

#include <stddef.h>
#include <gelf.h>
#include <linux/types.h>

/* Calls to the extern symbol sym_idx get RN = 0 for each bit N of regs. */
struct mkf_call_regs {
	size_t sym_idx;
	__u32 regs;
};

/* New contents of section shndx (malloc'd). */
struct mkf_scn_edit {
	size_t shndx;
	void *data;
	size_t size;
};

struct mkf_scn_edits {
	struct mkf_scn_edit *v;
	size_t cnt;
};

/*
 * elf: the object (read only); btf_raw: its .BTF as in the file (for
 * the section names .BTF.ext uses). 0, -EINVAL with a warning saying
 * why the object cannot be patched, or -ENOMEM. out is filled only on
 * success (release with mkf_scn_edits_free()).
 */
int mkf_call_patch(Elf *elf, size_t symtab_shndx, const struct mkf_call_regs *want,
		   size_t want_cnt, const void *btf_raw, size_t btf_raw_sz,
		   struct mkf_scn_edits *out);
void mkf_scn_edits_free(struct mkf_scn_edits *edits);

#endif
