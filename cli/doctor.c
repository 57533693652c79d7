// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * doctor [OBJ...]: what in the selected kernel's BTF breaks kfunc users,
 * what each finding means and what still works; with objects, which of
 * their externs it touches and what the library does about them.
 *
 * Findings (each a kind, a severity and the kfunc it is about):
 *   unsplit       KF_IMPLICIT_ARGS kfunc whose public prototype still has
 *                 the implicit argument and no _impl twin (old pahole);
 *   partial-tags  a family whose kfuncs are partly tagged bpf_kfunc;
 *   untagged      each untagged function of such a family (information:
 *                 the partial-tags warning counts them);
 *   proto-only    an _impl prototype without a callable short form;
 *   tag-not-func  a bpf_kfunc decl tag on something that is not a FUNC;
 *   no-tags       no bpf_kfunc tag at all (pahole < 1.26): every FUNC
 *                 counts as callable (information).
 * The shapes come from the library's classification (mkf_kernel__kfunc()).
 */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "report.h"
#include "magic_kfunc_introspect.h"

/* Families whose every FUNC is a kfunc: a mix of tagged and untagged
 * ones means the BTF lost tags (Fedora's dwarves 1.30 on 7.1). */
static const char *const families[] = { "scx_bpf_" };

struct finding {
	const char *kind;
	const char *severity;	/* "warning" or "info" */
	char *name;		/* the kfunc, family or type it is about */
	char *message;
};

struct findings {
	struct finding *v;
	size_t cnt;
};

__attribute__((format(printf, 5, 6)))
static int add(struct findings *f, const char *kind, const char *severity, const char *name,
	       const char *fmt, ...)
{
	struct finding *n = realloc(f->v, (f->cnt + 1) * sizeof(*n));
	va_list ap;
	int len;

	if (!n)
		return -ENOMEM;
	f->v = n;
	n = &f->v[f->cnt];
	n->kind = kind;
	n->severity = severity;
	n->name = strdup(name);
	va_start(ap, fmt);
	len = vasprintf(&n->message, fmt, ap);
	va_end(ap);
	if (!n->name || len < 0) {
		free(n->name);
		return -ENOMEM;
	}
	f->cnt++;
	return 0;
}

static void findings_free(struct findings *f)
{
	size_t i;

	for (i = 0; i < f->cnt; i++) {
		free(f->v[i].name);
		free(f->v[i].message);
	}
	free(f->v);
}

static int check_shapes(const struct mkf_kernel *k, struct findings *f)
{
	size_t i, n = mkf_kernel__kfunc_cnt(k);
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct mkf_kfunc *kf = mkf_kernel__kfunc(k, i);
		const char *name = mkf_func__name(mkf_kfunc__func(kf));

		switch (mkf_kfunc__shape(kf)) {
		case MKF_KFUNC_UNSPLIT:
			err = add(f, "unsplit", "warning", name,
				  "'%s' still takes its implicit argument and has no '%s_impl': "
				  "KF_IMPLICIT_ARGS BTF written by a pahole that cannot split it. The "
				  "verifier takes the full prototype of such a kfunc from the _impl, "
				  "so it refuses every call to '%s': plain libbpf refuses the object "
				  "(\"func_proto incompatible\"), or binds the full prototype and the "
				  "verifier refuses it; the library leaves a weak extern 0 (a legacy "
				  "_impl kfunc is bound instead where one exists) and a strong one "
				  "unresolved. Only a kernel whose BTF has kfunc tags (pahole 1.26 or "
				  "later) can run it", name, name, name);
			break;
		case MKF_KFUNC_PROTO_ONLY:
			err = add(f, "proto-only", "warning", name,
				  "'%s' is prototype-only and nothing callable goes with it: calls "
				  "to it are refused by the verifier, and no short form exists",
				  name);
			break;
		default:
			break;
		}
	}
	return err;
}

/*
 * One finding per untagged function of a partly tagged family, so that
 * doctor OBJ... names the externs that call one.
 */
static int name_untagged(const struct btf *btf, const struct btf *base,
			 const unsigned char *is_tagged, const char *family, const char *where,
			 struct findings *f)
{
	__u32 id, n = btf__type_cnt(btf);
	int err = 0;

	for (id = base ? btf__type_cnt(base) : 1; id < n && !err; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!btf_is_func(t) || !name || is_tagged[id] || strncmp(name, family, strlen(family)) ||
		    (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, "_impl")))
			continue;
		err = add(f, "untagged", "info", name,
			  "%s: %s has no DECL_TAG \"bpf_kfunc\" (its family is partly tagged): "
			  "plain libbpf binds it by name, and the library leaves an extern it "
			  "binds so as it is (binding nothing else to it); whether the verifier "
			  "takes the call depends on the kernel's kfunc sets, which BTF does not "
			  "show", where, name);
	}
	return err;
}

/* Families half tagged, and tags on things that are not FUNCs. */
static int check_tags(const struct btf *btf, const char *where, struct findings *f)
{
	size_t fam = sizeof(families) / sizeof(families[0]), i;
	size_t tagged[sizeof(families) / sizeof(families[0])] = {};
	size_t untagged[sizeof(families) / sizeof(families[0])] = {};
	__u32 id, n = btf__type_cnt(btf);
	const struct btf *base = btf__base_btf(btf);
	unsigned char *is_tagged;
	int err = 0;

	is_tagged = calloc(n, 1);
	if (!is_tagged)
		return -ENOMEM;
	for (id = base ? btf__type_cnt(base) : 1; id < n && !err; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *target;
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!btf_is_decl_tag(t) || !name || strcmp(name, "bpf_kfunc") ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		target = btf__type_by_id(btf, t->type);
		if (target && btf_is_func(target)) {
			is_tagged[t->type] = 1;
			continue;
		}
		err = add(f, "tag-not-func", "warning", where,
			  "%s: DECL_TAG \"bpf_kfunc\" [%u] points at type [%u], which is not a "
			  "FUNC: the tag is ignored", where, id, t->type);
	}
	for (id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		/* _impl twins are prototype-only on 7.x by design: not counted. */
		if (!btf_is_func(t) || !name || (strlen(name) > 5 &&
						 !strcmp(name + strlen(name) - 5, "_impl")))
			continue;
		for (i = 0; i < fam; i++) {
			if (strncmp(name, families[i], strlen(families[i])))
				continue;
			if (is_tagged[id])
				tagged[i]++;
			else
				untagged[i]++;
		}
	}
	/*
	 * A few untagged ones are normal (6.16 keeps three renamed scx_bpf_
	 * functions that are no longer kfuncs); a large share is not (40 of
	 * 78 untagged with Fedora's dwarves 1.30 on 7.1).
	 */
	for (i = 0; i < fam && !err; i++) {
		if (!tagged[i] || untagged[i] < 4 || untagged[i] * 10 < tagged[i] + untagged[i])
			continue;
		err = add(f, "partial-tags", "warning", families[i],
			  "%s: only %zu of the %zu %s* functions carry DECL_TAG \"bpf_kfunc\": the "
			  "BTF looks partly tagged. The verifier reads the kernel's kfunc sets, "
			  "not the tags: a call to one of the others loads if the kernel counts it "
			  "a kfunc, which BTF cannot show, and those with implicit arguments "
			  "cannot be split (each is listed as untagged)", where, tagged[i],
			  tagged[i] + untagged[i], families[i]);
		if (!err)
			err = name_untagged(btf, base, is_tagged, families[i], where, f);
	}
	free(is_tagged);
	return err;
}

static int examine(const struct mkf_kernel *k, struct findings *f)
{
	size_t i;
	int err = 0;

	if (!mkf_kernel__has_kfunc_tags(k))
		err = add(f, "no-tags", "info", "vmlinux",
			  "no DECL_TAG \"bpf_kfunc\" at all (pahole before 1.26): every FUNC "
			  "counts as callable, and libbpf cannot tell prototype-only ones");
	if (!err)
		err = check_shapes(k, f);
	if (!err)
		err = check_tags(mkf_kernel__btf(k), "vmlinux", f);
	for (i = 0; !err && i < mkf_kernel__module_cnt(k); i++)
		err = check_tags(mkf_kernel__module_btf(k, i), mkf_kernel__module_name(k, i), f);
	return err;
}

static size_t warnings(const struct findings *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->cnt; i++)
		n += !strcmp(f->v[i].severity, "warning");
	return n;
}

/* The object's externs bound to, or named like, a finding's kfunc. */
static int object_text(struct cli *cli, const struct cli_object *obj, const struct mkf_plan *p,
		       void *ctx)
{
	const struct findings *f = ctx;
	size_t i, j, hits = 0;

	fprintf(cli->out, "\n%s:\n", obj->path);
	for (i = 0; i < mkf_plan__entry_cnt(p); i++) {
		const struct mkf_plan_entry *e = mkf_plan__entry(p, i);
		const char *kname = mkf_plan_entry__kernel_name(e), *name = mkf_plan_entry__name(e);

		for (j = 0; j < f->cnt; j++) {
			if (strcmp(f->v[j].name, name) && (!kname || strcmp(f->v[j].name, kname)))
				continue;
			fprintf(cli->out, "  %s (%s): %s, rule %s%s%s\n", name, f->v[j].kind,
				mkf_decision_str(mkf_plan_entry__decision(e)),
				mkf_rule_str(mkf_plan_entry__rule(e)), kname ? " -> " : "",
				kname ? kname : "");
			hits++;
			break;
		}
	}
	if (!hits)
		fprintf(cli->out, "  no extern is affected\n");
	return 0;
}

static void findings_json(struct json_writer *jw, const struct findings *f)
{
	size_t i;

	jw_name(jw, "findings");
	jw_start_array(jw);
	for (i = 0; i < f->cnt; i++) {
		jw_start_object(jw);
		jw_string_field(jw, "kind", f->v[i].kind);
		jw_string_field(jw, "severity", f->v[i].severity);
		jw_string_field(jw, "name", f->v[i].name);
		jw_string_field(jw, "message", f->v[i].message);
		jw_end_object(jw);
	}
	jw_end_array(jw);
}

int cmd_doctor(struct cli *cli)
{
	struct findings f = {};
	struct mkf_kernel *k;
	size_t i;
	int ret = EXIT_OK, err;

	k = cli_kernel_load(cli);
	if (!k)
		return EXIT_ERROR;
	err = examine(k, &f);
	if (err) {
		ret = cli_error(cli, "examining the kernel's BTF: %s", strerror(-err));
		goto out;
	}
	if (cli->jw) {
		jw_start_object(cli->jw);
		cli_kernel_json(cli, k);
		findings_json(cli->jw, &f);
		jw_int_field(cli->jw, "warnings", (long long)warnings(&f));
		jw_name(cli->jw, "objects");
		jw_start_array(cli->jw);
	} else {
		fprintf(cli->out, "kernel: %s\n", cli_kernel_source(cli));
		for (i = 0; i < f.cnt; i++)
			fprintf(cli->out, "%s: %s: %s\n", f.v[i].severity, f.v[i].kind,
				f.v[i].message);
		fprintf(cli->out, "%zu warning%s\n", warnings(&f), warnings(&f) == 1 ? "" : "s");
	}
	ret = cli_report_objects(cli, k, object_text, &f, NULL);
	if (cli->jw) {
		jw_end_array(cli->jw);
		jw_end_object(cli->jw);
	}
out:
	findings_free(&f);
	mkf_kernel__free(k);
	return ret;
}
