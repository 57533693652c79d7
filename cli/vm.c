// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * vm OBJ...: load every program of the objects on real kernels, each
 * booted in QEMU, and tabulate program x kernel: loaded, ran (with its
 * return value), or the verifier's or libbpf's reason. vm --run CMD:
 * run a command of the user's on each kernel instead, its exit status
 * the verdict. With --shard I/N, only this shard's part of the
 * kernel x object pairs (vm merge puts the shards back together).
 *
 * The work is done by the scripts installed under pkglibexecdir (vm-run
 * boots one kernel with an initramfs holding the static guest program
 * mkf-vm-guest and reports over a second serial port, tagged with a
 * per-boot nonce; kernels keeps the cache): this file finds them, runs
 * the boots in parallel and reads the guest's records back (vm/record.h
 * gives their format, vm/mkf-vm-guest.c the records). Nothing here calls
 * bpf(2).
 */
#define _GNU_SOURCE /* asprintf, strchrnul */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <gelf.h>
#include <limits.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "libexec.h"
#include "record.h"
#include "vm.h"

/* The programs of an object, from its ELF symbols (what libbpf would
 * find: FUNC symbols in executable sections other than .text). */
static int read_programs(struct cli *cli, struct object *obj)
{
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd, ret = 0;

	fd = open(obj->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cli_error(cli, "%s: %s", obj->path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		ret = cli_error(cli, "%s: not an ELF object", obj->path);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = data ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n; i++) {
			GElf_Sym sym;
			GElf_Shdr ps;
			Elf_Scn *psec;
			const char *name, *sec;
			struct prog *v;

			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
				continue;
			psec = elf_getscn(elf, sym.st_shndx);
			if (!psec || !gelf_getshdr(psec, &ps) || !(ps.sh_flags & SHF_EXECINSTR))
				continue;
			sec = elf_strptr(elf, shstrndx, ps.sh_name);
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!sec || !name || !strcmp(sec, ".text"))
				continue;
			v = realloc(obj->progs, (obj->prog_cnt + 1) * sizeof(*v));
			if (!v) {
				ret = cli_error(cli, "%s", strerror(ENOMEM));
				goto out;
			}
			obj->progs = v;
			v[obj->prog_cnt].name = strdup(name);
			v[obj->prog_cnt].sec = strdup(sec);
			if (!v[obj->prog_cnt].name || !v[obj->prog_cnt].sec) {
				free(v[obj->prog_cnt].name);
				free(v[obj->prog_cnt].sec);
				ret = cli_error(cli, "%s", strerror(ENOMEM));
				goto out;
			}
			obj->prog_cnt++;
		}
	}
	if (!obj->prog_cnt)
		ret = cli_error(cli, "%s: no BPF program in the object", obj->path);
out:
	elf_end(elf);
	close(fd);
	return ret;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&buf, &len, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return strdup("");
	}
	return buf;
}

static char *chomp(char *s)
{
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The image's SHA-256, which vm merge compares across shards. */
static int hash_image(struct vm *vm, struct kernel *k)
{
	int err = vm_sha256_file(k->image, k->sha256);

	if (err)
		return cli_error(vm->cli, "vm: kernel image %s: %s", k->image, strerror(-err));
	return 0;
}

/*
 * A --kernel argument: a file is an image, anything else a catalogue id.
 * Its label only, for a kernel of another shard: that shard's machine
 * has it, this one need not.
 */
static int resolve_kernel(struct vm *vm, struct kernel *k)
{
	struct cli *cli = vm->cli;
	char path[PATH_MAX + 32], *out = NULL, *dir;
	const char *args[] = { "dir", k->arg, NULL };
	struct dirent **ents = NULL;
	int rc, n, i;

	if (strchr(k->arg, '/') || is_file(k->arg, R_OK)) {
		const char *base = strrchr(k->arg, '/');

		k->label = strdup(base ? base + 1 : k->arg);
		if (!k->label)
			return cli_error(cli, "%s", strerror(ENOMEM));
		if (!k->in_shard)
			return 0;
		if (!is_file(k->arg, R_OK))
			return cli_error(cli, "vm: kernel image %s: no such readable file", k->arg);
		k->image = realpath(k->arg, NULL);
		k->release = strdup("-");
		if (!k->image || !k->release)
			return cli_error(cli, "%s", strerror(ENOMEM));
		return hash_image(vm, k);
	}
	k->label = strdup(k->arg);
	if (!k->label)
		return cli_error(cli, "%s", strerror(ENOMEM));
	if (!k->in_shard)
		return 0;
	rc = run_script(&vm->paths, "kernels", args, &out);
	if (rc) {
		free(out);
		return cli_error(cli, "vm: kernel '%s' is neither a file nor a cached kernel "
				 "(see 'magic-kfunc kernels list')", k->arg);
	}
	dir = chomp(out);
	if (asprintf(&k->image, "%s/vmlinuz", dir) < 0)
		k->image = NULL;
	snprintf(path, sizeof(path), "%s/release", dir);
	k->release = chomp(read_file(path));
	if (!k->release)
		k->release = strdup("-");
	snprintf(path, sizeof(path), "%s/modules", dir);
	n = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);
		char **m;

		if (len > 3 && !strcmp(ents[i]->d_name + len - 3, ".ko")) {
			m = realloc(k->modules, (k->module_cnt + 1) * sizeof(*m));
			if (m) {
				k->modules = m;
				if (asprintf(&m[k->module_cnt], "%s/%s", path, ents[i]->d_name) >= 0)
					k->module_cnt++;
			}
		}
		free(ents[i]);
	}
	free(ents);
	qsort(k->modules, k->module_cnt, sizeof(*k->modules), cmp_str);
	free(out);
	if (!k->image || !k->release)
		return cli_error(cli, "%s", strerror(ENOMEM));
	return hash_image(vm, k);
}

/* Every cached kernel, catalogue and added, when no --kernel is given. */
static int default_kernels(struct vm *vm, const char ***ids, size_t *cnt, char **keep)
{
	const char *args[] = { "entries", NULL };
	char *line, *save = NULL;

	if (run_script(&vm->paths, "kernels", args, keep))
		return cli_error(vm->cli, "vm: cannot read the kernel catalogue %s",
				 vm->paths.catalogue);
	for (line = strtok_r(*keep, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *s2 = NULL, *w;
		int n = 0;
		const char **v;

		for (w = strtok_r(line, " ", &s2); w && n < 5; w = strtok_r(NULL, " ", &s2))
			f[n++] = w;
		if (n < 4 || strcmp(f[3], "cached"))
			continue;
		v = realloc(*ids, (*cnt + 1) * sizeof(*v));
		if (!v)
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		*ids = v;
		v[(*cnt)++] = f[0];
	}
	if (!*cnt)
		return cli_usage_error(vm->cli, "vm: no kernel: give --kernel ID|IMAGE, or fetch "
				       "the catalogue with 'magic-kfunc kernels fetch'");
	return 0;
}

/* --- vm: the boots ------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -1;
			break;
		}
	if (n < 0)
		ret = -1;
	close(in);
	if (close(out))
		ret = -1;
	return ret;
}

/* S quoted for the guest's shell: 'S', each ' as '\''. Malloc'd. */
static char *sh_quote(const char *s)
{
	size_t n = 3;
	const char *p;
	char *q, *o;

	for (p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	q = malloc(n);
	if (!q)
		return NULL;
	o = q;
	*o++ = '\'';
	for (p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* WORD appended to *LINE after a space; -1 when out of memory. */
static int append(char **line, const char *word)
{
	char *t;

	if (asprintf(&t, "%s %s", *line ? *line : "", word) < 0)
		return -1;
	free(*line);
	*line = t;
	return 0;
}

/*
 * The guest's command line for kernel KI: modules first, then the guest
 * program, with this shard's objects for that kernel (or the command
 * and its arguments).
 */
static char *guest_cmd(const struct vm *vm, size_t ki)
{
	char *cmd = NULL, *args = NULL, *t;
	size_t o, i;

	if (vm->command) {
		const char *b = strrchr(vm->objs[0].path, '/');

		if (asprintf(&t, "bin/%s", b ? b + 1 : vm->objs[0].path) < 0)
			return NULL;
		for (i = 0; t && i <= vm->run_arg_cnt; i++) {
			char *q = sh_quote(i ? vm->run_args[i - 1] : t);

			if (!q || append(&args, q)) {
				free(q);
				free(t);
				free(args);
				return NULL;
			}
			free(q);
		}
		free(t);
	}
	for (o = 0; !vm->command && o < vm->obj_cnt; o++) {
		char word[64];

		if (!vm_owns(vm, ki, o))
			continue;
		snprintf(word, sizeof(word), "objs/%zu.o", o);
		if (append(&args, word)) {
			free(args);
			return NULL;
		}
	}
	if (asprintf(&cmd, "./mkf-vm-guest -k -m /mkf/modules %s%s%s%s",
		     vm->cli->debug ? "-v " : "", vm->whole && !vm->command ? "-w " : "",
		     vm_run_mode(vm), args ? args : "") < 0)
		cmd = NULL;
	free(args);
	return cmd;
}

/* Strings to free with the argument vector they are part of. */
struct owned {
	char **v;
	size_t n;
};

static char *own(struct owned *ow, char *s)
{
	if (s)
		ow->v[ow->n++] = s;
	return s;
}

/*
 * In the child of start_boot(): vm-run did not start. What vm-run's
 * status says when it fails (vm/vm-run, --status), so that the boot is
 * read back alike.
 */
static void __attribute__((noreturn)) boot_failed(const struct kernel *k, int err)
{
	FILE *f = fopen(k->status_path, "w");

	if (f) {
		fprintf(f, "@exit 126\n");
		rec_text(f, "@why", strerror(err));
		fclose(f);
	}
	_exit(126);
}

static pid_t start_boot(struct vm *vm, size_t ki, const char *cmd, int timeout)
{
	struct kernel *k = &vm->kernels[ki];
	char tbuf[32], **argv, *s;
	size_t n = 0, o, m, i, cap = 16 + 2 * (vm->obj_cnt + k->module_cnt + vm->run_file_cnt + 1);
	struct owned ow = { 0 };
	pid_t pid = -1;

	argv = calloc(cap, sizeof(*argv));
	ow.v = calloc(cap, sizeof(*ow.v));
	if (!argv || !ow.v)
		goto out;
	snprintf(tbuf, sizeof(tbuf), "%d", timeout);
	if (asprintf(&s, "%s/vm-run", vm->paths.libexec) < 0 || !own(&ow, s))
		goto out;
	argv[n++] = s;
	argv[n++] = "--kernel";
	argv[n++] = k->image;
	argv[n++] = "--timeout";
	argv[n++] = tbuf;
	argv[n++] = "--status";
	argv[n++] = k->status_path;
	argv[n++] = "--file";
	argv[n++] = vm->paths.guest;
	for (o = 0; !vm->command && o < vm->obj_cnt; o++) {
		if (!vm_owns(vm, ki, o))
			continue;
		argv[n++] = "--file";
		if (asprintf(&s, "%s/%zu.o:objs/%zu.o", vm->tmp, o, o) < 0 || !own(&ow, s))
			goto out;
		argv[n++] = s;
	}
	if (vm->command) {
		const char *b = strrchr(vm->objs[0].path, '/');

		argv[n++] = "--file";
		if (asprintf(&s, "%s/cmd:bin/%s", vm->tmp, b ? b + 1 : vm->objs[0].path) < 0 ||
		    !own(&ow, s))
			goto out;
		argv[n++] = s;
		for (i = 0; i < vm->run_file_cnt; i++) {
			argv[n++] = "--file";
			argv[n++] = vm->run_files[i];
		}
	}
	for (m = 0; m < k->module_cnt; m++) {
		const char *b = strrchr(k->modules[m], '/');

		argv[n++] = "--file";
		if (asprintf(&s, "%s:modules/%s", k->modules[m], b ? b + 1 : k->modules[m]) < 0 ||
		    !own(&ow, s))
			goto out;
		argv[n++] = s;
	}
	argv[n++] = "--cmd";
	argv[n++] = (char *)cmd;
	if (vm->mem) {
		argv[n++] = "--mem";
		argv[n++] = (char *)vm->mem;
	}
	argv[n] = NULL;

	pid = fork();
	if (!pid) {
		int out = open(k->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int err = open(k->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		sigset_t stops;

		/* A process group of its own: stop_boots() stops it whole. */
		setpgid(0, 0);
		/* run_boots() blocks the stops around fork(): vm-run must see them. */
		sigemptyset(&stops);
		sigaddset(&stops, SIGINT);
		sigaddset(&stops, SIGTERM);
		sigaddset(&stops, SIGHUP);
		sigprocmask(SIG_UNBLOCK, &stops, NULL);
		if (out < 0 || err < 0)
			boot_failed(k, errno);
		dup2(out, 1);
		dup2(err, 2);
		close(out);
		close(err);
		setenv("MKF_KERNELS_LIST", vm->paths.catalogue, 1);
		unsetenv("MKF_VM_TIMES");
		execv(argv[0], argv);
		boot_failed(k, errno);
	}
	if (pid > 0)
		setpgid(pid, pid);
out:
	/* The strings made here; the rest are borrowed. */
	for (i = 0; i < ow.n; i++)
		free(ow.v[i]);
	free(ow.v);
	free(argv);
	return pid;
}

/*
 * "@cell OBJ PROGRAM MODE STATUS RETVAL": its cell, or NULL when no cell
 * of this run's has that name (another shard's cells included: a
 * guest never had their objects, so a record of one is forged).
 */
static struct cell *cell_record(struct vm *vm, size_t ki, char *fields)
{
	char *f[6], *name, *end;
	unsigned long idx;
	long long rv;
	struct cell *c;
	size_t p;
	int m;

	if (rec_split(fields, f, 6) != 5)
		return NULL;
	errno = 0;
	idx = strtoul(f[0], &end, 10);
	if (*end || errno || idx >= vm->obj_cnt || !vm_owns(vm, ki, idx))
		return NULL;
	rv = strtoll(f[4], &end, 10);
	if (*end || errno)
		return NULL;
	if (vm->command)
		m = !strcmp(f[2], "run") ? 0 : -1;
	else
		m = !strcmp(f[2], "mkf") ? 0 : !strcmp(f[2], "libbpf") ? 1 : -1;
	if (m < 0 || !mode_on(vm, m))
		return NULL;
	name = rec_unescape(f[1]);
	if (!name)
		return NULL;
	for (p = 0; p < vm->objs[idx].prog_cnt; p++)
		if (!strcmp(vm->objs[idx].progs[p].name, name))
			break;
	free(name);
	if (p == vm->objs[idx].prog_cnt)
		return NULL;
	c = cell_at(vm, idx, p, m, ki);
	c->retval = rv;
	c->status = !strcmp(f[3], "ran") ? CELL_RAN :
		    !strcmp(f[3], "loaded") ? CELL_LOADED : CELL_FAILED;
	return c;
}

/*
 * "@module NAME loaded" or "@module NAME failed TEXT": a line of the
 * kernel's module report, "NAME loaded" or "NAME failed TEXT".
 */
static void module_record(struct kernel *k, char *fields)
{
	char *f[3], *name, *text = NULL, *r = NULL;
	int n = rec_split(fields, f, 3);

	if (n < 2 || (strcmp(f[1], "loaded") && strcmp(f[1], "failed")))
		return;
	name = rec_unescape(f[0]);
	if (n == 3)
		text = rec_unescape(f[2]);
	if (name && (n == 2 || text) &&
	    asprintf(&r, "%s%s %s%s%s\n", k->module_report ? k->module_report : "", name, f[1],
		     text ? " " : "", text ? text : "") >= 0) {
		free(k->module_report);
		k->module_report = r;
	}
	free(name);
	free(text);
}

/* Read one boot's records into the cells. */
static void read_boot(struct vm *vm, size_t ki)
{
	struct kernel *k = &vm->kernels[ki];
	char *out = read_file(k->out_path), *line, *save = NULL;
	struct cell *cur = NULL;
	size_t o, p;
	int m;

	for (line = out ? strtok_r(out, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "@kernel ", 8)) {
			free(k->release);
			k->release = rec_unescape(line + 8);
		} else if (!strncmp(line, "@module ", 8)) {
			module_record(k, line + 8);
		} else if (!strncmp(line, "@object ", 8)) {
			char *f[3], *end;
			unsigned long idx;

			if (rec_split(line + 8, f, 3) != 3 || strcmp(f[1], "unreadable"))
				continue;
			errno = 0;
			idx = strtoul(f[0], &end, 10);
			if (!*end && !errno && idx < vm->obj_cnt && vm_owns(vm, ki, idx) &&
			    !vm->objs[idx].error)
				vm->objs[idx].error = rec_unescape(f[2]);
		} else if (!strncmp(line, "@cell ", 6)) {
			cur = cell_record(vm, ki, line + 6);
		} else if (cur && !strncmp(line, "@reason ", 8)) {
			free(cur->reason);
			cur->reason = rec_unescape(line + 8);
		} else if (cur && !strncmp(line, "@decided ", 9)) {
			free(cur->decided);
			cur->decided = rec_unescape(line + 9);
		} else if (cur && !strncmp(line, "@note ", 6)) {
			free(cur->note);
			cur->note = rec_unescape(line + 6);
		} else if (cur && !strncmp(line, "@log", 4)) {
			char *l = NULL, *text = rec_unescape(line[4] ? line + 5 : "");

			if (text && asprintf(&l, "%s%s\n", cur->log ? cur->log : "", text) >= 0) {
				free(cur->log);
				cur->log = l;
			}
			free(text);
		} else if (cur && vm->command && !strncmp(line, "@output", 7)) {
			char *l = NULL, *text = rec_unescape(line[7] ? line + 8 : "");

			if (text && asprintf(&l, "%s%s\n", cur->output ? cur->output : "", text) >= 0) {
				free(cur->output);
				cur->output = l;
			}
			free(text);
		} else if (!strcmp(line, "@end")) {
			cur = NULL;
		}
	}

	/* No result: why, as vm-run's status record says it. */
	if (k->rc == 125 || k->rc == 126 || k->rc < 0) {
		char *st = read_file(k->status_path), *save2 = NULL;

		for (line = st ? strtok_r(st, "\n", &save2) : NULL; line && !k->why;
		     line = strtok_r(NULL, "\n", &save2))
			if (!strncmp(line, "@why ", 5))
				k->why = rec_unescape(line + 5);
		free(st);
		if (!k->why)
			k->why = strdup("the boot gave no result");
	} else if (k->rc != 0) {
		if (asprintf(&k->why, "the guest program exited with %d", k->rc) < 0)
			k->why = NULL;
	}
	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++) {
				struct cell *c = cell_at(vm, o, p, m, ki);

				if (mode_on(vm, m) && c->status == CELL_NONE && !c->reason)
					c->reason = strdup(k->why ? k->why : "no record from the guest");
			}
	free(out);
}

static void progress(struct vm *vm, size_t ki, size_t done, size_t total)
{
	struct kernel *k = &vm->kernels[ki];
	int ran = 0, loaded = 0, failed = 0, none = 0;
	size_t o, p;
	int m;

	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++) {
				if (!mode_on(vm, m))
					continue;
				switch (cell_at(vm, o, p, m, ki)->status) {
				case CELL_RAN: ran++; break;
				case CELL_LOADED: loaded++; break;
				case CELL_FAILED: failed++; break;
				case CELL_OTHER: break;
				default: none++; break;
				}
			}
	if (none)
		fprintf(stderr, "magic-kfunc: vm: [%zu/%zu] %s: no result: %s (%.1fs)\n", done,
			total, safe(vm, k->label), k->why ? safe(vm, k->why) : "?", k->secs);
	else
		fprintf(stderr, "magic-kfunc: vm: [%zu/%zu] %s (%s): %d ran, %d loaded, %d failed "
			"(%.1fs)\n", done, total, safe(vm, k->label), safe(vm, k->release),
			ran, loaded, failed, k->secs);
}

/*
 * Stopping vm (SIGINT, SIGTERM, SIGHUP) stops every boot it started:
 * each vm-run runs in a process group of its own (the terminal's ^C
 * reaches only this process), and gets SIGTERM here, which stops its
 * QEMU and its KVM probe and removes its files (vm/vm-run). cmd_vm()
 * then removes its own and dies of the same signal.
 */
static volatile sig_atomic_t stop_signal;
static pid_t boot_groups[64];

static void on_stop(int sig)
{
	size_t i;

	stop_signal = sig;
	for (i = 0; i < sizeof(boot_groups) / sizeof(boot_groups[0]); i++)
		if (boot_groups[i] > 0)
			kill(-boot_groups[i], SIGTERM);
}

static void catch_stops(bool on)
{
	struct sigaction sa = { .sa_handler = on ? on_stop : SIG_DFL };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * The boots still running, after stop_signal: told once (SIGTERM, in
 * on_stop(), and again here for one started since), then waited for,
 * killed after 20 s.
 */
static void stop_boots(struct vm *vm)
{
	double until = now() + 20;
	bool told = false;
	size_t i, left;
	int status;

	do {
		left = 0;
		for (i = 0; i < vm->kernel_cnt; i++) {
			struct kernel *k = &vm->kernels[i];

			if (k->pid <= 0)
				continue;
			if (waitpid(k->pid, &status, WNOHANG) == k->pid) {
				k->pid = 0;
				continue;
			}
			left++;
			if (!told || now() >= until)
				kill(-k->pid, told ? SIGKILL : SIGTERM);
		}
		told = true;
		if (left) {
			struct timespec ts = { 0, 100000000 };

			nanosleep(&ts, NULL);
		}
	} while (left);
}

static int run_boots(struct vm *vm, int jobs, int timeout)
{
	size_t next = 0, running = 0, done = 0, total = 0, i;
	double *start;
	bool tty = isatty(2);

	start = calloc(vm->kernel_cnt, sizeof(*start));
	if (!start)
		return cli_error(vm->cli, "%s", strerror(ENOMEM));
	for (i = 0; i < vm->kernel_cnt; i++)
		total += vm->kernels[i].in_shard;
	while (done < total && !stop_signal) {
		int status;
		pid_t pid;

		while (running < (size_t)jobs && next < vm->kernel_cnt && !stop_signal) {
			struct kernel *k = &vm->kernels[next];
			sigset_t block, old;
			char *cmd;

			if (!k->in_shard) {
				next++;
				continue;
			}
			cmd = guest_cmd(vm, next);
			if (!cmd) {
				free(start);
				stop_boots(vm);
				return cli_error(vm->cli, "%s", strerror(ENOMEM));
			}
			snprintf(k->out_path, sizeof(k->out_path), "%s/boot%zu.out", vm->tmp, next);
			snprintf(k->err_path, sizeof(k->err_path), "%s/boot%zu.err", vm->tmp, next);
			snprintf(k->status_path, sizeof(k->status_path), "%s/boot%zu.status",
				 vm->tmp, next);
			start[next] = now();
			/* Known to on_stop() before a stop can come. */
			sigemptyset(&block);
			sigaddset(&block, SIGINT);
			sigaddset(&block, SIGTERM);
			sigaddset(&block, SIGHUP);
			sigprocmask(SIG_BLOCK, &block, &old);
			k->pid = start_boot(vm, next, cmd, timeout);
			free(cmd);
			for (i = 0; k->pid > 0 && i < sizeof(boot_groups) / sizeof(boot_groups[0]);
			     i++) {
				if (!boot_groups[i]) {
					boot_groups[i] = k->pid;
					break;
				}
			}
			sigprocmask(SIG_SETMASK, &old, NULL);
			if (k->pid < 0) {
				k->rc = -1;
				k->why = strdup(strerror(errno));
				read_boot(vm, next);
				done++;
			} else {
				running++;
			}
			next++;
		}
		if (!running)
			continue;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < vm->kernel_cnt; i++) {
			struct kernel *k = &vm->kernels[i];
			size_t g;

			if (k->pid != pid)
				continue;
			for (g = 0; g < sizeof(boot_groups) / sizeof(boot_groups[0]); g++)
				if (boot_groups[g] == pid)
					boot_groups[g] = 0;
			k->pid = 0;
			k->secs = now() - start[i];
			k->rc = WIFEXITED(status) ? WEXITSTATUS(status) : 125;
			read_boot(vm, i);
			running--;
			done++;
			if (tty)
				progress(vm, i, done, total);
		}
	}
	if (stop_signal)
		stop_boots(vm);
	free(start);
	return 0;
}

/* --- vm: sharding -------------------------------------------------------- */

unsigned int vm_owner(size_t k, size_t o, size_t kernel_cnt, size_t obj_cnt, unsigned int shards)
{
	unsigned long long pairs = (unsigned long long)kernel_cnt * obj_cnt;
	unsigned long long i = (unsigned long long)k * obj_cnt + o;
	unsigned long long s;

	if (shards <= 1 || !pairs)
		return 0;
	/* Shard s holds pairs [s * pairs / shards, (s + 1) * pairs / shards). */
	s = i * shards / pairs;
	while (s + 1 < shards && (s + 1) * pairs / shards <= i)
		s++;
	while (s > 0 && s * pairs / shards > i)
		s--;
	return (unsigned int)s;
}

bool vm_owns(const struct vm *vm, size_t k, size_t o)
{
	return vm->shards <= 1 ||
	       vm_owner(k, o, vm->kernel_cnt, vm->obj_cnt, vm->shards) == vm->shard - 1;
}

/* --- vm --run: the command and its libraries ------------------------------ */

/* Does the ELF file at PATH ask for a program interpreter (dynamic)? */
static int is_dynamic(struct cli *cli, const char *path, bool *dynamic)
{
	Elf *elf;
	size_t n, i;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	*dynamic = false;
	if (fd < 0)
		return cli_error(cli, "vm: --run %s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	/* Not ELF (a script): copied as it is, its interpreter is the guest's. */
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getphdrnum(elf, &n)) {
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
				*dynamic = true;
		}
	}
	elf_end(elf);
	close(fd);
	return ret;
}

/* ldd's standard output for PATH, or NULL (the error set). */
static char *run_ldd(struct cli *cli, const char *path)
{
	const char *argv[] = { "ldd", "--", path, NULL };
	char *out = NULL;
	int rc = run_capture(argv, NULL, &out);

	if (rc < 0) {
		cli_error(cli, "vm: --run %s: ldd: %s", path, strerror(errno));
		return NULL;
	}
	if (rc) {
		free(out);
		cli_error(cli, "vm: --run %s: ldd could not list its libraries", path);
		return NULL;
	}
	return out;
}

/*
 * The libraries a dynamic command needs, as ldd(1) resolves them on
 * this machine: each goes to the same path in the guest ("HOST:HOST"),
 * the program interpreter too. Nothing for a static one.
 */
static int command_files(struct vm *vm, const char *path)
{
	char *out, *line, *save = NULL;
	bool dynamic;
	int ret = is_dynamic(vm->cli, path, &dynamic);

	if (ret || !dynamic)
		return ret;
	out = run_ldd(vm->cli, path);
	if (!out)
		return EXIT_ERROR;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, "=> "), *lib, *end, **v;

		lib = arrow ? arrow + 3 : line + strspn(line, " \t");
		if (arrow && !strncmp(lib, "not found", 9)) {
			*arrow = '\0';
			ret = cli_error(vm->cli, "vm: --run %s: library %s not found", path,
					line + strspn(line, " \t"));
			break;
		}
		if (*lib != '/')
			continue;	/* the vDSO, or a line that names no file */
		end = strstr(lib, " (");
		if (end)
			*end = '\0';
		if (strchr(lib, ':')) {
			ret = cli_error(vm->cli, "vm: --run %s: library path %s has a ':'", path, lib);
			break;
		}
		v = realloc(vm->run_files, (vm->run_file_cnt + 1) * sizeof(*v));
		if (!v || asprintf(&v[vm->run_file_cnt], "%s:%s", lib, lib) < 0) {
			if (v)
				vm->run_files = v;
			ret = cli_error(vm->cli, "%s", strerror(ENOMEM));
			break;
		}
		vm->run_files = v;
		vm->run_file_cnt++;
	}
	free(out);
	return ret;
}

/* The one row of command mode: the command, named after its file. */
static int command_row(struct vm *vm, const char *path)
{
	struct object *obj = &vm->objs[0];
	const char *b = strrchr(path, '/');

	obj->path = path;
	if (!is_file(path, X_OK))
		return cli_error(vm->cli, "vm: --run %s: not an executable file", path);
	obj->progs = calloc(1, sizeof(*obj->progs));
	if (!obj->progs || !(obj->progs[0].name = strdup(b ? b + 1 : path)))
		return cli_error(vm->cli, "%s", strerror(ENOMEM));
	obj->prog_cnt = 1;
	return command_files(vm, path);
}

/* --- vm: the command ---------------------------------------------------- */

void vm_free(struct vm *vm)
{
	size_t i, j, n = vm->obj_cnt && vm->base ? vm->base[vm->obj_cnt] * MODES * vm->kernel_cnt : 0;

	for (i = 0; vm->cells && i < n; i++) {
		free(vm->cells[i].reason);
		free(vm->cells[i].note);
		free(vm->cells[i].log);
		free(vm->cells[i].decided);
		free(vm->cells[i].output);
	}
	free(vm->cells);
	for (i = 0; i < vm->obj_cnt; i++) {
		for (j = 0; j < vm->objs[i].prog_cnt; j++) {
			free(vm->objs[i].progs[j].name);
			free(vm->objs[i].progs[j].sec);
		}
		free(vm->objs[i].progs);
		free(vm->objs[i].error);
	}
	free(vm->objs);
	for (i = 0; i < vm->kernel_cnt; i++) {
		struct kernel *k = &vm->kernels[i];

		free(k->label);
		free(k->image);
		free(k->release);
		for (j = 0; j < k->module_cnt; j++)
			free(k->modules[j]);
		free(k->modules);
		free(k->module_report);
		free(k->why);
		if (k->out_path[0])
			unlink(k->out_path);
		if (k->err_path[0])
			unlink(k->err_path);
		if (k->status_path[0])
			unlink(k->status_path);
	}
	free(vm->kernels);
	free(vm->base);
	for (i = 0; i < vm->shown_cnt; i++)
		free(vm->shown[i]);
	free(vm->shown);
	for (i = 0; i < vm->run_file_cnt; i++)
		free(vm->run_files[i]);
	free(vm->run_files);
	if (vm->tmp[0]) {
		char path[PATH_MAX + 32];

		for (i = 0; i < vm->obj_cnt; i++) {
			snprintf(path, sizeof(path), "%s/%zu.o", vm->tmp, i);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/cmd", vm->tmp);
		unlink(path);
		rmdir(vm->tmp);
	}
}

int cmd_vm(struct cli *cli)
{
	struct vm vm = { .cli = cli, .shard = 1, .shards = 1 };
	const char **ids = NULL;
	size_t id_cnt = 0, i, o;
	char *entries = NULL;
	const char *tmpdir = getenv("TMPDIR");
	int ret, jobs = cli->jobs;

	if (cli->argc && !strcmp(cli->argv[0], "merge"))
		return cmd_vm_merge(cli);
	if (cli->shards) {
		vm.shard = cli->shard;
		vm.shards = cli->shards;
	}
	if (cli->run) {
		if (cli->mode)
			return cli_usage_error(cli, "vm: --mode is for objects, not with --run");
		vm.command = vm.lib = true;
		vm.run_args = cli->argv;
		vm.run_arg_cnt = (size_t)cli->argc;
	} else if (!cli->mode || !strcmp(cli->mode, "both")) {
		vm.lib = vm.plain = true;
	} else if (!strcmp(cli->mode, "mkf")) {
		vm.lib = true;
	} else if (!strcmp(cli->mode, "libbpf")) {
		vm.plain = true;
	} else {
		return cli_usage_error(cli, "vm: --mode is mkf, libbpf or both, not '%s'", cli->mode);
	}

	vm.whole = getenv("MKF_VM_WHOLE") && !strcmp(getenv("MKF_VM_WHOLE"), "1");
	vm.mem = getenv("MKF_VM_MEM") && *getenv("MKF_VM_MEM") ? getenv("MKF_VM_MEM") : NULL;
	if (vm.mem && strspn(vm.mem, "0123456789") != strlen(vm.mem))
		return cli_usage_error(cli, "vm: MKF_VM_MEM is a number of MiB, not '%s'", vm.mem);

	ret = find_paths(cli, &vm.paths);
	if (ret)
		return ret;
	if (!is_file(vm.paths.guest, X_OK)) {
		ret = cli_error(cli, "vm: the guest program %s is missing (it is built and installed "
				"with the QEMU parts: configure without --disable-vm-tests)",
				vm.paths.guest);
		goto out;
	}

	/* Objects, and their programs (or the command): the rows. */
	{
		size_t rows = vm.command ? 1 : (size_t)cli->argc;

		vm.objs = calloc(rows, sizeof(*vm.objs));
		vm.base = calloc(rows + 1, sizeof(*vm.base));
		if (!vm.objs || !vm.base) {
			ret = cli_error(cli, "%s", strerror(ENOMEM));
			goto out;
		}
		for (i = 0; i < rows; i++) {
			int err;

			vm.obj_cnt++;
			if (vm.command) {
				ret = command_row(&vm, cli->run);
			} else {
				vm.objs[i].path = cli->argv[i];
				ret = read_programs(cli, &vm.objs[i]);
			}
			if (ret)
				goto out;
			err = vm_sha256_file(vm.objs[i].path, vm.objs[i].sha256);
			if (err) {
				ret = cli_error(cli, "%s: %s", vm.objs[i].path, strerror(-err));
				goto out;
			}
			vm.base[i + 1] = vm.base[i] + vm.objs[i].prog_cnt;
		}
	}

	/* Kernels: the columns. */
	if (cli->vm_kernel_cnt) {
		ids = malloc(cli->vm_kernel_cnt * sizeof(*ids));
		if (!ids) {
			ret = cli_error(cli, "%s", strerror(ENOMEM));
			goto out;
		}
		memcpy(ids, cli->vm_kernel, cli->vm_kernel_cnt * sizeof(*ids));
		id_cnt = cli->vm_kernel_cnt;
	} else {
		ret = default_kernels(&vm, &ids, &id_cnt, &entries);
		if (ret)
			goto out;
	}
	vm.kernels = calloc(id_cnt, sizeof(*vm.kernels));
	if (!vm.kernels) {
		ret = cli_error(cli, "%s", strerror(ENOMEM));
		goto out;
	}
	vm.kernel_cnt = id_cnt;
	for (i = 0; i < id_cnt; i++) {
		vm.kernels[i].arg = ids[i];
		vm.kernels[i].rc = -1;
		for (o = 0; o < vm.obj_cnt; o++)
			vm.kernels[i].in_shard |= vm_owns(&vm, i, o);
	}
	for (i = 0; i < id_cnt; i++) {
		ret = resolve_kernel(&vm, &vm.kernels[i]);
		if (ret)
			goto out;
	}
	vm.cells = calloc(vm.base[vm.obj_cnt] * MODES * vm.kernel_cnt, sizeof(*vm.cells));
	if (!vm.cells) {
		ret = cli_error(cli, "%s", strerror(ENOMEM));
		goto out;
	}
	for (o = 0; o < vm.obj_cnt; o++)
		for (i = 0; i < vm.kernel_cnt; i++) {
			size_t p;
			int m;

			for (p = 0; !vm_owns(&vm, i, o) && p < vm.objs[o].prog_cnt; p++)
				for (m = 0; m < MODES; m++)
					cell_at(&vm, o, p, m, i)->status = CELL_OTHER;
		}

	/* From here on, a stop removes what vm made and stops what it started. */
	catch_stops(true);
	/* The objects (or the command), under names the initramfs takes. */
	snprintf(vm.tmp, sizeof(vm.tmp), "%s/magic-kfunc-vm.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(vm.tmp)) {
		vm.tmp[0] = '\0';
		ret = cli_error(cli, "vm: a temporary directory: %s", strerror(errno));
		goto out;
	}
	for (o = 0; o < vm.obj_cnt; o++) {
		char to[PATH_MAX + 32];
		bool needed = false;

		for (i = 0; i < vm.kernel_cnt; i++)
			needed |= vm_owns(&vm, i, o);
		if (!needed)
			continue;
		if (vm.command)
			snprintf(to, sizeof(to), "%s/cmd", vm.tmp);
		else
			snprintf(to, sizeof(to), "%s/%zu.o", vm.tmp, o);
		if (copy_file(vm.objs[o].path, to, vm.command ? 0755 : 0644)) {
			ret = cli_error(cli, "vm: copy %s: %s", vm.objs[o].path, strerror(errno));
			goto out;
		}
	}

	if (jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (int)n : 1;
	}
	ret = run_boots(&vm, jobs, cli->timeout > 0 ? cli->timeout : 120);
	if (ret || stop_signal)
		goto out;
	ret = vm_report(&vm);
out:
	free(ids);
	free(entries);
	vm_free(&vm);
	if (stop_signal) {
		int sig = stop_signal;

		catch_stops(false);
		fprintf(stderr, "magic-kfunc: vm: stopped by %s; every boot stopped\n",
			strsignal(sig));
		raise(sig);
	}
	catch_stops(false);
	return ret;
}
