// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf-mmap, run in a guest ("magic-kfunc vm --run"): whether the
 * kernel's /sys/kernel/btf/vmlinux maps, read-only, with the bytes
 * read() gives, and refuses every other mapping (patch 21 of the
 * kernel series; Linux 6.16 and later do the same).
 *
 * One line per check. Exit status: 0 the file maps and every check
 * holds, 2 it does not map at all (no such support), 1 a check failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH "/sys/kernel/btf/vmlinux"

static int failed;

static void check(bool ok, const char *what)
{
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
	failed |= !ok;
}

/*
 * A mapping that must be refused with errno want (or also, a mount
 * option's refusal before the file is asked, also_ok).
 */
static void refused(int fd, size_t len, int prot, int flags, off_t off, int want, int also_ok,
		    const char *what)
{
	void *m = mmap(NULL, len, prot, flags, fd, off);
	char line[160];

	snprintf(line, sizeof(line), "%s: refused (%s)", what,
		 m == MAP_FAILED ? strerror(errno) : "mapped");
	check(m == MAP_FAILED && (errno == want || (also_ok && errno == also_ok)), line);
	if (m != MAP_FAILED)
		munmap(m, len);
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len, got = 0, rounded;
	struct stat st;
	char *buf, *m;
	ssize_t n;
	int fd;

	fd = open(PATH, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size <= 0) {
		printf("FAIL %s: %s\n", PATH, strerror(errno));
		return 1;
	}
	len = (size_t)st.st_size;
	rounded = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
	buf = malloc(len);
	while (buf && got < len && (n = pread(fd, buf + got, len - got, (off_t)got)) > 0)
		got += (size_t)n;
	check(buf && got == len, "read() gives the whole file");

	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		printf("not mappable: %s\n", strerror(errno));
		return 2;
	}
	check(buf && !memcmp(m, buf, len), "mapped read-only and private: the bytes read() gives");
	check(mprotect(m, len, PROT_READ | PROT_WRITE) != 0, "the mapping cannot be made writable");
	munmap(m, len);
	m = mmap(NULL, rounded, PROT_READ, MAP_PRIVATE, fd, 0);
	check(m != MAP_FAILED, "a mapping of the whole last page");
	if (m != MAP_FAILED)
		munmap(m, rounded);

	refused(fd, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, EACCES, 0, "writable");
	/* sysfs mounted noexec refuses it before the file does (EPERM). */
	refused(fd, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, 0, EACCES, EPERM, "executable");
	refused(fd, len, PROT_READ, MAP_SHARED, 0, EACCES, 0, "shared");
	refused(fd, (size_t)page, PROT_READ, MAP_PRIVATE, page, EINVAL, 0, "at an offset");
	refused(fd, rounded + (size_t)page, PROT_READ, MAP_PRIVATE, 0, EINVAL, 0,
		"past the BTF's last page");
	free(buf);
	close(fd);
	return failed;
}
