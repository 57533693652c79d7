// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Host tests for insn_patch.c. Two layers:
 * - hand-assembled sections with a hand-written expected result, compared
 *   instruction by instruction, symbol by symbol, relocation by relocation
 *   and .BTF.ext record by record; refusals with their exact error, and
 *   every case checks that the inputs are untouched;
 * - objects clang built from bpf/NAME.bpf.c, read with libelf: `r5 = 0` goes
 *   before every helper and kfunc call of every code section (one patcher
 *   call per section, each fed the previous outputs), then every reference
 *   of the original is checked against the result through an independent
 *   model of the index maps.
 * The patched objects are then written back with libelf and opened with
 * libbpf (open only: nothing is loaded, and syscall() below refuses every
 * call, so not a single bpf() reaches the kernel).
 * Prints "ok   name" / "FAIL name: detail" per case and "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <gelf.h>
#include <libelf.h>
#include <bpf/libbpf.h>

#include "insn_patch.h"

#ifndef R_BPF_64_ABS64
#define R_BPF_64_ABS64 2
#endif
#ifndef R_BPF_64_NODYLD32
#define R_BPF_64_NODYLD32 4
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- instruction, symbol and relocation shorthands ---- */

#define I(c, d, s, o, i) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }
#define MOV(d, v)	I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, v)
#define ADD(d, v)	I(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, v)
#define LDXW(d, s, o)	I(BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define JA(o)		I(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define GOTOL(v)	I(BPF_JMP32 | BPF_JA, 0, 0, 0, v)
#define MAY_GOTO(o)	I(BPF_JMP | BPF_JCOND, 0, 0, o, 0)
#define JEQ(d, v, o)	I(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, v)
#define JEQ32(d, v, o)	I(BPF_JMP32 | BPF_JEQ | BPF_K, d, 0, o, v)
#define CALLH(id)	I(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define CALLP(v)	I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, v)
#define EXIT		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define LD64(d, s, v)	I(BPF_LD | BPF_IMM | BPF_DW, d, s, 0, v), I(0, 0, 0, 0, 0)
#define R5		MOV(5, 0)

#define SYM(nm, type, bind, ndx, val, sz) \
	{ .st_name = (nm), .st_info = ELF64_ST_INFO(bind, type), .st_shndx = (ndx), \
	  .st_value = (val), .st_size = (sz) }
#define NULLSYM		SYM(0, STT_NOTYPE, STB_LOCAL, 0, 0, 0)
#define SECSYM(n)	SYM(0, STT_SECTION, STB_LOCAL, n, 0, 0)
/* Functions and labels in instruction units. */
#define FUNC(n, at, len)	SYM(1, STT_FUNC, STB_GLOBAL, n, (at) * 8, (len) * 8)
#define LFUNC(n, at, len)	SYM(2, STT_FUNC, STB_LOCAL, n, (at) * 8, (len) * 8)
#define LABEL(n, at)		SYM(3, STT_NOTYPE, STB_LOCAL, n, (at) * 8, 0)
#define OBJ(n, at, len)		SYM(4, STT_OBJECT, STB_GLOBAL, n, at, len)
#define EXTSYM			SYM(5, STT_NOTYPE, STB_WEAK, SHN_UNDEF, 0, 0)

#define RELB(off, sym, type)	{ .r_offset = (off), .r_info = ELF64_R_INFO(sym, type) }
#define REL(insn, sym, type)	RELB((insn) * 8, sym, type)

/* Counted arrays as compound literals: V(type, elems...). */
#define V(type, ...) \
	{ (const type[]){ __VA_ARGS__ }, sizeof((const type[]){ __VA_ARGS__ }) / sizeof(type) }
#define INSNS(...)	V(struct bpf_insn, __VA_ARGS__)
#define SYMS(...)	V(Elf64_Sym, __VA_ARGS__)
#define RELS(...)	V(Elf64_Rel, __VA_ARGS__)
#define RECS(...)	V(struct rec, __VA_ARGS__)
#define INSERTS(...)	V(struct mkf_ip_insert, __VA_ARGS__)
#define AT(i, ...) \
	{ .idx = (i), .insns = (const struct bpf_insn[]){ __VA_ARGS__ }, \
	  .cnt = sizeof((const struct bpf_insn[]){ __VA_ARGS__ }) / sizeof(struct bpf_insn) }

struct v_insn { const struct bpf_insn *v; size_t n; };
struct v_sym { const Elf64_Sym *v; size_t n; };
struct v_rel { const Elf64_Rel *v; size_t n; };
struct v_ins { const struct mkf_ip_insert *v; size_t n; };

/* ---- .BTF.ext records, builder and parser ---- */

enum { K_FUNC, K_LINE, K_CORE, K_NR };

/* a, b, c: type_id; file_name_off, line_off, line_col; type_id, access, kind. */
struct rec {
	int kind;
	const char *sec;
	__u32 off;
	__u32 a, b, c;
};

struct v_rec { const struct rec *v; size_t n; };

#define FI(s, o, t)		{ K_FUNC, s, o, t, 0, 0 }
#define LI(s, o, l)		{ K_LINE, s, o, 1, 1, l }
#define CO(s, o, k)		{ K_CORE, s, o, 1, 1, k }

/* .BTF strings the hand cases use for section names. */
static const char hand_strs[] = "\0prog\0.text\0other";

struct buf {
	unsigned char *p;
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	b->p = realloc(b->p, b->n + n);
	if (!b->p)
		abort();
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put32(struct buf *b, __u32 v)
{
	put(b, &v, 4);
}

static __u32 get32(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, 4);
	return v;
}

static __u32 str_off(const char *strs, size_t sz, const char *s)
{
	size_t i;

	for (i = 0; i < sz; i += strlen(strs + i) + 1)
		if (!strcmp(strs + i, s))
			return (__u32)i;
	abort();
}

/*
 * Lay out recs as clang does: header (32 bytes), then func_info,
 * line_info and CO-RE areas, each a record size and blocks grouped by
 * section in order of first appearance. field[] (optional) gets the byte
 * offsets of the insn_off fields of the records of section sec.
 */
static struct buf ext_build(const struct rec *recs, size_t n, const char *strs, size_t strs_sz,
			    const char *sec, size_t *field, size_t *nfield)
{
	static const __u32 rec_sz[K_NR] = { 8, 16, 16 };
	struct buf b = { 0 };
	__u32 offs[K_NR], lens[K_NR];
	size_t k, i, j;

	put(&b, (const __u8[]){ 0x9f, 0xeb, 1, 0 }, 4);
	put32(&b, 32);
	for (i = 0; i < 6; i++)
		put32(&b, 0);
	if (nfield)
		*nfield = 0;
	for (k = 0; k < K_NR; k++) {
		size_t start = b.n;
		bool any = false;

		for (i = 0; i < n; i++)
			any |= recs[i].kind == (int)k;
		offs[k] = (__u32)(b.n - 32);
		if (!any) {
			lens[k] = 0;
			continue;
		}
		put32(&b, rec_sz[k]);
		for (i = 0; i < n; i++) {
			bool first = true;
			__u32 cnt = 0;

			if (recs[i].kind != (int)k)
				continue;
			for (j = 0; j < i; j++)
				if (recs[j].kind == (int)k && !strcmp(recs[j].sec, recs[i].sec))
					first = false;
			if (!first)
				continue;
			for (j = i; j < n; j++)
				cnt += recs[j].kind == (int)k && !strcmp(recs[j].sec, recs[i].sec);
			put32(&b, str_off(strs, strs_sz, recs[i].sec));
			put32(&b, cnt);
			for (j = i; j < n; j++) {
				if (recs[j].kind != (int)k || strcmp(recs[j].sec, recs[i].sec))
					continue;
				if (field && !strcmp(recs[j].sec, sec))
					field[(*nfield)++] = b.n;
				put32(&b, recs[j].off);
				put32(&b, recs[j].a);
				if (k != K_FUNC) {
					put32(&b, recs[j].b);
					put32(&b, recs[j].c);
				}
			}
		}
		lens[k] = (__u32)(b.n - start);
	}
	for (k = 0; k < K_NR; k++) {
		memcpy(b.p + 8 + 8 * k, &offs[k], 4);
		memcpy(b.p + 12 + 8 * k, &lens[k], 4);
	}
	return b;
}

/* Parsed record: kind, section name, insn_off, the rest of the record. */
struct prec {
	int kind;
	const char *sec;
	__u32 off;
	unsigned char rest[60];
	__u32 rest_sz;
	size_t at;	/* byte offset of insn_off in the section */
};

/* The test's own reader, trusting nothing: -1 on anything malformed. */
static int ext_parse(const unsigned char *d, size_t sz, const char *strs, size_t strs_sz,
		     struct prec **out, size_t *nout)
{
	__u32 hdr_len;
	size_t k, n = 0;
	struct prec *r = NULL;

	if (sz < 32 || d[0] != 0x9f || d[1] != 0xeb)
		return -1;
	hdr_len = get32(d + 4);
	if (hdr_len < 32 || hdr_len > sz)
		return -1;
	for (k = 0; k < K_NR; k++) {
		size_t pos = hdr_len + get32(d + 8 + 8 * k), end = pos + get32(d + 12 + 8 * k);
		__u32 rs;

		if (pos == end)
			continue;
		if (end > sz || pos + 4 > end)
			return -1;
		rs = get32(d + pos);
		if (rs < 8 || rs - 4 > sizeof(r->rest))
			return -1;
		pos += 4;
		while (pos < end) {
			__u32 name, cnt, i;

			if (pos + 8 > end)
				return -1;
			name = get32(d + pos);
			cnt = get32(d + pos + 4);
			pos += 8;
			if (name >= strs_sz || pos + (size_t)cnt * rs > end)
				return -1;
			for (i = 0; i < cnt; i++, pos += rs) {
				r = realloc(r, (n + 1) * sizeof(*r));
				if (!r)
					abort();
				r[n].kind = (int)k;
				r[n].sec = strs + name;
				r[n].off = get32(d + pos);
				r[n].rest_sz = rs - 4;
				r[n].at = pos;
				memcpy(r[n].rest, d + pos + 4, rs - 4);
				n++;
			}
		}
	}
	*out = r;
	*nout = n;
	return 0;
}

/*
 * Allocation failure injection: the test links with --wrap=malloc,calloc
 * (static objects only, not libbpf or libelf), so fail_at = k makes the
 * k-th allocation from now return NULL.
 */
static long fail_at = -1, alloc_no;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t sz);

void *__wrap_malloc(size_t n)
{
	if (fail_at >= 0 && alloc_no++ == fail_at)
		return NULL;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t sz)
{
	if (fail_at >= 0 && alloc_no++ == fail_at)
		return NULL;
	return __real_calloc(n, sz);
}

/* ---- result reporting ---- */

static int passed, failed;

__attribute__((format(printf, 2, 3)))
static bool why(char *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w, 512, fmt, ap);
	va_end(ap);
	return false;
}

static void report(const char *name, bool ok, const char *detail)
{
	if (ok) {
		printf("ok   %s\n", name);
		passed++;
	} else {
		printf("FAIL %s: %s\n", name, detail);
		failed++;
	}
}

static void insn_str(const struct bpf_insn *x, char *s, size_t sz)
{
	snprintf(s, sz, "{code 0x%02x dst %u src %u off %d imm %d}", x->code, x->dst_reg,
		 x->src_reg, x->off, x->imm);
}

static bool cmp_insns(const char *what, const struct bpf_insn *got, size_t ngot,
		      const struct bpf_insn *exp, size_t nexp, char *w)
{
	char a[96], b[96];
	size_t i;

	if (ngot != nexp)
		return why(w, "%s: %zu instructions, expected %zu", what, ngot, nexp);
	for (i = 0; i < ngot; i++) {
		if (!memcmp(&got[i], &exp[i], sizeof(got[i])))
			continue;
		insn_str(&got[i], a, sizeof(a));
		insn_str(&exp[i], b, sizeof(b));
		return why(w, "%s insn %zu: got %s, expected %s", what, i, a, b);
	}
	return true;
}

/* ---- hand-written cases ---- */

#define S_SEC	2
#define O_SEC	3
#define D_SEC	4
#define X_SEC	9	/* .BTF.ext */
#define DBG_SEC	10

struct t_relsec {
	Elf64_Word shndx;	/* 0 ends the list */
	struct v_rel rels;
	bool code;		/* section holds the case's "other" code */
	bool ignore;
	struct v_rel exp;	/* n == 0: expected unchanged (NULL) */
};

struct tcase {
	const char *name;
	Elf64_Word shndx;	/* S; 0: S_SEC */
	const char *sec_name;	/* 0: "prog" */
	struct v_insn in;
	struct v_sym syms;
	struct t_relsec rs[4];
	struct v_insn other;	/* a second code section (O_SEC) */
	struct v_rec ext;	/* n == 0: no .BTF.ext */
	Elf64_Word ext_rel_sym;	/* add .rel.BTF.ext against it for S's records */
	bool ext_rel_bad;	/* ... plus one entry on the header */
	struct { size_t at; __u32 val; int width; } poke;	/* corrupt .BTF.ext */
	struct v_ins ins;

	int err;		/* expected error, 0: success */
	const char *msg;	/* substring of the reason */
	struct v_insn exp;
	struct v_sym exp_syms;	/* n == 0: the input's */
	struct v_insn exp_other;	/* n == 0: expected unchanged (NULL) */
	struct v_rec exp_ext;
};

/* Base program: forward jump 1 -> 4, backward jump 5 -> 1. */
#define BASE(J) \
	INSNS(MOV(0, 0), J(1, 0, 2), MOV(0, 1), CALLH(7), ADD(0, 1), J(0, 5, -5), EXIT)
#define BASE_SYMS	SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 7))
#define BASE_SYMS8	SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 8))

/* main [0,4) calls sub [4,7). */
#define CALLER_FIRST(call) \
	INSNS(MOV(1, 1), call, ADD(0, 1), EXIT, MOV(0, 7), CALLH(7), EXIT)
#define CALLER_SYMS	SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 4), LFUNC(S_SEC, 4, 3))

/* main [0,6) passes cb [6,8) to bpf_loop. */
#define CB_PROG(src, v) \
	INSNS(MOV(1, 5), LD64(2, src, v), MOV(3, 0), CALLH(181), EXIT, MOV(0, 0), EXIT)
#define CB_SYMS	SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 6), LFUNC(S_SEC, 6, 2))

/* .text for the two-section cases: sub [0,3), g [3,5), cb [5,7). */
#define TEXT INSNS(MOV(0, 1), CALLH(7), EXIT, MOV(0, 2), EXIT, MOV(0, 0), EXIT)
/* prog calls g (global), sub and cb (static, via the section symbol). */
#define PROG INSNS(CALLP(-1), CALLP(-1), LD64(2, 0, 40), CALLP(4), EXIT)
#define TWO_SYMS SYMS(NULLSYM, SECSYM(2), SECSYM(3), LFUNC(2, 0, 3), FUNC(2, 3, 2), \
		      LFUNC(2, 5, 2), FUNC(3, 0, 6))
#define PROG_RELS RELS(REL(0, 4, R_BPF_64_32), REL(1, 1, R_BPF_64_32), \
		       REL(2, 1, R_BPF_64_64), REL(4, 1, R_BPF_64_32))

/* Two functions with .BTF.ext: main [0,5), sub [5,8). */
#define EXT_PROG INSNS(MOV(0, 0), MOV(1, 1), LDXW(0, 1, 4), CALLH(7), EXIT, \
		       MOV(0, 1), ADD(0, 1), EXIT)
#define EXT_SYMS SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 5), LFUNC(S_SEC, 5, 3))
#define EXT_RECS RECS(FI("prog", 0, 1), FI("prog", 40, 2), FI("other", 0, 3), \
		      LI("prog", 0, 10), LI("prog", 16, 11), LI("prog", 24, 12), \
		      LI("prog", 40, 13), LI("prog", 48, 14), LI("other", 0, 20), \
		      LI("other", 8, 21), CO("prog", 16, 0), CO("prog", 24, 1), \
		      CO("prog", 40, 2), CO("other", 8, 3))

static const struct tcase cases[] = {
	{
		.name = "jump forward over the point, backward over it",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(3, R5)),
		.exp = INSNS(MOV(0, 0), JEQ(1, 0, 3), MOV(0, 1), R5, CALLH(7), ADD(0, 1),
			     JEQ(0, 5, -6), EXIT),
		.exp_syms = BASE_SYMS8,
	},
	{
		.name = "jump forward onto the point lands on the patch",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(4, R5)),
		.exp = INSNS(MOV(0, 0), JEQ(1, 0, 2), MOV(0, 1), CALLH(7), R5, ADD(0, 1),
			     JEQ(0, 5, -6), EXIT),
		.exp_syms = BASE_SYMS8,
	},
	{
		.name = "jump backward onto the point lands on the patch",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(1, R5)),
		.exp = INSNS(MOV(0, 0), R5, JEQ(1, 0, 2), MOV(0, 1), CALLH(7), ADD(0, 1),
			     JEQ(0, 5, -6), EXIT),
		.exp_syms = BASE_SYMS8,
	},
	{
		.name = "patch before a backward jump",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(5, R5)),
		.exp = INSNS(MOV(0, 0), JEQ(1, 0, 2), MOV(0, 1), CALLH(7), ADD(0, 1), R5,
			     JEQ(0, 5, -6), EXIT),
		.exp_syms = BASE_SYMS8,
	},
	{
		.name = "jumps not crossing the point keep their offsets",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(6, R5)),
		.exp = INSNS(MOV(0, 0), JEQ(1, 0, 2), MOV(0, 1), CALLH(7), ADD(0, 1),
			     JEQ(0, 5, -5), R5, EXIT),
		.exp_syms = BASE_SYMS8,
	},
	{
		.name = "JMP32 jumps both directions",
		.in = BASE(JEQ32), .syms = BASE_SYMS,
		.ins = INSERTS(AT(2, R5)),
		.exp = INSNS(MOV(0, 0), JEQ32(1, 0, 3), R5, MOV(0, 1), CALLH(7), ADD(0, 1),
			     JEQ32(0, 5, -6), EXIT),
		.exp_syms = BASE_SYMS8,
	},
	{
		.name = "gotol (offset in imm) and goto",
		.in = INSNS(MOV(0, 0), GOTOL(3), JA(1), MOV(0, 1), EXIT, MOV(0, 2), GOTOL(-5),
			    EXIT),
		.syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 8)),
		.ins = INSERTS(AT(4, R5)),
		.exp = INSNS(MOV(0, 0), GOTOL(4), JA(1), MOV(0, 1), R5, EXIT, MOV(0, 2),
			     GOTOL(-6), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 9)),
	},
	{
		.name = "may_goto",
		.in = INSNS(MOV(0, 0), MAY_GOTO(1), MOV(0, 1), EXIT),
		.syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 4)),
		.ins = INSERTS(AT(2, R5)),
		.exp = INSNS(MOV(0, 0), MAY_GOTO(2), R5, MOV(0, 1), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 5)),
	},
	{
		.name = "subprogram call forward",
		.in = CALLER_FIRST(CALLP(2)), .syms = CALLER_SYMS,
		.ins = INSERTS(AT(2, R5)),
		.exp = INSNS(MOV(1, 1), CALLP(3), R5, ADD(0, 1), EXIT, MOV(0, 7), CALLH(7),
			     EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 5), LFUNC(S_SEC, 5, 3)),
	},
	{
		.name = "subprogram call backward",
		.in = INSNS(MOV(0, 7), CALLH(7), EXIT, MOV(1, 1), CALLP(-5), ADD(0, 1), EXIT),
		.syms = SYMS(NULLSYM, SECSYM(S_SEC), LFUNC(S_SEC, 0, 3), FUNC(S_SEC, 3, 4)),
		.ins = INSERTS(AT(1, R5)),
		.exp = INSNS(MOV(0, 7), R5, CALLH(7), EXIT, MOV(1, 1), CALLP(-6), ADD(0, 1),
			     EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), LFUNC(S_SEC, 0, 4), FUNC(S_SEC, 4, 4)),
	},
	{
		.name = "call onto the callee's first insn runs the patch",
		.in = CALLER_FIRST(CALLP(2)), .syms = CALLER_SYMS,
		.ins = INSERTS(AT(4, R5)),
		.exp = INSNS(MOV(1, 1), CALLP(2), ADD(0, 1), EXIT, R5, MOV(0, 7), CALLH(7),
			     EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 4), LFUNC(S_SEC, 4, 4)),
	},
	{
		.name = "call -1 relocated against a function symbol of S",
		.in = CALLER_FIRST(CALLP(-1)), .syms = CALLER_SYMS,
		.rs = { { S_SEC, RELS(REL(1, 3, R_BPF_64_32)),
			  .exp = RELS(REL(2, 3, R_BPF_64_32)) } },
		.ins = INSERTS(AT(2, R5), AT(0, R5)),
		.exp = INSNS(R5, MOV(1, 1), CALLP(-1), R5, ADD(0, 1), EXIT, MOV(0, 7), CALLH(7),
			     EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 6), LFUNC(S_SEC, 6, 3)),
	},
	{
		.name = "call relocated against S's section symbol (imm = target - 1)",
		.in = CALLER_FIRST(CALLP(3)), .syms = CALLER_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(1, 1, R_BPF_64_32)) } },
		.ins = INSERTS(AT(2, R5)),
		.exp = INSNS(MOV(1, 1), CALLP(4), R5, ADD(0, 1), EXIT, MOV(0, 7), CALLH(7),
			     EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 5), LFUNC(S_SEC, 5, 3)),
	},
	{
		.name = "callback address (ld_imm64, section symbol) moves",
		.in = CB_PROG(0, 48), .syms = CB_SYMS,
		.rs = { { S_SEC, RELS(REL(1, 1, R_BPF_64_64)),
			  .exp = RELS(REL(2, 1, R_BPF_64_64)) } },
		.ins = INSERTS(AT(1, R5), AT(4, R5)),
		.exp = INSNS(MOV(1, 5), R5, LD64(2, 0, 64), MOV(3, 0), R5, CALLH(181), EXIT,
			     MOV(0, 0), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 8), LFUNC(S_SEC, 8, 2)),
	},
	{
		.name = "callback (BPF_PSEUDO_FUNC) patched at its start keeps its address",
		.in = CB_PROG(BPF_PSEUDO_FUNC, 48), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(1, 1, R_BPF_64_64)) } },
		.ins = INSERTS(AT(6, R5)),
		.exp = INSNS(MOV(1, 5), LD64(2, BPF_PSEUDO_FUNC, 48), MOV(3, 0), CALLH(181),
			     EXIT, R5, MOV(0, 0), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 6), LFUNC(S_SEC, 6, 3)),
	},
	{
		.name = "callback via its function symbol: symbol moves, imm stays",
		.in = CB_PROG(0, 0), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(1, 3, R_BPF_64_64)) } },
		.ins = INSERTS(AT(3, R5)),
		.exp = INSNS(MOV(1, 5), LD64(2, 0, 0), R5, MOV(3, 0), CALLH(181), EXIT,
			     MOV(0, 0), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 7), LFUNC(S_SEC, 7, 2)),
	},
	{
		.name = "ld_imm64 pairs: map relocation and a jump over one",
		.in = INSNS(LD64(1, 0, 0), JEQ(1, 0, 2), LD64(2, 0, 7), EXIT),
		.syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 6), OBJ(D_SEC, 0, 8)),
		.rs = { { S_SEC, RELS(REL(0, 3, R_BPF_64_64)),
			  .exp = RELS(REL(1, 3, R_BPF_64_64)) } },
		.ins = INSERTS(AT(3, R5), AT(0, R5)),
		.exp = INSNS(R5, LD64(1, 0, 0), JEQ(1, 0, 3), R5, LD64(2, 0, 7), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 8), OBJ(D_SEC, 0, 8)),
	},
	{
		.name = "several insertions, unsorted, two at one point",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(4, MOV(5, 0)), AT(1, MOV(5, 1)), AT(4, MOV(5, 2), MOV(5, 3)),
			       AT(6, MOV(5, 4))),
		.exp = INSNS(MOV(0, 0), MOV(5, 1), JEQ(1, 0, 2), MOV(0, 1), CALLH(7), MOV(5, 0),
			     MOV(5, 2), MOV(5, 3), ADD(0, 1), JEQ(0, 5, -9), MOV(5, 4), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 12)),
	},
	{
		.name = "inserted block with its own jump and ld_imm64 is copied verbatim",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(3, JEQ(5, 0, 2), LD64(5, 0, 1))),
		.exp = INSNS(MOV(0, 0), JEQ(1, 0, 5), MOV(0, 1), JEQ(5, 0, 2), LD64(5, 0, 1),
			     CALLH(7), ADD(0, 1), JEQ(0, 5, -8), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 10)),
	},
	{
		.name = "no insertions: a plain copy",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.exp = BASE(JEQ),
	},
	{
		.name = "two code sections: calls and callback from another section into S",
		.sec_name = ".text",
		.in = TEXT, .syms = TWO_SYMS, .other = PROG,
		.rs = { { O_SEC, PROG_RELS, .code = true } },
		.ins = INSERTS(AT(1, R5), AT(5, R5)),
		.exp = INSNS(MOV(0, 1), R5, CALLH(7), EXIT, MOV(0, 2), EXIT, R5, MOV(0, 0), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(2), SECSYM(3), LFUNC(2, 0, 4), FUNC(2, 4, 2),
				 LFUNC(2, 6, 3), FUNC(3, 0, 6)),
		.exp_other = INSNS(CALLP(-1), CALLP(-1), LD64(2, 0, 48), CALLP(5), EXIT),
	},
	{
		.name = "two code sections: patching the caller moves its relocations only",
		.shndx = O_SEC,
		.in = PROG, .syms = TWO_SYMS,
		.rs = { { O_SEC, PROG_RELS,
			  .exp = RELS(REL(0, 4, R_BPF_64_32), REL(2, 1, R_BPF_64_32),
				      REL(3, 1, R_BPF_64_64), REL(5, 1, R_BPF_64_32)) } },
		.ins = INSERTS(AT(1, R5)),
		.exp = INSNS(CALLP(-1), R5, CALLP(-1), LD64(2, 0, 40), CALLP(4), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(2), SECSYM(3), LFUNC(2, 0, 3), FUNC(2, 3, 2),
				 LFUNC(2, 5, 2), FUNC(3, 0, 7)),
	},
	{
		.name = "func_info, line_info, CO-RE offsets (and .rel.BTF.ext)",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS, .ext_rel_sym = 1,
		.ins = INSERTS(AT(3, R5), AT(5, R5)),
		.exp = INSNS(MOV(0, 0), MOV(1, 1), LDXW(0, 1, 4), R5, CALLH(7), EXIT, R5,
			     MOV(0, 1), ADD(0, 1), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 6), LFUNC(S_SEC, 6, 4)),
		.exp_ext = RECS(FI("prog", 0, 1), FI("prog", 48, 2), FI("other", 0, 3),
				LI("prog", 0, 10), LI("prog", 16, 11), LI("prog", 32, 12),
				LI("prog", 48, 13), LI("prog", 64, 14), LI("other", 0, 20),
				LI("other", 8, 21), CO("prog", 16, 0), CO("prog", 32, 1),
				CO("prog", 56, 2), CO("other", 8, 3)),
	},
	{
		.name = "func_info and line_info at a patched function start stay",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.ins = INSERTS(AT(5, R5)),
		.exp = INSNS(MOV(0, 0), MOV(1, 1), LDXW(0, 1, 4), CALLH(7), EXIT, R5,
			     MOV(0, 1), ADD(0, 1), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 5), LFUNC(S_SEC, 5, 4)),
		.exp_ext = RECS(FI("prog", 0, 1), FI("prog", 40, 2), FI("other", 0, 3),
				LI("prog", 0, 10), LI("prog", 16, 11), LI("prog", 24, 12),
				LI("prog", 40, 13), LI("prog", 56, 14), LI("other", 0, 20),
				LI("other", 8, 21), CO("prog", 16, 0), CO("prog", 24, 1),
				CO("prog", 48, 2), CO("other", 8, 3)),
	},
	{
		.name = "symbols: functions, labels at and past the point, other sections",
		.in = INSNS(MOV(0, 0), JA(0), EXIT, MOV(0, 1), MOV(0, 2), EXIT),
		.syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 3), LABEL(S_SEC, 2),
			     FUNC(S_SEC, 3, 3), LABEL(S_SEC, 4), LABEL(S_SEC, 5), FUNC(O_SEC, 0, 2),
			     OBJ(D_SEC, 0, 8), SECSYM(O_SEC), LABEL(S_SEC, 6)),
		.other = INSNS(MOV(0, 0), EXIT),
		/* struct_ops-like data pointer and DWARF: accepted, left alone. */
		.rs = { { .shndx = D_SEC, .rels = RELS(RELB(0, 4, R_BPF_64_ABS64)) },
			{ DBG_SEC, RELS(RELB(8, 1, R_BPF_64_ABS64), RELB(16, 1, R_BPF_64_ABS64)),
			  .ignore = true } },
		.ins = INSERTS(AT(3, R5), AT(4, R5, R5)),
		.exp = INSNS(MOV(0, 0), JA(0), EXIT, R5, MOV(0, 1), R5, R5, MOV(0, 2), EXIT),
		.exp_syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 3), LABEL(S_SEC, 2),
				 FUNC(S_SEC, 3, 6), LABEL(S_SEC, 5), LABEL(S_SEC, 8),
				 FUNC(O_SEC, 0, 2), OBJ(D_SEC, 0, 8), SECSYM(O_SEC),
				 LABEL(S_SEC, 9)),
	},

	/* ---- refusals ---- */
	{
		.name = "refuse: insertion on the second slot of an ld_imm64",
		.in = INSNS(LD64(1, 0, 0), JEQ(1, 0, 2), LD64(2, 0, 7), EXIT),
		.syms = SYMS(NULLSYM, SECSYM(S_SEC), FUNC(S_SEC, 0, 6)),
		.ins = INSERTS(AT(4, R5)),
		.err = -EINVAL, .msg = "insertion at 4: inside an ld_imm64",
	},
	{
		.name = "refuse: ld_imm64 without its second slot",
		.in = INSNS(MOV(0, 0), I(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 0)),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 2)),
		.ins = INSERTS(AT(0, R5)),
		.err = -EINVAL, .msg = "insn 1: ld_imm64 misses its second slot",
	},
	{
		.name = "refuse: ld_imm64 with a non-empty second slot",
		.in = INSNS(I(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 0), MOV(0, 0), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 3)),
		.ins = INSERTS(AT(2, R5)),
		.err = -EINVAL, .msg = "insn 0: ld_imm64 second slot is not empty",
	},
	{
		.name = "refuse: unknown opcode",
		.in = INSNS(MOV(0, 0), I(BPF_ALU64 | 0xf0, 0, 0, 0, 0), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 3)),
		.ins = INSERTS(AT(0, R5)),
		.err = -EINVAL, .msg = "insn 1: unknown instruction (code 0xf7",
	},
	{
		.name = "refuse: JMP32 call",
		.in = INSNS(MOV(0, 0), I(BPF_JMP32 | BPF_CALL, 0, 0, 0, 7), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 3)),
		.ins = INSERTS(AT(0, R5)),
		.err = -EINVAL, .msg = "insn 1: unknown instruction (code 0x86",
	},
	{
		.name = "refuse: jump past the end of the section",
		.in = INSNS(MOV(0, 0), JA(5), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 3)),
		.ins = INSERTS(AT(0, R5)),
		.err = -EINVAL, .msg = "insn 1: jump target 7 outside the section",
	},
	{
		.name = "refuse: jump before the start of the section",
		.in = INSNS(MOV(0, 0), JEQ32(0, 0, -3), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 3)),
		.ins = INSERTS(AT(0, R5)),
		.err = -EINVAL, .msg = "insn 1: jump target -1 outside the section",
	},
	{
		.name = "refuse: jump into an ld_imm64",
		.in = INSNS(JA(1), LD64(1, 0, 0), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 4)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "insn 0: jump target 2 inside an ld_imm64",
	},
	{
		.name = "refuse: gotol past the end",
		.in = INSNS(GOTOL(100), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 2)),
		.ins = INSERTS(AT(1, R5)),
		.err = -EINVAL, .msg = "insn 0: jump target 101 outside the section",
	},
	{
		.name = "refuse: subprogram call outside the section",
		.in = INSNS(CALLP(10), EXIT),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 2)),
		.ins = INSERTS(AT(1, R5)),
		.err = -EINVAL, .msg = "insn 0: call target 11 outside the section",
	},
	{
		.name = "refuse: relocation type not understood in S",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(3, 1, 7)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "relocation 0 of section 2: type 7 not understood",
	},
	{
		.name = "refuse: relocation type not understood pointing into S",
		.sec_name = ".text",
		.in = TEXT, .syms = TWO_SYMS, .other = PROG,
		.rs = { { O_SEC, RELS(REL(0, 4, R_BPF_64_32), REL(1, 1, 8)), .code = true } },
		.ins = INSERTS(AT(1, R5)),
		.err = -EINVAL, .msg = "relocation 1 of section 3: type 8 not understood",
	},
	{
		.name = "refuse: relocation offset not 8-aligned",
		.in = CB_PROG(0, 48), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(RELB(12, 1, R_BPF_64_64)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "offset 12 not a multiple of 8",
	},
	{
		.name = "refuse: relocation past the end of S",
		.in = CB_PROG(0, 48), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(8, 1, R_BPF_64_64)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "offset 64 past the end",
	},
	{
		.name = "refuse: relocation on the second slot of an ld_imm64",
		.in = CB_PROG(0, 48), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(2, 1, R_BPF_64_64)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "relocation 0 of section 2: inside an ld_imm64",
	},
	{
		.name = "refuse: two relocations on one instruction",
		.in = CB_PROG(0, 48), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(1, 1, R_BPF_64_64), REL(1, 3, R_BPF_64_64)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "section 2: two relocations on insn 1",
	},
	{
		.name = "refuse: section without symbols",
		.in = BASE(JEQ), .syms = SYMS(NULLSYM, FUNC(O_SEC, 0, 7)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "section 2 has no symbols",
	},
	{
		.name = "refuse: section without function symbols",
		.in = BASE(JEQ), .syms = SYMS(NULLSYM, SECSYM(S_SEC), LABEL(S_SEC, 1)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "section 2 has no function symbols",
	},
	{
		.name = "refuse: insertion outside every function",
		.in = BASE(JEQ), .syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 3), FUNC(S_SEC, 4, 3)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "insertion at 3: outside every function",
	},
	{
		.name = "refuse: insertion past the last instruction",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(7, R5)),
		.err = -EINVAL, .msg = "insertion at 7: past the last instruction (7)",
	},
	{
		.name = "refuse: empty insertion",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = V(struct mkf_ip_insert, { .idx = 2 }),
		.err = -EINVAL, .msg = "insertion at 2: no instructions",
	},
	{
		.name = "refuse: inserted bpf-to-bpf call",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(2, CALLP(1))),
		.err = -EINVAL, .msg = "insertion at 2: call 0 needs a relocation",
	},
	{
		.name = "refuse: inserted ld_imm64 of a map",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(2, LD64(1, BPF_PSEUDO_MAP_FD, 3))),
		.err = -EINVAL, .msg = "insertion at 2: ld_imm64 0 needs a relocation",
	},
	{
		.name = "refuse: inserted jump leaving the block",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(2, R5, JA(1))),
		.err = -EINVAL, .msg = "insertion at 2: jump 1 leaves the block",
	},
	{
		.name = "refuse: inserted ld_imm64 cut short",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.ins = INSERTS(AT(2, R5, I(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 0))),
		.err = -EINVAL, .msg = "insertion at 2: instruction 1 does not decode",
	},
	{
		.name = "refuse: ld_imm64 of a function without relocation",
		.in = CB_PROG(BPF_PSEUDO_FUNC, 48), .syms = CB_SYMS,
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "insn 1: ld_imm64 of a function without relocation",
	},
	{
		.name = "refuse: relocation into S on an instruction that is no reference",
		.sec_name = ".text",
		.in = TEXT, .syms = TWO_SYMS, .other = INSNS(MOV(0, 0), EXIT),
		.rs = { { O_SEC, RELS(REL(0, 1, R_BPF_64_64)), .code = true } },
		.ins = INSERTS(AT(1, R5)),
		.err = -EINVAL,
		.msg = "section 3 insn 0: relocated into section 2, not a call or ld_imm64",
	},
	{
		.name = "refuse: call from another section to outside S",
		.sec_name = ".text",
		.in = TEXT, .syms = TWO_SYMS, .other = INSNS(CALLP(50), EXIT),
		.rs = { { O_SEC, RELS(REL(0, 1, R_BPF_64_32)), .code = true } },
		.ins = INSERTS(AT(1, R5)),
		.err = -EINVAL, .msg = "section 3 insn 0: call target 51 outside section 2",
	},
	{
		.name = "refuse: helper call relocated into S",
		.in = CALLER_FIRST(CALLH(1)), .syms = CALLER_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(1, 1, R_BPF_64_32)) } },
		.ins = INSERTS(AT(2, R5)),
		.err = -EINVAL,
		.msg = "section 2 insn 1: relocated call into 2 is no bpf-to-bpf call",
	},
	{
		.name = "refuse: data relocation against S's section symbol",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.rs = { { .shndx = D_SEC, .rels = RELS(RELB(0, 1, R_BPF_64_ABS64)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "relocation 0 of section 4: data reference",
	},
	{
		.name = "refuse: two relocation sections for one section",
		.in = BASE(JEQ), .syms = BASE_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(3, 0, R_BPF_NONE)) },
			{ .shndx = S_SEC, .rels = RELS(REL(3, 0, 0)) } },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "two relocation sections apply to section 2",
	},
	{
		.name = "refuse: symbol value not a multiple of 8",
		.in = BASE(JEQ),
		.syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 7),
			     SYM(3, STT_NOTYPE, STB_LOCAL, S_SEC, 4, 0)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "symbol 2: value or size not a multiple of 8",
	},
	{
		.name = "refuse: function past the end of the section",
		.in = BASE(JEQ), .syms = SYMS(NULLSYM, FUNC(S_SEC, 0, 8)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "symbol 1: past the end of the section",
	},
	{
		.name = "refuse: .BTF.ext bad magic",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 0, 0x1234, 2 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext bad magic 0x1234",
	},
	{
		.name = "refuse: .BTF.ext version 2",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 2, 2, 1 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext version 2",
	},
	{
		.name = "refuse: .BTF.ext header too short",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 4, 16, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext header length 16 invalid",
	},
	{
		.name = "refuse: .BTF.ext header with unknown non-zero fields",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 4, 36, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext header has unknown fields",
	},
	{
		.name = "refuse: .BTF.ext func_info past the end",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 12, 100000, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext func_info past the end of the section",
	},
	{
		.name = "refuse: .BTF.ext line_info misaligned",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 16, 2, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext line_info not 4-byte aligned",
	},
	{
		.name = "refuse: .BTF.ext record size too small",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 32, 4, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext func_info record size 4 invalid",
	},
	{
		.name = "refuse: .BTF.ext block without records",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 40, 0, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext func_info block with bad record count 0",
	},
	{
		.name = "refuse: .BTF.ext block overrunning its area",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 40, 5, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = ".BTF.ext func_info block with bad record count 5",
	},
	{
		.name = "refuse: .BTF.ext section name outside .BTF strings",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS,
		.poke = { 36, 1000, 4 },
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "block name offset 1000 not in .BTF strings",
	},
	{
		.name = "refuse: .BTF.ext insn_off not a multiple of 8",
		.in = EXT_PROG, .syms = EXT_SYMS,
		.ext = RECS(FI("prog", 0, 1), CO("prog", 20, 0)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "CO-RE relocation record 0 of 'prog': bad insn_off 20",
	},
	{
		.name = "refuse: .BTF.ext insn_off past the end of S",
		.in = EXT_PROG, .syms = EXT_SYMS,
		.ext = RECS(FI("prog", 0, 1), FI("prog", 64, 2)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "func_info record 1 of 'prog': bad insn_off 64",
	},
	{
		.name = "refuse: line_info on the second slot of an ld_imm64",
		.in = CB_PROG(0, 48), .syms = CB_SYMS,
		.rs = { { .shndx = S_SEC, .rels = RELS(REL(1, 1, R_BPF_64_64)) } },
		.ext = RECS(LI("prog", 0, 1), LI("prog", 16, 2)),
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL, .msg = "line_info record 1 of 'prog': bad insn_off 16",
	},
	{
		.name = "refuse: .rel.BTF.ext entry not on a record of S",
		.in = EXT_PROG, .syms = EXT_SYMS, .ext = EXT_RECS, .ext_rel_sym = 1,
		.ext_rel_bad = true,
		.ins = INSERTS(AT(3, R5)),
		.err = -EINVAL,
		.msg = "relocation 10 of section 9: not on an insn_off of section 2",
	},
};

struct snap {
	void *p[16];
	const void *src[16];
	size_t sz[16];
	int n;
};

static void snap_add(struct snap *s, const void *p, size_t sz)
{
	s->src[s->n] = p;
	s->sz[s->n] = sz;
	s->p[s->n] = malloc(sz ? sz : 1);
	if (!s->p[s->n])
		abort();
	if (sz)
		memcpy(s->p[s->n], p, sz);
	s->n++;
}

static bool snap_same(struct snap *s)
{
	bool same = true;
	int i;

	for (i = 0; i < s->n; i++) {
		same &= !s->sz[i] || !memcmp(s->p[i], s->src[i], s->sz[i]);
		free(s->p[i]);
	}
	return same;
}

static bool cmp_ext(const struct tcase *tc, const struct mkf_ip_output *out, char *w)
{
	struct prec *got = NULL, *exp = NULL;
	struct buf eb;
	size_t ng, ne, i;
	bool ok = true;

	eb = ext_build(tc->exp_ext.v, tc->exp_ext.n, hand_strs, sizeof(hand_strs), "", NULL,
		       NULL);
	if (!out->btf_ext || out->btf_ext_sz != eb.n) {
		ok = why(w, ".BTF.ext: missing or resized (%zu, expected %zu)", out->btf_ext_sz,
			 eb.n);
		goto out;
	}
	if (ext_parse(out->btf_ext, out->btf_ext_sz, hand_strs, sizeof(hand_strs), &got, &ng) ||
	    ext_parse(eb.p, eb.n, hand_strs, sizeof(hand_strs), &exp, &ne)) {
		ok = why(w, ".BTF.ext does not parse");
		goto out;
	}
	if (ng != ne) {
		ok = why(w, ".BTF.ext: %zu records, expected %zu", ng, ne);
		goto out;
	}
	for (i = 0; i < ng && ok; i++) {
		if (got[i].kind != exp[i].kind || strcmp(got[i].sec, exp[i].sec) ||
		    got[i].off != exp[i].off || got[i].rest_sz != exp[i].rest_sz ||
		    memcmp(got[i].rest, exp[i].rest, got[i].rest_sz))
			ok = why(w, ".BTF.ext record %zu (kind %d, '%s'): insn_off %u, expected "
				 "%u (or other fields differ)", i, exp[i].kind, exp[i].sec,
				 got[i].off, exp[i].off);
	}
	/* Header and layout must be byte-identical too. */
	if (ok && memcmp(out->btf_ext, eb.p, eb.n))
		ok = why(w, ".BTF.ext bytes differ outside the records");
out:
	free(got);
	free(exp);
	free(eb.p);
	return ok;
}

/*
 * Run one case. With sweep, first fail every allocation of the call in
 * turn: each must give -ENOMEM, leave *out alone and leak nothing.
 */
static long sweep_points;

static bool run_case(const struct tcase *tc, char *w, bool sweep)
{
	struct mkf_ip_relsec rs[6];
	struct mkf_ip_input in = { 0 };
	struct mkf_ip_output out, sentinel;
	Elf64_Rel ext_rels[32];
	size_t fields[32], nfields = 0, nrs = 0, i;
	struct buf ext = { 0 };
	struct snap snap = { .n = 0 };
	char err[256];
	bool ok = true;
	int ret;

	in.shndx = tc->shndx ? tc->shndx : S_SEC;
	in.sec_name = tc->sec_name ? tc->sec_name : "prog";
	in.insns = tc->in.v;
	in.insn_cnt = tc->in.n;
	in.syms = tc->syms.v;
	in.sym_cnt = tc->syms.n;
	for (i = 0; i < 4 && tc->rs[i].shndx; i++) {
		rs[nrs++] = (struct mkf_ip_relsec){
			.shndx = tc->rs[i].shndx,
			.rels = tc->rs[i].rels.v,
			.rel_cnt = tc->rs[i].rels.n,
			.insns = tc->rs[i].code ? tc->other.v : NULL,
			.insn_cnt = tc->rs[i].code ? tc->other.n : 0,
			.ignore = tc->rs[i].ignore,
		};
	}
	if (tc->ext.n) {
		ext = ext_build(tc->ext.v, tc->ext.n, hand_strs, sizeof(hand_strs), in.sec_name,
				fields, &nfields);
		if (tc->poke.width)
			memcpy(ext.p + tc->poke.at, &tc->poke.val, tc->poke.width);
		in.btf_ext = ext.p;
		in.btf_ext_sz = ext.n;
		in.btf_ext_shndx = X_SEC;
		in.btf_strs = hand_strs;
		in.btf_strs_sz = sizeof(hand_strs);
		if (tc->ext_rel_sym) {
			for (i = 0; i < nfields; i++)
				ext_rels[i] = (Elf64_Rel)RELB(fields[i], tc->ext_rel_sym,
							       R_BPF_64_NODYLD32);
			if (tc->ext_rel_bad)
				ext_rels[nfields++] = (Elf64_Rel)RELB(4, tc->ext_rel_sym,
								       R_BPF_64_NODYLD32);
			rs[nrs++] = (struct mkf_ip_relsec){ .shndx = X_SEC, .rels = ext_rels,
							    .rel_cnt = nfields };
		}
	}
	in.relsecs = nrs ? rs : NULL;
	in.relsec_cnt = nrs;

	snap_add(&snap, in.insns, in.insn_cnt * sizeof(*in.insns));
	snap_add(&snap, in.syms, in.sym_cnt * sizeof(*in.syms));
	for (i = 0; i < nrs; i++) {
		snap_add(&snap, rs[i].rels, rs[i].rel_cnt * sizeof(*rs[i].rels));
		if (rs[i].insns)
			snap_add(&snap, rs[i].insns, rs[i].insn_cnt * sizeof(*rs[i].insns));
	}
	if (ext.n)
		snap_add(&snap, ext.p, ext.n);
	for (i = 0; i < tc->ins.n; i++)
		if (tc->ins.v[i].insns)
			snap_add(&snap, tc->ins.v[i].insns,
				 tc->ins.v[i].cnt * sizeof(*tc->ins.v[i].insns));

	memset(&out, 0xa5, sizeof(out));
	sentinel = out;
	for (i = 0; sweep; i++) {
		alloc_no = 0;
		fail_at = (long)i;
		ret = mkf_insn_patch(&in, tc->ins.v, tc->ins.n, &out, err, sizeof(err));
		fail_at = -1;
		if (ret != -ENOMEM)
			break;
		sweep_points++;
		if (memcmp(&out, &sentinel, sizeof(out)) || strcmp(err, "out of memory")) {
			snap_same(&snap);
			ok = why(w, "allocation %zu failing: *out modified or reason '%s'", i, err);
			goto done;
		}
	}
	if (sweep && !ret)
		mkf_ip_output_free(&out);
	ret = mkf_insn_patch(&in, tc->ins.v, tc->ins.n, &out, err, sizeof(err));
	if (!snap_same(&snap)) {
		ok = why(w, "inputs were modified");
		goto done;
	}
	if (tc->err || tc->msg) {
		if (ret != tc->err)
			ok = why(w, "returned %d (%s), expected %d", ret, err, tc->err);
		else if (!strstr(err, tc->msg))
			ok = why(w, "reason '%s', expected '%s'", err, tc->msg);
		else if (memcmp(&out, &sentinel, sizeof(out)))
			ok = why(w, "*out modified on error");
		goto done;
	}
	if (ret) {
		ok = why(w, "returned %d: %s", ret, err);
		goto done;
	}
	ok = cmp_insns("S", out.insns, out.insn_cnt, tc->exp.v, tc->exp.n, w);
	if (ok) {
		const Elf64_Sym *es = tc->exp_syms.n ? tc->exp_syms.v : in.syms;

		for (i = 0; i < in.sym_cnt && ok; i++)
			if (memcmp(&out.syms[i], &es[i], sizeof(es[i])))
				ok = why(w, "symbol %zu: value %llu size %llu, expected %llu %llu",
					 i, (unsigned long long)out.syms[i].st_value,
					 (unsigned long long)out.syms[i].st_size,
					 (unsigned long long)es[i].st_value,
					 (unsigned long long)es[i].st_size);
	}
	if (ok && out.relsec_cnt != nrs)
		ok = why(w, "%zu relocation outputs for %zu sections", out.relsec_cnt, nrs);
	for (i = 0; i < nrs && ok; i++) {
		const struct v_rel *exp = i < 4 && tc->rs[i].shndx ? &tc->rs[i].exp : NULL;
		size_t e;

		if (!exp || !exp->n) {
			if (out.relsecs[i].rels)
				ok = why(w, "relocation section %zu changed unexpectedly", i);
		} else if (!out.relsecs[i].rels) {
			ok = why(w, "relocation section %zu unchanged", i);
		} else {
			const Elf64_Rel *got = out.relsecs[i].rels;

			for (e = 0; e < exp->n && ok; e++)
				ok = !memcmp(&got[e], &exp->v[e], sizeof(exp->v[e])) ||
				     why(w, "relsec %zu entry %zu: offset %llu, expected %llu",
					 i, e, (unsigned long long)got[e].r_offset,
					 (unsigned long long)exp->v[e].r_offset);
		}
		if (!ok)
			break;
		if (rs[i].insns && tc->exp_other.n)
			ok = out.relsecs[i].insns &&
			     cmp_insns("other section", out.relsecs[i].insns, rs[i].insn_cnt,
				       tc->exp_other.v, tc->exp_other.n, w);
		else if (out.relsecs[i].insns)
			ok = why(w, "section %u changed unexpectedly", rs[i].shndx);
		if (!ok && !w[0])
			why(w, "other section unchanged, expected changes");
	}
	if (ok && tc->ext.n)
		ok = cmp_ext(tc, &out, w);
	else if (ok && out.btf_ext)
		ok = why(w, ".BTF.ext output without input");
	mkf_ip_output_free(&out);
done:
	free(ext.p);
	return ok;
}

/* ---- cases built in code ---- */

/* A long section: jump 0 -> 32767 at the s16 limit once patched. */
static bool long_jump(char *w, size_t ninsert, int expect_err, bool gotol)
{
	size_t n = 32770, i;
	struct bpf_insn *p = calloc(n, sizeof(*p)), r5[2] = { R5, R5 };
	Elf64_Sym syms[] = { NULLSYM, FUNC(S_SEC, 0, 32770) };
	struct mkf_ip_insert ins = { .idx = 5, .insns = r5, .cnt = ninsert };
	struct mkf_ip_input in = { .shndx = S_SEC, .sec_name = "prog", .insns = p,
				   .insn_cnt = n, .syms = syms, .sym_cnt = 2 };
	struct mkf_ip_output out = { 0 };
	char err[256] = "";
	bool ok = true;
	int ret;

	if (!p)
		abort();
	for (i = 0; i < n; i++)
		p[i] = (struct bpf_insn)MOV(0, 0);
	p[0] = gotol ? (struct bpf_insn)GOTOL(32766) : (struct bpf_insn)JA(32766);
	p[n - 1] = (struct bpf_insn)EXIT;
	ret = mkf_insn_patch(&in, &ins, 1, &out, err, sizeof(err));
	if (ret != expect_err)
		ok = why(w, "returned %d (%s), expected %d", ret, err, expect_err);
	else if (expect_err && !strstr(err, "insn 0: jump out of range"))
		ok = why(w, "reason '%s'", err);
	else if (!expect_err && (gotol ? out.insns[0].imm : out.insns[0].off) !=
		 (int)(32766 + ninsert))
		ok = why(w, "offset %d", gotol ? out.insns[0].imm : out.insns[0].off);
	else if (!expect_err && out.insn_cnt != n + ninsert)
		ok = why(w, "%zu instructions", out.insn_cnt);
	mkf_ip_output_free(&out);
	free(p);
	return ok;
}

static bool case_jump_limit(char *w)
{
	return long_jump(w, 1, 0, false);
}

static bool case_jump_overflow(char *w)
{
	return long_jump(w, 2, -EINVAL, false);
}

static bool case_gotol_long(char *w)
{
	return long_jump(w, 2, 0, true);
}

/* The .BTF string helper on a hand-made .BTF. */
static bool case_btf_strings(char *w)
{
	unsigned char btf[24 + 4 + 7] = { 0x9f, 0xeb, 1, 0, 24 };
	const char *s;
	size_t sz;
	__u32 v;

	v = 4;	/* type_len */
	memcpy(btf + 12, &v, 4);
	v = 4;	/* str_off */
	memcpy(btf + 16, &v, 4);
	v = 7;	/* str_len */
	memcpy(btf + 20, &v, 4);
	memcpy(btf + 28, "\0.text", 7);
	if (mkf_ip_btf_strings(btf, sizeof(btf), &s, &sz) || sz != 7 || strcmp(s + 1, ".text"))
		return why(w, "strings not found");
	v = 8;	/* past the end */
	memcpy(btf + 20, &v, 4);
	if (mkf_ip_btf_strings(btf, sizeof(btf), &s, &sz) != -EINVAL)
		return why(w, "overlong strings accepted");
	return true;
}

/* Two patcher calls for two sections, the second fed the first's outputs. */
static bool case_chained(char *w)
{
	static const struct bpf_insn text[] = { MOV(0, 1), CALLH(7), EXIT, MOV(0, 2), EXIT,
						MOV(0, 0), EXIT };
	static const struct bpf_insn prog[] = { CALLP(-1), CALLP(-1), LD64(2, 0, 40), CALLP(4),
						EXIT };
	static const Elf64_Sym syms[] = { NULLSYM, SECSYM(2), SECSYM(3), LFUNC(2, 0, 3),
					  FUNC(2, 3, 2), LFUNC(2, 5, 2), FUNC(3, 0, 6) };
	static const Elf64_Rel rels[] = { REL(0, 4, R_BPF_64_32), REL(1, 1, R_BPF_64_32),
					  REL(2, 1, R_BPF_64_64), REL(4, 1, R_BPF_64_32) };
	static const struct bpf_insn exp_prog[] = { R5, CALLP(-1), CALLP(-1), LD64(2, 0, 48),
						    R5, CALLP(5), EXIT };
	static const Elf64_Rel exp_rels[] = { REL(1, 4, R_BPF_64_32), REL(2, 1, R_BPF_64_32),
					      REL(3, 1, R_BPF_64_64), REL(6, 1, R_BPF_64_32) };
	struct bpf_insn r5[] = { R5 };
	struct mkf_ip_insert t_ins[] = { { 1, r5, 1 }, { 5, r5, 1 } };
	struct mkf_ip_insert p_ins[] = { { 0, r5, 1 }, { 4, r5, 1 } };
	struct mkf_ip_relsec rs = { .shndx = 3, .rels = rels, .rel_cnt = 4, .insns = prog,
				    .insn_cnt = 6 };
	struct mkf_ip_input in = { .shndx = 2, .sec_name = ".text", .insns = text, .insn_cnt = 7,
				   .syms = syms, .sym_cnt = 7, .relsecs = &rs, .relsec_cnt = 1 };
	struct mkf_ip_output o1 = { 0 }, o2 = { 0 };
	char err[256] = "";
	bool ok = true;
	size_t e;

	if (mkf_insn_patch(&in, t_ins, 2, &o1, err, sizeof(err)))
		return why(w, ".text: %s", err);
	if (!o1.relsecs[0].insns) {
		mkf_ip_output_free(&o1);
		return why(w, "prog not updated by the .text patch");
	}
	/* Now prog, with the .text patch's symbols and prog instructions. */
	rs.insns = NULL;
	rs.insn_cnt = 0;
	in = (struct mkf_ip_input){ .shndx = 3, .sec_name = "prog",
				    .insns = o1.relsecs[0].insns, .insn_cnt = 6, .syms = o1.syms,
				    .sym_cnt = 7, .relsecs = &rs, .relsec_cnt = 1 };
	if (mkf_insn_patch(&in, p_ins, 2, &o2, err, sizeof(err))) {
		ok = why(w, "prog: %s", err);
		goto out;
	}
	ok = cmp_insns("prog", o2.insns, o2.insn_cnt, exp_prog, 8, w);
	for (e = 0; ok && e < 4; e++)
		if (!o2.relsecs[0].rels || o2.relsecs[0].rels[e].r_offset != exp_rels[e].r_offset)
			ok = why(w, "prog relocation %zu", e);
	if (ok && (o2.syms[6].st_size != 8 * 8 || o2.syms[4].st_value != 4 * 8))
		ok = why(w, "symbols");
out:
	mkf_ip_output_free(&o1);
	mkf_ip_output_free(&o2);
	return ok;
}

/* ---- real clang objects ---- */

struct msec {
	char *name;
	GElf_Shdr sh;
	unsigned char *data;
	size_t sz;
	bool code;
};

struct mrel {
	size_t sec;
	Elf64_Word target;
	Elf64_Rel *rels;
	size_t cnt;
	bool ignore;
};

struct model {
	struct msec *secs;
	size_t nsecs;
	Elf64_Sym *syms;
	size_t nsyms;
	struct mrel *rels;
	size_t nrels;
	Elf64_Word ext_shndx;
	unsigned char *btf;
	size_t btf_sz;
	const char *strs;
	size_t strs_sz;
};

static void *dup_mem(const void *p, size_t sz)
{
	void *q = malloc(sz ? sz : 1);

	if (!q)
		abort();
	if (sz)
		memcpy(q, p, sz);
	return q;
}

static int model_load(const char *path, struct model *m, char *w)
{
	size_t shstrndx, i;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	memset(m, 0, sizeof(*m));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return why(w, "open %s: %s", path, strerror(errno)), -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrnum(elf, &m->nsecs) || elf_getshdrstrndx(elf, &shstrndx)) {
		why(w, "libelf: %s", elf_errmsg(-1));
		close(fd);
		return -1;
	}
	m->secs = calloc(m->nsecs, sizeof(*m->secs));
	if (!m->secs)
		abort();
	while ((scn = elf_nextscn(elf, scn))) {
		size_t idx = elf_ndxscn(scn);
		struct msec *s = &m->secs[idx];
		Elf_Data *d = elf_getdata(scn, NULL);
		const char *name;

		gelf_getshdr(scn, &s->sh);
		name = elf_strptr(elf, shstrndx, s->sh.sh_name);
		s->name = strdup(name ? name : "");
		s->sz = d ? d->d_size : 0;
		s->data = dup_mem(d && d->d_buf ? d->d_buf : "", s->sz);
		s->code = s->sh.sh_type == SHT_PROGBITS && (s->sh.sh_flags & SHF_EXECINSTR) &&
			  s->sz;
		if (!strcmp(s->name, ".BTF.ext"))
			m->ext_shndx = (Elf64_Word)idx;
		if (!strcmp(s->name, ".BTF")) {
			m->btf = s->data;
			m->btf_sz = s->sz;
		}
		if (s->sh.sh_type == SHT_SYMTAB) {
			m->syms = dup_mem(s->data, s->sz);
			m->nsyms = s->sz / sizeof(Elf64_Sym);
		}
	}
	for (i = 0; i < m->nsecs; i++) {
		struct msec *s = &m->secs[i];
		struct mrel *r;

		if (s->sh.sh_type != SHT_REL)
			continue;
		m->rels = realloc(m->rels, (m->nrels + 1) * sizeof(*m->rels));
		if (!m->rels)
			abort();
		r = &m->rels[m->nrels++];
		r->sec = i;
		r->target = s->sh.sh_info;
		r->rels = dup_mem(s->data, s->sz);
		r->cnt = s->sz / sizeof(Elf64_Rel);
		r->ignore = !strncmp(m->secs[r->target].name, ".debug_", 7);
	}
	elf_end(elf);
	close(fd);
	if (!m->btf || mkf_ip_btf_strings(m->btf, m->btf_sz, &m->strs, &m->strs_sz))
		return why(w, "%s: no usable .BTF", path), -1;
	if (!m->syms)
		return why(w, "%s: no symbol table", path), -1;
	return 0;
}

static void model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nsecs; i++) {
		free(m->secs[i].name);
		free(m->secs[i].data);
	}
	for (i = 0; i < m->nrels; i++)
		free(m->rels[i].rels);
	free(m->secs);
	free(m->rels);
	free(m->syms);
}

static struct bpf_insn *sec_insns(const struct model *m, size_t idx)
{
	return (struct bpf_insn *)m->secs[idx].data;
}

static size_t sec_cnt(const struct model *m, size_t idx)
{
	return m->secs[idx].sz / sizeof(struct bpf_insn);
}

static const struct mrel *rel_of(const struct model *m, size_t idx)
{
	size_t i;

	for (i = 0; i < m->nrels; i++)
		if (m->rels[i].target == idx)
			return &m->rels[i];
	return NULL;
}

/* Relocation on instruction j of section idx, or NULL. */
static const Elf64_Rel *rel_at(const struct model *m, size_t idx, size_t j)
{
	const struct mrel *r = rel_of(m, idx);
	size_t e;

	for (e = 0; r && e < r->cnt; e++)
		if (r->rels[e].r_offset == j * 8 && ELF64_R_TYPE(r->rels[e].r_info))
			return &r->rels[e];
	return NULL;
}

/* Insertion points per section (original indexes, sorted, one insn each). */
struct pts {
	size_t *v;
	size_t n;
};

static size_t o_at(const struct pts *p, size_t j)
{
	size_t i, k = 0;

	for (i = 0; i < p->n; i++)
		k += p->v[i] <= j;
	return j + k;
}

static size_t o_land(const struct pts *p, size_t j)
{
	size_t i, k = 0;

	for (i = 0; i < p->n; i++)
		k += p->v[i] < j;
	return j + k;
}

static bool is_ld64(const struct bpf_insn *x)
{
	return x->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* Helper call, or kfunc call (clang: call -1 relocated against an extern). */
static bool is_helper_or_kfunc(const struct model *m, size_t idx, size_t j)
{
	const struct bpf_insn *x = &sec_insns(m, idx)[j];
	const Elf64_Rel *r;

	if (x->code != (BPF_JMP | BPF_CALL))
		return false;
	if (x->src_reg == 0)
		return true;
	r = rel_at(m, idx, j);
	return r && ELF64_R_SYM(r->r_info) < m->nsyms &&
	       m->syms[ELF64_R_SYM(r->r_info)].st_shndx == SHN_UNDEF;
}

static bool func_start(const struct model *m, const struct prec *recs, size_t nrecs,
		       size_t sec, size_t j)
{
	size_t i;

	for (i = 0; i < m->nsyms; i++)
		if (m->syms[i].st_shndx == sec && ELF64_ST_TYPE(m->syms[i].st_info) == STT_FUNC &&
		    m->syms[i].st_value == j * 8 && m->syms[i].st_size)
			return true;
	for (i = 0; i < nrecs; i++)
		if (recs[i].kind == K_FUNC && !strcmp(recs[i].sec, m->secs[sec].name) &&
		    recs[i].off == j * 8)
			return true;
	return false;
}

static size_t sec_by_name(const struct model *m, const char *name)
{
	size_t i;

	for (i = 1; i < m->nsecs; i++)
		if (m->secs[i].code && !strcmp(m->secs[i].name, name))
			return i;
	return 0;
}

/*
 * Instruction j of code section s of o against its image in c: same
 * instruction, and whatever it references (jump or call target, function
 * address, through the relocation and the symbol's new value) mapped.
 */
static bool verify_insn(const struct model *o, const struct model *c, const struct pts *pts,
			size_t s, size_t j, char *w)
{
	const struct pts *p = &pts[s];
	const struct bpf_insn *x = &sec_insns(o, s)[j], *y = &sec_insns(c, s)[o_at(p, j)];
	const Elf64_Rel *r = rel_at(o, s, j);
	const char *sn = o->secs[s].name;
	size_t si = r ? ELF64_R_SYM(r->r_info) : 0;
	size_t ts = r ? o->syms[si].st_shndx : 0;
	bool into_code = r && ts && ts < o->nsecs && o->secs[ts].code;
	long long t, t2;

	if (x->code != y->code || x->dst_reg != y->dst_reg || x->src_reg != y->src_reg)
		return why(w, "%s insn %zu: different instruction", sn, j);
	if (is_ld64(x)) {
		if (memcmp(&x[1], &y[1], sizeof(*x)))
			return why(w, "%s insn %zu: second slot", sn, j);
		if (!into_code)
			return x->imm == y->imm || why(w, "%s insn %zu: imm", sn, j);
		t = (long long)o->syms[si].st_value + x->imm;
		t2 = (long long)c->syms[si].st_value + y->imm;
		if (t2 != (long long)o_land(&pts[ts], t / 8) * 8)
			return why(w, "%s insn %zu: function address %lld -> %lld", sn, j, t, t2);
		return true;
	}
	if (x->code == (BPF_JMP | BPF_CALL) && x->src_reg == BPF_PSEUDO_CALL) {
		if (!r) {
			t = (long long)j + x->imm + 1;
			t2 = (long long)o_at(p, j) + y->imm + 1;
			return t2 == (long long)o_land(p, t) ||
			       why(w, "%s insn %zu: relative call", sn, j);
		}
		/* kfunc: call -1 against an extern, left alone. */
		if (!into_code)
			return x->imm == y->imm || why(w, "%s insn %zu: kfunc imm", sn, j);
		t = (long long)o->syms[si].st_value / 8 + x->imm + 1;
		t2 = (long long)c->syms[si].st_value / 8 + y->imm + 1;
		return t2 == (long long)o_land(&pts[ts], t) ||
		       why(w, "%s insn %zu: call into %s: %lld -> %lld", sn, j, o->secs[ts].name,
			   t, t2);
	}
	if ((BPF_CLASS(x->code) == BPF_JMP || BPF_CLASS(x->code) == BPF_JMP32) &&
	    BPF_OP(x->code) != BPF_CALL && BPF_OP(x->code) != BPF_EXIT) {
		bool gl = x->code == (BPF_JMP32 | BPF_JA);

		t = (long long)j + 1 + (gl ? x->imm : x->off);
		t2 = (long long)o_at(p, j) + 1 + (gl ? y->imm : y->off);
		return t2 == (long long)o_land(p, t) ||
		       why(w, "%s insn %zu: jump to %lld lands on %lld", sn, j, t, t2);
	}
	return (x->off == y->off && x->imm == y->imm) ||
	       why(w, "%s insn %zu: operands changed", sn, j);
}

/* Every reference of o (original), mapped through pts, must be in c (patched). */
static bool verify(const struct model *o, const struct model *c, const struct pts *pts, char *w)
{
	struct prec *orec = NULL, *crec = NULL;
	size_t s, j, i, no = 0, nc = 0;
	bool ok = true;

	for (s = 1; s < o->nsecs && ok; s++) {
		const struct bpf_insn *b = sec_insns(c, s);
		const struct pts *p = &pts[s];

		if (!o->secs[s].code)
			continue;
		if (sec_cnt(c, s) != sec_cnt(o, s) + p->n)
			return why(w, "%s: %zu insns, expected %zu", o->secs[s].name,
				   sec_cnt(c, s), sec_cnt(o, s) + p->n);
		for (i = 0; i < p->n; i++) {
			const struct bpf_insn *x = &b[o_land(p, p->v[i])];

			if (memcmp(x, &(struct bpf_insn)R5, sizeof(*x)) ||
			    o_land(p, p->v[i]) + 1 != o_at(p, p->v[i]))
				return why(w, "%s: no r5 = 0 before old insn %zu", o->secs[s].name,
					   p->v[i]);
		}
		for (j = 0; j < sec_cnt(o, s) && ok; j++) {
			ok = verify_insn(o, c, pts, s, j, w);
			if (is_ld64(&sec_insns(o, s)[j]))
				j++;
		}
	}
	/* Relocations: same entries, offsets mapped in code sections. */
	for (i = 0; i < o->nrels && ok; i++) {
		const struct mrel *a = &o->rels[i], *b = &c->rels[i];
		size_t e;

		if (a->cnt != b->cnt)
			return why(w, "relocation section %zu resized", i);
		for (e = 0; e < a->cnt; e++) {
			Elf64_Addr want = a->rels[e].r_offset;

			if (o->secs[a->target].code)
				want = o_at(&pts[a->target], want / 8) * 8;
			if (b->rels[e].r_offset != want || b->rels[e].r_info != a->rels[e].r_info)
				return why(w, "relocation %zu of section %s: offset %llu, expected "
					   "%llu", e, o->secs[a->target].name,
					   (unsigned long long)b->rels[e].r_offset,
					   (unsigned long long)want);
		}
	}
	/* Symbols. */
	for (i = 0; i < o->nsyms; i++) {
		const Elf64_Sym *a = &o->syms[i], *b = &c->syms[i];
		Elf64_Sym want = *a;

		if (a->st_shndx && a->st_shndx < o->nsecs && o->secs[a->st_shndx].code &&
		    ELF64_ST_TYPE(a->st_info) != STT_SECTION) {
			const struct pts *p = &pts[a->st_shndx];
			size_t beg = a->st_value / 8, end = beg + a->st_size / 8;

			want.st_value = o_land(p, beg) * 8;
			want.st_size = (o_land(p, end) - o_land(p, beg)) * 8;
		}
		if (memcmp(&want, b, sizeof(want)))
			return why(w, "symbol %zu: value %llu size %llu, expected %llu %llu", i,
				   (unsigned long long)b->st_value, (unsigned long long)b->st_size,
				   (unsigned long long)want.st_value,
				   (unsigned long long)want.st_size);
	}
	/* .BTF.ext: same records, offsets mapped. */
	if (o->ext_shndx) {
		const struct msec *a = &o->secs[o->ext_shndx], *b = &c->secs[o->ext_shndx];

		if (ext_parse(a->data, a->sz, o->strs, o->strs_sz, &orec, &no) ||
		    ext_parse(b->data, b->sz, c->strs, c->strs_sz, &crec, &nc) || no != nc) {
			ok = why(w, ".BTF.ext does not parse or changed shape");
			goto out;
		}
		for (i = 0; i < no && ok; i++) {
			size_t sec = sec_by_name(o, orec[i].sec), jj = orec[i].off / 8, want;

			if (!sec) {
				ok = why(w, ".BTF.ext record for unknown section %s", orec[i].sec);
				break;
			}
			if (orec[i].kind == K_FUNC ||
			    (orec[i].kind == K_LINE && func_start(o, orec, no, sec, jj)))
				want = o_land(&pts[sec], jj) * 8;
			else
				want = o_at(&pts[sec], jj) * 8;
			if (crec[i].off != want || crec[i].kind != orec[i].kind ||
			    memcmp(crec[i].rest, orec[i].rest, orec[i].rest_sz))
				ok = why(w, ".BTF.ext record %zu (kind %d, %s): %u -> %u, expected "
					 "%zu", i, orec[i].kind, orec[i].sec, orec[i].off,
					 crec[i].off, want);
		}
	}
out:
	free(orec);
	free(crec);
	return ok;
}

/*
 * libbpf reaches the kernel only through syscall(__NR_bpf, ...). This
 * definition interposes glibc's for the whole process (libbpf.so binds to
 * it) and refuses everything: the test never needs a raw system call.
 */
static int syscall_attempts;

long syscall(long nr, ...)
{
	(void)nr;
	syscall_attempts++;
	errno = EPERM;
	return -1;
}

static char libbpf_log[4096];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(libbpf_log);

	if (level == LIBBPF_DEBUG || n + 1 >= sizeof(libbpf_log))
		return 0;
	return vsnprintf(libbpf_log + n, sizeof(libbpf_log) - n, fmt, ap);
}

/* The ELF writer's job, done plainly: every section in index order, new data. */
static int model_write(const struct model *m, const char *path, void **out, size_t *out_sz,
		       char *w)
{
	int ifd = -1, ofd = -1, ret = -1;
	Elf *ie = NULL, *oe = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	off_t sz;

	ifd = open(path, O_RDONLY);
	ofd = memfd_create("test-insn-patch", MFD_CLOEXEC);
	if (ifd < 0 || ofd < 0) {
		why(w, "open: %s", strerror(errno));
		goto out;
	}
	ie = elf_begin(ifd, ELF_C_READ, NULL);
	oe = elf_begin(ofd, ELF_C_WRITE, NULL);
	if (!ie || !oe || !gelf_getehdr(ie, &eh) || !gelf_newehdr(oe, ELFCLASS64)) {
		why(w, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(ie, scn))) {
		size_t idx = elf_ndxscn(scn), i;
		Elf_Scn *os = elf_newscn(oe);
		Elf_Data *od = os ? elf_newdata(os) : NULL;
		const struct msec *sec = &m->secs[idx];
		GElf_Shdr sh;

		if (!od || elf_ndxscn(os) != idx || !gelf_getshdr(scn, &sh)) {
			why(w, "libelf: section %zu", idx);
			goto out;
		}
		od->d_buf = sec->sh.sh_type == SHT_NOBITS ? NULL : sec->data;
		od->d_size = sec->sz;
		if (sec->sh.sh_type == SHT_SYMTAB) {
			od->d_buf = m->syms;
			od->d_size = m->nsyms * sizeof(*m->syms);
		}
		for (i = 0; i < m->nrels; i++)
			if (m->rels[i].sec == idx) {
				od->d_buf = m->rels[i].rels;
				od->d_size = m->rels[i].cnt * sizeof(Elf64_Rel);
			}
		od->d_type = ELF_T_BYTE;
		od->d_align = sh.sh_addralign ? sh.sh_addralign : 1;
		od->d_version = EV_CURRENT;
		if (!gelf_update_shdr(os, &sh)) {
			why(w, "libelf: %s", elf_errmsg(-1));
			goto out;
		}
	}
	if (!gelf_update_ehdr(oe, &eh) || elf_update(oe, ELF_C_WRITE) < 0) {
		why(w, "libelf write: %s", elf_errmsg(-1));
		goto out;
	}
	sz = lseek(ofd, 0, SEEK_END);
	*out = malloc(sz > 0 ? (size_t)sz : 1);
	if (!*out || sz <= 0 || pread(ofd, *out, (size_t)sz, 0) != sz) {
		why(w, "read back");
		free(*out);
		goto out;
	}
	*out_sz = (size_t)sz;
	ret = 0;
out:
	elf_end(oe);
	elf_end(ie);
	if (ifd >= 0)
		close(ifd);
	if (ofd >= 0)
		close(ofd);
	return ret;
}

/*
 * libbpf 1.1 opens the written object m (programs from STT_FUNC symbols,
 * every code relocation checked by bpf_program__record_reloc()), and each
 * entry program is exactly the range its original symbol in o maps to.
 */
static bool libbpf_opens(const struct model *o, const struct model *m, const struct pts *pts,
			 const char *path, char *w)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "patched");
	const struct msec *strtab = NULL;
	struct bpf_program *prog;
	struct bpf_object *obj;
	size_t sz, i, progs = 0, want = 0;
	bool ok = true;
	void *img;

	for (i = 0; i < m->nsecs; i++)
		if (m->secs[i].sh.sh_type == SHT_SYMTAB)
			strtab = &m->secs[m->secs[i].sh.sh_link];
	if (!strtab || model_write(m, path, &img, &sz, w))
		return false;
	for (i = 0; i < m->nsyms; i++) {
		const Elf64_Sym *sym = &m->syms[i];

		want += ELF64_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_shndx < m->nsecs &&
			m->secs[sym->st_shndx].code && strcmp(m->secs[sym->st_shndx].name, ".text");
	}
	libbpf_log[0] = '\0';
	syscall_attempts = 0;
	libbpf_set_print(libbpf_print);
	obj = bpf_object__open_mem(img, sz, &opts);
	if (!obj) {
		ok = why(w, "libbpf refuses the patched object (%d): %s", -errno, libbpf_log);
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog);
		const Elf64_Sym *sym = NULL;

		progs++;
		for (i = 0; i < m->nsyms && !sym; i++)
			if (ELF64_ST_TYPE(m->syms[i].st_info) == STT_FUNC &&
			    m->syms[i].st_name < strtab->sz &&
			    !strcmp((const char *)strtab->data + m->syms[i].st_name, name))
				sym = &m->syms[i];
		if (!sym) {
			ok = why(w, "libbpf program %s has no symbol", name);
			break;
		}
		{
			const Elf64_Sym *osym = &o->syms[sym - m->syms];
			const struct pts *p = &pts[osym->st_shndx];
			size_t beg = o_land(p, osym->st_value / 8);
			size_t cnt = o_land(p, (osym->st_value + osym->st_size) / 8) - beg;

			if (bpf_program__insn_cnt(prog) != cnt ||
			    memcmp(bpf_program__insns(prog), sec_insns(m, osym->st_shndx) + beg,
				   cnt * sizeof(struct bpf_insn))) {
				ok = why(w, "libbpf program %s: %zu insns, expected %zu", name,
					 bpf_program__insn_cnt(prog), cnt);
				break;
			}
		}
	}
	if (ok && progs != want)
		ok = why(w, "libbpf sees %zu programs, expected %zu", progs, want);
	bpf_object__close(obj);
out:
	libbpf_set_print(NULL);
	if (ok && syscall_attempts)
		ok = why(w, "libbpf attempted %d system calls", syscall_attempts);
	free(img);
	return ok;
}

/*
 * Patch every code section of path (r5 = 0 before each helper and kfunc
 * call), one patcher call per section on the evolving model, then verify.
 * min_* guard that the object really has what the case is about.
 */
static bool real_object(const char *path, char *w, const size_t *min_ext, size_t *total)
{
	struct model o, c;
	struct pts *pts = NULL;
	struct prec *recs = NULL;
	size_t s, j, r, nrec = 0, kinds[K_NR] = { 0 };
	bool ok = true;

	*total = 0;
	if (model_load(path, &o, w))
		return false;
	if (model_load(path, &c, w)) {
		model_free(&o);
		return false;
	}
	pts = calloc(o.nsecs, sizeof(*pts));
	if (!pts)
		abort();
	if (o.ext_shndx && !ext_parse(o.secs[o.ext_shndx].data, o.secs[o.ext_shndx].sz, o.strs,
				      o.strs_sz, &recs, &nrec))
		for (j = 0; j < nrec; j++)
			kinds[recs[j].kind]++;
	free(recs);
	for (j = 0; j < K_NR; j++)
		if (kinds[j] < min_ext[j]) {
			ok = why(w, "object has %zu records of kind %zu, wanted %zu", kinds[j], j,
				 min_ext[j]);
			goto out;
		}

	for (s = 1; s < c.nsecs && ok; s++) {
		struct mkf_ip_relsec *rs = calloc(c.nrels + 1, sizeof(*rs));
		struct mkf_ip_insert *ins;
		struct mkf_ip_output out = { 0 };
		struct bpf_insn r5 = R5;
		struct mkf_ip_input in;
		char err[256] = "";
		int ret;

		if (!c.secs[s].code) {
			free(rs);
			continue;
		}
		ins = calloc(sec_cnt(&c, s), sizeof(*ins));
		pts[s].v = calloc(sec_cnt(&c, s), sizeof(*pts[s].v));
		if (!rs || !ins || !pts[s].v)
			abort();
		for (j = 0; j < sec_cnt(&c, s); j++) {
			if (is_ld64(&sec_insns(&c, s)[j])) {
				j++;
				continue;
			}
			if (!is_helper_or_kfunc(&c, s, j))
				continue;
			ins[pts[s].n] = (struct mkf_ip_insert){ .idx = j, .insns = &r5, .cnt = 1 };
			pts[s].v[pts[s].n++] = j;
		}
		*total += pts[s].n;
		for (r = 0; r < c.nrels; r++) {
			Elf64_Word t = c.rels[r].target;

			rs[r] = (struct mkf_ip_relsec){
				.shndx = t, .rels = c.rels[r].rels, .rel_cnt = c.rels[r].cnt,
				.insns = c.secs[t].code ? sec_insns(&c, t) : NULL,
				.insn_cnt = c.secs[t].code ? sec_cnt(&c, t) : 0,
				.ignore = c.rels[r].ignore,
			};
		}
		in = (struct mkf_ip_input){
			.shndx = (Elf64_Word)s, .sec_name = c.secs[s].name,
			.insns = sec_insns(&c, s), .insn_cnt = sec_cnt(&c, s),
			.syms = c.syms, .sym_cnt = c.nsyms, .relsecs = rs, .relsec_cnt = c.nrels,
			.btf_ext = c.ext_shndx ? c.secs[c.ext_shndx].data : NULL,
			.btf_ext_sz = c.ext_shndx ? c.secs[c.ext_shndx].sz : 0,
			.btf_ext_shndx = c.ext_shndx, .btf_strs = c.strs, .btf_strs_sz = c.strs_sz,
		};
		ret = mkf_insn_patch(&in, ins, pts[s].n, &out, err, sizeof(err));
		if (ret) {
			ok = why(w, "%s: %d: %s", c.secs[s].name, ret, err);
		} else {
			/* What an ELF writer would do: take every changed buffer. */
			free(c.secs[s].data);
			c.secs[s].data = (unsigned char *)out.insns;
			c.secs[s].sz = out.insn_cnt * sizeof(*out.insns);
			free(c.syms);
			c.syms = out.syms;
			for (r = 0; r < c.nrels; r++) {
				Elf64_Word t = c.rels[r].target;

				if (out.relsecs[r].rels) {
					free(c.rels[r].rels);
					c.rels[r].rels = out.relsecs[r].rels;
				}
				if (out.relsecs[r].insns) {
					free(c.secs[t].data);
					c.secs[t].data = (unsigned char *)out.relsecs[r].insns;
				}
			}
			if (out.btf_ext) {
				free(c.secs[c.ext_shndx].data);
				c.secs[c.ext_shndx].data = out.btf_ext;
			}
			free(out.relsecs);
		}
		free(ins);
		free(rs);
	}
	if (ok && !*total)
		ok = why(w, "no call to patch");
	if (ok)
		ok = verify(&o, &c, pts, w);
	if (ok)
		ok = libbpf_opens(&o, &c, pts, path, w);
out:
	for (s = 0; s < o.nsecs; s++)
		free(pts[s].v);
	free(pts);
	model_free(&o);
	model_free(&c);
	return ok;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : MKF_BPF_OBJDIR;
	static const struct {
		const char *name;
		bool (*fn)(char *w);
	} code_cases[] = {
		{ "jump at the s16 limit after patching", case_jump_limit },
		{ "refuse: jump out of range", case_jump_overflow },
		{ "gotol past the s16 range", case_gotol_long },
		{ "chained calls: .text then the caller section", case_chained },
		{ ".BTF string section helper", case_btf_strings },
	};
	static const struct {
		const char *file;
		size_t min_ext[K_NR];
	} objs[] = {
		{ "unit_ip_calls.bpf.o", { 4, 10, 0 } },
		{ "unit_ip_core.bpf.o", { 2, 10, 5 } },
	};
	char w[512], name[256], path[1024];
	size_t i, total;

	elf_version(EV_CURRENT);
	/* The guard only protects if libbpf binds to it. */
	if (dlsym(RTLD_DEFAULT, "syscall") != (void *)syscall) {
		printf("FAIL syscall guard not interposed\n0 passed, 1 failed\n");
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		w[0] = '\0';
		report(cases[i].name, run_case(&cases[i], w, false), w);
	}
	{
		char detail[512] = "";
		bool ok = true;

		for (i = 0; i < ARRAY_SIZE(cases) && ok; i++) {
			w[0] = '\0';
			if (!run_case(&cases[i], w, true))
				ok = why(detail, "%.200s: %.300s", cases[i].name, w);
		}
		snprintf(name, sizeof(name), "-ENOMEM at each allocation of every case (%ld)",
			 sweep_points);
		report(name, ok, detail);
	}
	for (i = 0; i < ARRAY_SIZE(code_cases); i++) {
		w[0] = '\0';
		report(code_cases[i].name, code_cases[i].fn(w), w);
	}
	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		bool ok;

		w[0] = '\0';
		snprintf(path, sizeof(path), "%s/%s", dir, objs[i].file);
		ok = real_object(path, w, objs[i].min_ext, &total);
		snprintf(name, sizeof(name), "clang object %s (r5 = 0 before %zu calls)",
			 objs[i].file, total);
		report(name, ok, w);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
