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
	struct mkf_extern *ext;
	int id;

	id = find_extern_btf_id(obj->btf, name);
	if (id < 0)
		return 0; /* typeless ksym: not a kfunc */
	t = btf__type_by_id(obj->btf, id);
	/* A FUNC's linkage is stored where other kinds keep vlen. */
	if (!btf_is_func(t) || btf_vlen(t) != BTF_FUNC_EXTERN || !in_ksyms(obj->btf, id))
		return 0; /* ksym variable, .kconfig, or not an extern */

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
	for (i = 0; i < obj->sym_cnt; i++) {
		const char *name;
		GElf_Sym sym;
		int err;

		if (!gelf_getsym(data, (int)i, &sym))
			return -EINVAL;
		if (!sym_is_extern(&sym))
			continue;
		name = elf_strptr(obj->elf, shdr.sh_link, sym.st_name);
		if (!name || !*name || !obj->btf)
			continue;
		err = add_extern(obj, name, i, &sym);
		if (err)
			return err;
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
	scn = mkf_elf_find_scn(obj->elf, ".BTF", &shdr);
	if (scn) {
		data = elf_getdata(scn, NULL);
		obj->btf = data ? btf__new(data->d_buf, data->d_size) : NULL;
		if (!obj->btf) {
			err = data ? -errno : -EINVAL;
			pr_warn("cannot parse the object's .BTF: %s\n", strerror(-err));
			goto err_out;
		}
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
