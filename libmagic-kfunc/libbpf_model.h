/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What plain libbpf does with a kfunc extern, for the libbpf this
 * process runs with: which kernel name it looks up, and what it does
 * when the kernel's prototype does not match a weak extern. Read from
 * libbpf's sources (bpf_object__collect_externs() and
 * bpf_object__resolve_ksym_func_btf_id()):
 *
 *   1.1.2: the extern's name is looked up as it is; a prototype that
 *          does not match fails the whole object, weak or not.
 *   1.3 and later (1.4.6, 1.5.0, 1.7.0 read): a "name___flavor" extern
 *          is looked up without its last ___flavor suffix (essent_name);
 *          a weak extern whose prototype does not match is left
 *          unresolved, so it resolves to 0.
 *
 * In both, the kernel's function is the first BTF FUNC of that name in
 * vmlinux, else in the first module that has one, and an extern's own
 * BTF is the first VAR or FUNC of its name in the object's .BTF, which
 * must be declared extern.
 */
#ifndef MKF_LIBBPF_MODEL_H
#define MKF_LIBBPF_MODEL_H

#include <stdbool.h>
#include <stddef.h>

struct mkf_libbpf_model {
	unsigned int major, minor;
	/* Kfunc externs are looked up without their last ___flavor. */
	bool flavors;
	/* A weak kfunc extern with another prototype resolves to 0. */
	bool weak_mismatch_drops;
};

/* The model of libbpf major.minor. */
struct mkf_libbpf_model mkf_libbpf_model_of(unsigned int major, unsigned int minor);
/* The model of the libbpf linked at run time. */
const struct mkf_libbpf_model *mkf_libbpf_model_linked(void);

/*
 * The length of the name libbpf looks up in the kernel for an extern
 * named NAME: all of it, or (with flavors) up to its last ___flavor.
 */
size_t mkf_libbpf_lookup_len(const struct mkf_libbpf_model *m, const char *name);

/* "libbpf 1.1" for messages. */
const char *mkf_libbpf_model_str(const struct mkf_libbpf_model *m);

#endif
