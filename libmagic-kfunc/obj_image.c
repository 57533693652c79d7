// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The object reader's private image without its DWARF (see obj_image.h). */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "obj_image.h"

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define HOST_ELFDATA ELFDATA2LSB
#else
#define HOST_ELFDATA ELFDATA2MSB
#endif

bool mkf_scn_is_dwarf(const GElf_Shdr *sh, const char *name)
{
	return sh->sh_type == SHT_PROGBITS && !(sh->sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) &&
	       name && !strncmp(name, ".debug_", 7);
}

bool mkf_scn_is_dwarf_rel(const GElf_Shdr *sh, const char *name, const GElf_Shdr *target,
			  const char *target_name)
{
	return sh->sh_type == SHT_REL && name && !strncmp(name, ".rel.debug_", 11) && target &&
	       mkf_scn_is_dwarf(target, target_name);
}

bool mkf_obj_image_in_place(const void *buf, size_t sz)
{
	const unsigned char *ident = buf;

	return buf && sz >= sizeof(Elf64_Ehdr) && !memcmp(ident, ELFMAG, SELFMAG) &&
	       ident[EI_CLASS] == ELFCLASS64 && ident[EI_DATA] == HOST_ELFDATA;
}

/* A range of the image and whether it is DWARF. */
struct part {
	size_t off, end;
	bool dwarf;
};

static int cmp_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The image's parts as its headers give them, read with libelf from
 * the caller's bytes as libbpf reads them: only for a 64-bit object of
 * this machine's byte order, which libelf reads where it lies. 0 parts
 * if anything is amiss.
 */
static size_t find_parts(const void *buf, size_t sz, struct part **parts)
{
	size_t shnum, shstrndx, i, n = 0;
	unsigned char *linked = NULL;
	const char **names = NULL;
	struct part *p = NULL;
	GElf_Shdr *sh = NULL;
	GElf_Ehdr eh;
	Elf *elf;

	*parts = NULL;
	if (!mkf_obj_image_in_place(buf, sz))
		return 0;
	elf = elf_memory((char *)buf, sz);
	if (!elf)
		return 0;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx) || !eh.e_shnum ||
	    eh.e_shoff > sz || (size_t)eh.e_shnum * eh.e_shentsize > sz - eh.e_shoff)
		goto out;
	p = calloc(shnum + 2, sizeof(*p));
	sh = calloc(shnum, sizeof(*sh));
	linked = calloc(shnum, 1);
	names = calloc(shnum, sizeof(*names));
	if (!p || !sh || !linked || !names)
		goto out;
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);

		if (!scn || !gelf_getshdr(scn, &sh[i]) ||
		    (sh[i].sh_type != SHT_NOBITS &&
		     (sh[i].sh_offset > sz || sh[i].sh_size > sz - sh[i].sh_offset)))
			goto out;
		/* A string or symbol table another section reads is not DWARF to us. */
		if (sh[i].sh_link < shnum)
			linked[sh[i].sh_link] = 1;
		names[i] = elf_strptr(elf, shstrndx, sh[i].sh_name);
	}
	if (shstrndx < shnum)
		linked[shstrndx] = 1;
	p[n++] = (struct part){ 0, sizeof(Elf64_Ehdr), false };
	p[n++] = (struct part){ eh.e_shoff, eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize,
				false };
	for (i = 1; i < shnum; i++) {
		size_t t = sh[i].sh_info;

		if (sh[i].sh_type == SHT_NOBITS || !sh[i].sh_size)
			continue;
		p[n++] = (struct part){
			sh[i].sh_offset, sh[i].sh_offset + sh[i].sh_size,
			/* Relocations of DWARF read as a table stay with it. */
			!linked[i] && (mkf_scn_is_dwarf(&sh[i], names[i]) ||
				       (t && t < shnum && !linked[t] &&
					mkf_scn_is_dwarf_rel(&sh[i], names[i], &sh[t], names[t]))),
		};
	}
out:
	elf_end(elf);
	free(sh);
	free(linked);
	free(names);
	if (n)
		*parts = p;
	else
		free(p);
	return n;
}

/*
 * The DWARF ranges to skip, merged, when no other part shares a byte
 * with one (parts sorted by start: a range overlaps an earlier one of
 * the other kind exactly when it starts before that kind's furthest
 * end so far). Writes into parts; returns their count, 0 for none.
 */
static size_t skip_ranges(struct part *parts, size_t n)
{
	size_t dwarf_end = 0, other_end = 0, i, cnt = 0;

	if (!n)
		return 0;
	qsort(parts, n, sizeof(*parts), cmp_part);
	for (i = 0; i < n; i++) {
		struct part *p = &parts[i];

		if (p->dwarf ? p->off < other_end : p->off < dwarf_end)
			return 0;
		if (p->dwarf && p->end > dwarf_end)
			dwarf_end = p->end;
		if (!p->dwarf && p->end > other_end)
			other_end = p->end;
	}
	for (i = 0; i < n; i++) {
		if (!parts[i].dwarf)
			continue;
		if (cnt && parts[i].off <= parts[cnt - 1].end) {
			if (parts[i].end > parts[cnt - 1].end)
				parts[cnt - 1].end = parts[i].end;
			continue;
		}
		parts[cnt++] = parts[i];
	}
	return cnt;
}

size_t mkf_obj_dwarf_ranges(const void *buf, size_t sz, struct mkf_range **ranges)
{
	struct part *parts;
	size_t n, i;

	*ranges = NULL;
	/* Two statements: the order of a call's arguments is unspecified. */
	n = find_parts(buf, sz, &parts);
	n = skip_ranges(parts, n);
	if (n)
		*ranges = malloc(n * sizeof(**ranges));
	if (!*ranges)
		n = 0;
	for (i = 0; i < n; i++)
		(*ranges)[i] = (struct mkf_range){ parts[i].off, parts[i].end };
	free(parts);
	return n;
}

/* Copy buf into img, leaving out img->skip (set by the caller). */
static int copy_outside(struct mkf_obj_image *img, const void *buf, size_t sz)
{
	size_t i, pos = 0;

	/*
	 * Zeroed by calloc(): a large buffer (glibc maps it) comes as fresh
	 * pages from the kernel with nothing written, so the skipped ranges
	 * cost neither a memset nor, as nobody reads them, a page.
	 */
	img->buf = img->skip_cnt ? calloc(1, sz) : malloc(sz ? sz : 1);
	if (!img->buf) {
		mkf_obj_image_free(img);
		return -ENOMEM;
	}
	img->sz = sz;
	for (i = 0; i < img->skip_cnt; i++) {
		const struct mkf_range *r = &img->skip[i];

		memcpy((char *)img->buf + pos, (const char *)buf + pos, r->off - pos);
		pos = r->end;
	}
	if (sz > pos)
		memcpy((char *)img->buf + pos, (const char *)buf + pos, sz - pos);
	return 0;
}

int mkf_obj_image_copy(struct mkf_obj_image *img, const void *buf, size_t sz)
{
	memset(img, 0, sizeof(*img));
	/* Without the ranges (none, or no memory for them): copy it all. */
	img->skip_cnt = mkf_obj_dwarf_ranges(buf, sz, &img->skip);
	return copy_outside(img, buf, sz);
}

int mkf_obj_image_copy_skip(struct mkf_obj_image *img, const void *buf, size_t sz,
			    const struct mkf_range *skip, size_t skip_cnt)
{
	memset(img, 0, sizeof(*img));
	if (skip_cnt) {
		img->skip = malloc(skip_cnt * sizeof(*skip));
		if (!img->skip)
			return -ENOMEM;
		memcpy(img->skip, skip, skip_cnt * sizeof(*skip));
		img->skip_cnt = skip_cnt;
	}
	return copy_outside(img, buf, sz);
}

void mkf_obj_image_free(struct mkf_obj_image *img)
{
	free(img->buf);
	free(img->skip);
	memset(img, 0, sizeof(*img));
}
