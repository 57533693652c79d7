/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Options structs: sz first, "size_t :0" last, TYPE__last_field names
 * the newest field. A caller built against an older header passes a
 * smaller sz (missing fields read as defaults); one built against a
 * newer header passes a bigger sz, accepted only if the fields this
 * library does not know are all zero.
 */
#ifndef MKF_OPTS_H
#define MKF_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#define mkf_offsetofend(TYPE, FIELD) \
	(offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))

bool mkf_validate_opts(const void *opts, size_t known_sz, size_t user_sz,
		       const char *type_name);

#define OPTS_VALID(opts, type)						\
	(!(opts) || mkf_validate_opts((opts),				\
				      mkf_offsetofend(struct type, type##__last_field), \
				      (opts)->sz, #type))
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= mkf_offsetofend(typeof(*(opts)), field))
#define OPTS_GET(opts, field, fallback) \
	(OPTS_HAS(opts, field) ? (opts)->field : (fallback))

#endif
