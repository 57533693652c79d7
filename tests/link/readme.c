// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The README's snippet, as a user writes it: open through the library,
 * load with libbpf. Only built (compiled and linked with pkg-config's
 * flags for libmagic-kfunc alone), never run: it would load a program
 * into the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <magic-kfunc/magic_kfunc.h>

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PROG.bpf.o\n", argv[0]);
		return 2;
	}
	obj = mkf_object__open_file(argv[1], NULL, NULL);
	if (!obj)
		return -errno;	/* ESRCH: a strong kfunc extern fits nothing here */
	err = bpf_object__load(obj);
	bpf_object__close(obj);
	return err ? 1 : 0;
}
