// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The guest-only guard as a constructor: linked into the examples by
 * this tree's build (examples/local.mk), it runs before main(), so the
 * example programs built here refuse to run anywhere but in a
 * magic-kfunc test guest (exit 2), whatever their arguments. Their
 * sources know nothing of it: built by a user (examples/Makefile),
 * they run on the user's machine or VM.
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <errno.h>

#include "guest.h"

__attribute__((constructor)) static void guest_only(void)
{
	guest_require(program_invocation_short_name);
}
