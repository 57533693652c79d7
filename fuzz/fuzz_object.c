// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libFuzzer target over the object path: byte 0 picks a fixture kernel
 * (tests/unit/fixtures.c), the rest is a BPF object. Plans it, rewrites
 * it, and has libbpf open (never load) the rewritten object, then plans
 * that again. No broken output: what the library writes must read back
 * as a fixed point, every binding it made found again by the linked
 * libbpf's rules (the same kernel function under the extern's new
 * name, nothing left to change), every extern left alone still alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "magic_kfunc.h"
#include "fuzz_common.h"
#include "fixtures.h"

static const enum fx_era eras[] = {
	FX_612_DEB12, FX_616, FX_617, FX_618, FX_70, FX_73, FX_PATCHED_612, FX_OLD_PAHOLE,
};
#define NERAS (sizeof(eras) / sizeof(eras[0]))
static struct btf *btfs[NERAS + 1], *mod_btf;
static struct mkf_kernel *kernels[NERAS + 1];
static bool no_libbpf;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	no_libbpf = getenv("MKF_FUZZ_NO_LIBBPF") != NULL;
	/* MKF_FUZZ_VERBOSE=1: the libraries' default messages. */
	if (!getenv("MKF_FUZZ_VERBOSE")) {
		mkf_set_print(quiet);
		libbpf_set_print(quiet);
	}
	for (i = 0; i < NERAS; i++) {
		btfs[i] = fx_kernel(eras[i]);
		kernels[i] = btfs[i] ? mkf_kernel__new(btfs[i]) : NULL;
		if (!kernels[i])
			abort();
	}
	/* One more: 7.3 with a module. */
	btfs[NERAS] = fx_kernel(FX_73);
	kernels[NERAS] = btfs[NERAS] ? mkf_kernel__new(btfs[NERAS]) : NULL;
	mod_btf = kernels[NERAS] ? fx_module(btfs[NERAS], true) : NULL;
	if (!mod_btf || mkf_kernel__add_module(kernels[NERAS], "mkf_testmod", mod_btf))
		abort();
	return 0;
}

static void walk(const struct mkf_plan *plan)
{
	size_t i, n = mkf_plan__entry_cnt(plan), len = 0;

	if (!plan)
		return;
	for (i = 0; i < n; i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(plan, i);
		const char *s = mkf_plan_entry__kernel_name(e);

		len += strlen(mkf_plan_entry__name(e)) + strlen(mkf_plan_entry__reason(e));
		len += s ? strlen(s) : 0;
		s = mkf_plan_entry__merged_into(e);
		len += s ? strlen(s) : 0;
	}
	/* Keep the reads. */
	__asm__ volatile("" : : "r"(len));
}

/* Whether plan2, of plan1's output, finds every decision of plan1 made. */
static bool fixed_point(const struct mkf_plan *plan1, const struct mkf_plan *plan2)
{
	size_t i;

	if (mkf_plan__change_cnt(plan2))
		return false;
	for (i = 0; i < mkf_plan__entry_cnt(plan1); i++) {
		const struct mkf_plan_entry *e1 = mkf_plan__entry(plan1, i), *e2;
		bool bound = mkf_plan_entry__decision(e1) == MKF_DECISION_BIND;

		if (mkf_plan_entry__merged_into(e1))
			continue;
		e2 = mkf_plan__find_entry(plan2, mkf_plan_entry__new_name(e1));
		if (!e2)
			return false;
		if (bound != (mkf_plan_entry__decision(e2) == MKF_DECISION_BIND))
			return false;
		if (bound && strcmp(mkf_plan_entry__kernel_name(e1), mkf_plan_entry__kernel_name(e2)))
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct mkf_kernel *k;
	struct mkf_object *input, *output;
	struct mkf_plan *plan, *again;
	struct bpf_object *obj;
	void *out = NULL;
	size_t out_sz = 0;

	if (size < 1)
		return 0;
	k = kernels[data[0] % (NERAS + 1)];
	data++;
	size--;
	input = mkf_object__new(data, size, NULL);
	plan = input ? mkf_plan__compute(input, k, NULL) : NULL;
	if (!plan) {
		mkf_object__free(input);
		return 0;
	}
	walk(plan);
	if (!mkf_object__rewrite(input, plan, &out, &out_sz, NULL)) {
		output = mkf_object__new(out, out_sz, NULL);
		again = output ? mkf_plan__compute(output, k, NULL) : NULL;
		/* No broken output: see the top of this file. */
		if (!again || !fixed_point(plan, again))
			abort();
		walk(again);
		mkf_plan__free(again);
		mkf_object__free(output);
		/*
		 * libbpf opens what the rewrite made. Not the input handed back
		 * unchanged: that is a test of libbpf alone (1.1 crashes on
		 * some malformed objects, see docs/robustness.md).
		 * MKF_FUZZ_NO_LIBBPF=1 skips it altogether.
		 */
		if (!no_libbpf && (out_sz != size || memcmp(out, data, size))) {
			obj = bpf_object__open_mem(out, out_sz, NULL);
			bpf_object__close(obj);
		}
		free(out);
	}
	mkf_plan__free(plan);
	mkf_object__free(input);
	return 0;
}
