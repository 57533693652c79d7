/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * P3's code check: whether one program, as the verifier left it
 * (xlated), is another plus some copies of one given instruction, and
 * nothing else. For the magic kfunc against its _impl twin the extra
 * instruction is the program's own "r4 = 0", the dummy argument that
 * the verifier then overwrites: the magic form runs a subset of the
 * _impl form's instructions.
 *
 * Fields that hold per-program addresses are not compared: both
 * immediates of a 64-bit load (maps, callbacks, the program's aux). A
 * jump or a bpf-to-bpf call must land on the same instruction of both
 * programs; a jump to an extra instruction lands on what follows it.
 * Calls to kernel functions may go to another function in b, as long
 * as it is always the same pair (the magic kfunc's entry in a, its
 * twin's in b): they are counted, and the pair is kept.
 */
#ifndef BENCH_XLATED_DIFF_H
#define BENCH_XLATED_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

struct xlated_diff {
	size_t extra;		/* copies of the extra instruction in b */
	size_t calls_apart;	/* calls that go to call_b in b, call_a in a */
	__s32 call_a, call_b;	/* their immediates (from __bpf_call_base) */
	bool same;		/* b is a plus those, and nothing else */
	char why[160];		/* when not the same: the first difference */
};

/* Compare a (na instructions) with b (nb); 0, or -1 when out of memory. */
int xlated_diff(const struct bpf_insn *a, size_t na, const struct bpf_insn *b, size_t nb,
		const struct bpf_insn *extra, struct xlated_diff *d);

#endif
