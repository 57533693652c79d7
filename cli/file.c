// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * File helpers for the commands: read a whole file, and replace an
 * output file so that a reader sees either the old or the complete new
 * contents, never a partial object (a build interrupted mid-write
 * would otherwise leave a truncated .o that a later loader chokes on).
 */
#define _GNU_SOURCE /* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

int read_file(const char *path, void **buf, size_t *sz)
{
	size_t cap = 0, len = 0;
	char *data = NULL, *p;
	struct stat st;
	ssize_t n;
	int fd, err = 0;

	*buf = NULL;
	*sz = 0;
	/* "-" is standard input (not closed afterwards: it is not ours). */
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto out;
	}
	/* The size is a hint only: pipes and /proc-like files report 0. */
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	data = malloc(cap);
	if (!data) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (len == cap) {
			p = realloc(data, cap * 2);
			if (!p) {
				err = -ENOMEM;
				goto out;
			}
			data = p;
			cap *= 2;
		}
		n = read(fd, data + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
out:
	close(fd);
	if (err) {
		free(data);
		return err;
	}
	*buf = data;
	*sz = len;
	return 0;
}

int write_all(int fd, const void *data, size_t sz)
{
	const char *buf = data;

	while (sz) {
		ssize_t n = write(fd, buf, sz);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		sz -= (size_t)n;
	}
	return 0;
}

static mode_t default_mode(void)
{
	/* umask(2) can only be read by setting it: put it back at once. */
	mode_t mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * Make the rename itself durable. Best effort: the new file is already
 * complete and in place, so failing the command here would be a lie.
 */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	(void)fsync(fd);
	close(fd);
}

int write_file_atomic(const char *path, const void *buf, size_t sz, mode_t keep_mode,
		      const char **step)
{
	const char *slash = strrchr(path, '/');
	char *dir, *tmp;
	size_t dlen;
	int fd, err;

	/* The temporary file must be on the same file system: same dir. */
	if (slash) {
		dlen = slash == path ? 1 : (size_t)(slash - path);
		dir = strndup(path, dlen);
	} else {
		dir = strdup(".");
	}
	tmp = dir ? malloc(strlen(path) + 16) : NULL;
	if (!tmp) {
		free(dir);
		*step = "allocating";
		return -ENOMEM;
	}
	/* Hidden, and named after its target so a leftover explains itself. */
	if (slash)
		sprintf(tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		sprintf(tmp, ".%s.XXXXXX", path);

	*step = "creating a temporary file";
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	*step = "writing";
	err = write_all(fd, buf, sz);
	if (!err) {
		*step = "setting the mode";
		if (fchmod(fd, keep_mode != (mode_t)-1 ? keep_mode : default_mode()))
			err = -errno;
	}
	if (!err) {
		*step = "syncing";
		if (fsync(fd))
			err = -errno;
	}
	/* close() can report a deferred write error (NFS): check it. */
	if (close(fd) && !err) {
		*step = "closing";
		err = -errno;
	}
	if (!err) {
		*step = "renaming into place";
		if (rename(tmp, path))
			err = -errno;
	}
	if (err) {
		unlink(tmp);
		goto out;
	}
	sync_dir(dir);
out:
	free(tmp);
	free(dir);
	return err;
}

/* Write through to a file that is not replaced: stdout, a device, a FIFO. */
static int write_through(const char *path, const void *buf, size_t sz, const char **step)
{
	int fd, err;

	*step = "opening";
	fd = strcmp(path, "-") ? open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY) : dup(STDOUT_FILENO);
	if (fd < 0)
		return -errno;
	*step = "writing";
	err = write_all(fd, buf, sz);
	if (close(fd) && !err) {
		*step = "closing";
		err = -errno;
	}
	return err;
}

int write_output(const char *path, const void *buf, size_t sz, const char **step)
{
	struct stat st;
	char *real;
	int err;

	if (!strcmp(path, "-"))
		return write_through(path, buf, sz, step);
	*step = "looking at the output";
	if (lstat(path, &st))
		return errno == ENOENT ? write_file_atomic(path, buf, sz, (mode_t)-1, step) : -errno;
	if (S_ISLNK(st.st_mode) && stat(path, &st)) {
		*step = "following the symbolic link";
		return -errno;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return write_through(path, buf, sz, step);
	/*
	 * Replace the regular file a link points to, not the link. A link
	 * realpath() cannot name (/proc/self/fd/N of a deleted file) is
	 * written through.
	 */
	real = realpath(path, NULL);
	if (!real)
		return write_through(path, buf, sz, step);
	err = write_file_atomic(real, buf, sz, st.st_mode & 07777, step);
	free(real);
	return err;
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
