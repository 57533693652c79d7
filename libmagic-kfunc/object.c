// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Find the kfunc externs of a BPF object, as libbpf's collect_externs does. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libelf.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "btf_util.h"
#include "log.h"
#include "elf_util.h"
#include "obj_check.h"
#include "object.h"

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

static bool sym_is_extern(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);

	return sym->st_shndx == SHN_UNDEF &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) &&
	       GELF_ST_TYPE(sym->st_info) == STT_NOTYPE;
}

static int cmp_btf_name(const void *a, const void *b)
{
	const struct mkf_btf_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

/*
 * One pass over the object's BTF: its FUNCs and VARs by name, and which
 * types the .ksyms DATASEC lists. Externs are looked up here, not by a
 * scan of the BTF each.
 */
static int index_object_btf(struct mkf_obj *obj)
{
	__u32 id, n = btf__type_cnt(obj->btf);
	const struct btf_var_secinfo *vs;
	__u16 j;

	obj->in_ksyms = calloc(n, 1);
	obj->btf_names = calloc(n, sizeof(*obj->btf_names));
	if (!obj->in_ksyms || !obj->btf_names)
		return -ENOMEM;
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, id);

		if (btf_is_var(t) || btf_is_func(t)) {
			obj->btf_names[obj->btf_name_cnt].name = mkf_btf_name(obj->btf, t);
			obj->btf_names[obj->btf_name_cnt++].id = id;
		} else if (btf_is_datasec(t) && !strcmp(mkf_btf_name(obj->btf, t), KSYMS_SEC)) {
			vs = btf_var_secinfos(t);
			for (j = 0; j < btf_vlen(t); j++)
				if (vs[j].type < n)
					obj->in_ksyms[vs[j].type] = 1;
		}
	}
	if (obj->btf_name_cnt)
		qsort(obj->btf_names, obj->btf_name_cnt, sizeof(*obj->btf_names), cmp_btf_name);
	return 0;
}

/* The BTF VAR or FUNC libbpf associates with an extern: the first of that name. */
static int find_extern_btf_id(const struct mkf_obj *obj, const char *name)
{
	size_t lo = 0, hi = obj->btf_name_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(obj->btf_names[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < obj->btf_name_cnt && !strcmp(obj->btf_names[lo].name, name))
		return obj->btf_names[lo].id;
	return -ENOENT;
}

static int add_extern(struct mkf_obj *obj, const char *name, size_t sym_idx,
		      const GElf_Sym *sym)
{
	const struct btf_type *t;
	const struct btf_type *proto;
	struct mkf_extern *ext;
	int id;

	id = find_extern_btf_id(obj, name);
	if (id < 0) {
		/*
		 * libbpf refuses this too; left alone, the symbol could take
		 * the name an extern is renamed to (two externs of one name).
		 */
		pr_err("extern '%s': no BTF VAR or FUNC of that name\n", name);
		return -EINVAL;
	}
	t = btf__type_by_id(obj->btf, id);
	/*
	 * libbpf refuses an extern whose BTF is not declared extern; left
	 * alone here, it would keep a name a renamed extern may take.
	 */
	if (btf_is_var(t) ? btf_var(t)->linkage != BTF_VAR_GLOBAL_EXTERN
			  : btf_vlen(t) != BTF_FUNC_EXTERN) {
		pr_err("extern '%s': its BTF %s [%d] is not declared extern\n", name,
			btf_is_var(t) ? "VAR" : "FUNC", id);
		return -EINVAL;
	}
	if (!btf_is_func(t))
		return 0; /* ksym variable or .kconfig */
	/* libbpf refuses all of these when it opens the object. */
	if (!obj->in_ksyms[id]) {
		pr_err("extern '%s': its BTF FUNC [%d] is not in the .ksyms DATASEC\n", name, id);
		return -EINVAL;
	}
	proto = mkf_skip_mods_typedefs(obj->btf, t->type, NULL);
	if (!proto || !btf_is_func_proto(proto)) {
		pr_err("extern '%s': the type of its BTF FUNC [%d] is not a FUNC_PROTO\n",
			name, id);
		return -EINVAL;
	}
	/* Two externs of one name: collect_kept_names() finds them sorted. */
	if (obj->extern_cnt == obj->extern_cap) {
		size_t cap = obj->extern_cap ? obj->extern_cap * 2 : 16;

		ext = realloc(obj->externs, cap * sizeof(*ext));
		if (!ext)
			return -ENOMEM;
		obj->externs = ext;
		obj->extern_cap = cap;
	}
	ext = &obj->externs[obj->extern_cnt];
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool in_sorted(const char *const *names, size_t cnt, const char *name)
{
	return cnt && bsearch(&name, names, cnt, sizeof(*names), cmp_str);
}

bool mkf_obj_name_taken(const struct mkf_obj *obj, const char *name)
{
	return in_sorted(obj->kept_names, obj->kept_cnt, name);
}

/* Whether symbol SYM or BTF type ID is one of the kfunc externs. */
static bool is_kfunc_extern(const struct mkf_obj *obj, size_t sym, __u32 id)
{
	size_t i;

	for (i = 0; i < obj->extern_cnt; i++)
		if (obj->externs[i].sym_idx == sym || obj->externs[i].func_id == id)
			return true;
	return false;
}

int mkf_obj_name_holders(const struct mkf_obj *obj, const char *name,
			 struct mkf_name_holders *h)
{
	Elf_Scn *symtab = obj->symtab_shndx ? elf_getscn(obj->elf, obj->symtab_shndx) : NULL;
	size_t text_idx = 0, i, lo = 0, hi = obj->btf_name_cnt;
	Elf_Data *data = symtab ? elf_getdata(symtab, NULL) : NULL;
	GElf_Shdr sh, tsh;
	Elf_Scn *text;

	text = mkf_elf_find_scn(obj->elf, ".text", &tsh);
	if (text && tsh.sh_type == SHT_PROGBITS && (tsh.sh_flags & SHF_EXECINSTR))
		text_idx = elf_ndxscn(text);

	memset(h, 0, sizeof(*h));
	h->static_funcs = true;
	h->syms = calloc(obj->sym_cnt + 1, sizeof(*h->syms));
	h->btf_ids = calloc(obj->btf_name_cnt + 1, sizeof(*h->btf_ids));
	if (!h->syms || !h->btf_ids) {
		mkf_name_holders_free(h);
		return -ENOMEM;
	}
	for (i = 0; data && gelf_getshdr(symtab, &sh) && i < obj->sym_cnt; i++) {
		const char *sname;
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		sname = elf_strptr(obj->elf, sh.sh_link, sym.st_name);
		if (!sname || strcmp(sname, name))
			continue;
		if (is_kfunc_extern(obj, i, 0))
			continue; /* the plan's to handle */
		h->syms[h->sym_cnt++] = i;
		if (GELF_ST_BIND(sym.st_info) != STB_LOCAL || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !text_idx || sym.st_shndx != text_idx)
			h->static_funcs = false;
	}
	/* The BTF names are sorted by name, then id: the run of NAME. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(obj->btf_names[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < obj->btf_name_cnt && !strcmp(obj->btf_names[i].name, name); i++) {
		const struct btf_type *t = btf__type_by_id(obj->btf, obj->btf_names[i].id);

		if (is_kfunc_extern(obj, SIZE_MAX, obj->btf_names[i].id))
			continue;
		h->btf_ids[h->btf_cnt++] = obj->btf_names[i].id;
		if (!btf_is_func(t) || btf_vlen(t) != BTF_FUNC_STATIC)
			h->static_funcs = false;
	}
	if (!h->sym_cnt)
		h->static_funcs = false; /* no code: a BTF name alone is not a function */
	return 0;
}

void mkf_name_holders_free(struct mkf_name_holders *h)
{
	free(h->syms);
	free(h->btf_ids);
	memset(h, 0, sizeof(*h));
}

/* The symbol of the nth extern (in symbol order) named name. */
static size_t extern_sym(const struct mkf_obj *obj, const char *name, size_t nth)
{
	size_t i;

	for (i = 0; i < obj->extern_cnt; i++)
		if (!strcmp(obj->externs[i].name, name) && !nth--)
			return obj->externs[i].sym_idx;
	return 0;
}

/*
 * The externs' names, sorted, in *names (to free); -EINVAL when two
 * externs share one (libbpf would make two externs of it, or a broken one).
 */
static int sorted_extern_names(const struct mkf_obj *obj, const char ***names)
{
	const char **externs = calloc(obj->extern_cnt + 1, sizeof(*externs));
	size_t i;

	*names = externs;
	if (!externs)
		return -ENOMEM;
	for (i = 0; i < obj->extern_cnt; i++)
		externs[i] = obj->externs[i].name;
	if (obj->extern_cnt)
		qsort(externs, obj->extern_cnt, sizeof(*externs), cmp_str);
	for (i = 1; i < obj->extern_cnt; i++) {
		if (strcmp(externs[i - 1], externs[i]))
			continue;
		pr_err("extern '%s' is defined twice in the symbol table (symbols %zu and %zu)\n",
		       externs[i], extern_sym(obj, externs[i], 0), extern_sym(obj, externs[i], 1));
		return -EINVAL;
	}
	return 0;
}

/*
 * The names no kfunc extern may be renamed to: every other symbol, BTF
 * FUNC and BTF VAR. libbpf looks an extern's BTF up by name, first
 * match, and two symbols of one name make two externs or a broken one.
 */
static int collect_kept_names(struct mkf_obj *obj, Elf_Data *symdata, size_t strtab)
{
	size_t i, j, e, n = 0, sym_n = 0;
	const char **externs, **syms = NULL, *name;
	int err, c = 1;

	err = sorted_extern_names(obj, &externs);
	if (err)
		goto out;
	syms = calloc(obj->sym_cnt + 1, sizeof(*syms));
	obj->kept_names = calloc(obj->sym_cnt + obj->btf_name_cnt + 1, sizeof(*obj->kept_names));
	if (!syms || !obj->kept_names) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < obj->sym_cnt; i++) {
		GElf_Sym sym;

		name = gelf_getsym(symdata, (int)i, &sym) ?
		       elf_strptr(obj->elf, strtab, sym.st_name) : NULL;
		if (!name) {
			err = -EINVAL;
			goto out;
		}
		if (*name)
			syms[sym_n++] = name;
	}
	if (sym_n)
		qsort(syms, sym_n, sizeof(*syms), cmp_str);
	/*
	 * The BTF names are sorted already (index_object_btf()): merge them
	 * with the symbols' and leave out the externs', all in one pass.
	 */
	for (i = j = e = 0; i < sym_n || j < obj->btf_name_cnt;) {
		if (j == obj->btf_name_cnt ||
		    (i < sym_n && strcmp(syms[i], obj->btf_names[j].name) <= 0))
			name = syms[i++];
		else
			name = obj->btf_names[j++].name;
		if (!*name)
			continue;
		while (e < obj->extern_cnt && (c = strcmp(externs[e], name)) < 0)
			e++;
		if (e < obj->extern_cnt && !c)
			continue;
		obj->kept_names[n++] = name;
	}
	obj->kept_cnt = n;
out:
	free(externs);
	free(syms);
	return err;
}

static int collect_externs(struct mkf_obj *obj, bool output)
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
	/* libelf reads symbols of its own size whatever sh_entsize says. */
	if (shdr.sh_entsize != sizeof(Elf64_Sym)) {
		pr_err("the symbol table's entries are %llu bytes, not %zu\n",
			(unsigned long long)shdr.sh_entsize, sizeof(Elf64_Sym));
		return -EINVAL;
	}
	obj->symtab_shndx = elf_ndxscn(scn);
	obj->sym_cnt = shdr.sh_size / shdr.sh_entsize;
	data = elf_getdata(scn, NULL);
	if (!data)
		return -EINVAL;
	/* The rewrite names merged externs "" by pointing them at offset 0. */
	name = elf_strptr(obj->elf, shdr.sh_link, 0);
	if (!name || *name) {
		pr_err("the symbol string table does not start with an empty string\n");
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
			pr_err("symbol %zu: its name is not in the string table\n", i);
			return -EINVAL;
		}
		if (!sym_is_extern(&sym) || !*name)
			continue;
		if (!obj->btf) {
			/* libbpf needs BTF for every extern. */
			pr_err("extern '%s': the object has no .BTF to describe it\n", name);
			return -EINVAL;
		}
		err = add_extern(obj, name, i, &sym);
		if (err)
			return err;
	}
	if (output) {
		/* No rename follows: only that no two externs share a name. */
		const char **externs;
		int err = sorted_extern_names(obj, &externs);

		free(externs);
		return err;
	}
	return collect_kept_names(obj, data, shdr.sh_link);
}

/*
 * Count each extern's call sites: relocations of a code section against
 * the extern's symbol that sit on a call instruction (the kfunc calls
 * libbpf resolves). What the rewrite patches when it sets registers.
 */
static int count_calls(struct mkf_obj *obj)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, tsh;
	size_t i, k, *ext_of;
	int err = 0;

	if (!obj->extern_cnt)
		return 0;
	ext_of = calloc(obj->sym_cnt + 1, sizeof(*ext_of));
	if (!ext_of)
		return -ENOMEM;
	for (i = 0; i < obj->extern_cnt; i++)
		ext_of[obj->externs[i].sym_idx] = i + 1;
	while (!err && (scn = elf_nextscn(obj->elf, scn))) {
		Elf_Scn *target;
		Elf_Data *rd, *td;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_REL ||
		    sh.sh_link != obj->symtab_shndx)
			continue;
		target = elf_getscn(obj->elf, sh.sh_info);
		if (!target || !gelf_getshdr(target, &tsh) || !(tsh.sh_flags & SHF_EXECINSTR))
			continue;
		rd = elf_getdata(scn, NULL);
		td = elf_getdata(target, NULL);
		for (k = 0; rd && td && td->d_buf && k < rd->d_size / sizeof(Elf64_Rel); k++) {
			GElf_Rel r;
			size_t sym;
			struct bpf_insn insn;

			if (!gelf_getrel(rd, (int)k, &r)) {
				err = -EINVAL;
				break;
			}
			sym = GELF_R_SYM(r.r_info);
			if (sym >= obj->sym_cnt || !ext_of[sym] || r.r_offset % sizeof(insn) ||
			    r.r_offset > td->d_size || td->d_size - r.r_offset < sizeof(insn))
				continue;
			/* Sections need not be aligned in the image: copy. */
			memcpy(&insn, (const char *)td->d_buf + r.r_offset, sizeof(insn));
			if (insn.code == (BPF_JMP | BPF_CALL))
				obj->externs[ext_of[sym] - 1].call_cnt++;
		}
	}
	free(ext_of);
	return err;
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
		pr_err("the section headers lie past the end of the object (%zu bytes): "
			"truncated?\n", sz);
		return -EINVAL;
	}
	if (elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx) ||
	    (shnum && shstrndx >= shnum)) {
		pr_err("cannot read the section headers: %s\n", elf_errmsg(-1));
		return -EINVAL;
	}
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);

		if (!scn || !gelf_getshdr(scn, &sh)) {
			pr_err("section %zu: cannot read its header: %s\n", i, elf_errmsg(-1));
			return -EINVAL;
		}
		/* The rewrite lays the image out again with these alignments. */
		if (sh.sh_addralign > MAX_ALIGN || (sh.sh_addralign & (sh.sh_addralign - 1))) {
			pr_err("section %zu: alignment %llu is not a power of two up to %d\n",
				i, (unsigned long long)sh.sh_addralign, MAX_ALIGN);
			return -EINVAL;
		}
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > sz || sh.sh_size > sz - sh.sh_offset)) {
			pr_err("section %zu lies past the end of the object (%zu bytes): "
				"truncated?\n", i, sz);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The .BTF header, checked before libbpf parses it, so that the error
 * says what is wrong (libbpf only logs it) and libbpf never reads past
 * the section.
 */
static int check_btf_header(const void *data, size_t size)
{
	struct btf_header hdr, *h = &hdr;
	__u64 types_end, strs_end;

	if (size < sizeof(*h)) {
		pr_err("the object's .BTF is %zu bytes, shorter than a BTF header\n", size);
		return -EINVAL;
	}
	/* The section may sit at any offset of the image: copy, do not cast. */
	memcpy(&hdr, data, sizeof(hdr));
	if (h->magic == 0x9feb) {
		pr_err("the object's .BTF is of the other byte order (magic 0x9feb)\n");
		return -EOPNOTSUPP;
	}
	if (h->magic != BTF_MAGIC || h->version != BTF_VERSION || h->flags) {
		pr_err("the object's .BTF has a bad header (magic 0x%x, version %u, flags %u)\n",
		       h->magic, h->version, h->flags);
		return -EINVAL;
	}
	types_end = (__u64)h->hdr_len + h->type_off + h->type_len;
	strs_end = (__u64)h->hdr_len + h->str_off + h->str_len;
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size || types_end > size || strs_end > size ||
	    h->type_off % 4) {
		pr_err("the object's .BTF header (length %u, types %u+%u, strings %u+%u) does not "
		       "fit its %zu bytes\n", h->hdr_len, h->type_off, h->type_len, h->str_off,
		       h->str_len, size);
		return -EINVAL;
	}
	/*
	 * clang lays types out first, strings right after. libbpf 1.1
	 * parses a gap or a different order, but writes the BTF back
	 * without it and keeps the old offsets in the header: the rewritten
	 * object would not parse.
	 */
	if (h->type_off || h->str_off != h->type_len) {
		pr_err("the object's .BTF does not have its strings right after its types "
		       "(types %u+%u, strings %u+%u)\n", h->type_off, h->type_len, h->str_off,
		       h->str_len);
		return -EINVAL;
	}
	return 0;
}

/*
 * Read the object in IMAGE (sz bytes), whose .BTF is BTF when given
 * (taken over) or parsed here. OUTPUT is the rewrite's reading of its
 * own output, whose .BTF types below id OUTPUT were the input's,
 * checked when it was read (btf_out.h: the rest was appended): those
 * are not checked again, the calls are not counted, and no names are
 * kept for renames. 0 for any other object.
 */
static int read_image(struct mkf_obj *obj, void *image, size_t sz, struct btf *btf,
		      __u32 output)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Data *data;
	Elf_Scn *scn;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		pr_err("libelf: %s\n", elf_errmsg(-1));
		btf__free(btf);
		return -EINVAL;
	}
	obj->elf = elf_memory(image, sz);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF || !gelf_getehdr(obj->elf, &ehdr) ||
	    ehdr.e_type != ET_REL) {
		pr_err("not a relocatable ELF object\n");
		err = -EINVAL;
		goto err_out;
	}
	if (ehdr.e_machine != EM_BPF && ehdr.e_machine != EM_NONE) {
		pr_err("not a BPF object (e_machine %u)\n", ehdr.e_machine);
		err = -EINVAL;
		goto err_out;
	}
	err = check_sections(obj->elf, &ehdr, sz);
	if (!err)
		err = mkf_obj_check_sections(obj->elf);
	if (err)
		goto err_out;
	scn = mkf_elf_find_scn(obj->elf, ".BTF", &shdr);
	if (scn) {
		data = elf_getdata(scn, NULL);
		/* SHT_NOBITS: a size but no bytes, which btf__new() would read. */
		if (data && !data->d_buf) {
			pr_err("the object's .BTF has no contents (SHT_NOBITS)\n");
			err = -EINVAL;
			goto err_out;
		}
		err = data ? check_btf_header(data->d_buf, data->d_size) : 0;
		if (err)
			goto err_out;
		obj->btf = btf ? btf : data ? btf__new(data->d_buf, data->d_size) : NULL;
		btf = NULL;
		if (!obj->btf) {
			err = data ? -errno : -EINVAL;
			/* The header is sound: a type record is not (-d: libbpf's words). */
			pr_err("cannot parse the object's .BTF: %s%s\n", strerror(-err),
			       data ? " (a type record is malformed)" : "");
			goto err_out;
		}
		err = mkf_btf_check_from(obj->btf, output ?: 1, "the object's .BTF");
		if (!err)
			err = index_object_btf(obj);
		if (err)
			goto err_out;
	}
	err = collect_externs(obj, output);
	if (!err && !output)
		err = count_calls(obj);
	/* What libbpf 1.1's open would crash on: nobody gets to hand it over. */
	if (!err)
		err = mkf_obj_check_elf(obj->elf, obj->symtab_shndx);
	if (!err && obj->btf)
		err = output ? mkf_obj_check_btf_added(obj->btf, output)
			     : mkf_obj_check_btf(obj->elf, obj->symtab_shndx, obj->btf);
	if (err)
		goto err_out;
	return 0;
err_out:
	btf__free(btf);
	mkf_obj_release(obj);
	return err;
}

static int check_size(const void *buf, size_t sz)
{
	if (!buf || sz < sizeof(Elf64_Ehdr)) {
		pr_err("the object is %zu bytes, too short for an ELF header (%zu)\n",
		       buf ? sz : 0, sizeof(Elf64_Ehdr));
		return -EINVAL;
	}
	return 0;
}

/*
 * The caller's bytes stay where they are (src); libelf reads a private
 * copy without the DWARF (obj_image.h), skipping DWARF ranges when
 * known (have_dwarf), else finding them.
 */
static int read_source(struct mkf_obj *obj, const void *buf, size_t sz,
		       const struct mkf_range *dwarf, size_t dwarf_cnt, bool have_dwarf)
{
	int err;

	memset(obj, 0, sizeof(*obj));
	err = check_size(buf, sz);
	if (err)
		return err;
	err = have_dwarf ? mkf_obj_image_copy_skip(&obj->img, buf, sz, dwarf, dwarf_cnt)
			 : mkf_obj_image_copy(&obj->img, buf, sz);
	if (err)
		return err;
	obj->src = buf;
	obj->src_sz = sz;
	return read_image(obj, obj->img.buf, sz, NULL, 0);
}

int mkf_obj_read(struct mkf_obj *obj, const void *buf, size_t sz)
{
	return read_source(obj, buf, sz, NULL, 0, false);
}

/* Read buf (sz bytes) where it lies: libelf reads the bytes src names. */
static int read_in_place(struct mkf_obj *obj, void *buf, size_t sz, struct btf *btf,
			 __u32 output)
{
	int err;

	memset(obj, 0, sizeof(*obj));
	err = check_size(buf, sz);
	if (err) {
		btf__free(btf);
		return err;
	}
	obj->src = buf;
	obj->src_sz = sz;
	return read_image(obj, buf, sz, btf, output);
}

int mkf_obj_read_own(struct mkf_obj *obj, void *buf, size_t sz)
{
	if (!mkf_obj_image_in_place(buf, sz))
		return read_source(obj, buf, sz, NULL, 0, false);
	return read_in_place(obj, buf, sz, NULL, 0);
}

int mkf_obj_read_skip(struct mkf_obj *obj, const void *buf, size_t sz,
		      const struct mkf_range *dwarf, size_t dwarf_cnt)
{
	return read_source(obj, buf, sz, dwarf, dwarf_cnt, true);
}

int mkf_obj_read_output(struct mkf_obj *obj, void *buf, size_t sz, struct btf *btf,
			__u32 added_from)
{
	return read_in_place(obj, buf, sz, btf, added_from > 1 ? added_from : 1);
}

void mkf_obj_release(struct mkf_obj *obj)
{
	size_t i;

	for (i = 0; i < obj->extern_cnt; i++) {
		free(obj->externs[i].name);
		free(obj->externs[i].essential);
	}
	free(obj->externs);
	free(obj->kept_names);
	free(obj->btf_names);
	free(obj->in_ksyms);
	btf__free(obj->btf);
	if (obj->elf)
		elf_end(obj->elf);
	mkf_obj_image_free(&obj->img);
	memset(obj, 0, sizeof(*obj));
}
