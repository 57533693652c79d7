// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libbpf glue: plan, rewrite, then let libbpf open the result.
 *
 * Buffer lifetime: libbpf reads the ELF image only inside
 * bpf_object_open(), which ends with bpf_object__elf_finish() "to
 * return obj_buf to user" (libbpf.c); programs, maps, BTF and
 * relocations are copies by then. So the rewritten image is freed as
 * soon as libbpf's open returns, and nothing needs tying to the
 * bpf_object's lifetime.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "kernel_index.h"
#include "kernel_load.h"
#include "libbpf_model.h"
#include "log.h"
#include "plan.h"
#include "resolve.h"
#include "object.h"
#include "object_api.h"
#include "magic_kfunc.h"
#include "opts.h"

/*
 * The target kernel's files, for the cache and for loading it: those of
 * the kernel given (0 if known, -ENOENT if not), else libbpf's own
 * "target kernel BTF" option (which means the same here), else none:
 * the running kernel (*ko zeroed but for sz).
 */
static int kernel_files(const struct mkf_open_opts *mo, const struct bpf_object_open_opts *opts,
			struct mkf_kernel_opts *ko)
{
	const struct mkf_kernel *k = OPTS_GET(mo, kernel, NULL);

	if (k)
		return mkf_kernel_files(k, ko);
	memset(ko, 0, sizeof(*ko));
	ko->sz = sizeof(*ko);
	ko->vmlinux_path = OPTS_GET(opts, btf_custom_path, NULL);
	return 0;
}

/* Whether two files hold the same bytes (one file, or copies). */
static bool same_contents(const char *a, const char *b)
{
	FILE *fa = NULL, *fb = NULL;
	char x[8192], y[8192];
	struct stat sa, sb;
	bool same = false;
	size_t n;

	if (stat(a, &sa) || stat(b, &sb))
		return !strcmp(a, b);
	if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
		return true;
	if (sa.st_size != sb.st_size)
		return false;
	fa = fopen(a, "rb");
	fb = fa ? fopen(b, "rb") : NULL;
	while (fb) {
		n = fread(x, 1, sizeof(x), fa);
		if (n != fread(y, 1, sizeof(y), fb) || memcmp(x, y, n))
			break;
		if (n < sizeof(x)) {
			same = !ferror(fa) && !ferror(fb);
			break;
		}
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/*
 * libbpf relocates CO-RE against btf_custom_path; the library binds
 * kfuncs against its kernel. Named both ways, they must be one kernel,
 * else the object would be half for one kernel, half for another.
 */
static int check_one_kernel(const struct mkf_open_opts *mo, const struct bpf_object_open_opts *opts)
{
	const char *custom = OPTS_GET(opts, btf_custom_path, NULL);
	const struct mkf_kernel *k = OPTS_GET(mo, kernel, NULL);

	if (!custom || !k)
		return 0;
	if (!k->vmlinux_path) {
		pr_warn("libbpf's btf_custom_path %s and mkf_open_opts.kernel (made from BTF in "
			"memory): whether they are one kernel cannot be checked\n", custom);
		return 0;
	}
	if (same_contents(custom, k->vmlinux_path))
		return 0;
	pr_err("libbpf's btf_custom_path (%s) and mkf_open_opts.kernel (%s) name different "
	       "kernels: CO-RE would be relocated for one and kfuncs bound for the other\n",
	       custom, k->vmlinux_path);
	return -EINVAL;
}

/*
 * The target kernel: given, or loaded from ko for the names obj's
 * externs will look up (of most FUNCs, the load then notes nothing).
 */
static const struct mkf_kernel *get_kernel(const struct mkf_open_opts *mo,
					   const struct mkf_kernel_opts *ko,
					   const struct mkf_obj *obj,
					   struct mkf_kernel **owned)
{
	const struct mkf_kernel *k = OPTS_GET(mo, kernel, NULL);
	struct mkf_resolve_names rn;
	int err;

	*owned = NULL;
	if (k)
		return k;
	err = mkf_resolve_names(&rn, obj->externs, obj->extern_cnt, mkf_libbpf_model_linked());
	if (err) {
		errno = -err;
		return NULL;
	}
	*owned = mkf_kernel_load_for(ko->vmlinux_path ? ko : NULL, rn.names, rn.cnt);
	mkf_resolve_names_free(&rn);
	return *owned;
}

/*
 * The object's one parse: its DWARF ranges, when the cache found them,
 * are not looked for again. 0 or a negative errno (after a message).
 */
static int read_object(struct mkf_obj *obj, const void *obj_buf, size_t obj_buf_sz,
		       const char *name, const struct mkf_cache_entry *ce)
{
	int err;

	err = ce ? mkf_obj_read_skip(obj, obj_buf, obj_buf_sz, ce->dwarf, ce->dwarf_cnt)
		 : mkf_obj_read(obj, obj_buf, obj_buf_sz);
	if (err)
		pr_err("%s: cannot read the object: %s\n", name, strerror(-err));
	return err;
}

/*
 * What the cache holds for this object and kernel: 1 with *out set (or
 * the input, unchanged), 0 when there is nothing usable. The entry
 * holds the plan's decisions, not an object: they are applied to the
 * caller's bytes again, so that whatever the entry says, libbpf gets a
 * rewrite of this object, checked as every rewrite is.
 */
static int from_cache(const struct mkf_cache_entry *ce, const char *name, const void *obj_buf,
		      size_t obj_buf_sz, void **out, size_t *out_sz)
{
	struct mkf_plan *plan;
	struct mkf_obj obj;
	bool unchanged;
	int err;

	if (!mkf_cache_get(ce, obj_buf, obj_buf_sz, &plan, &unchanged))
		return 0;
	if (unchanged) {
		pr_info("%s: the rewrite cache has it: nothing to change for this kernel\n", name);
		return 1;
	}
	/* The rewrite reads its output back as libbpf will, and checks it. */
	err = plan->change_cnt ? read_object(&obj, obj_buf, obj_buf_sz, name, ce) : -EINVAL;
	if (!err)
		err = mkf_obj_apply(&obj, plan, out, out_sz);
	if (plan->change_cnt)
		mkf_obj_release(&obj);
	mkf_plan__free(plan);
	if (err) {
		pr_warn("%s: rewrite cache entry %s/%s does not apply to this object; rewriting "
			"again\n", name, ce->dir, ce->name);
		*out = (void *)obj_buf;
		*out_sz = obj_buf_sz;
		return 0;
	}
	pr_info("%s: rewritten for this kernel, from the rewrite cache (%s/%s)\n", name, ce->dir,
		ce->name);
	return 1;
}

/*
 * Rewrite obj_buf for the target kernel. *out is obj_buf itself when
 * nothing changes, else a new buffer to free. Returns negative errno.
 * The bytes are parsed once (read_object()); the plan is computed on
 * that parse and applied to it.
 * With nothing to change libbpf gets the caller's very bytes, and
 * open_mem() the caller's options with only object_name added, as
 * bpf_object__open_file() derives it: libbpf then does what it does
 * for a plain open. tests/corpus/ relies on it (an object "magic-kfunc
 * rewrite" leaves byte-identical is not booted there).
 */
static int prepare(const void *obj_buf, size_t obj_buf_sz, const char *name,
		   const struct bpf_object_open_opts *opts, const struct mkf_open_opts *mo,
		   void **out, size_t *out_sz)
{
	bool allow = OPTS_GET(mo, allow_unresolved, false);
	bool weaken = OPTS_GET(mo, weaken_unresolved, false);
	const char *cache_dir = OPTS_GET(mo, cache_dir, NULL);
	MKF_OPTS(mkf_plan_opts, popts, .weaken_unresolved = weaken);
	struct mkf_cache_entry ce;
	struct mkf_kernel_opts ko;
	/* The cache keys by the kernel's files: only a kernel known by them. */
	bool files_known = !kernel_files(mo, opts, &ko);
	bool cached = cache_dir && *cache_dir && files_known, parsed = false;
	struct mkf_kernel *owned = NULL;
	const struct mkf_kernel *k;
	struct mkf_plan *plan = NULL;
	struct mkf_obj obj;
	int err = 0;

	*out = (void *)obj_buf;
	*out_sz = obj_buf_sz;
	err = check_one_kernel(mo, opts);
	if (err)
		return err;
	if (cached && mkf_cache_prepare(&ce, cache_dir, &ko, allow, weaken, obj_buf, obj_buf_sz))
		cached = false;
	if (cached && from_cache(&ce, name, obj_buf, obj_buf_sz, out, out_sz)) {
		mkf_cache_release(&ce);
		return 0;
	}
	err = read_object(&obj, obj_buf, obj_buf_sz, name, cached ? &ce : NULL);
	parsed = true;
	if (err)
		goto out;
	k = get_kernel(mo, &ko, &obj, &owned);
	if (!k) {
		err = -errno;
		goto out;
	}
	/* Reasons in words only for the log: nobody else sees this plan. */
	plan = mkf_plan_compute_obj(&obj, name, k, &popts, mkf_libbpf_model_linked(), false);
	if (!plan) {
		err = -errno;
		goto out;
	}
	if (mkf_plan__unresolved_cnt(plan) && !allow) {
		pr_err("%s: %zu strong kfunc extern(s) fit nothing in the target kernel\n",
			name, mkf_plan__unresolved_cnt(plan));
		err = -ESRCH;
	} else if (mkf_plan__change_cnt(plan)) {
		/* The rewrite reads its output back as libbpf will, and checks it. */
		err = mkf_obj_apply(&obj, plan, out, out_sz);
		if (err) {
			*out = (void *)obj_buf;
			*out_sz = obj_buf_sz;
		}
	}
	/*
	 * Keep the decisions only if the kernel's files are still those the
	 * key describes: a module that came or went while the kernel was
	 * read would otherwise be remembered wrong.
	 */
	if (cached && !err && mkf_cache_key_holds(&ce, &ko, allow, weaken))
		mkf_cache_put(&ce, obj_buf, obj_buf_sz, *out == obj_buf ? NULL : plan);
out:
	mkf_plan__free(plan);
	if (parsed)
		mkf_obj_release(&obj);
	mkf_kernel__free(owned);
	if (cached)
		mkf_cache_release(&ce);
	return err;
}

static struct bpf_object *open_mem(const void *obj_buf, size_t obj_buf_sz, const char *name,
				   const struct bpf_object_open_opts *opts,
				   const struct mkf_open_opts *mo)
{
	struct bpf_object *obj;
	void *buf;
	size_t sz;
	int err;

	/* Before the work: libbpf's open would refuse them anyway. */
	if (opts && opts->sz < sizeof(opts->sz)) {
		pr_err("bpf_object_open_opts size (%zu) is too small\n", opts->sz);
		return mkf_err_ptr(-EINVAL);
	}
	err = prepare(obj_buf, obj_buf_sz, name, opts, mo, &buf, &sz);
	if (err)
		return mkf_err_ptr(err);
	obj = mkf_libbpf_open(buf, sz, buf != obj_buf, name, opts);
	err = obj ? 0 : -errno;
	if (buf != obj_buf)
		free(buf);
	return obj ? obj : mkf_err_ptr(err);
}

static struct bpf_object *open_mem_named(const void *obj_buf, size_t obj_buf_sz,
					 const struct bpf_object_open_opts *opts,
					 const struct mkf_open_opts *mkf_opts)
{
	char name[64];

	if (!OPTS_VALID(mkf_opts, mkf_open_opts))
		return mkf_err_ptr(-EINVAL);
	if (!obj_buf || !obj_buf_sz) {
		pr_err("mkf_object__open_mem: no object given\n");
		return mkf_err_ptr(-EINVAL);
	}
	/* The name libbpf would invent for a buffer. */
	snprintf(name, sizeof(name), "%lx-%zx", (unsigned long)obj_buf, obj_buf_sz);
	if (OPTS_GET(opts, object_name, NULL))
		snprintf(name, sizeof(name), "%s", OPTS_GET(opts, object_name, NULL));
	return open_mem(obj_buf, obj_buf_sz, name, opts, mkf_opts);
}

static struct bpf_object *open_file(const char *path, const struct bpf_object_open_opts *opts,
				    const struct mkf_open_opts *mkf_opts)
{
	struct bpf_object *obj;
	void *buf = NULL;
	size_t sz = 0;
	char *name;
	int err;

	if (!OPTS_VALID(mkf_opts, mkf_open_opts))
		return mkf_err_ptr(-EINVAL);
	err = mkf_read_object_file("mkf_object__open_file", path, &buf, &sz, &name);
	if (err)
		return mkf_err_ptr(err);
	obj = open_mem(buf, sz, OPTS_GET(opts, object_name, NULL) ?: name, opts, mkf_opts);
	err = obj ? 0 : -errno;
	free(name);
	free(buf);
	return obj ? obj : mkf_err_ptr(err);
}

static int open_skeleton(struct bpf_object_skeleton *s, const struct bpf_object_open_opts *opts,
			 const struct mkf_open_opts *mkf_opts)
{
	size_t sz;
	void *buf;
	int err;

	if (!OPTS_VALID(mkf_opts, mkf_open_opts))
		return mkf_err(-EINVAL);
	if (!s || !s->data || !s->data_sz) {
		pr_err("mkf_object__open_skeleton: no skeleton or no object in it\n");
		return mkf_err(-EINVAL);
	}
	err = prepare(s->data, s->data_sz, s->name, opts, mkf_opts, &buf, &sz);
	if (err)
		return mkf_err(err);
	if (buf == s->data)
		return mkf_err(bpf_object__open_skeleton(s, opts));
	err = mkf_libbpf_open_skeleton(s, buf, sz, opts);
	free(buf);
	return mkf_err(err);
}

struct bpf_object *mkf_object__open_mem(const void *obj_buf, size_t obj_buf_sz,
					const struct bpf_object_open_opts *opts,
					const struct mkf_open_opts *mkf_opts)
{
	struct bpf_object *obj;

	/* Inside a diagnostics scope on err_buf: log.h's MKF_WITH_DIAG(). */
	obj = MKF_WITH_DIAG(mkf_opts, open_mem_named(obj_buf, obj_buf_sz, opts, mkf_opts),
			    !__ret);
	return obj;
}

struct bpf_object *mkf_object__open_file(const char *path,
					 const struct bpf_object_open_opts *opts,
					 const struct mkf_open_opts *mkf_opts)
{
	struct bpf_object *obj;

	obj = MKF_WITH_DIAG(mkf_opts, open_file(path, opts, mkf_opts), !__ret);
	return obj;
}

int mkf_object__open_skeleton(struct bpf_object_skeleton *s,
			      const struct bpf_object_open_opts *opts,
			      const struct mkf_open_opts *mkf_opts)
{
	return MKF_WITH_DIAG(mkf_opts, open_skeleton(s, opts, mkf_opts), __ret < 0);
}
