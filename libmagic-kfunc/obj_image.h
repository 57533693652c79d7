/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The object reader's private image (object.c): a copy of the caller's
 * bytes for libelf to read, without the DWARF sections and their
 * relocations. Neither this library nor libbpf reads a byte of those
 * (libbpf's ignore_elf_section()), and in an object built with -g they
 * are most of its bytes: they stay zero here. A rewrite takes every section's
 * bytes from the caller's image (elf_write.c).
 */
#ifndef MKF_OBJ_IMAGE_H
#define MKF_OBJ_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <gelf.h>

/* Bytes [off, end) of the image left out of the copy. */
struct mkf_range {
	size_t off, end;
};

struct mkf_obj_image {
	void *buf;		/* sz bytes: copied, or zero in a skipped range */
	size_t sz;
	struct mkf_range *skip;	/* sorted, disjoint */
	size_t skip_cnt;
};

/*
 * Copy buf (sz bytes) into img, leaving the DWARF sections and their
 * relocations (mkf_scn_is_dwarf(), mkf_scn_is_dwarf_rel()) out when
 * the section headers can be read and no other section, the ELF header
 * or the section header table shares a byte with them; otherwise copy
 * it all (the reader then reports what is wrong). 0 or -ENOMEM.
 */
int mkf_obj_image_copy(struct mkf_obj_image *img, const void *buf, size_t sz);
/*
 * The same with the ranges to leave out already known (those
 * mkf_obj_dwarf_ranges() gave for these bytes; copied): the section
 * headers are not walked again.
 */
int mkf_obj_image_copy_skip(struct mkf_obj_image *img, const void *buf, size_t sz,
			    const struct mkf_range *skip, size_t skip_cnt);
/*
 * The ranges of buf that mkf_obj_image_copy() leaves out, in *ranges
 * (malloc'd, sorted, disjoint). Returns their count: 0 (and *ranges
 * NULL) when nothing can be left out.
 */
size_t mkf_obj_dwarf_ranges(const void *buf, size_t sz, struct mkf_range **ranges);
void mkf_obj_image_free(struct mkf_obj_image *img);

/*
 * Whether libelf reads buf (sz bytes) where it lies, converting
 * nothing: a 64-bit ELF object of this machine's byte order. Other
 * objects it may convert in place, so the reader copies them.
 */
bool mkf_obj_image_in_place(const void *buf, size_t sz);

/*
 * A section libbpf skips as DWARF and whose bytes nobody here reads:
 * ".debug_*", PROGBITS, neither allocated nor code.
 */
bool mkf_scn_is_dwarf(const GElf_Shdr *sh, const char *name);

/*
 * DWARF's relocations, which libbpf skips by their name: SHT_REL,
 * ".rel.debug_*", applying to (sh_info) a section that is DWARF.
 */
bool mkf_scn_is_dwarf_rel(const GElf_Shdr *sh, const char *name, const GElf_Shdr *target,
			  const char *target_name);

#endif
