// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Opening a BPF object. Kept apart so that a runner option can later
 * route every case through libmagic-kfunc instead of plain libbpf.
 */
#include <bpf/libbpf.h>

#include "bpftest.h"

struct bpf_object *bt_open_object(const char *path)
{
	/* libbpf >= 1.0 returns NULL and sets errno on failure. */
	return bpf_object__open_file(path, NULL);
}
