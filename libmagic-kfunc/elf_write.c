// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The rewritten image is laid out and written here, in memory: libelf
 * only reads objects (object.c). The layout is the one libelf gives a
 * copy (the ELF header, then every section in index order at its
 * alignment, zero-filled between, then the section header table), so
 * section and symbol indexes (and with them sh_link/sh_info,
 * relocations and .BTF.ext) keep their meaning. An unchanged section's
 * bytes are copied as they are; only the string table (names
 * appended), the .BTF, the sections call_patch.c replaces and the
 * symbol and relocation entries edited are new.
 *
 * Only objects of this machine's byte order and of ELF class 64 are
 * written: the reader turns down any other .BTF (object.c), and an
 * object without .BTF has nothing to rewrite.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>

#include "elf_write.h"
#include "log.h"

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define HOST_ELFDATA ELFDATA2LSB
#else
#define HOST_ELFDATA ELFDATA2MSB
#endif

/* Where a section's bytes come from, and where they go. */
struct out_scn {
	Elf64_Shdr sh;		/* as written: sh_offset and sh_size updated */
	const void *data;	/* NULL for SHT_NOBITS and empty sections */
};

/* The alignment libelf gives a section's data when it lays one out. */
static Elf64_Xword scn_align(const Elf64_Shdr *sh)
{
	Elf64_Xword a = sh->sh_addralign ? sh->sh_addralign : 1;
	Elf64_Xword type_align = 1;

	switch (sh->sh_type) {
	case SHT_SYMTAB:
	case SHT_DYNSYM:
	case SHT_REL:
	case SHT_RELA:
	case SHT_DYNAMIC:
		type_align = 8;
		break;
	case SHT_HASH:
	case SHT_GROUP:
	case SHT_SYMTAB_SHNDX:
		type_align = 4;
		break;
	}
	return a > type_align ? a : type_align;
}

static const char *scn_name(const void *buf, const Elf64_Shdr *shstr, Elf64_Word off)
{
	const char *s = (const char *)buf + shstr->sh_offset;

	if (shstr->sh_type == SHT_NOBITS || off >= shstr->sh_size ||
	    !memchr(s + off, '\0', shstr->sh_size - off))
		return NULL;
	return s + off;
}

/* New string table: the old one plus the edits' names, each appended once. */
static int build_strtab(const void *old, size_t old_sz, const struct mkf_elf_edits *ed,
			char **data, size_t *size, size_t *offs)
{
	size_t i, j, len = old_sz;
	char *p;

	for (i = 0; i < ed->sym_cnt; i++)
		len += strlen(ed->syms[i].name) + 1;
	p = malloc(len ? len : 1);
	if (!p)
		return -ENOMEM;
	if (old_sz)
		memcpy(p, old, old_sz);
	len = old_sz;
	for (i = 0; i < ed->sym_cnt; i++) {
		const char *name = ed->syms[i].name;

		offs[i] = 0; /* "" is offset 0 of every string table */
		if (!*name)
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(ed->syms[j].name, name))
				offs[i] = offs[j];
		if (offs[i])
			continue;
		offs[i] = len;
		memcpy(p + len, name, strlen(name) + 1);
		len += strlen(name) + 1;
	}
	*data = p;
	*size = len;
	return 0;
}

/* Symbols are edited in the output image; it may not align them. */
static int edit_symtab(char *scn, size_t size, const struct mkf_elf_edits *ed, const size_t *offs)
{
	size_t i;

	for (i = 0; i < ed->sym_cnt; i++) {
		char *at = scn + ed->syms[i].sym_idx * sizeof(Elf64_Sym);
		Elf64_Sym sym;

		if (ed->syms[i].sym_idx >= size / sizeof(Elf64_Sym) || offs[i] > UINT32_MAX)
			return -EINVAL;
		memcpy(&sym, at, sizeof(sym));
		sym.st_name = (Elf64_Word)offs[i];
		if (ed->syms[i].weaken)
			sym.st_info = ELF64_ST_INFO(STB_WEAK, ELF64_ST_TYPE(sym.st_info));
		memcpy(at, &sym, sizeof(sym));
	}
	return 0;
}

/* Move every relocation against a redirected symbol to its new one. */
static void edit_relocs(char *scn, size_t size, bool rela, const struct mkf_elf_edits *ed)
{
	size_t ent = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel), k, i;

	/* r_info sits at the same offset in both kinds. */
	for (k = 0; k < size / ent; k++) {
		char *at = scn + k * ent + offsetof(Elf64_Rel, r_info);
		Elf64_Xword info;

		memcpy(&info, at, sizeof(info));
		for (i = 0; i < ed->sym_cnt; i++) {
			if (ed->syms[i].redirect_to < 0 || ELF64_R_SYM(info) != ed->syms[i].sym_idx)
				continue;
			info = ELF64_R_INFO((Elf64_Xword)ed->syms[i].redirect_to,
					    ELF64_R_TYPE(info));
			memcpy(at, &info, sizeof(info));
			break;
		}
	}
}

static const struct mkf_scn_edit *scn_edit(const struct mkf_elf_edits *ed, size_t shndx)
{
	size_t i;

	for (i = 0; i < ed->scn_cnt; i++)
		if (ed->scns[i].shndx == shndx)
			return &ed->scns[i];
	return NULL;
}

static bool has_redirects(const struct mkf_elf_edits *ed)
{
	size_t i;

	for (i = 0; i < ed->sym_cnt; i++)
		if (ed->syms[i].redirect_to >= 0)
			return true;
	return false;
}

/* The input's ELF header and section headers, checked to lie inside it. */
static int read_headers(const void *buf, size_t sz, Elf64_Ehdr *eh, struct out_scn **scns)
{
	const unsigned char *b = buf;
	struct out_scn *s;
	size_t i;

	if (sz < sizeof(*eh) || memcmp(b, ELFMAG, SELFMAG))
		return -EINVAL;
	memcpy(eh, buf, sizeof(*eh));
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != HOST_ELFDATA) {
		pr_err("cannot write an ELF object of class %u, byte order %u: only 64-bit "
		       "objects of this machine's byte order\n", eh->e_ident[EI_CLASS],
		       eh->e_ident[EI_DATA]);
		return -EOPNOTSUPP;
	}
	/* Extended section numbering: not for BPF objects. */
	if (!eh->e_shnum || eh->e_shstrndx >= SHN_LORESERVE)
		return eh->e_shoff || eh->e_shstrndx ? -E2BIG : -EINVAL;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > sz ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > sz - eh->e_shoff ||
	    eh->e_shstrndx >= eh->e_shnum)
		return -EINVAL;
	s = calloc(eh->e_shnum, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < eh->e_shnum; i++) {
		memcpy(&s[i].sh, b + eh->e_shoff + i * sizeof(Elf64_Shdr), sizeof(Elf64_Shdr));
		if (s[i].sh.sh_type == SHT_NOBITS || !s[i].sh.sh_size || !i)
			continue;
		if (s[i].sh.sh_offset > sz || s[i].sh.sh_size > sz - s[i].sh.sh_offset) {
			free(s);
			return -EINVAL;
		}
		s[i].data = b + s[i].sh.sh_offset;
	}
	*scns = s;
	return 0;
}

int mkf_elf_write(const void *buf, size_t sz, const struct mkf_elf_edits *edits,
		  void **out, size_t *out_sz)
{
	size_t shnum, symtab = 0, strtab = 0, btf_idx = 0, i, *offs = NULL, strtab_sz = 0;
	const struct mkf_elf_edits *ed = edits;
	struct out_scn *scns = NULL;
	char *strtab_data = NULL, *img = NULL;
	Elf64_Off off, end;
	Elf64_Ehdr eh;
	bool redirects;
	int err;

	*out = NULL;
	*out_sz = 0;
	err = read_headers(buf, sz, &eh, &scns);
	if (err) {
		if (err == -EINVAL)
			pr_err("cannot write the rewritten object: its headers do not fit it\n");
		return err;
	}
	shnum = eh.e_shnum;
	memset(&scns[0].sh, 0, sizeof(scns[0].sh));
	for (i = 1; i < shnum; i++) {
		const char *name = scn_name(buf, &scns[eh.e_shstrndx].sh, scns[i].sh.sh_name);

		if (!symtab && scns[i].sh.sh_type == SHT_SYMTAB) {
			symtab = i;
			strtab = scns[i].sh.sh_link;
		}
		if (!btf_idx && name && !strcmp(name, ".BTF"))
			btf_idx = i;
	}
	if ((ed->sym_cnt && (!symtab || !strtab || strtab >= shnum ||
			     scns[strtab].sh.sh_type == SHT_NOBITS)) ||
	    (ed->btf_data && !btf_idx)) {
		err = -EINVAL;
		goto out;
	}
	if (ed->sym_cnt) {
		offs = calloc(ed->sym_cnt, sizeof(*offs));
		if (!offs) {
			err = -ENOMEM;
			goto out;
		}
		err = build_strtab(scns[strtab].data, scns[strtab].sh.sh_size, ed, &strtab_data,
				   &strtab_sz, offs);
		if (err)
			goto out;
		scns[strtab].data = strtab_data;
		scns[strtab].sh.sh_size = strtab_sz;
	}
	if (ed->btf_data) {
		scns[btf_idx].data = ed->btf_data;
		scns[btf_idx].sh.sh_size = ed->btf_size;
	}
	for (i = 1; i < shnum; i++) {
		const struct mkf_scn_edit *repl = scn_edit(ed, i);

		if (!repl || i == strtab || i == btf_idx)
			continue;
		scns[i].data = repl->data;
		scns[i].sh.sh_size = repl->size;
	}

	/* Layout: header, sections in index order, section headers. */
	off = sizeof(Elf64_Ehdr);
	for (i = 1; i < shnum; i++) {
		Elf64_Xword a = scn_align(&scns[i].sh);

		off = (off + a - 1) & ~(a - 1);
		scns[i].sh.sh_offset = off;
		if (scns[i].sh.sh_type != SHT_NOBITS)
			off += scns[i].sh.sh_size;
	}
	off = (off + 7) & ~(Elf64_Off)7;
	eh.e_shoff = off;
	/* A relocatable object has no program headers (nor room for them here). */
	eh.e_phoff = 0;
	eh.e_phnum = 0;
	off += shnum * sizeof(Elf64_Shdr);

	/* Every byte is written once: copied, or zero in a gap. */
	img = malloc(off);
	if (!img) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(img, &eh, sizeof(eh));
	end = sizeof(eh);
	redirects = has_redirects(ed);
	for (i = 0; i < shnum; i++) {
		Elf64_Shdr *sh = &scns[i].sh;
		char *at = img + sh->sh_offset;

		if (i && sh->sh_type != SHT_NOBITS && sh->sh_size) {
			memset(img + end, 0, sh->sh_offset - end);
			memcpy(at, scns[i].data, sh->sh_size);
			end = sh->sh_offset + sh->sh_size;
		}
		if (i && ed->sym_cnt && i == symtab)
			err = edit_symtab(at, sh->sh_size, ed, offs);
		else if (i && redirects && sh->sh_link == symtab &&
			 (sh->sh_type == SHT_REL || sh->sh_type == SHT_RELA))
			edit_relocs(at, sh->sh_size, sh->sh_type == SHT_RELA, ed);
		if (err)
			goto out;
		memcpy(img + eh.e_shoff + i * sizeof(Elf64_Shdr), sh, sizeof(*sh));
	}
	memset(img + end, 0, eh.e_shoff - end);
	*out = img;
	*out_sz = off;
	img = NULL;
out:
	free(img);
	free(offs);
	free(strtab_data);
	free(scns);
	return err;
}
