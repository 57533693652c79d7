/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Small helpers over libbpf's struct btf, shared by the other files. */
#ifndef MKF_BTF_UTIL_H
#define MKF_BTF_UTIL_H

#include <stddef.h>
#include <bpf/btf.h>

/* Follow const/volatile/restrict/type_tag and typedefs, as libbpf's
 * compatibility checks do. *res_id (if given) gets the id reached. */
const struct btf_type *mkf_skip_mods_typedefs(const struct btf *btf, __u32 id, __u32 *res_id);

/* Short C rendering of a type for messages: "struct bpf_wq *". */
void mkf_type_str(const struct btf *btf, __u32 id, char *buf, size_t sz);

/* "struct bpf_wq *" + "wq" -> "struct bpf_wq *wq"; "int" + "x" -> "int x". */
void mkf_decl_str(const char *type, const char *name, char *buf, size_t sz);

/* Name of a type or "" (never NULL). */
const char *mkf_btf_name(const struct btf *btf, const struct btf_type *t);


/*
 * -EINVAL (with a warning naming what) if a type btf defines itself has
 * a name offset past the end of its strings or refers to a type id past
 * its last type, else 0.
 */
int mkf_btf_check(const struct btf *btf, const char *what);
/* The same for the types from id from on (those before were checked). */
int mkf_btf_check_from(const struct btf *btf, __u32 from, const char *what);

/*
 * -EINVAL (with an error naming a type on it) if a type btf defines
 * refers back to itself other than through a named struct or union:
 * PTR -> CONST -> PTR, a typedef of itself, a prototype whose parameter
 * is a pointer to it. No compiler makes such BTF and the kernel refuses
 * it; libbpf's btf_dump recurses on it until it runs out of memory or
 * stack. Types of a base BTF are not looked at again.
 */
int mkf_btf_check_cycles(const struct btf *btf, const char *what);

/*
 * The graph of the types btf defines, for mkf_btf_find_cycle(): type t
 * has edge_cnt(btf, t) edges, the i-th to type edge(t, i); 0 and ids of
 * a base BTF or past the last type are no edge.
 */
struct mkf_btf_edges {
	__u32 (*edge_cnt)(const struct btf *btf, const struct btf_type *t);
	__u32 (*edge)(const struct btf_type *t, __u32 i);
};

/*
 * Set *cycle to the lowest type id on a cycle of the graph (the same
 * whatever order the walk takes), or 0 if it has none. 0 or -ENOMEM.
 * The walk starts only from ids from on: a graph whose types before
 * from were checked, and whose edges out of them stayed as they were,
 * can have a new cycle only through a type from from on.
 */
int mkf_btf_find_cycle(const struct btf *btf, const struct mkf_btf_edges *g, __u32 from,
		       __u32 *cycle);

#endif
