// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Instruction patcher (docs/design.md, section 5). Everything is computed from two
 * maps of old instruction indexes to new ones:
 *
 *   at(j)   = j + (instructions inserted at points <= j)
 *             where instruction j itself now sits;
 *   land(j) = j + (instructions inserted at points <  j)
 *             where control reaching j now arrives: the first inserted
 *             instruction when there is an insertion at j.
 *
 * A reference TO a position (jump and call targets, callback addresses,
 * function starts, labels, func_info) uses land(), so no path skips a
 * patch and a function starting at the point owns it. A reference OF an
 * instruction (relocation offsets, CO-RE relocations, the jump's own
 * position) uses at(). Both maps are monotonic and at(a) < land(b) for
 * a < b, so relative order (strictly increasing .BTF.ext offsets, symbol
 * ranges) is preserved.
 *
 * All results are built in fresh buffers and handed over at the end, so
 * a refusal leaves the caller's data and *out as they were.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_patch.h"

/* Debian 12's glibc and kernel headers predate these. */
#ifndef R_BPF_64_ABS64
#define R_BPF_64_ABS64 2
#endif
#ifndef R_BPF_64_ABS32
#define R_BPF_64_ABS32 3
#endif
#ifndef R_BPF_64_NODYLD32
#define R_BPF_64_NODYLD32 4
#endif
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif

#define INSN_SZ 8
#define BTF_EXT_MAGIC 0xeB9F
#define BTF_MAGIC 0xeB9F
/* .BTF.ext header up to line_info_len, and with core_relo_off/len. */
#define BTF_EXT_HDR_MIN 24
#define BTF_EXT_HDR_CORE 32

/* One insertion point after sorting: idx and the running total through it. */
struct point {
	size_t idx;
	size_t cum;
};

struct ctx {
	const struct mkf_ip_input *in;
	char *err;
	size_t err_sz;

	struct point *pts;
	size_t npts;

	/* Per instruction of S. */
	bool *slot2;		/* second slot of an ld_imm64 */
	bool *has_rel;		/* a relocation of S's own section applies */
	bool *func_start;	/* a function (symbol or func_info) starts here */

	/* Per byte of .BTF.ext: an insn_off field of a record of S. */
	bool *ext_field;

	/* Results under construction. */
	struct bpf_insn *insns;
	size_t insn_cnt;
	Elf64_Sym *syms;
	struct mkf_ip_relsec_out *rs_out;
	unsigned char *ext;
};

/* Refuse: -EINVAL with the reason in the caller's buffer. */
__attribute__((format(printf, 2, 3)))
static int inval(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->err_sz) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->err_sz, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Refuse relocation e of the relocations applying to section shndx. */
__attribute__((format(printf, 4, 5)))
static int rel_inval(struct ctx *c, Elf64_Word shndx, size_t e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->err && c->err_sz) {
		n = snprintf(c->err, c->err_sz, "relocation %zu of section %u: ", e, shndx);
		if (n >= 0 && (size_t)n < c->err_sz) {
			va_start(ap, fmt);
			vsnprintf(c->err + n, c->err_sz - n, fmt, ap);
			va_end(ap);
		}
	}
	return -EINVAL;
}

static int nomem(struct ctx *c)
{
	if (c->err && c->err_sz)
		snprintf(c->err, c->err_sz, "out of memory");
	return -ENOMEM;
}

/* Total inserted at points < j (strict) or <= j. */
static size_t added_before(const struct ctx *c, size_t j, bool inclusive)
{
	size_t lo = 0, hi = c->npts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->pts[mid].idx < j || (inclusive && c->pts[mid].idx == j))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? c->pts[lo - 1].cum : 0;
}

static size_t at(const struct ctx *c, size_t j)
{
	return j + added_before(c, j, true);
}

static size_t land(const struct ctx *c, size_t j)
{
	return j + added_before(c, j, false);
}

static bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static bool is_call(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL);
}

/* Jumps carry a relative target: JMP/JMP32 except call and exit. */
static bool is_jump(const struct bpf_insn *insn)
{
	__u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT;
}

/* gotol: the kernel takes BPF_JMP32 | BPF_JA's offset from imm, not off. */
static bool is_gotol(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP32 | BPF_JA);
}

/*
 * Opcodes the kernel defines (6.12 included: sign-extending loads,
 * may_goto). Anything else might be a reference we do not know how to
 * move, so it is refused rather than copied.
 */
static bool opcode_known(__u8 code)
{
	__u8 mode = BPF_MODE(code), size = BPF_SIZE(code), op = BPF_OP(code);

	switch (BPF_CLASS(code)) {
	case BPF_LD:
		if (code == (BPF_LD | BPF_IMM | BPF_DW))
			return true;
		/* Legacy packet access of socket filters. */
		return (mode == BPF_ABS || mode == BPF_IND) && size != BPF_DW;
	case BPF_LDX:
		return mode == BPF_MEM || (mode == BPF_MEMSX && size != BPF_DW);
	case BPF_ST:
		return mode == BPF_MEM;
	case BPF_STX:
		return mode == BPF_MEM ||
		       (mode == BPF_ATOMIC && (size == BPF_W || size == BPF_DW));
	case BPF_ALU:
	case BPF_ALU64:
		return op <= BPF_END;
	case BPF_JMP:
		return op <= BPF_JCOND;
	case BPF_JMP32:
		return op < BPF_JCOND && op != BPF_CALL && op != BPF_EXIT;
	}
	return false;
}

static bool ldimm64_tail_ok(const struct bpf_insn *tail)
{
	return !tail->code && !tail->dst_reg && !tail->src_reg && !tail->off;
}

bool mkf_insn_decodes(const struct bpf_insn *insn, size_t n)
{
	if (!insn || !n)
		return false;
	if (is_ldimm64(insn))
		return n >= 2 && ldimm64_tail_ok(&insn[1]);
	if (!opcode_known(insn->code))
		return false;
	/* Helper, bpf-to-bpf call, kfunc call: nothing else is defined. */
	if (is_call(insn) && insn->src_reg > BPF_PSEUDO_KFUNC_CALL)
		return false;
	return true;
}

/* Decode S, marking second slots; a detailed reason on failure. */
static int decode_section(struct ctx *c)
{
	const struct bpf_insn *insns = c->in->insns;
	size_t n = c->in->insn_cnt, j;

	for (j = 0; j < n; j++) {
		const struct bpf_insn *insn = &insns[j];

		if (is_ldimm64(insn)) {
			if (j + 1 >= n)
				return inval(c, "insn %zu: ld_imm64 misses its second slot", j);
			if (!ldimm64_tail_ok(&insn[1]))
				return inval(c, "insn %zu: ld_imm64 second slot is not empty",
					     j);
			c->slot2[++j] = true;
			continue;
		}
		if (!mkf_insn_decodes(insn, n - j))
			return inval(c, "insn %zu: unknown instruction (code 0x%02x src %u)",
				     j, insn->code, insn->src_reg);
	}
	return 0;
}

/* An inserted block: self-contained, see struct mkf_ip_insert. */
static int check_block(struct ctx *c, const struct mkf_ip_insert *ins)
{
	size_t n = ins->cnt, j;
	bool *tail;
	int ret = 0;

	tail = calloc(n, sizeof(*tail));
	if (!tail)
		return nomem(c);
	for (j = 0; j < n; j++) {
		const struct bpf_insn *insn = &ins->insns[j];

		if (tail[j])
			continue;
		if (!mkf_insn_decodes(insn, n - j)) {
			ret = inval(c, "insertion at %zu: instruction %zu does not decode",
				    ins->idx, j);
			goto out;
		}
		if (is_ldimm64(insn)) {
			if (insn->src_reg) {
				ret = inval(c, "insertion at %zu: ld_imm64 %zu needs a relocation",
					    ins->idx, j);
				goto out;
			}
			tail[j + 1] = true;
		}
	}
	for (j = 0; j < n; j++) {
		const struct bpf_insn *insn = &ins->insns[j];
		long long t;

		if (tail[j])
			continue;
		if (is_call(insn) && insn->src_reg) {
			ret = inval(c, "insertion at %zu: call %zu needs a relocation",
				    ins->idx, j);
			goto out;
		}
		if (!is_jump(insn))
			continue;
		t = (long long)j + 1 + (is_gotol(insn) ? insn->imm : insn->off);
		/* t == n: the instruction after the block (kept at its place). */
		if (t < 0 || (size_t)t > n || ((size_t)t < n && tail[t])) {
			ret = inval(c, "insertion at %zu: jump %zu leaves the block",
				    ins->idx, j);
			goto out;
		}
	}
out:
	free(tail);
	return ret;
}

static int cmp_point(const void *a, const void *b)
{
	const struct mkf_ip_insert *const *x = a, *const *y = b;

	if ((*x)->idx != (*y)->idx)
		return (*x)->idx < (*y)->idx ? -1 : 1;
	/* Same point: keep the caller's order (qsort is not stable). */
	return *x < *y ? -1 : *x > *y;
}

/*
 * Sort the insertions, validate them and lay out the new S. Jumps are
 * fixed afterwards, on the copy.
 */
static int build_section(struct ctx *c, const struct mkf_ip_insert *ins, size_t ins_cnt)
{
	const struct mkf_ip_input *in = c->in;
	const struct mkf_ip_insert **ord = NULL;
	size_t i, j, o, total = 0;
	int ret = 0;

	if (ins_cnt) {
		ord = malloc(ins_cnt * sizeof(*ord));
		c->pts = malloc(ins_cnt * sizeof(*c->pts));
		if (!ord || !c->pts) {
			ret = nomem(c);
			goto out;
		}
	}
	for (i = 0; i < ins_cnt; i++)
		ord[i] = &ins[i];
	if (ins_cnt)
		qsort(ord, ins_cnt, sizeof(*ord), cmp_point);

	for (i = 0; i < ins_cnt; i++) {
		const struct mkf_ip_insert *p = ord[i];
		bool inside = false;
		size_t s;

		if (!p->cnt || !p->insns) {
			ret = inval(c, "insertion at %zu: no instructions", p->idx);
			goto out;
		}
		if (p->idx >= in->insn_cnt) {
			ret = inval(c, "insertion at %zu: past the last instruction (%zu)",
				    p->idx, in->insn_cnt);
			goto out;
		}
		if (c->slot2[p->idx]) {
			ret = inval(c, "insertion at %zu: inside an ld_imm64", p->idx);
			goto out;
		}
		/*
		 * libbpf builds programs from STT_FUNC symbols only: code
		 * outside every function belongs to no program.
		 */
		for (s = 0; s < in->sym_cnt && !inside; s++) {
			const Elf64_Sym *sym = &in->syms[s];

			inside = sym->st_shndx == in->shndx &&
				 ELF64_ST_TYPE(sym->st_info) == STT_FUNC &&
				 sym->st_value / INSN_SZ <= p->idx &&
				 p->idx < (sym->st_value + sym->st_size) / INSN_SZ;
		}
		if (!inside) {
			ret = inval(c, "insertion at %zu: outside every function", p->idx);
			goto out;
		}
		ret = check_block(c, p);
		if (ret)
			goto out;
		if (p->cnt > SIZE_MAX / 2 - total) {
			ret = inval(c, "insertions too large");
			goto out;
		}
		total += p->cnt;
		if (c->npts && c->pts[c->npts - 1].idx == p->idx) {
			c->pts[c->npts - 1].cum = total;
		} else {
			c->pts[c->npts].idx = p->idx;
			c->pts[c->npts++].cum = total;
		}
	}
	/* .BTF.ext offsets are 32-bit byte counts. */
	if (in->insn_cnt + total > UINT32_MAX / INSN_SZ) {
		ret = inval(c, "section too large after patching");
		goto out;
	}

	c->insn_cnt = in->insn_cnt + total;
	c->insns = malloc(c->insn_cnt * sizeof(*c->insns));
	if (!c->insns) {
		ret = nomem(c);
		goto out;
	}
	for (i = 0, j = 0, o = 0; j < in->insn_cnt; j++) {
		for (; i < ins_cnt && ord[i]->idx == j; i++) {
			memcpy(&c->insns[o], ord[i]->insns, ord[i]->cnt * sizeof(*c->insns));
			o += ord[i]->cnt;
		}
		c->insns[o++] = in->insns[j];
	}
out:
	free(ord);
	return ret;
}

/* Old index t must be an instruction of S a reference can point at. */
static bool target_ok(const struct ctx *c, long long t)
{
	return t >= 0 && (unsigned long long)t < c->in->insn_cnt && !c->slot2[t];
}

/* Jumps and relocation-less bpf-to-bpf calls of S: both relative. */
static int fix_relative(struct ctx *c)
{
	const struct mkf_ip_input *in = c->in;
	size_t j;

	for (j = 0; j < in->insn_cnt; j++) {
		const struct bpf_insn *old = &in->insns[j];
		struct bpf_insn *nw;
		long long t, d;
		bool gotol;

		if (c->slot2[j])
			continue;
		nw = &c->insns[at(c, j)];
		if (is_call(old)) {
			/*
			 * With a relocation the call's target is symbol + imm,
			 * not relative (fixed with the relocations); helper
			 * and kfunc calls hold ids.
			 */
			if (old->src_reg != BPF_PSEUDO_CALL || c->has_rel[j])
				continue;
			t = (long long)j + 1 + old->imm;
			if (!target_ok(c, t))
				return inval(c, "insn %zu: call target %lld %s", j, t,
					     t < 0 || t >= (long long)in->insn_cnt ?
					     "outside the section" : "inside an ld_imm64");
			d = (long long)land(c, t) - (long long)at(c, j) - 1;
			if (d < INT32_MIN || d > INT32_MAX)
				return inval(c, "insn %zu: call out of range", j);
			nw->imm = (__s32)d;
			continue;
		}
		if (is_ldimm64(old) && old->src_reg == BPF_PSEUDO_FUNC && !c->has_rel[j])
			/* libbpf too refuses it: "missing subprog addr relo". */
			return inval(c, "insn %zu: ld_imm64 of a function without relocation",
				     j);
		if (!is_jump(old))
			continue;
		gotol = is_gotol(old);
		t = (long long)j + 1 + (gotol ? old->imm : old->off);
		if (!target_ok(c, t))
			return inval(c, "insn %zu: jump target %lld %s", j, t,
				     t < 0 || t >= (long long)in->insn_cnt ? "outside the section" :
				     "inside an ld_imm64");
		d = (long long)land(c, t) - (long long)at(c, j) - 1;
		if (gotol) {
			if (d < INT32_MIN || d > INT32_MAX)
				return inval(c, "insn %zu: jump out of range", j);
			nw->imm = (__s32)d;
		} else {
			if (d < INT16_MIN || d > INT16_MAX)
				return inval(c, "insn %zu: jump out of range", j);
			nw->off = (__s16)d;
		}
	}
	return 0;
}

/*
 * Validate the symbols of S before anything depends on them; note where
 * functions start (line_info and insertion points need it).
 */
static int scan_symbols(struct ctx *c)
{
	const struct mkf_ip_input *in = c->in;
	size_t s, funcs = 0, nsyms = 0;

	for (s = 0; s < in->sym_cnt; s++) {
		const Elf64_Sym *sym = &in->syms[s];
		unsigned long long beg, end, n = in->insn_cnt;

		if (sym->st_shndx != in->shndx)
			continue;
		nsyms++;
		if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION) {
			/* Relocations add their offset to it; it must be 0. */
			if (sym->st_value)
				return inval(c, "symbol %zu: section symbol with value %llu",
					     s, (unsigned long long)sym->st_value);
			continue;
		}
		if (sym->st_value % INSN_SZ || sym->st_size % INSN_SZ)
			return inval(c, "symbol %zu: value or size not a multiple of 8", s);
		beg = sym->st_value / INSN_SZ;
		end = beg + sym->st_size / INSN_SZ;
		if (beg > n || end > n || end < beg)
			return inval(c, "symbol %zu: past the end of the section", s);
		if ((beg < n && c->slot2[beg]) || (end < n && c->slot2[end]))
			return inval(c, "symbol %zu: boundary inside an ld_imm64", s);
		if (ELF64_ST_TYPE(sym->st_info) == STT_FUNC && beg < end) {
			funcs++;
			c->func_start[beg] = true;
		}
	}
	if (!nsyms)
		return inval(c, "section %u has no symbols", in->shndx);
	if (!funcs)
		return inval(c, "section %u has no function symbols", in->shndx);
	return 0;
}

/*
 * Symbols of S: value -> land(value), end -> land(end). So values past the
 * point move, the function containing it grows, and a symbol exactly at
 * the point stays there and owns the patch. Labels (STT_NOTYPE, such as
 * clang's LBB*) follow the same rule: they mark jump targets, and jumps to
 * the point now reach the patch. Values were validated by scan_symbols().
 */
static void fix_symbols(struct ctx *c)
{
	const struct mkf_ip_input *in = c->in;
	size_t s;

	memcpy(c->syms, in->syms, in->sym_cnt * sizeof(*c->syms));
	for (s = 0; s < in->sym_cnt; s++) {
		const Elf64_Sym *sym = &in->syms[s];
		size_t beg = sym->st_value / INSN_SZ, end = beg + sym->st_size / INSN_SZ;

		if (sym->st_shndx != in->shndx || ELF64_ST_TYPE(sym->st_info) == STT_SECTION)
			continue;
		c->syms[s].st_value = land(c, beg) * INSN_SZ;
		c->syms[s].st_size = (land(c, end) - land(c, beg)) * INSN_SZ;
	}
}

static bool reloc_type_ok(unsigned int type)
{
	switch (type) {
	case R_BPF_NONE:
	case R_BPF_64_64:
	case R_BPF_64_ABS64:
	case R_BPF_64_ABS32:
	case R_BPF_64_NODYLD32:
	case R_BPF_64_32:
		return true;
	}
	return false;
}

/*
 * A call or ld_imm64 (old, in any code section) relocated against symbol
 * sym_idx of S: its target is the symbol's value plus what the instruction
 * holds (libbpf: calls st_value / 8 + imm + 1, function addresses
 * st_value + imm bytes). Rewrite the instruction in *nw so that it reaches
 * land(target) from the symbol's new value. where: for messages.
 */
static int fix_ref(struct ctx *c, const struct bpf_insn *old, size_t avail, struct bpf_insn *nw,
		   size_t sym_idx, const char *where, size_t insn_idx)
{
	const Elf64_Sym *sym = &c->in->syms[sym_idx];
	long long val = (long long)sym->st_value, nval = (long long)c->syms[sym_idx].st_value;
	long long t, d;

	if (is_call(old)) {
		if (old->src_reg != BPF_PSEUDO_CALL)
			return inval(c, "%s insn %zu: relocated call into %u is no bpf-to-bpf call",
				     where, insn_idx, c->in->shndx);
		t = val / INSN_SZ + old->imm + 1;
		if (!target_ok(c, t))
			return inval(c, "%s insn %zu: call target %lld outside section %u",
				     where, insn_idx, t, c->in->shndx);
		d = (long long)land(c, t) - nval / INSN_SZ - 1;
	} else if (is_ldimm64(old)) {
		if (avail < 2 || !ldimm64_tail_ok(&old[1]))
			return inval(c, "%s insn %zu: ld_imm64 misses its second slot",
				     where, insn_idx);
		/* src_reg 0 as clang emits it; libbpf sets BPF_PSEUDO_FUNC. */
		if (old->src_reg && old->src_reg != BPF_PSEUDO_FUNC)
			return inval(c, "%s insn %zu: ld_imm64 (src %u) relocated into code",
				     where, insn_idx, old->src_reg);
		t = val + old->imm;
		if (t % INSN_SZ || !target_ok(c, t / INSN_SZ))
			return inval(c, "%s insn %zu: function address %lld outside section %u",
				     where, insn_idx, t, c->in->shndx);
		d = (long long)land(c, t / INSN_SZ) * INSN_SZ - nval;
	} else {
		return inval(c, "%s insn %zu: relocated into section %u, not a call or ld_imm64",
			     where, insn_idx, c->in->shndx);
	}
	if (d < INT32_MIN || d > INT32_MAX)
		return inval(c, "%s insn %zu: reference out of range", where, insn_idx);
	nw->imm = (__s32)d;
	return 0;
}

/* First pass over S's own relocations: positions, types, one per insn. */
static int scan_own_relocs(struct ctx *c)
{
	const struct mkf_ip_input *in = c->in;
	size_t r, e, k;

	for (r = 0; r < in->relsec_cnt; r++) {
		const struct mkf_ip_relsec *rs = &in->relsecs[r];

		if (rs->rel_cnt && !rs->rels)
			return inval(c, "relocation section %zu: no entries", r);
		for (k = 0; k < r; k++)
			if (in->relsecs[k].shndx == rs->shndx)
				return inval(c, "two relocation sections apply to section %u",
					     rs->shndx);
		if (rs->shndx != in->shndx)
			continue;
		if (rs->ignore)
			return inval(c, "relocations of section %u marked ignored",
				     in->shndx);
		for (e = 0; e < rs->rel_cnt; e++) {
			const Elf64_Rel *rel = &rs->rels[e];
			unsigned int type = ELF64_R_TYPE(rel->r_info);
			size_t j;

			if (!reloc_type_ok(type))
				return rel_inval(c, in->shndx, e, "type %u not understood", type);
			if (rel->r_offset % INSN_SZ)
				return rel_inval(c, in->shndx, e, "offset %llu not a multiple of 8",
						 (unsigned long long)rel->r_offset);
			if (rel->r_offset / INSN_SZ >= in->insn_cnt)
				return rel_inval(c, in->shndx, e, "offset %llu past the end",
						 (unsigned long long)rel->r_offset);
			j = rel->r_offset / INSN_SZ;
			if (c->slot2[j])
				return rel_inval(c, in->shndx, e, "inside an ld_imm64");
			if (type == R_BPF_NONE)
				continue;
			if (c->has_rel[j])
				return inval(c, "section %u: two relocations on insn %zu",
					     in->shndx, j);
			c->has_rel[j] = true;
		}
	}
	return 0;
}

/* Copy-on-write of what a relocation section's outputs start from. */
static void *dup_array(const void *src, size_t cnt, size_t sz)
{
	void *p = malloc(cnt * sz);

	if (p)
		memcpy(p, src, cnt * sz);
	return p;
}

/* Entry e of relocation section r (see the kinds in struct mkf_ip_relsec). */
static int fix_reloc(struct ctx *c, size_t r, size_t e)
{
	const struct mkf_ip_input *in = c->in;
	const struct mkf_ip_relsec *rs = &in->relsecs[r];
	struct mkf_ip_relsec_out *ro = &c->rs_out[r];
	const Elf64_Rel *rel = &rs->rels[e];
	unsigned int type = ELF64_R_TYPE(rel->r_info);
	size_t sym_idx = ELF64_R_SYM(rel->r_info), j = rel->r_offset / INSN_SZ;
	const Elf64_Sym *sym;
	char where[32];
	bool into;

	if (sym_idx >= in->sym_cnt)
		return rel_inval(c, rs->shndx, e, "symbol %zu out of range", sym_idx);
	sym = &in->syms[sym_idx];
	into = sym->st_shndx == in->shndx && type != R_BPF_NONE;
	if (into && !reloc_type_ok(type))
		return rel_inval(c, rs->shndx, e, "type %u not understood", type);
	snprintf(where, sizeof(where), "section %u", rs->shndx);

	if (rs->shndx == in->shndx) {
		/* Position validated by scan_own_relocs(). */
		Elf64_Addr noff = at(c, j) * INSN_SZ;

		if (noff != rel->r_offset) {
			if (!ro->rels)
				ro->rels = dup_array(rs->rels, rs->rel_cnt, sizeof(*rs->rels));
			if (!ro->rels)
				return nomem(c);
			ro->rels[e].r_offset = noff;
		}
		if (!into)
			return 0;
		return fix_ref(c, &in->insns[j], in->insn_cnt - j, &c->insns[at(c, j)], sym_idx,
			       where, j);
	}
	if (!into || rs->ignore)
		return 0;
	if (in->btf_ext_shndx && rs->shndx == in->btf_ext_shndx) {
		/* clang's .rel.BTF.ext: the addend is an insn_off we rewrite. */
		if (ELF64_ST_TYPE(sym->st_info) != STT_SECTION || rel->r_offset >= in->btf_ext_sz ||
		    !c->ext_field[rel->r_offset])
			return rel_inval(c, rs->shndx, e, "not on an insn_off of section %u",
					 in->shndx);
		return 0;
	}
	if (!rs->insns) {
		/*
		 * Data (struct_ops, maps): the addend sits in bytes we do not
		 * have. Against a function symbol it is 0 in practice and the
		 * symbol's move carries it; against the section symbol it is
		 * an offset we cannot fix.
		 */
		if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION)
			return rel_inval(c, rs->shndx, e, "data reference to section %u's symbol",
					 in->shndx);
		return 0;
	}
	if (rel->r_offset % INSN_SZ || j >= rs->insn_cnt)
		return rel_inval(c, rs->shndx, e, "offset %llu not an instruction",
				 (unsigned long long)rel->r_offset);
	if (!ro->insns)
		ro->insns = dup_array(rs->insns, rs->insn_cnt, sizeof(*rs->insns));
	if (!ro->insns)
		return nomem(c);
	return fix_ref(c, &rs->insns[j], rs->insn_cnt - j, &ro->insns[j], sym_idx, where, j);
}

static int fix_relocs(struct ctx *c)
{
	const struct mkf_ip_input *in = c->in;
	size_t r, e;
	int ret;

	for (r = 0; r < in->relsec_cnt; r++) {
		const struct mkf_ip_relsec *rs = &in->relsecs[r];
		struct mkf_ip_relsec_out *ro = &c->rs_out[r];

		for (e = 0; e < rs->rel_cnt; e++) {
			ret = fix_reloc(c, r, e);
			if (ret)
				return ret;
		}
		/* Report only real changes: the writer rewrites what it gets. */
		if (ro->insns && !memcmp(ro->insns, rs->insns, rs->insn_cnt * sizeof(*ro->insns))) {
			free(ro->insns);
			ro->insns = NULL;
		}
	}
	return 0;
}

static __u32 get32(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put32(unsigned char *p, __u32 v)
{
	memcpy(p, &v, sizeof(v));
}

enum ext_kind { EXT_FUNC, EXT_LINE, EXT_CORE };

static const char *const ext_names[] = { "func_info", "line_info", "CO-RE relocation" };
/* Minimal record sizes, as libbpf checks them. */
static const __u32 ext_min_rec[] = { 8, 16, 16 };

/*
 * Validate one .BTF.ext info area and, for blocks naming S, map each
 * record's insn_off into the copy: func_info by land() (a function at the
 * point starts with the patch), CO-RE relocations by at() (they describe
 * the instruction itself), line_info by at() too (inserted instructions
 * join the preceding line) except at a function start: the verifier
 * requires a line_info exactly at each subprogram's first instruction
 * ("missing bpf_line_info for func#N").
 */
static int fix_ext_info(struct ctx *c, enum ext_kind kind, __u32 hdr_len, __u32 off, __u32 len)
{
	const struct mkf_ip_input *in = c->in;
	const unsigned char *data = in->btf_ext;
	const char *what = ext_names[kind];
	unsigned long long pos, left;
	__u32 rec_sz;

	if (!len)
		return 0;
	if (off % 4)
		return inval(c, ".BTF.ext %s not 4-byte aligned", what);
	pos = (unsigned long long)hdr_len + off;
	if (pos > in->btf_ext_sz || len > in->btf_ext_sz - pos)
		return inval(c, ".BTF.ext %s past the end of the section", what);
	if (len < 4)
		return inval(c, ".BTF.ext %s without record size", what);
	rec_sz = get32(data + pos);
	if (rec_sz < ext_min_rec[kind] || rec_sz % 4)
		return inval(c, ".BTF.ext %s record size %u invalid", what, rec_sz);
	pos += 4;
	left = len - 4;
	if (!left)
		return inval(c, ".BTF.ext %s has no records", what);
	while (left) {
		__u32 name_off, num, i;
		unsigned long long total;
		const char *name;

		if (left < 8)
			return inval(c, ".BTF.ext %s block header truncated", what);
		name_off = get32(data + pos);
		num = get32(data + pos + 4);
		total = 8 + (unsigned long long)num * rec_sz;
		if (!num || total > left)
			return inval(c, ".BTF.ext %s block with bad record count %u", what,
				     num);
		if (name_off >= in->btf_strs_sz ||
		    !memchr(in->btf_strs + name_off, '\0', in->btf_strs_sz - name_off))
			return inval(c, ".BTF.ext %s block name offset %u not in .BTF strings",
				     what, name_off);
		name = in->btf_strs + name_off;
		/* Other sections' blocks are only validated. */
		for (i = 0; !strcmp(name, in->sec_name) && i < num; i++) {
			unsigned long long rec = pos + 8 + (unsigned long long)i * rec_sz;
			__u32 io = get32(data + rec);
			size_t j = io / INSN_SZ, nj;

			if (io % INSN_SZ || j >= in->insn_cnt || c->slot2[j])
				return inval(c, ".BTF.ext %s record %u of '%s': bad insn_off %u",
					     what, i, name, io);
			if (kind == EXT_FUNC)
				nj = land(c, j);
			else if (kind == EXT_LINE && c->func_start[j])
				nj = land(c, j);
			else
				nj = at(c, j);
			put32(c->ext + rec, (__u32)(nj * INSN_SZ));
			c->ext_field[rec] = true;
			if (kind == EXT_FUNC)
				c->func_start[j] = true;
		}
		pos += total;
		left -= total;
	}
	return 0;
}

static int fix_btf_ext(struct ctx *c)
{
	const struct mkf_ip_input *in = c->in;
	const unsigned char *data = in->btf_ext;
	__u32 hdr_len, f[6] = { 0 }, k;
	__u16 magic;
	int ret;

	if (!data)
		return 0;
	if (in->btf_ext_sz < 8)
		return inval(c, ".BTF.ext header truncated");
	memcpy(&magic, data, sizeof(magic));
	if (magic != BTF_EXT_MAGIC)
		return inval(c, ".BTF.ext bad magic 0x%x", magic);
	if (data[2] != 1 || data[3])
		return inval(c, ".BTF.ext version %u flags 0x%x not supported", data[2],
			     data[3]);
	hdr_len = get32(data + 4);
	if (hdr_len < BTF_EXT_HDR_MIN || hdr_len % 4 || hdr_len > in->btf_ext_sz)
		return inval(c, ".BTF.ext header length %u invalid", hdr_len);
	for (k = 0; k < 6 && 8 + 4 * k < hdr_len; k++)
		f[k] = get32(data + 8 + 4 * k);
	/*
	 * A longer header is a newer format: fields we do not know might
	 * hold instruction offsets, so only an all-zero tail is accepted.
	 */
	for (k = BTF_EXT_HDR_CORE; k < hdr_len; k++)
		if (data[k])
			return inval(c, ".BTF.ext header has unknown fields");
	if (!in->sec_name || !in->btf_strs)
		return inval(c, ".BTF.ext given without section name or .BTF strings");

	c->ext = malloc(in->btf_ext_sz);
	c->ext_field = calloc(in->btf_ext_sz, sizeof(*c->ext_field));
	if (!c->ext || !c->ext_field)
		return nomem(c);
	memcpy(c->ext, data, in->btf_ext_sz);
	/* func_info first: line_info needs every function start. */
	ret = fix_ext_info(c, EXT_FUNC, hdr_len, f[0], f[1]);
	if (!ret)
		ret = fix_ext_info(c, EXT_LINE, hdr_len, f[2], f[3]);
	if (!ret)
		ret = fix_ext_info(c, EXT_CORE, hdr_len, f[4], f[5]);
	return ret;
}

static int check_input(struct ctx *c, const struct mkf_ip_insert *ins, size_t ins_cnt,
		       struct mkf_ip_output *out)
{
	const struct mkf_ip_input *in = c->in;

	if (!in || !out || (ins_cnt && !ins))
		return inval(c, "missing argument");
	if (!in->shndx || in->shndx >= SHN_LORESERVE)
		return inval(c, "section index %u not supported", in->shndx);
	if (!in->insns || !in->insn_cnt)
		return inval(c, "section %u has no instructions", in->shndx);
	if (!in->syms || !in->sym_cnt)
		return inval(c, "no symbol table");
	if (in->relsec_cnt && !in->relsecs)
		return inval(c, "relocation sections missing");
	if (!in->btf_ext && in->btf_ext_sz)
		return inval(c, ".BTF.ext size without data");
	if (in->insn_cnt > UINT32_MAX / INSN_SZ)
		return inval(c, "section too large");
	return 0;
}

static void ctx_free(struct ctx *c)
{
	size_t r;

	free(c->pts);
	free(c->slot2);
	free(c->has_rel);
	free(c->func_start);
	free(c->ext_field);
	free(c->insns);
	free(c->syms);
	if (c->rs_out) {
		for (r = 0; r < c->in->relsec_cnt; r++) {
			free(c->rs_out[r].rels);
			free(c->rs_out[r].insns);
		}
	}
	free(c->rs_out);
	free(c->ext);
}

int mkf_insn_patch(const struct mkf_ip_input *in, const struct mkf_ip_insert *ins,
		   size_t ins_cnt, struct mkf_ip_output *out, char *err, size_t err_sz)
{
	struct ctx c = { .in = in, .err = err, .err_sz = err_sz };
	int ret;

	if (err && err_sz)
		err[0] = '\0';
	ret = check_input(&c, ins, ins_cnt, out);
	if (ret)
		return ret;

	c.slot2 = calloc(in->insn_cnt, sizeof(*c.slot2));
	c.has_rel = calloc(in->insn_cnt, sizeof(*c.has_rel));
	c.func_start = calloc(in->insn_cnt, sizeof(*c.func_start));
	c.syms = malloc(in->sym_cnt * sizeof(*c.syms));
	c.rs_out = in->relsec_cnt ? calloc(in->relsec_cnt, sizeof(*c.rs_out)) : NULL;
	if (!c.slot2 || !c.has_rel || !c.func_start || !c.syms ||
	    (in->relsec_cnt && !c.rs_out)) {
		ret = nomem(&c);
		goto out;
	}

	/*
	 * Order matters: second slots before anything indexes S; symbols
	 * (function starts) before insertion points and line_info, their new
	 * values before relocations; .BTF.ext (insn_off fields) before
	 * .rel.BTF.ext is checked.
	 */
	ret = decode_section(&c);
	if (!ret)
		ret = scan_symbols(&c);
	if (!ret)
		ret = scan_own_relocs(&c);
	if (!ret)
		ret = build_section(&c, ins, ins_cnt);
	if (!ret)
		ret = fix_relative(&c);
	if (!ret) {
		fix_symbols(&c);
		ret = fix_btf_ext(&c);
	}
	if (!ret)
		ret = fix_relocs(&c);
	if (ret)
		goto out;

	out->insns = c.insns;
	out->insn_cnt = c.insn_cnt;
	out->syms = c.syms;
	out->relsecs = c.rs_out;
	out->relsec_cnt = in->relsec_cnt;
	out->btf_ext = c.ext;
	out->btf_ext_sz = c.ext ? in->btf_ext_sz : 0;
	c.insns = NULL;
	c.syms = NULL;
	c.rs_out = NULL;
	c.ext = NULL;
out:
	ctx_free(&c);
	return ret;
}

void mkf_ip_output_free(struct mkf_ip_output *out)
{
	size_t r;

	if (!out)
		return;
	for (r = 0; out->relsecs && r < out->relsec_cnt; r++) {
		free(out->relsecs[r].rels);
		free(out->relsecs[r].insns);
	}
	free(out->relsecs);
	free(out->insns);
	free(out->syms);
	free(out->btf_ext);
	memset(out, 0, sizeof(*out));
}

int mkf_ip_btf_strings(const void *btf, size_t btf_sz, const char **strs, size_t *strs_sz)
{
	const unsigned char *data = btf;
	unsigned long long beg;
	__u32 hdr_len, str_off, str_len;
	__u16 magic;

	/* struct btf_header: magic, version, flags, hdr_len, type off/len, str off/len. */
	if (!data || !strs || !strs_sz || btf_sz < 24)
		return -EINVAL;
	memcpy(&magic, data, sizeof(magic));
	if (magic != BTF_MAGIC || data[2] != 1)
		return -EINVAL;
	hdr_len = get32(data + 4);
	str_off = get32(data + 16);
	str_len = get32(data + 20);
	if (hdr_len < 24 || hdr_len > btf_sz)
		return -EINVAL;
	beg = (unsigned long long)hdr_len + str_off;
	if (beg > btf_sz || str_len > btf_sz - beg)
		return -EINVAL;
	/* Strings start with "" and end with a NUL, or lookups would run off. */
	if (str_len && (data[beg] || data[beg + str_len - 1]))
		return -EINVAL;
	*strs = (const char *)data + beg;
	*strs_sz = str_len;
	return 0;
}
