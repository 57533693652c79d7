// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* What libbpf 1.1's open would crash or hang on (see obj_check.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "btf_util.h"
#include "elf_util.h"
#include "log.h"
#include "obj_check.h"

/*
 * Sections libbpf takes by name, and where a second one would be read
 * by libbpf but not by this library's checks (libbpf keeps the last).
 */
static const char *const single_sections[] = { ".BTF", ".BTF.ext", ".struct_ops" };

int mkf_obj_check_sections(Elf *elf)
{
	size_t shstrndx, i, cnt[sizeof(single_sections) / sizeof(single_sections[0])] = {};
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		for (i = 0; name && i < sizeof(cnt) / sizeof(cnt[0]); i++) {
			if (strcmp(name, single_sections[i]) || ++cnt[i] < 2)
				continue;
			pr_err("the object has more than one %s section\n", single_sections[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* libbpf 1.1 reads the data of every relocation section's target. */
static int check_rel_targets(Elf *elf, size_t shnum)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *td, *rd;
		Elf_Scn *target;
		const char *name;
		GElf_Rel r;
		int k;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_REL)
			continue;
		/*
		 * libbpf 1.1 skips DWARF sections and their relocations
		 * (ignore_elf_section()) before reading them; in an object
		 * built with -g they are most of its relocations.
		 */
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strncmp(name, ".rel.debug_", 11))
			continue;
		target = sh.sh_info && sh.sh_info < shnum ? elf_getscn(elf, sh.sh_info) : NULL;
		td = target ? elf_getdata(target, NULL) : NULL;
		if (!td) {
			pr_err("section %zu: relocations for section %u, which has no contents\n",
			       elf_ndxscn(scn), sh.sh_info);
			return -EINVAL;
		}
		/* Each relocation inside its target: libbpf 1.1 indexes with the offset. */
		rd = elf_getdata(scn, NULL);
		for (k = 0; rd && gelf_getrel(rd, k, &r); k++) {
			if (r.r_offset < td->d_size)
				continue;
			pr_err("section %zu: relocation %d at offset %llu, past the end of section %u "
			       "(%zu bytes)\n", elf_ndxscn(scn), k, (unsigned long long)r.r_offset,
			       sh.sh_info, td->d_size);
			return -EINVAL;
		}
	}
	return 0;
}

/* libbpf 1.1 computes a program's end as value + size without overflow checks. */
static int check_func_symbols(Elf *elf, size_t symtab, size_t shnum)
{
	Elf_Data *d = elf_getdata(elf_getscn(elf, symtab), NULL);
	GElf_Sym sym;
	GElf_Shdr sh;
	int i;

	for (i = 0; d && gelf_getsym(d, i, &sym); i++) {
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= shnum)
			continue;
		if (!gelf_getshdr(elf_getscn(elf, sym.st_shndx), &sh))
			return -EINVAL;
		if (sym.st_value > sh.sh_size || sym.st_size > sh.sh_size - sym.st_value) {
			pr_err("symbol %d: function at %llu, %llu bytes, past the end of its "
			       "section (%llu bytes)\n", i, (unsigned long long)sym.st_value,
			       (unsigned long long)sym.st_size, (unsigned long long)sh.sh_size);
			return -EINVAL;
		}
	}
	return 0;
}

int mkf_obj_check_elf(Elf *elf, size_t symtab)
{
	size_t shnum;
	int err;

	if (elf_getshdrnum(elf, &shnum))
		return -EINVAL;
	err = check_rel_targets(elf, shnum);
	if (!err && symtab)
		err = check_func_symbols(elf, symtab, shnum);
	return err;
}

/* libbpf 1.1 indexes a FUNC's type as a FUNC_PROTO's parameters, and writes there. */
static int check_func_types(const struct btf *btf, __u32 from, __u32 n)
{
	__u32 id;

	for (id = from; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_func(t) && !btf_is_func_proto(btf__type_by_id(btf, t->type))) {
			pr_err("the object's .BTF: FUNC [%u] has a type that is not a "
			       "FUNC_PROTO\n", id);
			return -EINVAL;
		}
	}
	return 0;
}

/* The types a type holds by value: what sizing and alignment recurse into. */
static __u32 contained(const struct btf_type *t, __u32 i)
{
	switch (btf_kind(t)) {
	case BTF_KIND_ARRAY:
		return btf_array(t)->type;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return btf_members(t)[i].type;
	default:
		return t->type;
	}
}

static __u32 contained_cnt(const struct btf *btf, const struct btf_type *t)
{
	(void)btf;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return btf_vlen(t);
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_ARRAY:
		return 1;
	default:
		return 0;
	}
}

/*
 * A type that holds itself by value, through members, array elements,
 * modifiers or typedefs: libbpf 1.1 loops forever in
 * skip_mods_and_typedefs() or recurses until the stack ends in
 * btf__align_of().
 */
static int check_containment_cycles(const struct btf *btf, __u32 from)
{
	static const struct mkf_btf_edges holds = { contained_cnt, contained };
	__u32 cycle;
	int err = mkf_btf_find_cycle(btf, &holds, from, &cycle);

	if (!err && cycle) {
		pr_err("the object's .BTF: type [%u] contains itself (a cycle of members, "
		       "array elements, modifiers or typedefs)\n", cycle);
		err = -EINVAL;
	}
	return err;
}

/* libbpf 1.1 keeps a .kconfig extern's size in an int and returns it as a pointer. */
static int check_kconfig_sizes(const struct btf *btf, __u32 n)
{
	__u32 id;
	__u16 i;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_datasec(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || strcmp(name, ".kconfig"))
			continue;
		for (i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *v = btf__type_by_id(btf, btf_var_secinfos(t)[i].type);
			long long sz;

			if (!v || !btf_is_var(v))
				continue;
			sz = btf__resolve_size(btf, v->type);
			if (sz > INT_MAX) {
				pr_err("the object's .BTF: .kconfig variable [%u] is %lld bytes\n",
				       btf_var_secinfos(t)[i].type, sz);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* The value of the symbol named name, or -1 (symtab: its section index). */
static long long symbol_value(Elf *elf, size_t symtab, const char *name)
{
	Elf_Scn *scn = elf_getscn(elf, symtab);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	int i;

	if (!d || !name || !gelf_getshdr(scn, &sh))
		return -1;
	for (i = 0; gelf_getsym(d, i, &sym); i++) {
		const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);

		if (s && !strcmp(s, name) && GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
			return (long long)sym.st_value;
	}
	return -1;
}

/* libbpf 1.1 copies each struct_ops variable from .struct_ops unchecked. */
static int check_struct_ops(Elf *elf, size_t symtab, const struct btf *btf)
{
	int ds = btf__find_by_name_kind(btf, ".struct_ops", BTF_KIND_DATASEC);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	Elf_Data *data;
	GElf_Shdr sh;
	Elf_Scn *scn;
	__u16 i;

	scn = mkf_elf_find_scn(elf, ".struct_ops", &sh);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (ds <= 0 || !data)
		return 0;
	t = btf__type_by_id(btf, ds);
	vs = btf_var_secinfos(t);
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *v = btf__type_by_id(btf, vs[i].type);
		long long sz = btf__resolve_size(btf, vs[i].type), off = vs[i].offset, sym;

		if (sz < 0)
			continue;
		/* A DATASEC clang left unsized: libbpf takes offsets from the symbols. */
		if (!t->size && v && btf_is_var(v)) {
			sym = symbol_value(elf, symtab, btf__name_by_offset(btf, v->name_off));
			if (sym >= 0)
				off = (__u32)sym;
		}
		if ((unsigned long long)off + (unsigned long long)sz > data->d_size) {
			pr_err("the object's .BTF: struct_ops variable [%u] (%lld bytes at %lld) "
			       "lies past the end of .struct_ops (%zu bytes)\n", vs[i].type, sz,
			       off, data->d_size);
			return -EINVAL;
		}
	}
	return 0;
}

int mkf_obj_check_btf(Elf *elf, size_t symtab, const struct btf *btf)
{
	__u32 n = btf__type_cnt(btf);
	int err;

	err = check_func_types(btf, 1, n);
	if (!err)
		err = check_containment_cycles(btf, 1);
	/* Sizes resolve only once no type contains itself. */
	if (!err)
		err = check_kconfig_sizes(btf, n);
	if (!err)
		err = check_struct_ops(elf, symtab, btf);
	return err;
}

int mkf_obj_check_btf_added(const struct btf *btf, __u32 from)
{
	int err = check_func_types(btf, from, btf__type_cnt(btf));

	return err ?: check_containment_cycles(btf, from);
}
