// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* P3's code check (see xlated-diff.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xlated-diff.h"

static bool is_ld_imm64(const struct bpf_insn *i)
{
	return i->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/*
 * A jump or bpf-to-bpf call, whose target is relative: *delta, from the
 * next instruction. gotol and calls keep it in imm, other jumps in off.
 */
static bool rel_target(const struct bpf_insn *i, long *delta, bool *in_imm)
{
	unsigned int cls = BPF_CLASS(i->code), op = BPF_OP(i->code);

	if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_EXIT)
		return false;
	if (op == BPF_CALL && (cls != BPF_JMP || i->src_reg != BPF_PSEUDO_CALL))
		return false;
	*in_imm = op == BPF_CALL || (cls == BPF_JMP32 && op == BPF_JA);
	*delta = *in_imm ? i->imm : i->off;
	return true;
}

static bool is_kernel_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL) && i->src_reg != BPF_PSEUDO_CALL;
}

/* x and y alike, leaving out the fields checked elsewhere or not at all. */
static bool alike(const struct bpf_insn *x, const struct bpf_insn *y)
{
	bool in_imm;
	long delta;

	if (x->code != y->code || x->dst_reg != y->dst_reg || x->src_reg != y->src_reg)
		return false;
	if (is_ld_imm64(x) || is_kernel_call(x))
		return x->off == y->off;
	if (rel_target(x, &delta, &in_imm))
		return in_imm ? x->off == y->off : x->imm == y->imm;
	return x->off == y->off && x->imm == y->imm;
}

__attribute__((format(printf, 2, 3)))
static void differ(struct xlated_diff *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
	d->same = false;
}

/* A kernel call of b at j, matched with a's at i: the same function, or the pair. */
static void check_call(const struct bpf_insn *x, size_t i, const struct bpf_insn *y, size_t j,
		       struct xlated_diff *d)
{
	if (x->imm == y->imm)
		return;
	if (d->calls_apart && (x->imm != d->call_a || y->imm != d->call_b)) {
		differ(d, "the call at instruction %zu of the second goes to another function "
		       "than the other calls apart (instruction %zu of the first)", j, i);
		return;
	}
	d->call_a = x->imm;
	d->call_b = y->imm;
	d->calls_apart++;
}

/* Every jump of b lands where its match in a does (map: b's index to a's). */
static void check_jumps(const struct bpf_insn *a, size_t na, const struct bpf_insn *b,
			size_t nb, const size_t *map, const bool *is_extra, struct xlated_diff *d)
{
	size_t j;

	for (j = 0; j < nb; j++) {
		long db, da, tb, ta;
		bool in_imm;

		if (is_extra[j] || !rel_target(&b[j], &db, &in_imm))
			continue;
		rel_target(&a[map[j]], &da, &in_imm);
		tb = (long)j + db + 1;
		ta = (long)map[j] + da + 1;
		if (tb < 0 || tb > (long)nb || ta < 0 || ta > (long)na || map[tb] != (size_t)ta) {
			differ(d, "the jump at instruction %zu of the second lands elsewhere than "
			       "its match at instruction %zu of the first", j, map[j]);
			return;
		}
	}
}

int xlated_diff(const struct bpf_insn *a, size_t na, const struct bpf_insn *b, size_t nb,
		const struct bpf_insn *extra, struct xlated_diff *d)
{
	size_t *map = malloc((nb + 1) * sizeof(*map)), i = 0, j = 0;
	bool *is_extra = calloc(nb + 1, sizeof(*is_extra));

	memset(d, 0, sizeof(*d));
	if (!map || !is_extra) {
		free(map);
		free(is_extra);
		return -1;
	}
	d->same = true;
	while (d->same && j < nb) {
		if (i < na && alike(&a[i], &b[j])) {
			if (is_ld_imm64(&b[j])) {
				if (i + 1 >= na || j + 1 >= nb) {
					differ(d, "a 64-bit load at instruction %zu without its "
					       "second half", j);
					break;
				}
				map[j++] = i++;
			} else if (is_kernel_call(&b[j])) {
				check_call(&a[i], i, &b[j], j, d);
			}
			map[j++] = i++;
		} else if (!memcmp(&b[j], extra, sizeof(*extra))) {
			is_extra[j] = true;
			map[j++] = i;
			d->extra++;
		} else {
			differ(d, "instruction %zu of the second (code 0x%02x) is neither instruction "
			       "%zu of the first (code 0x%02x) nor the extra one", j, b[j].code, i,
			       i < na ? a[i].code : 0);
		}
	}
	if (d->same && i != na)
		differ(d, "the first has %zu more instructions at its end", na - i);
	if (d->same) {
		map[nb] = na;
		check_jumps(a, na, b, nb, map, is_extra, d);
	}
	free(map);
	free(is_extra);
	return 0;
}
