// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Rules about one kernel function, shared by the resolver and kfuncs.c. */
#include <stdlib.h>
#include <string.h>

#include "btf_compat.h"
#include "kfunc_rules.h"
#include "params.h"

bool mkf_is_impl_name(const char *name)
{
	size_t n = strlen(name), m = strlen(MKF_IMPL_SUFFIX);

	return n > m && !strcmp(name + n - m, MKF_IMPL_SUFFIX);
}

int mkf_proto_vlen(const struct btf *btf, __u32 proto)
{
	const struct btf_type *t = btf__type_by_id(btf, proto);

	return t && btf_is_func_proto(t) ? btf_vlen(t) : -1;
}

const char *mkf_func_param_name(const struct mkf_func *fn, int i)
{
	const struct btf_type *proto = btf__type_by_id(fn->btf, fn->proto);

	return btf__name_by_offset(fn->btf, btf_params(proto)[i].name_off) ?: "";
}

bool mkf_proto_extends(const struct btf *lb, __u32 lproto, int n, const struct mkf_func *fn,
		       struct mkf_extension *x)
{
	int m = mkf_proto_vlen(fn->btf, fn->proto), i;

	memset(x, 0, sizeof(*x));
	x->scalar = -1;
	x->by_type = true;
	if (m <= n) {
		x->misfit = MKF_EXTEND_NOT_LONGER;
		return false;
	}
	if (mkf_proto_prefix_diff(lb, lproto, fn->btf, fn->proto, n, NULL) > 0) {
		x->misfit = MKF_EXTEND_PREFIX_DIFFERS;
		return false;
	}
	for (i = n; i < m; i++) {
		struct mkf_param_info info = mkf_func_param_info(fn, i);

		if (info.kind == MKF_PARAM_NORMAL) {
			x->misfit = MKF_EXTEND_NOT_PROVIDED;
			x->param = i;
			return false;
		}
		if (info.kind == MKF_PARAM_CHECKED_SCALAR && x->scalar < 0)
			x->scalar = i;
		x->by_type = x->by_type && info.by_type;
	}
	return true;
}

static int func_unsplit(const struct mkf_func *fn, int *err)
{
	int n = mkf_proto_vlen(fn->btf, fn->proto), i, provided = 0;
	size_t len = strlen(fn->name);
	char impl[512];	/* longer than any kernel symbol (KSYM_NAME_LEN) */

	*err = 0;
	if (!mkf_func_callable(fn) || mkf_is_impl_name(fn->name) ||
	    len + sizeof(MKF_IMPL_SUFFIX) > sizeof(impl))
		return 0;
	i = n - 1;
	/*
	 * The 7.1 list and rbtree insertions end in "struct btf_struct_meta
	 * *meta, u64 off": the offset goes with the meta.
	 */
	if (i > 0 && !strcmp(mkf_func_param_name(fn, i), "off") &&
	    mkf_func_param_info(fn, i - 1).by_type) {
		i--;
		provided++;
	}
	for (; i >= 0; i--) {
		struct mkf_param_info info = mkf_func_param_info(fn, i);

		if (info.kind == MKF_PARAM_NORMAL)
			break;
		if (!info.by_type)
			return 0;
		provided++;
	}
	if (!provided)
		return 0;
	memcpy(impl, fn->name, len);
	memcpy(impl + len, MKF_IMPL_SUFFIX, sizeof(MKF_IMPL_SUFFIX));
	return mkf_kernel_find_err(fn->kernel, impl, err) ? 0 : provided;
}

/*
 * Asked of the same kernel functions for every object planned against
 * a kernel: the answer is kept with the function (a const kernel may
 * be shared by threads: an atomic memo, never one made on an error;
 * mkf_kernel_add_module() forgets them all).
 */
int mkf_func_unsplit(const struct mkf_func *fn)
{
	int *memo = &((struct mkf_func *)fn)->unsplit_memo;
	int v = __atomic_load_n(memo, __ATOMIC_RELAXED), err;

	if (v)
		return v - 1;
	v = func_unsplit(fn, &err);
	if (!err)
		__atomic_store_n(memo, v + 1, __ATOMIC_RELAXED);
	return v;
}

int mkf_func_unsplit_first(const struct mkf_func *fn)
{
	int i = mkf_proto_vlen(fn->btf, fn->proto) - 1;

	if (i > 0 && !strcmp(mkf_func_param_name(fn, i), "off"))
		i--;
	for (; i > 0; i--)
		if (mkf_func_param_info(fn, i - 1).kind == MKF_PARAM_NORMAL)
			break;
	return i;
}
