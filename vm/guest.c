// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#define _GNU_SOURCE /* statx */
#include "guest.h"
#include "record.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/libbpf.h>

/* What vm/mkinitramfs writes the boot's nonce to, in the initramfs only. */
#define GUEST_MARKER "/etc/mkf-guest"
#define NONCE_MIN 16

static int passed, failed;

/* The kernel's command line, if /proc/cmdline is the kernel's own file. */
static bool read_cmdline(char *buf, size_t sz)
{
	struct statx file, dir;
	struct statfs st;
	ssize_t n;
	int fd;

	/*
	 * procfs, and no mount of its own on top of it (a bind mount of a
	 * file with a forged command line has another mount id).
	 */
	if (statfs("/proc/cmdline", &st) || st.f_type != PROC_SUPER_MAGIC ||
	    statx(AT_FDCWD, "/proc/cmdline", AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &file) ||
	    statx(AT_FDCWD, "/proc", AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &dir) ||
	    !(file.stx_mask & dir.stx_mask & STATX_MNT_ID) || file.stx_mnt_id != dir.stx_mnt_id)
		return false;
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sz - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* The value of the word NAME=VALUE on the command line, into val. */
static bool cmdline_value(const char *buf, const char *name, char *val, size_t sz)
{
	size_t len = strlen(name);
	const char *p;

	for (p = buf; (p = strstr(p, name)); p += len) {
		size_t n;

		if ((p != buf && p[-1] != ' ') || p[len] != '=')
			continue;
		n = strcspn(p + len + 1, " \n");
		if (n >= sz)
			return false;
		memcpy(val, p + len + 1, n);
		val[n] = '\0';
		return true;
	}
	return false;
}

/*
 * The nonce the harness put into this initramfs (vm/mkinitramfs
 * --nonce), on the root file system itself.
 */
static bool read_marker(char *val, size_t sz)
{
	struct stat root, st;
	ssize_t n;
	int fd = open(GUEST_MARKER, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return false;
	if (stat("/", &root) || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    st.st_dev != root.st_dev) {
		close(fd);
		return false;
	}
	n = read(fd, val, sz - 1);
	close(fd);
	if (n <= 0)
		return false;
	val[n] = '\0';
	val[strcspn(val, "\n")] = '\0';
	return true;
}

/*
 * A magic-kfunc test guest: the kernel's own command line (not a file
 * mounted over /proc/cmdline) carries mkf.guest=1 and the boot's nonce,
 * the root file system is the initramfs, and it holds the same nonce
 * (written by vm/mkinitramfs, for that boot only).
 */
static bool in_test_guest(void)
{
	char cmdline[4096], guest[8], nonce[128], marker[128];
	struct statfs st;

	return read_cmdline(cmdline, sizeof(cmdline)) &&
	       cmdline_value(cmdline, "mkf.guest", guest, sizeof(guest)) && !strcmp(guest, "1") &&
	       cmdline_value(cmdline, "mkf.nonce", nonce, sizeof(nonce)) &&
	       strlen(nonce) >= NONCE_MIN && strspn(nonce, "0123456789abcdef") == strlen(nonce) &&
	       !statfs("/", &st) && (st.f_type == RAMFS_MAGIC || st.f_type == TMPFS_MAGIC) &&
	       read_marker(marker, sizeof(marker)) && !strcmp(marker, nonce);
}

void guest_require(const char *prog)
{
	if (!in_test_guest()) {
		fprintf(stderr,
			"%s: refusing to run: this is not a magic-kfunc test guest "
			"(it loads BPF programs; run it through magic-kfunc vm or tests/vm/vm-run)\n",
			prog);
		exit(2);
	}
}

static void report(bool ok, const char *fmt, va_list ap)
{
	if (ok)
		passed++;
	else
		failed++;
	/*
	 * What a case says quotes names and messages of the programs under
	 * test: escaped (record.h), it stays one line, and no text can pose
	 * as another case's line or as the closing count.
	 */
	rec_vprintf(stdout, ok ? "ok  " : "FAIL", fmt, ap);
	fflush(stdout);
}

void guest_ok(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(true, fmt, ap);
	va_end(ap);
}

void guest_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(false, fmt, ap);
	va_end(ap);
}

void guest_check(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(cond, fmt, ap);
	va_end(ap);
}

int guest_done(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	return failed || !passed ? 1 : 0;
}

static bool libbpf_verbose;

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void guest_libbpf_logs(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(print_libbpf);
}
