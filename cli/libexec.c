// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Where the scripts, the guest program and the catalogue are; running the scripts. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libexec.h"

#ifndef MKF_BINDIR
#define MKF_BINDIR "/usr/local/bin"
#endif
#ifndef MKF_PKGLIBEXECDIR
#define MKF_PKGLIBEXECDIR "/usr/local/libexec/magic-kfunc"
#endif
#ifndef MKF_PKGDATADIR
#define MKF_PKGDATADIR "/usr/local/share/magic-kfunc"
#endif

bool is_file(const char *path, int mode)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, mode);
}

/*
 * The environment first (MKF_LIBEXECDIR, MKF_VM_GUEST, MKF_KERNELS_LIST),
 * then the installed layout relative to this executable (so that a tree
 * installed with DESTDIR works where it lies), then the build tree
 * (cli/.libs/ or cli/ beside vm/).
 */
int find_paths(struct cli *cli, struct vm_paths *p)
{
	char exe[PATH_MAX], dir[PATH_MAX], cand[PATH_MAX + 64];
	const char *env;
	size_t dlen, blen = strlen(MKF_BINDIR);
	ssize_t n;
	bool found = false;

	memset(p, 0, sizeof(*p));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return cli_error(cli, "cannot find this program: /proc/self/exe: %s",
				 strerror(errno));
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s", exe);
	*strrchr(dir, '/') = '\0';
	dlen = strlen(dir);

	env = getenv("MKF_LIBEXECDIR");
	if (env && *env) {
		snprintf(p->libexec, sizeof(p->libexec), "%s", env);
		found = true;
	}
	/* Installed: DIR is ROOT + bindir, the scripts in ROOT + pkglibexecdir. */
	if (!found && dlen >= blen && !strcmp(dir + dlen - blen, MKF_BINDIR)) {
		snprintf(cand, sizeof(cand), "%.*s%s/vm-run", (int)(dlen - blen), dir,
			 MKF_PKGLIBEXECDIR);
		if (is_file(cand, X_OK)) {
			snprintf(p->libexec, sizeof(p->libexec), "%.*s%s", (int)(dlen - blen), dir,
				 MKF_PKGLIBEXECDIR);
			snprintf(p->catalogue, sizeof(p->catalogue), "%.*s%s/kernels.list",
				 (int)(dlen - blen), dir, MKF_PKGDATADIR);
			found = true;
		}
	}
	if (!found) {
		static const char *const rel[] = { "/../../vm", "/../vm" };
		size_t i;

		for (i = 0; i < 2 && !found; i++) {
			snprintf(cand, sizeof(cand), "%s%s/vm-run", dir, rel[i]);
			if (is_file(cand, X_OK)) {
				snprintf(p->libexec, sizeof(p->libexec), "%s%s", dir, rel[i]);
				found = true;
			}
		}
	}
	if (!found)
		return cli_error(cli, "cannot find the QEMU runner (vm-run) under %s or beside %s: "
				 "set MKF_LIBEXECDIR", MKF_PKGLIBEXECDIR, exe);
	if (realpath(p->libexec, exe))
		memcpy(p->libexec, exe, sizeof(p->libexec));

	env = getenv("MKF_KERNELS_LIST");
	if (env && *env)
		snprintf(p->catalogue, sizeof(p->catalogue), "%s", env);
	else if (!p->catalogue[0] || !is_file(p->catalogue, R_OK))
		snprintf(p->catalogue, sizeof(p->catalogue), "%s/kernels.list", p->libexec);
	env = getenv("MKF_VM_GUEST");
	if (env && *env)
		snprintf(p->guest, sizeof(p->guest), "%s", env);
	else
		snprintf(p->guest, sizeof(p->guest), "%s/mkf-vm-guest", p->libexec);
	return 0;
}

/* --- running the scripts ---------------------------------------------- */

/*
 * Run ARGV (execvp: a path, or a name found in PATH), with MKF_KERNELS_LIST
 * set to catalogue if not NULL; its standard output in *out
 * (NUL-terminated), its standard error passed through. Returns the exit
 * status (128 + the signal for a killed one), or -1 with errno.
 */
int run_capture(const char *const *argv, const char *catalogue, char **out)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd[2], status;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		if (catalogue)
			setenv("MKF_KERNELS_LIST", catalogue, 1);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "magic-kfunc: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		ssize_t n;

		if (len + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = len + 8192);

			if (!b)
				break;
			buf = b;
		}
		n = read(fd[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			free(buf);
			return -1;
		}
	}
	if (!buf)
		buf = calloc(1, 1);
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Run SCRIPT (in the libexec dir) with ARGS: see libexec.h. */
int run_script(const struct vm_paths *p, const char *script, const char *const *args,
	       char **out)
{
	char path[PATH_MAX + 32];
	const char *argv[16];
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", p->libexec, script);
	argv[0] = path;
	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	return run_capture(argv, p->catalogue, out);
}
