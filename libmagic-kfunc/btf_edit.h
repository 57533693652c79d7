/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Edits to an object's BTF that keep every existing type id in place:
 * new prototypes are appended, an extern's FUNC is repointed in place.
 */
#ifndef MKF_BTF_EDIT_H
#define MKF_BTF_EDIT_H

#include <bpf/btf.h>

#include "btf_out.h"

/*
 * Append to out a FUNC_PROTO made of local_proto's return type and its
 * first keep params, followed by params [from, to) of src_proto in src
 * (their types imported into out). src may be NULL when from == to.
 * Returns the new id or a negative errno.
 */
int mkf_btf_add_proto(struct mkf_btf_out *out, __u32 local_proto, int keep,
		      const struct btf *src, __u32 src_proto, int from, int to);

/*
 * Add to dst a type that libbpf's compatibility rules accept in place
 * of src's type src_id: same kinds down pointer chains, structs and
 * unions as empty types of the same name, ints of the same size and
 * encoding (reused when dst already has one). Returns the id in dst
 * or a negative errno.
 */
int mkf_btf_import_type(struct mkf_btf_out *dst, const struct btf *src, __u32 src_id);

#endif
