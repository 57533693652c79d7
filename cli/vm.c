// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * vm OBJ...: load every program of the objects on real kernels, each
 * booted in QEMU, and tabulate program x kernel: loaded, ran (with its
 * return value), or the verifier's or libbpf's reason.
 *
 * The work is done by the scripts installed under pkglibexecdir (vm-run
 * boots one kernel with an initramfs holding the static guest program
 * mkf-vm-guest and reports over a second serial port, tagged with a
 * per-boot nonce; kernels keeps the cache): this file finds them, runs
 * the boots in parallel and reads the guest's records back
 * (vm/guest.c describes them). Nothing here calls bpf(2).
 */
#define _GNU_SOURCE /* asprintf, strchrnul */
#include "config.h"

#include <ctype.h>
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
#include "table.h"

/* --- vm: the model ------------------------------------------------------ */

enum cell_status { CELL_NONE, CELL_RAN, CELL_LOADED, CELL_FAILED };

struct cell {
	enum cell_status status;
	long long retval;
	char *reason;		/* failed: the decisive line; none: why no result */
	char *note;		/* loaded: why it did not run */
	char *log;		/* with -d: every message */
	char *decided;		/* MKF_VM_WHOLE=1: "whole", "same-bytes"; NULL: alone */
	int footnote;
};

struct prog {
	char *name;
	char *sec;
};

struct object {
	const char *path;
	struct prog *progs;
	size_t prog_cnt;
	char *error;		/* the guest could not read it */
};

struct kernel {
	const char *arg;	/* as given */
	char *label;
	char *image;
	char *release;		/* from the cache, then from the guest */
	char **modules;
	size_t module_cnt;
	char *module_report;	/* "NAME loaded|failed ..." lines from the guest */
	pid_t pid;
	double secs;
	int rc;			/* vm-run's exit status; -1 not run */
	char *why;		/* no result: why, as vm-run said */
	char out_path[PATH_MAX + 64];
	char err_path[PATH_MAX + 64];
};

struct vm {
	struct cli *cli;
	struct vm_paths paths;
	bool lib, plain;
	/*
	 * MKF_VM_WHOLE=1: the guest loads each object whole first (-w,
	 * vm/guest.c), for large corpora (tests/corpus/); MKF_VM_MEM: the
	 * guest's memory in MiB, for many objects at once.
	 */
	bool whole;
	const char *mem;
	struct object *objs;
	size_t obj_cnt;
	struct kernel *kernels;
	size_t kernel_cnt;
	struct cell *cells;	/* [cell_base(obj) + prog][mode][kernel] */
	size_t *base;
	char tmp[PATH_MAX];
	int failed_expected;
	char **shown;		/* safe() copies, freed with the rest */
	size_t shown_cnt;
};

#define MODES 2	/* 0: through the library, 1: plain libbpf */
static const char *const mode_name[MODES] = { "mkf", "libbpf" };

static struct cell *cell_at(struct vm *vm, size_t o, size_t p, int m, size_t k)
{
	return &vm->cells[((vm->base[o] + p) * MODES + (size_t)m) * vm->kernel_cnt + k];
}

static bool mode_on(const struct vm *vm, int m)
{
	return m == 0 ? vm->lib : vm->plain;
}

/* Expected to load: the library's cells, or plain libbpf's when alone. */
static bool expected(const struct vm *vm, int m)
{
	return vm->lib ? m == 0 : m == 1;
}

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

/* A --kernel argument: a file is an image, anything else a catalogue id. */
static int resolve_kernel(struct vm *vm, struct kernel *k)
{
	struct cli *cli = vm->cli;
	char path[PATH_MAX + 32], *out = NULL, *dir;
	const char *args[] = { "dir", k->arg, NULL };
	struct dirent **ents = NULL;
	int rc, n, i;

	if (strchr(k->arg, '/') || is_file(k->arg, R_OK)) {
		const char *base = strrchr(k->arg, '/');

		if (!is_file(k->arg, R_OK))
			return cli_error(cli, "vm: kernel image %s: no such readable file", k->arg);
		k->image = realpath(k->arg, NULL);
		k->label = strdup(base ? base + 1 : k->arg);
		k->release = strdup("-");
		return k->image && k->label && k->release ? 0 : cli_error(cli, "%s", strerror(ENOMEM));
	}
	rc = run_script(&vm->paths, "kernels", args, &out);
	if (rc) {
		free(out);
		return cli_error(cli, "vm: kernel '%s' is neither a file nor a cached kernel "
				 "(see 'magic-kfunc kernels list')", k->arg);
	}
	dir = chomp(out);
	k->label = strdup(k->arg);
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
	return k->label && k->image && k->release ? 0 : cli_error(cli, "%s", strerror(ENOMEM));
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

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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

/* The guest's command line: modules first, then the guest program. */
static char *guest_cmd(const struct vm *vm)
{
	char *cmd = NULL, *objs = NULL, *t;
	size_t o;

	for (o = 0; o < vm->obj_cnt; o++) {
		if (asprintf(&t, "%s objs/%zu.o", objs ? objs : "", o) < 0) {
			free(objs);
			return NULL;
		}
		free(objs);
		objs = t;
	}
	if (asprintf(&cmd,
		     "echo \"@kernel $(uname -r)\"; "
		     "for m in /mkf/modules/*.ko; do [ -f \"$m\" ] || continue; "
		     "if insmod \"$m\" 2> /tmp/insmod.err; then echo \"@module ${m##*/} loaded\"; "
		     "else echo \"@module ${m##*/} failed $(head -n 1 /tmp/insmod.err)\"; fi; done; "
		     "./mkf-vm-guest %s%s%s%s",
		     vm->cli->debug ? "-v " : "", vm->whole ? "-w " : "",
		     vm->lib && vm->plain ? "both" : vm->lib ? "mkf" : "libbpf", objs) < 0)
		cmd = NULL;
	free(objs);
	return cmd;
}

static pid_t start_boot(struct vm *vm, struct kernel *k, const char *cmd, int timeout)
{
	char tbuf[32], **argv;
	size_t n = 0, o, m, cap = 14 + 2 * (vm->obj_cnt + k->module_cnt);
	pid_t pid;

	argv = calloc(cap, sizeof(*argv));
	if (!argv)
		return -1;
	snprintf(tbuf, sizeof(tbuf), "%d", timeout);
	if (asprintf(&argv[n++], "%s/vm-run", vm->paths.libexec) < 0)
		return -1;
	argv[n++] = "--kernel";
	argv[n++] = k->image;
	argv[n++] = "--timeout";
	argv[n++] = tbuf;
	argv[n++] = "--file";
	argv[n++] = vm->paths.guest;
	for (o = 0; o < vm->obj_cnt; o++) {
		argv[n++] = "--file";
		if (asprintf(&argv[n++], "%s/%zu.o:objs/%zu.o", vm->tmp, o, o) < 0)
			return -1;
	}
	for (m = 0; m < k->module_cnt; m++) {
		const char *b = strrchr(k->modules[m], '/');

		argv[n++] = "--file";
		if (asprintf(&argv[n++], "%s:modules/%s", k->modules[m], b ? b + 1 : k->modules[m]) < 0)
			return -1;
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
			_exit(126);
		dup2(out, 1);
		dup2(err, 2);
		close(out);
		close(err);
		setenv("MKF_KERNELS_LIST", vm->paths.catalogue, 1);
		unsetenv("MKF_VM_TIMES");
		execv(argv[0], argv);
		fprintf(stderr, "vm-run: %s: %s\n", argv[0], strerror(errno));
		_exit(126);
	}
	if (pid > 0)
		setpgid(pid, pid);
	/* The strings asprintf made; the rest are borrowed. */
	free(argv[0]);
	for (o = 0; o < vm->obj_cnt; o++)
		free(argv[8 + 2 * o]);
	for (m = 0; m < k->module_cnt; m++)
		free(argv[8 + 2 * vm->obj_cnt + 2 * m]);
	free(argv);
	return pid;
}

/*
 * A record's text as the guest wrote it: \xNN for each byte that is not
 * printable ASCII and for the backslash (vm/guest.c). Malloc'd.
 */
static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		unsigned int c;

		if (s[0] == '\\' && s[1] == 'x' && isxdigit((unsigned char)s[2]) &&
		    isxdigit((unsigned char)s[3]) && sscanf(s + 2, "%2x", &c) == 1 && c) {
			*o++ = (char)c;
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* "@cell OBJ PROGRAM MODE STATUS RETVAL": its cell, or NULL. */
static struct cell *cell_record(struct vm *vm, size_t ki, char *fields)
{
	char *f[6], *save = NULL, *w, *name, *end;
	unsigned long idx;
	long long rv;
	struct cell *c;
	size_t p;
	int n = 0, m;

	for (w = strtok_r(fields, " ", &save); w && n < 6; w = strtok_r(NULL, " ", &save))
		f[n++] = w;
	if (n != 5)
		return NULL;
	errno = 0;
	idx = strtoul(f[0], &end, 10);
	if (*end || errno || idx >= vm->obj_cnt)
		return NULL;
	rv = strtoll(f[4], &end, 10);
	if (*end || errno)
		return NULL;
	m = !strcmp(f[2], "mkf") ? 0 : 1;
	name = unescape(f[1]);
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

/* Read one boot's records into the cells. */
static void read_boot(struct vm *vm, size_t ki)
{
	struct kernel *k = &vm->kernels[ki];
	char *out = read_file(k->out_path), *err = read_file(k->err_path), *line, *save = NULL;
	struct cell *cur = NULL;
	size_t o, p;
	int m;

	for (line = out ? strtok_r(out, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "@kernel ", 8)) {
			free(k->release);
			k->release = strdup(line + 8);
		} else if (!strncmp(line, "@module ", 8)) {
			char *r = NULL;

			if (asprintf(&r, "%s%s\n", k->module_report ? k->module_report : "", line + 8) >= 0) {
				free(k->module_report);
				k->module_report = r;
			}
		} else if (!strncmp(line, "@object ", 8)) {
			unsigned long idx = strtoul(line + 8, NULL, 10);
			char *why = strstr(line, " unreadable ");

			if (idx < vm->obj_cnt && why && !vm->objs[idx].error)
				vm->objs[idx].error = unescape(why + 12);
		} else if (!strncmp(line, "@cell ", 6)) {
			cur = cell_record(vm, ki, line + 6);
		} else if (cur && !strncmp(line, "@reason ", 8)) {
			free(cur->reason);
			cur->reason = unescape(line + 8);
		} else if (cur && !strncmp(line, "@decided ", 9)) {
			free(cur->decided);
			cur->decided = unescape(line + 9);
		} else if (cur && !strncmp(line, "@note ", 6)) {
			free(cur->note);
			cur->note = unescape(line + 6);
		} else if (cur && !strncmp(line, "@log", 4)) {
			char *l = NULL, *text = unescape(line[4] ? line + 5 : "");

			if (text && asprintf(&l, "%s%s\n", cur->log ? cur->log : "", text) >= 0) {
				free(cur->log);
				cur->log = l;
			}
			free(text);
		} else if (!strcmp(line, "@end")) {
			cur = NULL;
		}
	}

	/* No result: why, in vm-run's words ("vm-run: LABEL: WHY (ACCEL, Ns)"). */
	if (k->rc == 125 || k->rc == 126 || k->rc < 0) {
		char *w = NULL, *save2 = NULL;

		for (line = err ? strtok_r(err, "\n", &save2) : NULL; line;
		     line = strtok_r(NULL, "\n", &save2)) {
			if (!strncmp(line, "vm-run: ", 8)) {
				char *s = strchr(line + 8, ':');
				char *e;

				s = s && s[1] == ' ' ? s + 2 : line + 8;
				e = strstr(s, " (");
				if (e && !strncmp(s, "guest exit status", 17))
					continue;
				if (e)
					*e = '\0';
				w = s;
				break;
			}
		}
		k->why = strdup(w ? w : "the boot gave no result");
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
	free(err);
}

/*
 * S as the text and Markdown reports print it: names and messages come
 * from the object and the guest, and no control character of theirs
 * reaches the terminal (\xNN instead, as the guest sends them; so are
 * bytes past ASCII). S itself when it has none.
 */
static const char *safe(struct vm *vm, const char *s)
{
	const unsigned char *p;
	char *copy, *o, **v;
	size_t bad = 0;

	if (!s)
		return NULL;
	for (p = (const unsigned char *)s; *p; p++)
		bad += *p < 0x20 || *p >= 0x7f;
	if (!bad)
		return s;
	v = realloc(vm->shown, (vm->shown_cnt + 1) * sizeof(*v));
	copy = malloc(strlen(s) + 3 * bad + 1);
	if (!v || !copy) {
		free(copy);
		if (v)
			vm->shown = v;
		return "?";
	}
	vm->shown = v;
	v[vm->shown_cnt++] = copy;
	for (p = (const unsigned char *)s, o = copy; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f)
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	return copy;
}

/* Lines of TEXT, each made safe, after PREFIX. */
static void put_safe_lines(struct vm *vm, FILE *f, const char *prefix, const char *text)
{
	char *copy = strdup(text ? text : ""), *line, *save = NULL;

	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(f, "%s%s\n", prefix, safe(vm, line));
	free(copy);
}

static void progress(struct vm *vm, size_t ki, size_t done)
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
				default: none++; break;
				}
			}
	if (none)
		fprintf(stderr, "magic-kfunc: vm: [%zu/%zu] %s: no result: %s (%.1fs)\n", done,
			vm->kernel_cnt, safe(vm, k->label), k->why ? safe(vm, k->why) : "?", k->secs);
	else
		fprintf(stderr, "magic-kfunc: vm: [%zu/%zu] %s (%s): %d ran, %d loaded, %d failed "
			"(%.1fs)\n", done, vm->kernel_cnt, safe(vm, k->label), safe(vm, k->release),
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
	char *cmd = guest_cmd(vm);
	size_t next = 0, running = 0, done = 0, i;
	double *start;
	bool tty = isatty(2);

	start = calloc(vm->kernel_cnt, sizeof(*start));
	if (!cmd || !start) {
		free(cmd);
		free(start);
		return cli_error(vm->cli, "%s", strerror(ENOMEM));
	}
	while (done < vm->kernel_cnt && !stop_signal) {
		int status;
		pid_t pid;

		while (running < (size_t)jobs && next < vm->kernel_cnt && !stop_signal) {
			struct kernel *k = &vm->kernels[next];
			sigset_t block, old;

			snprintf(k->out_path, sizeof(k->out_path), "%s/boot%zu.out", vm->tmp, next);
			snprintf(k->err_path, sizeof(k->err_path), "%s/boot%zu.err", vm->tmp, next);
			start[next] = now();
			/* Known to on_stop() before a stop can come. */
			sigemptyset(&block);
			sigaddset(&block, SIGINT);
			sigaddset(&block, SIGTERM);
			sigaddset(&block, SIGHUP);
			sigprocmask(SIG_BLOCK, &block, &old);
			k->pid = start_boot(vm, k, cmd, timeout);
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
				progress(vm, i, done);
		}
	}
	if (stop_signal)
		stop_boots(vm);
	free(cmd);
	free(start);
	return 0;
}

/* --- vm: the reports ---------------------------------------------------- */


static const char *status_name(enum cell_status s)
{
	switch (s) {
	case CELL_RAN: return "ran";
	case CELL_LOADED: return "loaded";
	case CELL_FAILED: return "failed";
	default: return "no-result";
	}
}

/* The cell's short form; long reasons go to numbered notes. */
static void cell_text(const struct vm *vm, const struct cell *c, int m, char *buf, size_t sz)
{
	bool exp = expected(vm, m);

	switch (c->status) {
	case CELL_RAN:
		snprintf(buf, sz, "ran %lld", c->retval);
		break;
	case CELL_LOADED:
		if (c->note)
			snprintf(buf, sz, "loaded [%d]", c->footnote);
		else
			snprintf(buf, sz, "loaded");
		break;
	case CELL_FAILED:
		snprintf(buf, sz, "%s [%d]", exp ? "FAILED" : "failed", c->footnote);
		break;
	default:
		snprintf(buf, sz, "%s [%d]", exp ? "NO RESULT" : "no result", c->footnote);
		break;
	}
}

static void number_notes(struct vm *vm)
{
	int n = 0;
	size_t o, p, k;
	int m;

	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++)
				for (k = 0; k < vm->kernel_cnt; k++) {
					struct cell *c = cell_at(vm, o, p, m, k);

					if (!mode_on(vm, m))
						continue;
					if (c->status == CELL_FAILED || c->status == CELL_NONE ||
					    (c->status == CELL_LOADED && c->note))
						c->footnote = ++n;
					if (expected(vm, m) && c->status != CELL_RAN &&
					    c->status != CELL_LOADED)
						vm->failed_expected++;
				}
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static void print_notes(struct vm *vm, FILE *f, bool md)
{
	size_t o, p, k;
	int m;

	for (o = 0; o < vm->obj_cnt; o++)
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++)
				for (k = 0; k < vm->kernel_cnt; k++) {
					struct cell *c = cell_at(vm, o, p, m, k);
					const char *why;

					if (!c->footnote || !mode_on(vm, m))
						continue;
					why = safe(vm, c->status == CELL_LOADED ? c->note : c->reason);
					if (md)
						fprintf(f, "%d. `%s`, %s, %s: %s%s%s\n", c->footnote,
							safe(vm, vm->objs[o].progs[p].name), mode_name[m],
							safe(vm, vm->kernels[k].label),
							c->status == CELL_NONE ? "no result: " : "`",
							why ? why : "no message",
							c->status == CELL_NONE ? "" : "`");
					else
						fprintf(f, "[%d] %s, %s, %s: %s%s\n", c->footnote,
							safe(vm, vm->objs[o].progs[p].name), mode_name[m],
							safe(vm, vm->kernels[k].label),
							c->status == CELL_NONE ? "no result: " : "",
							why ? why : "no message");
					if (vm->cli->debug && c->log) {
						if (md)
							fputs("\n   ```\n", f);
						put_safe_lines(vm, f, "    ", c->log);
						if (md)
							fputs("   ```\n", f);
					}
				}
}

static int report_text(struct vm *vm)
{
	FILE *f = vm->cli->out;
	struct table *t;
	size_t o, p, k;
	int m, ncols = 2 + (int)vm->kernel_cnt;
	const char **row;
	char (*bufs)[64];

	if (ncols > 16)
		return cli_usage_error(vm->cli, "vm: at most 14 kernels in a text report (use -j)");
	row = calloc((size_t)ncols, sizeof(*row));
	bufs = calloc(vm->kernel_cnt, sizeof(*bufs));
	t = table_new(4);
	if (!row || !bufs || !t)
		goto nomem;
	fprintf(f, "kernels:\n");
	for (k = 0; k < vm->kernel_cnt; k++) {
		struct kernel *kn = &vm->kernels[k];
		char secs[32];
		const char *r[4] = { safe(vm, kn->label), safe(vm, kn->release), secs,
				     kn->why ? safe(vm, kn->why) : "booted" };

		snprintf(secs, sizeof(secs), "%.1fs", kn->secs);
		if (table_add(t, r))
			goto nomem;
	}
	table_print(t, f, "  ");
	table_free(t);
	t = NULL;
	for (k = 0; k < vm->kernel_cnt; k++)
		if (vm->kernels[k].module_report) {
			char prefix[256];

			snprintf(prefix, sizeof(prefix), "  %s modules: ",
				 safe(vm, vm->kernels[k].label));
			put_safe_lines(vm, f, prefix, vm->kernels[k].module_report);
		}
	for (o = 0; o < vm->obj_cnt; o++) {
		fprintf(f, "\n%s\n", safe(vm, vm->objs[o].path));
		if (vm->objs[o].error)
			fprintf(f, "  the guest could not read it: %s\n", safe(vm, vm->objs[o].error));
		t = table_new(ncols);
		if (!t)
			goto nomem;
		row[0] = "PROGRAM";
		row[1] = "MODE";
		for (k = 0; k < vm->kernel_cnt; k++)
			row[2 + k] = safe(vm, vm->kernels[k].label);
		if (table_add(t, row))
			goto nomem;
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++) {
				if (!mode_on(vm, m))
					continue;
				row[0] = safe(vm, vm->objs[o].progs[p].name);
				row[1] = mode_name[m];
				for (k = 0; k < vm->kernel_cnt; k++) {
					cell_text(vm, cell_at(vm, o, p, m, k), m, bufs[k], sizeof(bufs[k]));
					row[2 + k] = bufs[k];
				}
				if (table_add(t, row))
					goto nomem;
			}
		table_print(t, f, "  ");
		table_free(t);
		t = NULL;
	}
	fputc('\n', f);
	print_notes(vm, f, false);
	fprintf(f, "%d cell%s expected to load did not (%s)\n", vm->failed_expected,
		vm->failed_expected == 1 ? "" : "s",
		vm->lib ? "expected: every program loads through the library" :
			  "expected: every program loads with plain libbpf");
	free(row);
	free(bufs);
	return 0;
nomem:
	table_free(t);
	free(row);
	free(bufs);
	return cli_error(vm->cli, "%s", strerror(ENOMEM));
}

static void report_markdown(struct vm *vm)
{
	FILE *f = vm->cli->out;
	char buf[64];
	size_t o, p, k;
	int m;

	fprintf(f, "| kernel | release | boot |\n|---|---|---|\n");
	for (k = 0; k < vm->kernel_cnt; k++)
		fprintf(f, "| %s | %s | %s (%.1fs) |\n", safe(vm, vm->kernels[k].label),
			safe(vm, vm->kernels[k].release),
			vm->kernels[k].why ? safe(vm, vm->kernels[k].why) : "booted",
			vm->kernels[k].secs);
	for (o = 0; o < vm->obj_cnt; o++) {
		fprintf(f, "\n## %s\n\n| program | mode |", safe(vm, base_name(vm->objs[o].path)));
		for (k = 0; k < vm->kernel_cnt; k++)
			fprintf(f, " %s |", safe(vm, vm->kernels[k].label));
		fprintf(f, "\n|---|---|");
		for (k = 0; k < vm->kernel_cnt; k++)
			fprintf(f, "---|");
		fputc('\n', f);
		for (p = 0; p < vm->objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++) {
				if (!mode_on(vm, m))
					continue;
				fprintf(f, "| `%s` | %s |", safe(vm, vm->objs[o].progs[p].name),
					m == 0 ? "libmagic-kfunc" : "plain libbpf");
				for (k = 0; k < vm->kernel_cnt; k++) {
					cell_text(vm, cell_at(vm, o, p, m, k), m, buf, sizeof(buf));
					fprintf(f, " %s |", buf);
				}
				fputc('\n', f);
			}
	}
	fputc('\n', f);
	print_notes(vm, f, true);
}

static void report_json(struct vm *vm)
{
	struct json_writer *jw = vm->cli->jw;
	size_t o, p, k;
	int m;

	jw_start_object(jw);
	jw_name(jw, "kernels");
	jw_start_array(jw);
	for (k = 0; k < vm->kernel_cnt; k++) {
		struct kernel *kn = &vm->kernels[k];

		jw_start_object(jw);
		jw_string_field(jw, "label", kn->label);
		jw_string_field(jw, "image", kn->image);
		jw_string_field(jw, "release", strcmp(kn->release, "-") ? kn->release : NULL);
		jw_bool_field(jw, "booted", !kn->why);
		jw_string_field(jw, "why", kn->why);
		jw_int_field(jw, "milliseconds", (long long)(kn->secs * 1000));
		jw_name(jw, "modules");
		jw_start_array(jw);
		for (o = 0; o < kn->module_cnt; o++)
			jw_string(jw, base_name(kn->modules[o]));
		jw_end_array(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_name(jw, "objects");
	jw_start_array(jw);
	for (o = 0; o < vm->obj_cnt; o++) {
		jw_start_object(jw);
		jw_string_field(jw, "object", vm->objs[o].path);
		/* The guest could not read it (libbpf's open failed): no cells. */
		jw_string_field(jw, "error", vm->objs[o].error);
		jw_name(jw, "programs");
		jw_start_array(jw);
		for (p = 0; p < vm->objs[o].prog_cnt; p++) {
			jw_start_object(jw);
			jw_string_field(jw, "name", vm->objs[o].progs[p].name);
			jw_string_field(jw, "section", vm->objs[o].progs[p].sec);
			jw_name(jw, "cells");
			jw_start_array(jw);
			for (k = 0; k < vm->kernel_cnt; k++)
				for (m = 0; m < MODES; m++) {
					struct cell *c = cell_at(vm, o, p, m, k);

					if (!mode_on(vm, m))
						continue;
					jw_start_object(jw);
					jw_string_field(jw, "kernel", vm->kernels[k].label);
					jw_string_field(jw, "mode", mode_name[m]);
					jw_string_field(jw, "status", status_name(c->status));
					jw_bool_field(jw, "expected", expected(vm, m));
					jw_name(jw, "retval");
					if (c->status == CELL_RAN)
						jw_int(jw, c->retval);
					else
						jw_null(jw);
					jw_string_field(jw, "reason", c->status == CELL_LOADED ? c->note :
							c->status == CELL_RAN ? NULL : c->reason);
					if (vm->whole)
						jw_string_field(jw, "decided",
								c->decided ? c->decided : "alone");
					if (vm->cli->debug)
						jw_string_field(jw, "log", c->log);
					jw_end_object(jw);
				}
			jw_end_array(jw);
			jw_end_object(jw);
		}
		jw_end_array(jw);
		jw_end_object(jw);
	}
	jw_end_array(jw);
	jw_int_field(jw, "failed_expected", vm->failed_expected);
	jw_end_object(jw);
}

/* --- vm: the command ---------------------------------------------------- */

static void vm_free(struct vm *vm)
{
	size_t i, j, n = vm->obj_cnt ? vm->base[vm->obj_cnt] * MODES * vm->kernel_cnt : 0;

	for (i = 0; vm->cells && i < n; i++) {
		free(vm->cells[i].reason);
		free(vm->cells[i].note);
		free(vm->cells[i].log);
		free(vm->cells[i].decided);
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
	}
	free(vm->kernels);
	free(vm->base);
	for (i = 0; i < vm->shown_cnt; i++)
		free(vm->shown[i]);
	free(vm->shown);
	if (vm->tmp[0]) {
		char path[PATH_MAX + 32];

		for (i = 0; i < vm->obj_cnt; i++) {
			snprintf(path, sizeof(path), "%s/%zu.o", vm->tmp, i);
			unlink(path);
		}
		rmdir(vm->tmp);
	}
}

int cmd_vm(struct cli *cli)
{
	struct vm vm = { .cli = cli };
	const char **ids = NULL;
	size_t id_cnt = 0, i;
	char *entries = NULL;
	const char *tmpdir = getenv("TMPDIR");
	int ret, jobs = cli->jobs;

	if (!cli->mode || !strcmp(cli->mode, "both")) {
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

	/* Objects, and their programs: the rows. */
	vm.objs = calloc((size_t)cli->argc, sizeof(*vm.objs));
	vm.base = calloc((size_t)cli->argc + 1, sizeof(*vm.base));
	if (!vm.objs || !vm.base) {
		ret = cli_error(cli, "%s", strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < (size_t)cli->argc; i++) {
		vm.objs[i].path = cli->argv[i];
		vm.obj_cnt++;
		ret = read_programs(cli, &vm.objs[i]);
		if (ret)
			goto out;
		vm.base[i + 1] = vm.base[i] + vm.objs[i].prog_cnt;
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
	for (i = 0; i < id_cnt; i++) {
		vm.kernels[i].arg = ids[i];
		vm.kernels[i].rc = -1;
		vm.kernel_cnt++;
		ret = resolve_kernel(&vm, &vm.kernels[i]);
		if (ret)
			goto out;
	}
	vm.cells = calloc(vm.base[vm.obj_cnt] * MODES * vm.kernel_cnt, sizeof(*vm.cells));
	if (!vm.cells) {
		ret = cli_error(cli, "%s", strerror(ENOMEM));
		goto out;
	}

	/* From here on, a stop removes what vm made and stops what it started. */
	catch_stops(true);
	/* The objects, under names the initramfs takes. */
	snprintf(vm.tmp, sizeof(vm.tmp), "%s/magic-kfunc-vm.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(vm.tmp)) {
		vm.tmp[0] = '\0';
		ret = cli_error(cli, "vm: a temporary directory: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < vm.obj_cnt; i++) {
		char to[PATH_MAX + 32];

		snprintf(to, sizeof(to), "%s/%zu.o", vm.tmp, i);
		if (copy_file(vm.objs[i].path, to)) {
			ret = cli_error(cli, "vm: copy %s: %s", vm.objs[i].path, strerror(errno));
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
	number_notes(&vm);
	if (cli->jw)
		report_json(&vm);
	else if (cli->markdown)
		report_markdown(&vm);
	else
		ret = report_text(&vm);
	if (!ret && vm.failed_expected)
		ret = EXIT_CELLS_FAILED;
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
