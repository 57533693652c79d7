/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Whole-file reads and the atomic replacement of an output file. */
#ifndef MKF_CLI_FILE_H
#define MKF_CLI_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Read a whole file into *buf (free(3) it); "-" is standard input. 0 or negative errno. */
int read_file(const char *path, void **buf, size_t *sz);

/* Write all of buf to fd (retrying short writes). 0 or negative errno. */
int write_all(int fd, const void *buf, size_t sz);

/*
 * Replace path with buf[0..sz) atomically: write a temporary file in
 * the same directory, fsync it, rename it over path, fsync the
 * directory. On failure path is untouched and the temporary file is
 * gone. The new file gets keep_mode, or (0666 & ~umask) if keep_mode is
 * (mode_t)-1.
 * 0 or negative errno; *step names the step that failed.
 */
int write_file_atomic(const char *path, const void *buf, size_t sz, mode_t keep_mode,
		      const char **step);

/*
 * Write an output as its kind asks: "-" is standard output; a device or
 * a FIFO (/dev/stdout, say) is written through; a symbolic link is
 * followed and the file it points to replaced atomically (the link
 * stays); a directory is refused (EISDIR); a regular file is replaced
 * atomically, keeping its mode, and a new one created so.
 * 0 or negative errno; *step names the step that failed.
 */
int write_output(const char *path, const void *buf, size_t sz, const char **step);

/* Whether a and b name the same existing file (hard links, symlinks). */
bool same_file(const char *a, const char *b);

#endif
