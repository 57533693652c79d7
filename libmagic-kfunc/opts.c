// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Validation of caller-provided options structs (see opts.h). */
#include "log.h"
#include "opts.h"

bool mkf_validate_opts(const void *opts, size_t known_sz, size_t user_sz,
		       const char *type_name)
{
	const char *p = opts;
	size_t i;

	if (user_sz < sizeof(size_t)) {
		pr_err("%s size (%zu) is too small\n", type_name, user_sz);
		return false;
	}
	/* Fields from a newer header than ours must be left at zero. */
	for (i = known_sz; i < user_sz; i++) {
		if (p[i]) {
			pr_err("%s has non-zero extra bytes\n", type_name);
			return false;
		}
	}
	return true;
}
