// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * vm merge JSON...: the JSON reports of the N shards of one run
 * ("vm --shard I/N -j", each on its own machine or CI job) read back
 * into one matrix, printed as a run prints it (text, --markdown, -j,
 * --junit), with the same exit status.
 *
 * The shards must be of one run: the same version of this tool, mode,
 * kernels (and images, where two shards booted one), objects (by their
 * SHA-256) and shard count, every shard once. Each cell must come from
 * the shard that owns it (vm_owner()), and every owned cell must be
 * there: a document that claims another shard's cell, or lacks one of
 * its own, is refused, not merged.
 */
#define _GNU_SOURCE /* asprintf */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "vm.h"

struct shard_doc {
	const char *file;
	struct jr_node *root;
	unsigned int index;	/* 1-based */
	const struct jr_node *kernels, *objects;
};

/* The whole of FILE ("-": standard input), NUL-terminated; NULL with errno. */
static char *slurp(const char *file, size_t *len)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *buf = NULL;
	size_t cap = 0;
	int e;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (*len + 65536 + 1 > cap) {
			char *b = realloc(buf, cap = *len + 65536 * 2);

			if (!b) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = b;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
		if (n == 0)
			break;
	}
	e = ferror(f) ? EIO : 0;
	if (f != stdin)
		fclose(f);
	if (buf && e) {
		free(buf);
		buf = NULL;
		errno = e;
	}
	if (buf)
		buf[*len] = '\0';
	return buf;
}

static const struct jr_node *array(const struct jr_node *obj, const char *key)
{
	const struct jr_node *n = jr_get(obj, key);

	return n && n->type == JR_ARRAY ? n : NULL;
}

static bool int_of(const struct jr_node *obj, const char *key, long long *v)
{
	const struct jr_node *n = jr_get(obj, key);

	if (!n || n->type != JR_NUMBER || !n->integer)
		return false;
	*v = n->num;
	return true;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Read FILE into D and check its frame; 0 or an exit code (the error set). */
static int load_doc(struct cli *cli, const char *file, struct shard_doc *d)
{
	char err[256], *text;
	size_t len;
	const struct jr_node *shard;
	long long idx, cnt;

	d->file = file;
	text = slurp(file, &len);
	if (!text)
		return cli_error(cli, "vm merge: %s: %s", file, strerror(errno));
	d->root = jr_parse(text, len, err, sizeof(err));
	free(text);
	if (!d->root)
		return cli_error(cli, "vm merge: %s: not JSON: %s", file, err);
	if (jr_str(d->root, "error"))
		return cli_error(cli, "vm merge: %s: the run failed: %s", file,
				 jr_str(d->root, "error"));
	shard = jr_get(d->root, "shard");
	d->kernels = array(d->root, "kernels");
	d->objects = array(d->root, "objects");
	if (!jr_str(d->root, "version") || !jr_str(d->root, "mode") || !shard ||
	    !int_of(shard, "index", &idx) || !int_of(shard, "count", &cnt) || !d->kernels ||
	    !d->objects)
		return cli_error(cli, "vm merge: %s: not the JSON of 'magic-kfunc -j vm' (no version, "
				 "mode, shard, kernels or objects)", file);
	if (strcmp(jr_str(d->root, "version"), PACKAGE_VERSION))
		return cli_error(cli, "vm merge: %s was written by magic-kfunc %s, this is %s: merge "
				 "with the version that ran the shards", file,
				 jr_str(d->root, "version"), PACKAGE_VERSION);
	if (cnt < 1 || cnt > 1000 || idx < 1 || idx > cnt)
		return cli_error(cli, "vm merge: %s: shard %lld/%lld is not a shard", file, idx, cnt);
	d->index = (unsigned int)idx;
	return 0;
}

/* The kernels and objects of D agree with those of the first shard, F. */
static int check_inputs(struct cli *cli, const struct shard_doc *f, const struct shard_doc *d)
{
	size_t i, j;

	if (strcmp(jr_str(f->root, "mode"), jr_str(d->root, "mode")))
		return cli_error(cli, "vm merge: %s ran in mode %s, %s in mode %s: not shards of one "
				 "run", f->file, jr_str(f->root, "mode"), d->file,
				 jr_str(d->root, "mode"));
	if (f->kernels->cnt != d->kernels->cnt)
		goto kernels;
	for (i = 0; i < f->kernels->cnt; i++) {
		const struct jr_node *a = &f->kernels->items[i], *b = &d->kernels->items[i];
		const char *ha = jr_str(a, "sha256"), *hb = jr_str(b, "sha256");

		if (!jr_str(a, "label") || !same(jr_str(a, "label"), jr_str(b, "label")))
			goto kernels;
		if (ha && hb && strcmp(ha, hb))
			return cli_error(cli, "vm merge: %s and %s booted different images as kernel "
					 "%s (SHA-256 %.12s... and %.12s...)", f->file, d->file,
					 jr_str(a, "label"), ha, hb);
	}
	{
		const struct jr_node *aa = array(f->root, "arguments"), *ab = array(d->root, "arguments");

		if (!aa != !ab || (aa && aa->cnt != ab->cnt))
			goto args;
		for (i = 0; aa && i < aa->cnt; i++)
			if (aa->items[i].type != JR_STRING || ab->items[i].type != JR_STRING ||
			    strcmp(aa->items[i].str, ab->items[i].str))
				goto args;
	}
	if (f->objects->cnt != d->objects->cnt)
		return cli_error(cli, "vm merge: %s has %zu objects, %s has %zu: not shards of one run",
				 f->file, f->objects->cnt, d->file, d->objects->cnt);
	for (i = 0; i < f->objects->cnt; i++) {
		const struct jr_node *a = &f->objects->items[i], *b = &d->objects->items[i];
		const struct jr_node *pa = array(a, "programs"), *pb = array(b, "programs");
		const char *name = jr_str(a, "object") ? jr_str(a, "object") : jr_str(a, "command");

		if (!jr_str(a, "sha256") || !same(jr_str(a, "sha256"), jr_str(b, "sha256")))
			return cli_error(cli, "vm merge: %s and %s ran different objects in place %zu "
					 "(%s and %s: their SHA-256 differ)", f->file, d->file, i + 1,
					 name ? name : "?",
					 jr_str(b, "object") ? jr_str(b, "object") :
					 jr_str(b, "command") ? jr_str(b, "command") : "?");
		if (!pa || !pb || pa->cnt != pb->cnt)
			goto programs;
		for (j = 0; j < pa->cnt; j++)
			if (!jr_str(&pa->items[j], "name") ||
			    !same(jr_str(&pa->items[j], "name"), jr_str(&pb->items[j], "name")))
				goto programs;
	}
	return 0;
kernels:
	return cli_error(cli, "vm merge: %s and %s name different kernels, or in another order: "
			 "not shards of one run", f->file, d->file);
args:
	return cli_error(cli, "vm merge: %s and %s ran the command with different arguments",
			 f->file, d->file);
programs:
	return cli_error(cli, "vm merge: %s and %s list different programs for the same object",
			 f->file, d->file);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The rows and columns of the matrix, from the first shard. */
static int build(struct vm *vm, const struct shard_doc *f)
{
	const char *mode = jr_str(f->root, "mode");
	const struct jr_node *args = array(f->root, "arguments");
	size_t i, j;

	if (!strcmp(mode, "run")) {
		vm->command = vm->lib = true;
	} else if (!strcmp(mode, "both") || !strcmp(mode, "mkf") || !strcmp(mode, "libbpf")) {
		vm->lib = strcmp(mode, "libbpf");
		vm->plain = strcmp(mode, "mkf");
	} else {
		return cli_error(vm->cli, "vm merge: %s: unknown mode '%s'", f->file, mode);
	}
	if (vm->command && args) {
		vm->run_args = calloc(args->cnt + 1, sizeof(*vm->run_args));
		if (!vm->run_args)
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		for (i = 0; i < args->cnt; i++)
			vm->run_args[i] = args->items[i].str;
		vm->run_arg_cnt = args->cnt;
	}
	vm->objs = calloc(f->objects->cnt, sizeof(*vm->objs));
	vm->base = calloc(f->objects->cnt + 1, sizeof(*vm->base));
	vm->kernels = calloc(f->kernels->cnt, sizeof(*vm->kernels));
	if (!vm->objs || !vm->base || (f->kernels->cnt && !vm->kernels))
		return cli_error(vm->cli, "%s", strerror(ENOMEM));
	for (i = 0; i < f->objects->cnt; i++) {
		const struct jr_node *ob = &f->objects->items[i], *progs = array(ob, "programs");
		struct object *obj = &vm->objs[i];

		obj->path = jr_str(ob, vm->command ? "command" : "object");
		if (!obj->path || !progs || !jr_str(ob, "sha256"))
			return cli_error(vm->cli, "vm merge: %s: an object without its path, SHA-256 "
					 "or programs", f->file);
		snprintf(obj->sha256, sizeof(obj->sha256), "%s", jr_str(ob, "sha256"));
		vm->obj_cnt++;
		obj->progs = calloc(progs->cnt ? progs->cnt : 1, sizeof(*obj->progs));
		if (!obj->progs)
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		for (j = 0; j < progs->cnt; j++) {
			if (!jr_str(&progs->items[j], "name"))
				return cli_error(vm->cli, "vm merge: %s: a program without a name", f->file);
			obj->progs[j].name = strdup(jr_str(&progs->items[j], "name"));
			obj->progs[j].sec = dup_or_null(jr_str(&progs->items[j], "section"));
			obj->prog_cnt++;
			if (!obj->progs[j].name)
				return cli_error(vm->cli, "%s", strerror(ENOMEM));
		}
		vm->base[i + 1] = vm->base[i] + obj->prog_cnt;
	}
	for (i = 0; i < f->kernels->cnt; i++) {
		if (!jr_str(&f->kernels->items[i], "label"))
			return cli_error(vm->cli, "vm merge: %s: a kernel without a label", f->file);
		vm->kernels[i].label = strdup(jr_str(&f->kernels->items[i], "label"));
		vm->kernel_cnt++;
		if (!vm->kernels[i].label)
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
	}
	vm->cells = calloc(vm->base[vm->obj_cnt] * MODES * (vm->kernel_cnt ? vm->kernel_cnt : 1),
			   sizeof(*vm->cells));
	if (!vm->cells)
		return cli_error(vm->cli, "%s", strerror(ENOMEM));
	return 0;
}

/* Kernel K as the shards that booted it saw it. */
static int merge_kernel(struct vm *vm, const struct shard_doc *docs, size_t n, size_t k,
			unsigned int shards)
{
	struct kernel *kn = &vm->kernels[k];
	size_t d, o;

	for (d = 0; d < n; d++) {
		const struct jr_node *e = &docs[d].kernels->items[k], *in = jr_get(e, "in_shard");
		const struct jr_node *mods = array(e, "modules");
		bool owns = false;
		long long ms = 0;

		for (o = 0; o < vm->obj_cnt; o++)
			owns |= vm_owner(k, o, vm->kernel_cnt, vm->obj_cnt, shards) == docs[d].index - 1;
		if (!in || in->type != JR_BOOL || in->boolean != owns)
			return cli_error(vm->cli, "vm merge: %s: kernel %s is %sin shard %u/%u, the "
					 "document says otherwise", docs[d].file, kn->label,
					 owns ? "" : "not ", docs[d].index, shards);
		if (!owns)
			continue;
		kn->in_shard = true;
		if (!kn->image && jr_str(e, "image") && !(kn->image = strdup(jr_str(e, "image"))))
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		if (!kn->sha256[0] && jr_str(e, "sha256"))
			snprintf(kn->sha256, sizeof(kn->sha256), "%s", jr_str(e, "sha256"));
		if (!kn->release && jr_str(e, "release") && !(kn->release = strdup(jr_str(e, "release"))))
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		if (!kn->why && jr_str(e, "why") && !(kn->why = strdup(jr_str(e, "why"))))
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		if (!kn->module_report && jr_str(e, "module_report") &&
		    !(kn->module_report = strdup(jr_str(e, "module_report"))))
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		if (int_of(e, "milliseconds", &ms) && ms > 0)
			kn->secs += (double)ms / 1000;
		if (!kn->modules && mods && mods->cnt) {
			kn->modules = calloc(mods->cnt, sizeof(*kn->modules));
			if (!kn->modules)
				return cli_error(vm->cli, "%s", strerror(ENOMEM));
			for (o = 0; o < mods->cnt; o++) {
				if (mods->items[o].type != JR_STRING)
					continue;
				kn->modules[kn->module_cnt] = strdup(mods->items[o].str);
				if (!kn->modules[kn->module_cnt++])
					return cli_error(vm->cli, "%s", strerror(ENOMEM));
			}
		}
	}
	return 0;
}

static int status_of(const char *s, enum cell_status *st)
{
	if (!s)
		return -1;
	if (!strcmp(s, "ran"))
		*st = CELL_RAN;
	else if (!strcmp(s, "loaded"))
		*st = CELL_LOADED;
	else if (!strcmp(s, "failed"))
		*st = CELL_FAILED;
	else if (!strcmp(s, "no-result"))
		*st = CELL_NONE;
	else
		return -1;
	return 0;
}

/* The cells of shard D, each into its place: only cells D owns, each once. */
static int merge_cells(struct vm *vm, const struct shard_doc *d, unsigned int shards, bool *filled)
{
	size_t o, p, i, k;

	for (o = 0; o < vm->obj_cnt; o++) {
		const struct jr_node *progs = array(&d->objects->items[o], "programs");
		const char *error = jr_str(&d->objects->items[o], "error");

		if (error && !vm->objs[o].error && !(vm->objs[o].error = strdup(error)))
			return cli_error(vm->cli, "%s", strerror(ENOMEM));
		for (p = 0; p < vm->objs[o].prog_cnt; p++) {
			const struct jr_node *cells = array(&progs->items[p], "cells");

			for (i = 0; cells && i < cells->cnt; i++) {
				const struct jr_node *e = &cells->items[i];
				const char *label = jr_str(e, "kernel"), *mode = jr_str(e, "mode");
				enum cell_status st;
				struct cell *c;
				long long rv = 0;
				int m;

				for (k = 0; label && k < vm->kernel_cnt; k++)
					if (!strcmp(vm->kernels[k].label, label))
						break;
				m = !mode ? -1 : !strcmp(mode, vm_mode_name(vm, 0)) ? 0 :
				    !strcmp(mode, vm_mode_name(vm, 1)) ? 1 : -1;
				if (!label || k == vm->kernel_cnt || m < 0 || !mode_on(vm, m) ||
				    status_of(jr_str(e, "status"), &st))
					return cli_error(vm->cli, "vm merge: %s: a cell of %s with an unknown "
							 "kernel, mode or status", d->file,
							 safe(vm, vm->objs[o].progs[p].name));
				if (vm_owner(k, o, vm->kernel_cnt, vm->obj_cnt, shards) != d->index - 1)
					return cli_error(vm->cli, "vm merge: %s (shard %u/%u) has a cell of "
							 "%s on %s, which is shard %u's", d->file,
							 d->index, shards,
							 safe(vm, vm->objs[o].progs[p].name),
							 safe(vm, label), vm_owner(k, o, vm->kernel_cnt,
									 vm->obj_cnt, shards) + 1);
				c = cell_at(vm, o, p, m, k);
				if (filled[c - vm->cells])
					return cli_error(vm->cli, "vm merge: %s: two cells of %s, %s, on %s",
							 d->file, safe(vm, vm->objs[o].progs[p].name),
							 safe(vm, mode), safe(vm, label));
				filled[c - vm->cells] = true;
				c->status = st;
				if ((st == CELL_RAN || (vm->command && st == CELL_FAILED)) &&
				    !int_of(e, "retval", &rv))
					return cli_error(vm->cli, "vm merge: %s: a cell of %s on %s without "
							 "its return value", d->file,
							 safe(vm, vm->objs[o].progs[p].name), safe(vm, label));
				c->retval = rv;
				if (st == CELL_LOADED)
					c->note = dup_or_null(jr_str(e, "reason"));
				else if (st != CELL_RAN)
					c->reason = dup_or_null(jr_str(e, "reason"));
				c->log = dup_or_null(jr_str(e, "log"));
				c->output = dup_or_null(jr_str(e, "output"));
			}
		}
	}
	return 0;
}

int cmd_vm_merge(struct cli *cli)
{
	struct vm vm = { .cli = cli, .shard = 1, .shards = 1 };
	struct shard_doc *docs;
	size_t n = (size_t)cli->argc - 1, i, o, p, k;
	unsigned int shards;
	bool *filled = NULL;
	int ret = 0, m;

	if (cli->vm_kernel_cnt || cli->mode || cli->jobs || cli->timeout || cli->shards || cli->run)
		return cli_usage_error(cli, "vm merge: --kernel, --mode, --jobs, --timeout, --shard and "
				       "--run are for the runs, not their merge");
	if (!n)
		return cli_usage_error(cli, "vm merge: which reports? vm merge JSON... (the -j output "
				       "of each 'vm --shard I/N')");
	docs = calloc(n, sizeof(*docs));
	if (!docs)
		return cli_error(cli, "%s", strerror(ENOMEM));
	for (i = 0; i < n && !ret; i++)
		ret = load_doc(cli, cli->argv[i + 1], &docs[i]);
	if (ret)
		goto out;
	shards = (unsigned int)jr_get(jr_get(docs[0].root, "shard"), "count")->num;
	for (i = 0; i < n; i++) {
		long long cnt = jr_get(jr_get(docs[i].root, "shard"), "count")->num;

		if (cnt != shards) {
			ret = cli_error(cli, "vm merge: %s is shard %u/%u and %s is shard %u/%lld: not "
					"shards of one run", docs[0].file, docs[0].index, shards,
					docs[i].file, docs[i].index, cnt);
			goto out;
		}
		for (k = 0; k < i; k++)
			if (docs[k].index == docs[i].index) {
				ret = cli_error(cli, "vm merge: %s and %s are both shard %u/%u",
						docs[k].file, docs[i].file, docs[i].index, shards);
				goto out;
			}
		if (i) {
			ret = check_inputs(cli, &docs[0], &docs[i]);
			if (ret)
				goto out;
		}
	}
	if (n != shards) {
		for (k = 1; k <= shards; k++) {
			for (i = 0; i < n && docs[i].index != k; i++)
				;
			if (i == n)
				break;
		}
		ret = cli_error(cli, "vm merge: shard %zu/%u is missing (%zu of %u given)", k, shards,
				n, shards);
		goto out;
	}
	ret = build(&vm, &docs[0]);
	for (k = 0; !ret && k < vm.kernel_cnt; k++)
		ret = merge_kernel(&vm, docs, n, k, shards);
	if (ret)
		goto out;
	filled = calloc(vm.base[vm.obj_cnt] * MODES * (vm.kernel_cnt ? vm.kernel_cnt : 1),
			sizeof(*filled));
	if (!filled) {
		ret = cli_error(cli, "%s", strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < n && !ret; i++)
		ret = merge_cells(&vm, &docs[i], shards, filled);
	if (ret)
		goto out;
	/* Every cell of the matrix came from its shard. */
	for (o = 0; o < vm.obj_cnt; o++)
		for (p = 0; p < vm.objs[o].prog_cnt; p++)
			for (m = 0; m < MODES; m++)
				for (k = 0; k < vm.kernel_cnt; k++) {
					struct cell *c = cell_at(&vm, o, p, m, k);
					unsigned int s;

					if (!mode_on(&vm, m) || filled[c - vm.cells])
						continue;
					s = vm_owner(k, o, vm.kernel_cnt, vm.obj_cnt, shards);
					for (i = 0; docs[i].index != s + 1; i++)
						;
					ret = cli_error(cli, "vm merge: %s (shard %u/%u) has no cell of %s, "
							"%s, on %s", docs[i].file, s + 1, shards,
							safe(&vm, vm.objs[o].progs[p].name),
							vm_mode_name(&vm, m), safe(&vm, vm.kernels[k].label));
					goto out;
				}
	ret = vm_report(&vm);
out:
	free(filled);
	free(vm.run_args);
	vm_free(&vm);
	for (i = 0; i < n; i++)
		jr_free(docs[i].root);
	free(docs);
	return ret;
}
