// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The rewrite cache's directory and entry files (see cache_dir.h): who
 * may have written them decides whether they are read at all. What an
 * entry may change once read is limited elsewhere (cache_plan.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "cache_dir.h"
#include "log.h"

/* As the kernel's own bound on links followed in one lookup. */
#define MAX_LINKS 40

bool mkf_cache_dir_allowed(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
	int i;

	/* Root's own cache holds only what root wrote (mkf_cache_dir_open()). */
	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data)) {
		pr_warn("rewrite cache: not used: cannot read this process's capabilities: %s\n",
			strerror(errno));
		return false;
	}
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		if (data[i].effective || data[i].permitted) {
			pr_warn("rewrite cache: not used: this process holds capabilities its user "
				"does not have, and any process of that user could write the cache\n");
			return false;
		}
	}
	return true;
}

static bool owner_ok(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == geteuid();
}

/*
 * A directory on the way (WHERE, for messages) or the cache directory
 * itself (LAST): no one but root and this user may change what it
 * holds. A sticky ancestor (/tmp) is fine: others may add names to it
 * but not rename or remove ours, and ours are checked in turn.
 */
static int check_dir(int fd, const char *dir, const char *where, bool last)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		pr_warn("rewrite cache: not using %s: %s is not a directory\n", dir, where);
		return -ENOTDIR;
	}
	if (!owner_ok(&st)) {
		pr_warn("rewrite cache: not using %s: %s belongs to uid %u, neither root nor this "
			"user\n", dir, where, (unsigned int)st.st_uid);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX))) {
		pr_warn("rewrite cache: not using %s: %s is writable by %s\n", dir, where,
			st.st_mode & S_IWOTH ? "others" : "its group");
		return -EPERM;
	}
	return 0;
}

/* DIR as an absolute path, malloc'd. */
static char *absolute(const char *dir)
{
	char cwd[PATH_MAX], *abs;

	if (dir[0] == '/')
		return strdup(dir);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	if (asprintf(&abs, "%s/%s", cwd, dir) < 0)
		return NULL;
	return abs;
}

static int open_root(const char *dir)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = check_dir(fd, dir, "/", false);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/*
 * A component that is a symbolic link: its target, then what followed
 * it, as the rest of the walk (malloc'd into *path). The link itself
 * lies in a directory already checked; it must be root's or this
 * user's too.
 */
static int follow(int fd, const char *dir, const char *comp, const char *rest, char **path)
{
	char target[PATH_MAX], *next;
	struct stat st;
	ssize_t n;

	if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) || !S_ISLNK(st.st_mode)) {
		pr_warn("rewrite cache: not using %s: %s is not a directory\n", dir, comp);
		return -ENOTDIR;
	}
	if (!owner_ok(&st)) {
		pr_warn("rewrite cache: not using %s: the link %s belongs to uid %u, neither root "
			"nor this user\n", dir, comp, (unsigned int)st.st_uid);
		return -EPERM;
	}
	n = readlinkat(fd, comp, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (asprintf(&next, "%s/%s", target, rest) < 0)
		return -ENOMEM;
	free(*path);
	*path = next;
	return 0;
}

int mkf_cache_dir_open(const char *dir, bool create)
{
	char *path = absolute(dir), *p, *comp;
	int fd, nfd, err = 0, links = 0;

	if (!path)
		return -errno;
	fd = open_root(dir);
	if (fd < 0) {
		free(path);
		return fd;
	}
	p = path;
	for (;;) {
		bool last;

		p += strspn(p, "/");
		if (!*p)
			break;
		comp = p;
		p += strcspn(p, "/");
		if (*p)
			*p++ = '\0';
		last = !p[strspn(p, "/")];
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			pr_warn("rewrite cache: not using %s: a '..' in the path\n", dir);
			err = -EINVAL;
			break;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && last && create) {
			if (mkdirat(fd, comp, 0700) && errno != EEXIST) {
				err = -errno;
				pr_warn("rewrite cache: cannot create %s: %s\n", dir, strerror(errno));
				break;
			}
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd < 0 && !last && (errno == ELOOP || errno == ENOTDIR)) {
			char *rest = strdup(p);

			err = rest ? follow(fd, dir, comp, rest, &path) : -ENOMEM;
			free(rest);
			if (!err && ++links > MAX_LINKS) {
				pr_warn("rewrite cache: not using %s: too many links\n", dir);
				err = -ELOOP;
			}
			if (err)
				break;
			p = path;
			if (*p == '/') {
				close(fd);
				fd = open_root(dir);
				if (fd < 0) {
					err = fd;
					break;
				}
			}
			continue;
		}
		if (nfd < 0) {
			struct stat st;

			err = -errno;
			if (errno == ENOENT && !create)
				break;	/* no cache yet: nothing to say */
			if (!fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
				pr_warn("rewrite cache: not using %s: it is a symbolic link\n", dir);
			else
				pr_warn("rewrite cache: cannot use %s: %s: %s\n", dir, comp,
					strerror(errno));
			break;
		}
		close(fd);
		fd = nfd;
		err = check_dir(fd, dir, comp, last);
		if (err)
			break;
	}
	free(path);
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

int mkf_cache_entry_open(int dfd, const char *dir, const char *name)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO put there must not hang the open. */
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)
		return -1;
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return fd;
	pr_warn("rewrite cache: ignoring %s/%s: not a regular file of this user that only it "
		"may write\n", dir, name);
	if (fd >= 0)
		close(fd);
	return -2;
}

int mkf_cache_tmp_create(int dfd, const char *name, char *tmp, size_t tmp_sz)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	int tries, fd, i;

	for (tries = 0; tries < 100; tries++) {
		char suffix[sizeof(rnd) + 1];

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return -EIO;
		for (i = 0; i < (int)sizeof(rnd); i++)
			suffix[i] = chars[rnd[i] % (sizeof(chars) - 1)];
		suffix[sizeof(rnd)] = '\0';
		if ((size_t)snprintf(tmp, tmp_sz, "%s.tmp%s", name, suffix) >= tmp_sz)
			return -ENAMETOOLONG;
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}
