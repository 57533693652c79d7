/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Enumerate a kernel's kfuncs that take verifier-provided arguments:
 * the library's view of the kernel (mkf_kernel__func() and friends) and
 * its parameter rules (mkf_btf__param_kind()), grouped into pairs and
 * singles, with C declarations from libbpf's btf_dump.
 */
#ifndef MKF_CLI_KFUNC_SCAN_H
#define MKF_CLI_KFUNC_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

#include "magic_kfunc.h"

enum ks_kind {
	/* Callable foo + foo_impl = foo's prototype + provided params. */
	KS_PAIR,
	/* Callable, provided params in its own prototype (6.x: pass NULL). */
	KS_LEGACY,
	/* Callable foo ending in a struct bpf_prog_aux * with no foo_impl:
	 * KF_IMPLICIT_ARGS BTF written by a pahole that cannot split it. */
	KS_UNSPLIT,
	/* foo_impl without kfunc tag and without a callable foo. */
	KS_PROTO_ONLY,
};

struct ks_param {
	char *decl;		/* "struct bpf_prog_aux *aux" */
	const char *by;		/* "name" (suffix), "type" or "table" */
};

struct ks_entry {
	enum ks_kind kind;
	const char *name;	/* foo for a pair, the FUNC's own name otherwise */
	const char *impl;	/* foo_impl for a pair, else NULL */
	const char *module;	/* NULL: vmlinux */
	bool callable;		/* name */
	bool impl_callable;	/* impl (pairs) */
	/* Convention of the provided params: "magic" (__magic),
	 * "implicit" (__implicit, or by type), "legacy" (__ign, __prog). */
	const char *style;
	struct ks_param *provided;
	size_t provided_cnt;
	char *prototype;	/* of the FUNC that lists the provided params */
};

/*
 * Sorted by kind, then name. The entries point into k's BTF: free them
 * before k. *has_tags: whether the kernel has any kfunc tag (without,
 * every FUNC counts as callable). 0 or negative errno.
 */
int ks_scan(const struct mkf_kernel *k, struct ks_entry **entries, size_t *cnt);
void ks_entries_free(struct ks_entry *entries, size_t cnt);
const char *ks_kind_str(enum ks_kind kind);

#endif
