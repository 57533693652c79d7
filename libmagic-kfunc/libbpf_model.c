// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "libbpf_model.h"
#include "object.h"

struct mkf_libbpf_model mkf_libbpf_model_of(unsigned int major, unsigned int minor)
{
	/*
	 * Both behaviours came with libbpf 1.3: libbpf.c's essent_name for
	 * kfunc externs, and "if (ext->is_weak) return 0;" after
	 * bpf_core_types_are_compat() fails. 1.1.2 has neither.
	 */
	bool newer = major > 1 || (major == 1 && minor >= 3);

	return (struct mkf_libbpf_model) {
		.major = major,
		.minor = minor,
		.flavors = newer,
		.weak_mismatch_drops = newer,
	};
}

static struct mkf_libbpf_model linked;
static pthread_once_t linked_once = PTHREAD_ONCE_INIT;

static void read_linked(void)
{
	linked = mkf_libbpf_model_of(libbpf_major_version(), libbpf_minor_version());
}

const struct mkf_libbpf_model *mkf_libbpf_model_linked(void)
{
	pthread_once(&linked_once, read_linked);
	return &linked;
}

size_t mkf_libbpf_lookup_len(const struct mkf_libbpf_model *m, const char *name)
{
	return m->flavors ? mkf_essential_name_len(name) : strlen(name);
}

const char *mkf_libbpf_model_str(const struct mkf_libbpf_model *m)
{
	static __thread char buf[32];

	snprintf(buf, sizeof(buf), "libbpf %u.%u", m->major, m->minor);
	return buf;
}
