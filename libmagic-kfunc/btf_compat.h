/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libbpf's compatibility rules for kfunc prototypes. libbpf checks an
 * extern's FUNC_PROTO against the kernel's with bpf_core_types_are_compat(),
 * which it does not export; a decision that libbpf would then refuse is
 * worthless, so the same rules are reproduced here (as in libbpf 1.1):
 * same parameter count; modifiers and typedefs skipped; ints compatible
 * whatever their size (bitfield-like ints excepted); pointers compared
 * by what they point to; struct, union, enum and forward declarations
 * compatible when of the same kind (names not compared below the top;
 * a forward declaration does not match a definition).
 */
#ifndef MKF_BTF_COMPAT_H
#define MKF_BTF_COMPAT_H

#include <bpf/btf.h>

#include "strbuf.h"

/* 1: compatible, 0: not, < 0: malformed or too deep. */
int mkf_types_compat(const struct btf *local_btf, __u32 local_id,
		     const struct btf *kern_btf, __u32 kern_id);

/*
 * Compare the return types and the first nparams parameters of two
 * FUNC_PROTOs (both must have that many). Each difference is appended to
 * diff (if not NULL) as an indented line naming the parameter, the
 * program's type and the kernel's type and name. Returns the number of
 * differences.
 */
int mkf_proto_prefix_diff(const struct btf *local_btf, __u32 local_proto,
			  const struct btf *kern_btf, __u32 kern_proto,
			  int nparams, struct mkf_sb *diff);

/* Whole prototypes, as libbpf compares them: 1 compatible, 0 not. */
int mkf_protos_compat(const struct btf *local_btf, __u32 local_proto,
		      const struct btf *kern_btf, __u32 kern_proto);

#endif
