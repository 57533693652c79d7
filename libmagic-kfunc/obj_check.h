/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Object shapes that crash or hang libbpf 1.1's bpf_object__open():
 * mkf_object__open_*() hand objects to that libbpf, so the reader
 * refuses them (EINVAL, a warning naming what) before anyone does.
 * Each check is one class found by fuzzing libbpf 1.1.2 (the classes
 * and their crash sites: docs/robustness.md); none refuses an object
 * clang writes. Names and type references are checked by
 * mkf_btf_check() (btf_util.c).
 */
#ifndef MKF_OBJ_CHECK_H
#define MKF_OBJ_CHECK_H

#include <gelf.h>
#include <bpf/btf.h>

/* Sections libbpf takes by name appear once (before any is read). */
int mkf_obj_check_sections(Elf *elf);

/* ELF: relocation targets, function symbols. */
int mkf_obj_check_elf(Elf *elf, size_t symtab_shndx);

/*
 * BTF (after mkf_btf_check()): FUNC types, containment cycles, .kconfig
 * sizes, .struct_ops extents (elf gives the .struct_ops data and the
 * symbols).
 */
int mkf_obj_check_btf(Elf *elf, size_t symtab_shndx, const struct btf *btf);
/*
 * The same for a BTF made from one that passed it by appending the
 * types from id from on and pointing FUNCs before it at FUNC_PROTOs
 * (btf_out.h), with the same sections and symbols: the FUNC types and
 * containment cycles of what was added. What .kconfig and .struct_ops
 * read lies before from and stayed as it was.
 */
int mkf_obj_check_btf_added(const struct btf *btf, __u32 from);

#endif
