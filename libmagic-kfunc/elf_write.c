// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libelf writes only to file descriptors, so the new image is laid out
 * by libelf into an anonymous memory file and read back. Every section
 * is copied in index order, so section and symbol indexes (and with
 * them sh_link/sh_info, relocations and .BTF.ext) keep their meaning.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <gelf.h>

#include "elf_write.h"
#include "log.h"
#include "elf_util.h"
#include "object.h"

/* Buffers the output sections point at until elf_update() is done. */
struct owned {
	void **bufs;
	size_t cnt;
};

static void *own(struct owned *o, size_t sz)
{
	void **bufs = realloc(o->bufs, (o->cnt + 1) * sizeof(*bufs));
	void *p;

	if (!bufs)
		return NULL;
	o->bufs = bufs;
	p = calloc(1, sz ? sz : 1);
	if (p)
		o->bufs[o->cnt++] = p;
	return p;
}

static void own_free(struct owned *o)
{
	while (o->cnt)
		free(o->bufs[--o->cnt]);
	free(o->bufs);
}

static int anon_fd(FILE **fallback)
{
	int fd = memfd_create("libmagic-kfunc", MFD_CLOEXEC);

	*fallback = NULL;
	if (fd >= 0)
		return fd;
	/* Kernels or sandboxes without memfd: an unlinked temporary file. */
	*fallback = tmpfile();
	return *fallback ? fileno(*fallback) : -errno;
}

static int read_back(int fd, size_t sz, void **out)
{
	char *buf = malloc(sz ? sz : 1);
	size_t done = 0;

	if (!buf)
		return -ENOMEM;
	while (done < sz) {
		ssize_t n = pread(fd, buf + done, sz - done, (off_t)done);

		if (n <= 0) {
			free(buf);
			return n < 0 ? -errno : -EIO;
		}
		done += (size_t)n;
	}
	*out = buf;
	return 0;
}

/* New string table: the old one plus the edits' names, each appended once. */
static int build_strtab(Elf_Data *old, const struct mkf_elf_edits *ed, struct owned *o,
			void **data, size_t *size, size_t *offs)
{
	size_t i, j, len = old->d_size;
	char *p;

	for (i = 0; i < ed->sym_cnt; i++)
		len += strlen(ed->syms[i].name) + 1;
	p = own(o, len);
	if (!p)
		return -ENOMEM;
	if (old->d_size) /* d_buf may be NULL for an empty table */
		memcpy(p, old->d_buf, old->d_size);
	len = old->d_size;
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

static Elf_Data *copy_data(Elf_Scn *oscn, Elf_Data *d, struct owned *o, bool private_copy)
{
	Elf_Data *od = elf_newdata(oscn);

	if (!od)
		return NULL;
	od->d_type = d->d_type;
	od->d_size = d->d_size;
	od->d_off = d->d_off;
	od->d_align = d->d_align;
	od->d_version = d->d_version;
	od->d_buf = d->d_buf;
	if (private_copy && d->d_buf) {
		od->d_buf = own(o, d->d_size);
		if (!od->d_buf)
			return NULL;
		memcpy(od->d_buf, d->d_buf, d->d_size);
	}
	return od;
}

static int edit_symtab(Elf_Data *od, const struct mkf_elf_edits *ed, const size_t *offs)
{
	size_t i;

	for (i = 0; i < ed->sym_cnt; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(od, (int)ed->syms[i].sym_idx, &sym))
			return -EINVAL;
		sym.st_name = (Elf64_Word)offs[i];
		if (ed->syms[i].weaken)
			sym.st_info = GELF_ST_INFO(STB_WEAK, GELF_ST_TYPE(sym.st_info));
		if (!gelf_update_sym(od, (int)ed->syms[i].sym_idx, &sym))
			return -EINVAL;
	}
	return 0;
}

static int edit_relocs(Elf_Data *od, const GElf_Shdr *sh, const struct mkf_elf_edits *ed)
{
	size_t k, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, i;

	for (k = 0; k < n; k++) {
		for (i = 0; i < ed->sym_cnt; i++) {
			long to = ed->syms[i].redirect_to;

			if (to < 0)
				continue;
			if (sh->sh_type == SHT_REL) {
				GElf_Rel r;

				if (!gelf_getrel(od, (int)k, &r))
					return -EINVAL;
				if (GELF_R_SYM(r.r_info) != ed->syms[i].sym_idx)
					continue;
				r.r_info = GELF_R_INFO(to, GELF_R_TYPE(r.r_info));
				if (!gelf_update_rel(od, (int)k, &r))
					return -EINVAL;
			} else {
				GElf_Rela r;

				if (!gelf_getrela(od, (int)k, &r))
					return -EINVAL;
				if (GELF_R_SYM(r.r_info) != ed->syms[i].sym_idx)
					continue;
				r.r_info = GELF_R_INFO(to, GELF_R_TYPE(r.r_info));
				if (!gelf_update_rela(od, (int)k, &r))
					return -EINVAL;
			}
		}
	}
	return 0;
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

static int copy_sections(Elf *in, Elf *out, const struct mkf_elf_edits *ed, struct owned *o)
{
	size_t shnum, symtab = 0, strtab = 0, btf_idx = 0, i, *offs = NULL;
	void *strtab_data = NULL;
	size_t strtab_size = 0;
	GElf_Shdr sh;
	Elf_Scn *scn;
	int err = 0;

	if (elf_getshdrnum(in, &shnum))
		return -EINVAL;
	if (mkf_elf_find_scn(in, ".BTF", &sh))
		btf_idx = elf_ndxscn(mkf_elf_find_scn(in, ".BTF", &sh));
	for (scn = NULL; (scn = elf_nextscn(in, scn));) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			symtab = elf_ndxscn(scn);
			strtab = sh.sh_link;
			break;
		}
	}
	if (ed->sym_cnt && !symtab)
		return -EINVAL;
	if (ed->btf_data && !btf_idx)
		return -EINVAL;
	if (ed->sym_cnt) {
		offs = calloc(ed->sym_cnt, sizeof(*offs));
		if (!offs)
			return -ENOMEM;
		err = build_strtab(elf_getdata(elf_getscn(in, strtab), NULL), ed, o,
				   &strtab_data, &strtab_size, offs);
		if (err)
			goto out;
	}

	for (i = 1; i < shnum && !err; i++) {
		Elf_Scn *iscn = elf_getscn(in, i), *oscn = elf_newscn(out);
		bool is_rel, edit_syms = ed->sym_cnt && i == symtab;
		Elf_Data *d = NULL, *od;

		if (!iscn || !oscn || !gelf_getshdr(iscn, &sh)) {
			err = -EINVAL;
			break;
		}
		const struct mkf_scn_edit *repl = scn_edit(ed, i);

		is_rel = (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA) &&
			 sh.sh_link == symtab && has_redirects(ed);
		while ((d = elf_getdata(iscn, d))) {
			od = copy_data(oscn, d, o, (edit_syms || is_rel) && !repl);
			if (!od) {
				err = -ENOMEM;
				break;
			}
			if (repl) {
				/* One data block with the new contents; edits apply on top. */
				od->d_buf = own(o, repl->size);
				if (!od->d_buf) {
					err = -ENOMEM;
					break;
				}
				memcpy(od->d_buf, repl->data, repl->size);
				od->d_size = repl->size;
				sh.sh_size = repl->size;
			}
			if (ed->sym_cnt && i == strtab) {
				od->d_buf = strtab_data;
				od->d_size = strtab_size;
			} else if (ed->btf_data && i == btf_idx) {
				od->d_buf = (void *)ed->btf_data;
				od->d_size = ed->btf_size;
			} else if (edit_syms) {
				err = edit_symtab(od, ed, offs);
			} else if (is_rel) {
				err = edit_relocs(od, &sh, ed);
			}
			if (err || repl)
				break;
		}
		if (!err && !gelf_update_shdr(oscn, &sh))
			err = -EINVAL;
	}
out:
	free(offs);
	return err;
}

int mkf_elf_write(const void *buf, size_t sz, const struct mkf_elf_edits *edits,
		    void **out, size_t *out_sz)
{
	struct owned owned = {};
	Elf *in = NULL, *eout = NULL;
	FILE *fallback = NULL;
	void *copy = NULL;
	GElf_Ehdr ehdr;
	off_t size;
	int fd = -1, err;

	*out = NULL;
	*out_sz = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	/* libelf may convert the image in place: work on a copy. */
	copy = malloc(sz);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, sz);
	in = elf_memory(copy, sz);
	if (!in || !gelf_getehdr(in, &ehdr)) {
		err = -EINVAL;
		goto out;
	}
	if (ehdr.e_shstrndx >= SHN_LORESERVE) {
		err = -E2BIG; /* extended section numbering: not for BPF objects */
		goto out;
	}
	fd = anon_fd(&fallback);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	eout = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!eout || !gelf_newehdr(eout, gelf_getclass(in))) {
		err = -EINVAL;
		goto out;
	}
	err = copy_sections(in, eout, edits, &owned);
	if (err)
		goto out;
	/* e_ident, type, machine, flags, e_shstrndx: as in the input. */
	if (!gelf_update_ehdr(eout, &ehdr)) {
		err = -EINVAL;
		goto out;
	}
	size = elf_update(eout, ELF_C_WRITE);
	if (size < 0) {
		pr_err("writing the rewritten object failed: %s\n", elf_errmsg(-1));
		err = -EINVAL;
		goto out;
	}
	err = read_back(fd, (size_t)size, out);
	if (!err)
		*out_sz = (size_t)size;
out:
	if (eout)
		elf_end(eout);
	if (in)
		elf_end(in);
	if (fallback)
		fclose(fallback);
	else if (fd >= 0)
		close(fd);
	own_free(&owned);
	free(copy);
	return err;
}
