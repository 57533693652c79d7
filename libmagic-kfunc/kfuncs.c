// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The kernel's kfuncs with verifier-provided parameters, classified by
 * how the kernel offers them (enum mkf_kfunc_shape), with the
 * resolver's own rules: a pair is what rule impl-extend would bind
 * from a call to the short form (mkf_proto_extends()), a provided
 * parameter is what params.c says. Made once per kernel, on first use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_index.h"
#include "kfunc_rules.h"
#include "kfuncs.h"
#include "log.h"
#include "params.h"

static int nparams(const struct mkf_func *f)
{
	int n = mkf_proto_vlen(f->btf, f->proto);

	return n > 0 ? n : 0;
}

/* Trailing verifier-provided params; *by_name: any known by name or table. */
static int trailing_provided(const struct mkf_func *f, bool *by_name)
{
	int n = nparams(f), i;

	*by_name = false;
	for (i = n - 1; i >= 0; i--) {
		struct mkf_param_info info = mkf_func_param_info(f, i);

		if (info.kind == MKF_PARAM_NORMAL)
			break;
		*by_name = *by_name || !info.by_type;
	}
	return n - 1 - i;
}

/*
 * refs[i] as a function, if it is the FUNC libbpf binds for its name
 * (not a later duplicate); NULL otherwise.
 */
static const struct mkf_func *bound(const struct mkf_kernel *k, size_t i)
{
	const struct mkf_func *f = mkf_kernel_find(k, mkf_ref_name(k, i));

	return f && f->ref == i ? f : NULL;
}

static int add(struct mkf_kfunc_list *l, size_t *cap, enum mkf_kfunc_shape shape,
	       const struct mkf_func *func, const struct mkf_func *impl, int provided)
{
	struct mkf_kfunc *kf;

	if (l->cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;

		kf = realloc(l->kfuncs, ncap * sizeof(*kf));
		if (!kf)
			return -ENOMEM;
		l->kfuncs = kf;
		*cap = ncap;
	}
	kf = &l->kfuncs[l->cnt++];
	kf->shape = shape;
	kf->func = func;
	kf->impl = impl;
	kf->provided = provided;
	return 0;
}

/*
 * foo_impl with a callable foo whose prototype it extends: a pair. The
 * short form must be callable (it is what programs call); the _impl may
 * be prototype-only (7.x).
 */
static const struct mkf_func *pair_base(const struct mkf_func *impl)
{
	size_t len = strlen(impl->name) - strlen(MKF_IMPL_SUFFIX);
	struct mkf_extension x;
	const struct mkf_func *b;
	char *base;

	base = strndup(impl->name, len);
	if (!base)
		return NULL;
	b = mkf_kernel_find(impl->kernel, base);
	free(base);
	if (!b || !mkf_func_callable(b))
		return NULL;
	return mkf_proto_extends(b->btf, b->proto, nparams(b), impl, &x) ? b : NULL;
}

/*
 * Without any kfunc tag (pahole < 1.26), nothing in BTF tells a kfunc from
 * a kernel function: name the families 7.x gave implicit arguments. In
 * linux-source-7.2 built with pahole 1.24 (catalogue 7.2-oldpahole) the
 * unsplit FUNCs of these families are every KF_IMPLICIT_ARGS kfunc
 * without a legacy _impl, and nothing else; internal functions taking a
 * struct bpf_prog_aux * (prog_array_map_poke_track,
 * bpf_dev_bound_kfunc_check, scx_prog_sched, ...) are left out.
 */
static bool implicit_family(const char *name)
{
	static const char *const prefixes[] = {
		"scx_bpf_", "__scx_bpf_", "bpf_iter_scx_", "bpf_wq_", "bpf_stream_",
		"bpf_task_work_", "bpf_list_", "bpf_rbtree_",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static int cmp_kfunc(const void *a, const void *b)
{
	const struct mkf_kfunc *x = a, *y = b;

	if (x->shape != y->shape)
		return x->shape < y->shape ? -1 : 1;
	return strcmp(x->func->name, y->func->name);
}

static int classify(const struct mkf_kernel *k, struct mkf_kfunc_list *l)
{
	unsigned char *paired;
	size_t i, cap = 0;
	int err = mkf_kernel_index_all(k);

	if (err)
		return err;
	paired = calloc(k->ref_cnt + 1, 1);
	if (!paired)
		return -ENOMEM;
	/* Pairs first: their members are not reported again alone. */
	for (i = 0; i < k->ref_cnt && !err; i++) {
		const struct mkf_func *f, *b;

		if (!mkf_is_impl_name(mkf_ref_name(k, i)))
			continue;
		f = bound(k, i);
		b = f ? pair_base(f) : NULL;
		if (!b)
			continue;
		paired[i] = 1;
		paired[b->ref] = 1;
		err = add(l, &cap, MKF_KFUNC_PAIR, b, f, nparams(f) - nparams(b));
	}
	for (i = 0; i < k->ref_cnt && !err; i++) {
		const struct mkf_func *f = paired[i] ? NULL : bound(k, i);
		bool by_name, callable, impl;
		int t;

		if (!f)
			continue;
		callable = mkf_func_callable(f);
		impl = mkf_is_impl_name(f->name);
		/*
		 * Plenty of kernel functions take a struct bpf_prog_aux *: by
		 * type alone, only a kfunc tag (or, in BTF without any tag, a
		 * family name) makes it a kfunc's parameter.
		 */
		if (callable && !impl && (f->tagged || implicit_family(f->name)) &&
		    (t = mkf_func_unsplit(f)) > 0) {
			err = add(l, &cap, MKF_KFUNC_UNSPLIT, f, NULL, t);
			continue;
		}
		t = trailing_provided(f, &by_name);
		if (!t)
			continue;
		if (callable && by_name)
			err = add(l, &cap, MKF_KFUNC_LEGACY, f, NULL, t);
		else if (!callable && impl)
			err = add(l, &cap, MKF_KFUNC_PROTO_ONLY, f, NULL, t);
	}
	free(paired);
	if (!err && l->cnt)
		qsort(l->kfuncs, l->cnt, sizeof(*l->kfuncs), cmp_kfunc);
	return err;
}

static void kfunc_list_free(struct mkf_kfunc_list *list)
{
	if (!list)
		return;
	free(list->kfuncs);
	free(list);
}

static void free_memo(struct mkf_kernel_memo *memo)
{
	kfunc_list_free((struct mkf_kfunc_list *)memo);
}

const struct mkf_kfunc_list *mkf_kernel_kfuncs(const struct mkf_kernel *k)
{
	struct mkf_kfunc_list *l = (struct mkf_kfunc_list *)__atomic_load_n(&k->kfuncs,
									    __ATOMIC_ACQUIRE);
	struct mkf_kernel_memo *expected = NULL;
	struct mkf_kernel *mk = (struct mkf_kernel *)k;
	int err;

	if (l)
		return l;
	l = calloc(1, sizeof(*l));
	if (!l)
		return mkf_err_ptr(-ENOMEM);
	l->memo.free = free_memo;
	err = classify(k, l);
	if (err) {
		kfunc_list_free(l);
		return mkf_err_ptr(err);
	}
	/*
	 * A cache inside a const kernel: readers of one kernel may run in
	 * several threads; the first to publish wins, the others free
	 * their copy and use the winner's.
	 */
	if (!__atomic_compare_exchange_n(&mk->kfuncs, &expected, &l->memo, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		kfunc_list_free(l);
		l = (struct mkf_kfunc_list *)expected;
	}
	return l;
}

size_t mkf_kernel__kfunc_cnt(const struct mkf_kernel *kernel)
{
	const struct mkf_kfunc_list *l;

	if (!kernel) {
		errno = EINVAL;
		return 0;
	}
	l = mkf_kernel_kfuncs(kernel);
	return l ? l->cnt : 0;
}

const struct mkf_kfunc *mkf_kernel__kfunc(const struct mkf_kernel *kernel, size_t idx)
{
	const struct mkf_kfunc_list *l;

	if (!kernel)
		return mkf_err_ptr(-EINVAL);
	l = mkf_kernel_kfuncs(kernel);
	if (!l)
		return NULL;
	if (idx >= l->cnt)
		return mkf_err_ptr(-ENOENT);
	return &l->kfuncs[idx];
}

enum mkf_kfunc_shape mkf_kfunc__shape(const struct mkf_kfunc *kf)
{
	return MKF_GET(kf, kf->shape, 0);
}

const struct mkf_func *mkf_kfunc__func(const struct mkf_kfunc *kf)
{
	return MKF_GET(kf, kf->func, NULL);
}

const struct mkf_func *mkf_kfunc__impl(const struct mkf_kfunc *kf)
{
	return MKF_GET(kf, kf->impl, NULL);
}

const struct mkf_func *mkf_kfunc__full(const struct mkf_kfunc *kf)
{
	return MKF_GET(kf, kf->impl ? kf->impl : kf->func, NULL);
}

int mkf_kfunc__provided_cnt(const struct mkf_kfunc *kf)
{
	return MKF_GET(kf, kf->provided, 0);
}
