// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Register set-up before kfunc calls (see call_patch.h). Each code
 * section with call sites is patched in turn; every call feeds the
 * previous one's outputs (symbols, relocations, other sections'
 * instructions, .BTF.ext), as the patcher requires.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_patch.h"
#include "elf_util.h"
#include "insn_patch.h"
#include "log.h"
#include "obj_image.h"

/* One section of the object as the patching goes on. */
struct scn {
	GElf_Shdr sh;
	const char *name;
	/* An aligned copy of the input's bytes: sections may sit at any
	 * offset of the image, and the patcher reads typed arrays. */
	void *orig;
	void *cur;		/* replaced contents, or NULL */
	size_t size;		/* of whichever is current */
};

struct state {
	struct scn *scns;
	size_t shnum;
	size_t symtab, btf_ext;	/* section indexes, 0: none */
	/* The relocation sections (SHT_REL), in section order. */
	size_t *rel_idx;
	size_t rel_cnt;
};

static const void *data_of(const struct scn *s)
{
	return s->cur ? s->cur : s->orig;
}

/* Take buf (size bytes) as section i's new contents. */
static int replace(struct state *st, size_t i, const void *buf, size_t size)
{
	void *copy = malloc(size ? size : 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, size);
	free(st->scns[i].cur);
	st->scns[i].cur = copy;
	st->scns[i].size = size;
	return 0;
}

static int load(Elf *elf, size_t symtab, struct state *st)
{
	size_t shstrndx, i;

	if (elf_getshdrnum(elf, &st->shnum) || elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	st->scns = calloc(st->shnum + 1, sizeof(*st->scns));
	st->rel_idx = calloc(st->shnum + 1, sizeof(*st->rel_idx));
	if (!st->scns || !st->rel_idx)
		return -ENOMEM;
	st->symtab = symtab;
	st->scns[0].name = "";
	for (i = 1; i < st->shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		struct scn *s = &st->scns[i];

		if (!scn || !gelf_getshdr(scn, &s->sh))
			return -EINVAL;
		s->name = elf_strptr(elf, shstrndx, s->sh.sh_name);
		if (!s->name)
			s->name = "";
	}
	for (i = 1; i < st->shnum; i++) {
		struct scn *s = &st->scns[i];
		size_t t = s->sh.sh_info;
		bool dwarf_rel = t && t < st->shnum &&
				 mkf_scn_is_dwarf_rel(&s->sh, s->name, &st->scns[t].sh,
						      st->scns[t].name);
		Elf_Data *d;

		/*
		 * DWARF and its relocations: not in the reader's image, and
		 * the patch needs none of it (the writer keeps the caller's).
		 */
		d = s->sh.sh_type == SHT_NOBITS || mkf_scn_is_dwarf(&s->sh, s->name) || dwarf_rel ?
		    NULL : elf_getdata(elf_getscn(elf, i), NULL);
		s->size = d && d->d_buf ? d->d_size : 0;
		if (s->size) {
			s->orig = malloc(s->size);
			if (!s->orig)
				return -ENOMEM;
			memcpy(s->orig, d->d_buf, s->size);
		}
		if (s->sh.sh_type == SHT_REL && !dwarf_rel)
			st->rel_idx[st->rel_cnt++] = i;
		if (s->sh.sh_type == SHT_RELA && s->sh.sh_info < st->shnum) {
			/* BPF objects use SHT_REL; the patcher knows no addends. */
			pr_err("section %s: RELA relocations are not supported for call patching\n",
			       s->name);
			return -EINVAL;
		}
		if (!strcmp(s->name, ".BTF.ext"))
			st->btf_ext = i;
	}
	for (i = 0; i < st->rel_cnt; i++) {
		const struct scn *r = &st->scns[st->rel_idx[i]];

		if (!r->sh.sh_info || r->sh.sh_info >= st->shnum || r->sh.sh_link != symtab ||
		    r->sh.sh_entsize != sizeof(Elf64_Rel)) {
			pr_err("section %s: relocations the patcher cannot follow (target %u, "
			       "symbols %u, entry size %llu)\n", r->name, r->sh.sh_info,
			       r->sh.sh_link, (unsigned long long)r->sh.sh_entsize);
			return -EINVAL;
		}
	}
	return 0;
}

static void state_free(struct state *st)
{
	size_t i;

	for (i = 0; st->scns && i < st->shnum; i++) {
		free(st->scns[i].cur);
		free(st->scns[i].orig);
	}
	free(st->scns);
	free(st->rel_idx);
}

static bool is_code(const struct state *st, size_t i)
{
	return i && i < st->shnum && (st->scns[i].sh.sh_flags & SHF_EXECINSTR) &&
	       st->scns[i].sh.sh_type == SHT_PROGBITS;
}

static __u32 regs_of(const struct mkf_call_regs *want, size_t n, size_t sym)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (want[i].sym_idx == sym)
			return want[i].regs;
	return 0;
}

/* The set-up of one call site: RN = 0 for each bit N of regs. */
static size_t setup_insns(__u32 regs, struct bpf_insn *buf)
{
	size_t n = 0;
	int r;

	for (r = 1; r <= 5; r++) {
		if (!(regs & (1u << r)))
			continue;
		memset(&buf[n], 0, sizeof(buf[n]));
		buf[n].code = BPF_ALU64 | BPF_MOV | BPF_K;
		buf[n].dst_reg = r;
		n++;
	}
	return n;
}

/* Patch code section s at every call to a wanted symbol; 0 if none. */
static int patch_section(struct state *st, size_t s, const struct mkf_call_regs *want,
			 size_t want_cnt, const char *strs, size_t strs_sz, size_t *sites)
{
	struct mkf_ip_relsec *relsecs = calloc(st->rel_cnt + 1, sizeof(*relsecs));
	struct mkf_ip_insert *ins = NULL;
	struct bpf_insn (*setup)[5] = NULL;
	struct mkf_ip_input in = {};
	struct mkf_ip_output out = {};
	size_t i, k, n = 0, cap = 0;
	char why[256];
	int err = 0;

	if (!relsecs)
		return -ENOMEM;
	for (i = 0; i < st->rel_cnt; i++) {
		const struct scn *r = &st->scns[st->rel_idx[i]];
		size_t t = r->sh.sh_info;

		relsecs[i].shndx = (Elf64_Word)t;
		relsecs[i].rels = data_of(r);
		relsecs[i].rel_cnt = r->size / sizeof(Elf64_Rel);
		if (is_code(st, t)) {
			relsecs[i].insns = data_of(&st->scns[t]);
			relsecs[i].insn_cnt = st->scns[t].size / sizeof(struct bpf_insn);
		}
		/* DWARF, which libbpf ignores: ".debug_*" only (".debugger" is code). */
		relsecs[i].ignore = !strncmp(st->scns[t].name, ".debug_", 7);
		if (t != s)
			continue;
		/* The call sites: kfunc call instructions relocated against a wanted extern. */
		for (k = 0; k < relsecs[i].rel_cnt; k++) {
			const Elf64_Rel *rel = &relsecs[i].rels[k];
			const struct bpf_insn *insn;
			__u32 regs = regs_of(want, want_cnt, ELF64_R_SYM(rel->r_info));
			size_t at = rel->r_offset / sizeof(*insn);

			if (!regs || rel->r_offset % sizeof(*insn) || at >= relsecs[i].insn_cnt)
				continue;
			insn = &relsecs[i].insns[at];
			if (insn->code != (BPF_JMP | BPF_CALL))
				continue;
			if (n == cap) {
				void *a = realloc(ins, (cap * 2 + 8) * sizeof(*ins));
				void *b = a ? realloc(setup, (cap * 2 + 8) * sizeof(*setup)) : NULL;

				if (a)
					ins = a;
				if (!b) {
					err = -ENOMEM;
					goto out;
				}
				setup = b;
				cap = cap * 2 + 8;
			}
			ins[n].idx = at;
			ins[n].cnt = setup_insns(regs, setup[n]);
			n++;
		}
	}
	*sites = n;
	if (!n)
		goto out;
	/* setup may have moved while growing: point the insertions at it now. */
	for (i = 0; i < n; i++)
		ins[i].insns = setup[i];
	in.shndx = (Elf64_Word)s;
	in.sec_name = st->scns[s].name;
	in.insns = data_of(&st->scns[s]);
	in.insn_cnt = st->scns[s].size / sizeof(struct bpf_insn);
	in.syms = data_of(&st->scns[st->symtab]);
	in.sym_cnt = st->scns[st->symtab].size / sizeof(Elf64_Sym);
	in.relsecs = relsecs;
	in.relsec_cnt = st->rel_cnt;
	if (st->btf_ext) {
		in.btf_ext = data_of(&st->scns[st->btf_ext]);
		in.btf_ext_sz = st->scns[st->btf_ext].size;
		in.btf_ext_shndx = (Elf64_Word)st->btf_ext;
		in.btf_strs = strs;
		in.btf_strs_sz = strs_sz;
	}
	err = mkf_insn_patch(&in, ins, n, &out, why, sizeof(why));
	if (err) {
		if (err == -EINVAL)
			pr_err("section %s: cannot insert the register set-up before its kfunc "
			       "calls: %s\n", st->scns[s].name, why);
		goto out;
	}
	/* Take the outputs: this section, symbols, relocations, other code, .BTF.ext. */
	err = replace(st, s, out.insns, out.insn_cnt * sizeof(struct bpf_insn));
	if (!err)
		err = replace(st, st->symtab, out.syms, in.sym_cnt * sizeof(Elf64_Sym));
	for (i = 0; !err && i < st->rel_cnt; i++) {
		size_t t = relsecs[i].shndx;

		if (out.relsecs[i].rels)
			err = replace(st, st->rel_idx[i], out.relsecs[i].rels,
				      relsecs[i].rel_cnt * sizeof(Elf64_Rel));
		if (!err && out.relsecs[i].insns)
			err = replace(st, t, out.relsecs[i].insns,
				      relsecs[i].insn_cnt * sizeof(struct bpf_insn));
	}
	if (!err && out.btf_ext)
		err = replace(st, st->btf_ext, out.btf_ext, out.btf_ext_sz);
	mkf_ip_output_free(&out);
out:
	free(ins);
	free(setup);
	free(relsecs);
	return err;
}

int mkf_call_patch(Elf *elf, size_t symtab_shndx, const struct mkf_call_regs *want,
		   size_t want_cnt, const void *btf_raw, size_t btf_raw_sz,
		   struct mkf_scn_edits *out)
{
	struct state st = {};
	const char *strs = NULL;
	size_t strs_sz = 0, i, sites, total = 0;
	int err;

	memset(out, 0, sizeof(*out));
	err = load(elf, symtab_shndx, &st);
	if (!err && st.btf_ext && (!btf_raw ||
	    mkf_ip_btf_strings(btf_raw, btf_raw_sz, &strs, &strs_sz))) {
		pr_err("the object's .BTF strings cannot be read: .BTF.ext cannot be kept in step\n");
		err = -EINVAL;
	}
	for (i = 1; !err && i < st.shnum; i++) {
		if (!is_code(&st, i))
			continue;
		err = patch_section(&st, i, want, want_cnt, strs, strs_sz, &sites);
		total += sites;
	}
	for (i = 1; !err && i < st.shnum; i++) {
		struct mkf_scn_edit *v;

		if (!st.scns[i].cur)
			continue;
		v = realloc(out->v, (out->cnt + 1) * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
			break;
		}
		out->v = v;
		v[out->cnt].shndx = i;
		v[out->cnt].data = st.scns[i].cur;
		v[out->cnt].size = st.scns[i].size;
		st.scns[i].cur = NULL;
		out->cnt++;
	}
	if (err)
		mkf_scn_edits_free(out);
	else
		pr_debug("register set-up inserted before %zu kfunc calls\n", total);
	state_free(&st);
	return err;
}

void mkf_scn_edits_free(struct mkf_scn_edits *edits)
{
	size_t i;

	for (i = 0; i < edits->cnt; i++)
		free(edits->v[i].data);
	free(edits->v);
	memset(edits, 0, sizeof(*edits));
}
