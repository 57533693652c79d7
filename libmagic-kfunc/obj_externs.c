// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Find the kfunc externs of a BPF object, as libbpf's collect_externs does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libelf.h>

#include "btf_util.h"
#include "log.h"
#include "obj_externs.h"

#define KSYMS_SEC ".ksyms"
/* Largest section alignment accepted (BPF objects use up to 8). */
#define MAX_ALIGN 4096

static bool is_flavor_sep(const char *s)
{
	/* X___Y with X and Y not underscores. */
	return s[0] != '_' && s[1] == '_' && s[2] == '_' && s[3] == '_' && s[4] != '_';
}

size_t mkf_essential_name_len(const char *name)
{
	size_t n = strlen(name);
	long i;

	for (i = (long)n - 5; i >= 0; i--) {
		if (is_flavor_sep(name + i))
			return (size_t)i + 1;
	}
	return n;
}

Elf_Scn *mkf_elf_find_scn(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *sname;

		if (!gelf_getshdr(scn, shdr))
			return NULL;
		sname = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (sname && !strcmp(sname, name))
			return scn;
	}
	return NULL;
}

static bool sym_is_extern(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);

	return sym->st_shndx == SHN_UNDEF &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) &&
	       GELF_ST_TYPE(sym->st_info) == STT_NOTYPE;
}

/* The BTF VAR or FUNC libbpf associates with an extern: the first of that name. */
static int find_extern_btf_id(const struct btf *btf, const char *name)
{
	__u32 i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if ((btf_is_var(t) || btf_is_func(t)) && !strcmp(mkf_btf_name(btf, t), name))
			return i;
	}
	return -ENOENT;
}

static bool in_ksyms(const struct btf *btf, __u32 id)
{
	__u32 i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_var_secinfo *vs;
		__u16 j;

		if (!btf_is_datasec(t) || strcmp(mkf_btf_name(btf, t), KSYMS_SEC))
			continue;
		vs = btf_var_secinfos(t);
		for (j = 0; j < btf_vlen(t); j++)
			if (vs[j].type == id)
				return true;
	}
	return false;
}

static int add_extern(struct mkf_object *obj, const char *name, size_t sym_idx,
		      const GElf_Sym *sym)
{
	const struct btf_type *t;
	const struct btf_type *proto;
	struct mkf_extern *ext;
	size_t i;
	int id;

	id = find_extern_btf_id(obj->btf, name);
	if (id < 0) {
		/*
		 * libbpf refuses this too; left alone, the symbol could take
		 * the name an extern is renamed to (two externs of one name).
		 */
		pr_warn("extern '%s': no BTF VAR or FUNC of that name\n", name);
		return -EINVAL;
	}
	t = btf__type_by_id(obj->btf, id);
	/* A FUNC's linkage is stored where other kinds keep vlen. */
	if (!btf_is_func(t) || btf_vlen(t) != BTF_FUNC_EXTERN)
		return 0; /* ksym variable, .kconfig, or not an extern */
	/* libbpf refuses all of these when it opens the object. */
	if (!in_ksyms(obj->btf, id)) {
		pr_warn("extern '%s': its BTF FUNC [%d] is not in the .ksyms DATASEC\n", name, id);
		return -EINVAL;
	}
	proto = mkf_skip_mods_typedefs(obj->btf, t->type, NULL);
	if (!proto || !btf_is_func_proto(proto)) {
		pr_warn("extern '%s': the type of its BTF FUNC [%d] is not a FUNC_PROTO\n",
			name, id);
		return -EINVAL;
	}
	for (i = 0; i < obj->extern_cnt; i++) {
		if (!strcmp(obj->externs[i].name, name)) {
			pr_warn("extern '%s' is defined twice in the symbol table (symbols %zu "
				"and %zu)\n", name, obj->externs[i].sym_idx, sym_idx);
			return -EINVAL;
		}
	}

	ext = realloc(obj->externs, (obj->extern_cnt + 1) * sizeof(*ext));
	if (!ext)
		return -ENOMEM;
	obj->externs = ext;
	ext = &ext[obj->extern_cnt];
	memset(ext, 0, sizeof(*ext));
	ext->name = strdup(name);
	ext->essential = strndup(name, mkf_essential_name_len(name));
	if (!ext->name || !ext->essential) {
		free(ext->name);
		free(ext->essential);
		return -ENOMEM;
	}
	ext->sym_idx = sym_idx;
	ext->func_id = id;
	mkf_skip_mods_typedefs(obj->btf, t->type, &ext->proto_id);
	ext->weak = GELF_ST_BIND(sym->st_info) == STB_WEAK;
	obj->extern_cnt++;
	return 0;
}

static int collect_externs(struct mkf_object *obj)
{
	const char *name;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t i;

	while ((scn = elf_nextscn(obj->elf, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			return -EINVAL;
		if (shdr.sh_type == SHT_SYMTAB)
			break;
	}
	if (!scn)
		return 0; /* no symbols, no externs */
	if (!shdr.sh_entsize)
		return -EINVAL;
	obj->symtab_shndx = elf_ndxscn(scn);
	obj->sym_cnt = shdr.sh_size / shdr.sh_entsize;
	data = elf_getdata(scn, NULL);
	if (!data)
		return -EINVAL;
	/* The rewrite names merged externs "" by pointing them at offset 0. */
	name = elf_strptr(obj->elf, shdr.sh_link, 0);
	if (!name || *name) {
		pr_warn("the symbol string table does not start with an empty string\n");
		return -EINVAL;
	}
	for (i = 0; i < obj->sym_cnt; i++) {
		GElf_Sym sym;
		int err;

		if (!gelf_getsym(data, (int)i, &sym))
			return -EINVAL;
		/*
		 * A name past the end of the string table would get a meaning
		 * once the rewrite appends names there.
		 */
		name = elf_strptr(obj->elf, shdr.sh_link, sym.st_name);
		if (!name) {
			pr_warn("symbol %zu: its name is not in the string table\n", i);
			return -EINVAL;
		}
		if (!sym_is_extern(&sym) || !*name)
			continue;
		if (!obj->btf) {
			/* libbpf needs BTF for every extern. */
			pr_warn("extern '%s': the object has no .BTF to describe it\n", name);
			return -EINVAL;
		}
		err = add_extern(obj, name, i, &sym);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Every section header readable and every section inside the image:
 * libelf reads them lazily, so a truncated object would otherwise look
 * like one without sections.
 */
static int check_sections(Elf *elf, const GElf_Ehdr *ehdr, size_t sz)
{
	size_t shnum, shstrndx, i;
	GElf_Shdr sh;

	/* libelf silently sees no sections when their headers are cut off. */
	if (ehdr->e_shoff > sz ||
	    (size_t)ehdr->e_shnum * ehdr->e_shentsize > sz - ehdr->e_shoff) {
		pr_warn("the section headers lie past the end of the object (%zu bytes): "
			"truncated?\n", sz);
		return -EINVAL;
	}
	if (elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx) ||
	    (shnum && shstrndx >= shnum)) {
		pr_warn("cannot read the section headers: %s\n", elf_errmsg(-1));
		return -EINVAL;
	}
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);

		if (!scn || !gelf_getshdr(scn, &sh)) {
			pr_warn("section %zu: cannot read its header: %s\n", i, elf_errmsg(-1));
			return -EINVAL;
		}
		/* The rewrite lays the image out again with these alignments. */
		if (sh.sh_addralign > MAX_ALIGN || (sh.sh_addralign & (sh.sh_addralign - 1))) {
			pr_warn("section %zu: alignment %llu is not a power of two up to %d\n",
				i, (unsigned long long)sh.sh_addralign, MAX_ALIGN);
			return -EINVAL;
		}
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > sz || sh.sh_size > sz - sh.sh_offset)) {
			pr_warn("section %zu lies past the end of the object (%zu bytes): "
				"truncated?\n", i, sz);
			return -EINVAL;
		}
	}
	return 0;
}

int mkf_object_open(struct mkf_object *obj, const void *buf, size_t sz)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Data *data;
	Elf_Scn *scn;
	int err;

	memset(obj, 0, sizeof(*obj));
	if (!buf || sz < sizeof(Elf64_Ehdr))
		return -EINVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	/* libelf may convert data in place: work on a private copy. */
	obj->buf = malloc(sz);
	if (!obj->buf)
		return -ENOMEM;
	memcpy(obj->buf, buf, sz);
	obj->sz = sz;
	obj->elf = elf_memory(obj->buf, sz);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF || !gelf_getehdr(obj->elf, &ehdr) ||
	    ehdr.e_type != ET_REL) {
		pr_warn("not a relocatable ELF object\n");
		err = -EINVAL;
		goto err_out;
	}
	if (ehdr.e_machine != EM_BPF && ehdr.e_machine != EM_NONE) {
		pr_warn("not a BPF object (e_machine %u)\n", ehdr.e_machine);
		err = -EINVAL;
		goto err_out;
	}
	err = check_sections(obj->elf, &ehdr, sz);
	if (err)
		goto err_out;
	scn = mkf_elf_find_scn(obj->elf, ".BTF", &shdr);
	if (scn) {
		data = elf_getdata(scn, NULL);
		/* SHT_NOBITS: a size but no bytes, which btf__new() would read. */
		if (data && !data->d_buf) {
			pr_warn("the object's .BTF has no contents (SHT_NOBITS)\n");
			err = -EINVAL;
			goto err_out;
		}
		obj->btf = data ? btf__new(data->d_buf, data->d_size) : NULL;
		if (!obj->btf) {
			err = data ? -errno : -EINVAL;
			pr_warn("cannot parse the object's .BTF: %s\n", strerror(-err));
			goto err_out;
		}
		err = mkf_btf_check_names(obj->btf, "the object's .BTF");
		if (err)
			goto err_out;
	}
	err = collect_externs(obj);
	if (err)
		goto err_out;
	return 0;
err_out:
	mkf_object_close(obj);
	return err;
}

void mkf_object_close(struct mkf_object *obj)
{
	size_t i;

	for (i = 0; i < obj->extern_cnt; i++) {
		free(obj->externs[i].name);
		free(obj->externs[i].essential);
	}
	free(obj->externs);
	btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	free(obj->buf);
	memset(obj, 0, sizeof(*obj));
}
