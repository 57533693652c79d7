// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * P3's code check (bench/xlated-diff.c) on hand-made programs: a
 * program plus "r4 = 0" before its calls is the program plus those, with
 * its jumps moved to match; per-program addresses in 64-bit loads do
 * not count, nor calls to one other kernel function, which are counted;
 * any other difference, a jump that lands elsewhere, calls to two
 * other functions or an extra instruction of another kind does.
 */
#include <string.h>

#include "xlated-diff.h"
#include "unit.h"

#define MAX_INSNS 32

static struct bpf_insn insn(__u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off,
			      .imm = imm };

	return i;
}

static struct bpf_insn mov(__u8 dst, __s32 imm)
{
	return insn(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

static struct bpf_insn call(__s32 imm)
{
	return insn(BPF_JMP | BPF_CALL, 0, 0, 0, imm);
}

/* A program with two kfunc calls, a jump over them and a 64-bit load. */
struct prog {
	struct bpf_insn v[MAX_INSNS];
	size_t n;
};

static void add(struct prog *p, struct bpf_insn i)
{
	if (p->n < MAX_INSNS)
		p->v[p->n++] = i;
}

/*
 * with_dummy: "r4 = 0" before each call, and the jumps over them moved;
 * addr: the 64-bit load's address.
 */
static struct prog program(bool with_dummy, __s32 addr)
{
	struct prog p = { .n = 0 };
	int k;

	add(&p, mov(6, 0));
	/* if r6 != 0 goto exit: over two calls, and their dummies. */
	add(&p, insn(BPF_JMP | BPF_JNE | BPF_K, 6, 0, with_dummy ? 10 : 8, 0));
	for (k = 0; k < 2; k++) {
		add(&p, mov(1, 7));
		add(&p, insn(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_FUNC, 0, addr));
		add(&p, insn(0, 0, 0, 0, addr >> 4));
		if (with_dummy)
			add(&p, mov(4, 0));
		add(&p, call(1234));
	}
	add(&p, mov(0, 0));
	add(&p, insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	return p;
}

static struct xlated_diff diff(const struct prog *a, const struct prog *b)
{
	struct bpf_insn extra = mov(4, 0);
	struct xlated_diff d;

	if (xlated_diff(a->v, a->n, b->v, b->n, &extra, &d)) {
		d.same = false;
		snprintf(d.why, sizeof(d.why), "out of memory");
	}
	return d;
}

int main(void)
{
	struct prog magic = program(false, 0x1000), impl = program(true, 0x2000), b;
	struct xlated_diff d;

	d = diff(&magic, &magic);
	t_check("the same program: the same, nothing extra", d.same && !d.extra, "%s", d.why);
	d = diff(&magic, &impl);
	t_check("plus a dummy before each call, addresses apart: the same, 2 extra",
		d.same && d.extra == 2, "extra %zu: %s", d.extra, d.why);

	b = impl;
	b.v[1].off = 8;
	d = diff(&magic, &b);
	t_check("a jump not moved with the extra instructions: differs",
		!d.same && strstr(d.why, "jump"), "%s", d.why);

	b = impl;
	b.v[1].off = 9;
	d = diff(&magic, &b);
	t_check("a jump one short, onto the last call: differs", !d.same, "same");

	b = impl;
	b.v[2].imm = 8;
	d = diff(&magic, &b);
	t_check("another constant: differs", !d.same && strstr(d.why, "instruction 2"), "%s",
		d.why);

	b = impl;
	b.v[5] = mov(5, 0);
	d = diff(&magic, &b);
	t_check("an extra instruction of another kind: differs", !d.same, "same");

	b = impl;
	b.v[6] = call(4321);
	b.v[11] = call(4321);
	d = diff(&magic, &b);
	t_check("both calls to another function: the same, 2 calls apart, the pair kept",
		d.same && d.calls_apart == 2 && d.call_a == 1234 && d.call_b == 4321,
		"%zu apart, %d to %d: %s", d.calls_apart, d.call_a, d.call_b, d.why);
	b.v[11] = call(5555);
	d = diff(&magic, &b);
	t_check("the two calls to two other functions: differs",
		!d.same && strstr(d.why, "another function"), "%s", d.why);
	b.v[11] = call(1234);
	d = diff(&magic, &b);
	t_check("one call to another function: the same, 1 call apart",
		d.same && d.calls_apart == 1, "%zu apart: %s", d.calls_apart, d.why);
	b.v[11] = insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 4321);
	d = diff(&magic, &b);
	t_check("a call of another kind (src_reg): differs", !d.same, "same");

	b = impl;
	b.v[3].dst_reg = 3;
	d = diff(&magic, &b);
	t_check("a 64-bit load into another register: differs", !d.same, "same");

	b = magic;
	b.n--;
	d = diff(&magic, &b);
	t_check("one instruction less at the end: differs", !d.same && strstr(d.why, "end"),
		"%s", d.why);

	/* A jump onto a dummy lands, in the other, on what follows it. */
	b = impl;
	b.v[1].off = 3;		/* onto the first dummy */
	{
		struct prog a = magic;

		a.v[1].off = 3;	/* onto the first call */
		d = diff(&a, &b);
		t_check("a jump onto a dummy matches one onto the call after it",
			d.same && d.extra == 2, "%s", d.why);
	}

	/* gotol keeps its offset in imm. */
	{
		struct prog a = magic, c = impl;

		a.v[1] = insn(BPF_JMP32 | BPF_JA, 0, 0, 0, 8);
		c.v[1] = insn(BPF_JMP32 | BPF_JA, 0, 0, 0, 10);
		d = diff(&a, &c);
		t_check("gotol over the calls, moved: the same", d.same, "%s", d.why);
		c.v[1].imm = 8;
		d = diff(&a, &c);
		t_check("gotol not moved: differs", !d.same, "same");
	}
	return t_done();
}
