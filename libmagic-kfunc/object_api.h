/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The public struct mkf_object: an object's bytes (the library's copy)
 * and their one reading (object.h). And what the one-call opens of
 * open.c share with mkf_object__open(): reading a file, naming an
 * object as libbpf does, handing libbpf an image.
 */
#ifndef MKF_OBJECT_API_H
#define MKF_OBJECT_API_H

#include <stddef.h>
#include <bpf/libbpf.h>

#include "object.h"

struct mkf_object {
	void *buf;		/* the object's bytes, owned */
	size_t sz;
	char *name;
	struct mkf_obj obj;	/* their one reading */
};

/* The whole file into a new buffer: 0, or the negative errno of open/read. */
int mkf_read_file(const char *path, void **buf, size_t *sz);
/* libbpf's name for an object file: its base name up to the first '.'. */
char *mkf_object_name_of(const char *path);
/*
 * For FUNC (the public function, named in messages): PATH read whole
 * into *buf (to free), and libbpf's name for it into *name (to free).
 * 0, or a negative errno after a message.
 */
int mkf_read_object_file(const char *func, const char *path, void **buf, size_t *sz,
			 char **name);
/*
 * bpf_object__open_mem() of buf with object_name defaulting to name, a
 * message naming the object on failure ("rewritten" when the image is
 * not the caller's). NULL with errno set.
 */
struct bpf_object *mkf_libbpf_open(const void *buf, size_t sz, bool rewritten, const char *name,
				   const struct bpf_object_open_opts *opts);
/*
 * bpf_object__open_skeleton() of s with its object's image replaced by
 * buf for the call (s->data and s->data_sz restored). libbpf's return.
 */
int mkf_libbpf_open_skeleton(struct bpf_object_skeleton *s, const void *buf, size_t sz,
			     const struct bpf_object_open_opts *opts);

#endif
