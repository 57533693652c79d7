/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * An append-only BTF under construction: a base BTF that stays as
 * libbpf parsed it, the types and strings appended after it, and the
 * FUNC records of the base that are repointed in place.
 *
 * Why not libbpf's btf__add_*() on the base: libbpf's first edit of a
 * parsed BTF copies all of it and indexes every string (to deduplicate
 * the new ones), which costs more than the rest of a rewrite together
 * for a large object (docs/performance.md, "objedit"). A rewrite only
 * ever appends a few records and repoints a few FUNCs, so the base is
 * copied once, as it is, into the new section. libbpf stays the reader:
 * the base comes from btf__new(), and what mkf_btf_out__finish() lays
 * out is parsed back with btf__new() before anybody gets it.
 *
 * New strings are deduplicated among themselves only, never against the
 * base: BTF allows the same string twice, and the base's strings are
 * never indexed.
 */
#ifndef MKF_BTF_OUT_H
#define MKF_BTF_OUT_H

#include <stddef.h>
#include <bpf/btf.h>

struct mkf_btf_out;

/* A btf_type's info word, as linux/btf.h lays it out. */
static inline __u32 mkf_btf_info(__u32 kind, __u32 kflag, __u32 vlen)
{
	return (kflag << 31) | ((kind & 0x1f) << 24) | (vlen & 0xffff);
}

/* An INT's word after its btf_type: encoding, bit offset, bits. */
static inline __u32 mkf_btf_int_word(__u32 encoding, __u32 offset, __u32 bits)
{
	return (encoding << 24) | ((offset & 0xff) << 16) | (bits & 0xff);
}

/*
 * A writer over base (not copied: it must outlive the writer and stay
 * unmodified), or over no base (NULL): ids then start at 1. NULL on
 * allocation failure or when base is not laid out as btf__new() keeps
 * it (errno set).
 */
struct mkf_btf_out *mkf_btf_out__new(const struct btf *base);
void mkf_btf_out__free(struct mkf_btf_out *out);

/* Number of types including void, as btf__type_cnt(). */
__u32 mkf_btf_out__type_cnt(const struct mkf_btf_out *out);
/* Type id (base or appended) or NULL; valid until the next append. */
const struct btf_type *mkf_btf_out__type(const struct mkf_btf_out *out, __u32 id);
/* String at off (base or appended), "" if off is out of range. */
const char *mkf_btf_out__str(const struct mkf_btf_out *out, __u32 off);

/* Offset of string s (appended unless already appended); 0 for "". */
int mkf_btf_out__add_str(struct mkf_btf_out *out, const char *s);
/*
 * Append a type record: name_off, info (btf_type's info word), size or
 * type, then tail_sz bytes of tail (an INT's encoding, a btf_array...).
 * Returns its id or a negative errno.
 */
int mkf_btf_out__add_type(struct mkf_btf_out *out, __u32 name_off, __u32 info, __u32 size_type,
			  const void *tail, size_t tail_sz);
/* Append a param to the last type, which must be an appended FUNC_PROTO. */
int mkf_btf_out__add_param(struct mkf_btf_out *out, __u32 name_off, __u32 type);
/* Point FUNC id (base or appended) at a new name and FUNC_PROTO. */
int mkf_btf_out__set_func(struct mkf_btf_out *out, __u32 id, __u32 name_off, __u32 proto_id);

/*
 * The BTF laid out (header, types, strings), checked by parsing it back
 * with libbpf: a malloc()ed buffer and its size in *size, or NULL with
 * errno set. *parsed (if parsed is not NULL) gets that parse, for the
 * caller to free: nobody needs to parse the bytes again.
 */
void *mkf_btf_out__finish(const struct mkf_btf_out *out, __u32 *size, struct btf **parsed);

#endif
