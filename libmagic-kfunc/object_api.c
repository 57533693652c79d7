// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The public object handle: read an object once (mkf_object__new*()),
 * plan for it as many times as there are kernels (plan.c), rewrite it
 * (plan_apply.c) or hand it to libbpf (mkf_object__open()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libbpf_model.h"
#include "log.h"
#include "magic_kfunc.h"
#include "object_api.h"
#include "opts.h"
#include "plan.h"

int mkf_read_file(const char *path, void **buf, size_t *sz)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t len = 0, cap = 0, n;
	int err = 0, read_err = 0;

	if (!f)
		return -errno;
	do {
		if (len == cap) {
			char *p = realloc(data, cap ? cap * 2 : 65536);

			if (!p) {
				err = -ENOMEM;
				break;
			}
			data = p;
			cap = cap ? cap * 2 : 65536;
		}
		errno = 0;
		n = fread(data + len, 1, cap - len, f);
		if (!n && ferror(f))
			read_err = errno; /* EISDIR for a directory */
		len += n;
	} while (n > 0);
	if (!err && ferror(f))
		err = read_err ? -read_err : -EIO;
	fclose(f);
	if (err) {
		free(data);
		return err;
	}
	*buf = data;
	*sz = len;
	return 0;
}

/* libbpf names an object after its file (up to the first '.') and
 * prefixes internal maps with that name: keep it identical. */
char *mkf_object_name_of(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strndup(base, strcspn(base, "."));
}

/*
 * libbpf's options with object_name set, keeping any fields newer than
 * the libbpf headers this library was built with.
 */
static struct bpf_object_open_opts *with_name(const struct bpf_object_open_opts *opts,
					      const char *name)
{
	size_t sz = sizeof(*opts), user_sz = opts ? opts->sz : 0;
	struct bpf_object_open_opts *copy;

	if (user_sz > sz)
		sz = user_sz;
	copy = calloc(1, sz);
	if (!copy)
		return NULL;
	if (opts)
		memcpy(copy, opts, user_sz);
	copy->sz = sz;
	if (!copy->object_name)
		copy->object_name = name;
	return copy;
}

struct bpf_object *mkf_libbpf_open(const void *buf, size_t sz, bool rewritten, const char *name,
				   const struct bpf_object_open_opts *opts)
{
	struct bpf_object_open_opts *named;
	struct bpf_object *obj;
	int err;

	/* with_name() would turn a malformed sz into a valid one. */
	if (opts && opts->sz < sizeof(opts->sz)) {
		pr_err("bpf_object_open_opts size (%zu) is too small\n", opts->sz);
		return mkf_err_ptr(-EINVAL);
	}
	named = with_name(opts, name);
	if (!named)
		return mkf_err_ptr(-ENOMEM);
	obj = bpf_object__open_mem(buf, sz, named);
	err = obj ? 0 : -errno;
	free(named);
	if (err) {
		pr_err("%s: libbpf cannot open the%s object: %s\n", name,
		       rewritten ? " rewritten" : "", strerror(-err));
		return mkf_err_ptr(err);
	}
	return obj;
}

/* Takes buf over (freed on failure). */
static struct mkf_object *object_new(void *buf, size_t sz, const char *name)
{
	struct mkf_object *o = calloc(1, sizeof(*o));
	int err;

	if (!o || !(o->name = strdup(name))) {
		free(o);
		free(buf);
		return mkf_err_ptr(-ENOMEM);
	}
	o->buf = buf;
	o->sz = sz;
	err = mkf_obj_read_own(&o->obj, o->buf, o->sz);
	if (err) {
		pr_err("%s: cannot read the object: %s\n", name, strerror(-err));
		free(o->name);
		free(o->buf);
		free(o);
		return mkf_err_ptr(err);
	}
	return o;
}

static struct mkf_object *new_mem(const void *obj_buf, size_t obj_buf_sz,
				  const struct mkf_object_opts *opts)
{
	void *copy;

	if (!OPTS_VALID(opts, mkf_object_opts))
		return mkf_err_ptr(-EINVAL);
	if (!obj_buf) {
		pr_err("mkf_object__new: no object given\n");
		return mkf_err_ptr(-EINVAL);
	}
	/* An empty object is read, and said to be too short. */
	copy = malloc(obj_buf_sz ?: 1);
	if (!copy)
		return mkf_err_ptr(-ENOMEM);
	memcpy(copy, obj_buf, obj_buf_sz);
	return object_new(copy, obj_buf_sz, OPTS_GET(opts, object_name, NULL) ?: "object");
}

int mkf_read_object_file(const char *func, const char *path, void **buf, size_t *sz,
			 char **name)
{
	int err;

	if (!path) {
		pr_err("%s: no path given\n", func);
		return -EINVAL;
	}
	err = mkf_read_file(path, buf, sz);
	if (err) {
		pr_err("%s: %s\n", path, strerror(-err));
		return err;
	}
	*name = mkf_object_name_of(path);
	if (!*name) {
		free(*buf);
		return -ENOMEM;
	}
	return 0;
}

static struct mkf_object *new_file(const char *path, const struct mkf_object_opts *opts)
{
	struct mkf_object *o;
	char *name;
	void *buf;
	size_t sz;
	int err;

	if (!OPTS_VALID(opts, mkf_object_opts))
		return mkf_err_ptr(-EINVAL);
	err = mkf_read_object_file("mkf_object__new_file", path, &buf, &sz, &name);
	if (err)
		return mkf_err_ptr(err);
	o = object_new(buf, sz, OPTS_GET(opts, object_name, NULL) ?: name);
	err = o ? 0 : -errno;
	free(name);
	return o ? o : mkf_err_ptr(err);
}


struct mkf_object *mkf_object__new(const void *obj_buf, size_t obj_buf_sz,
				   const struct mkf_object_opts *opts)
{
	return MKF_WITH_DIAG(opts, new_mem(obj_buf, obj_buf_sz, opts), !__ret);
}

struct mkf_object *mkf_object__new_file(const char *path, const struct mkf_object_opts *opts)
{
	return MKF_WITH_DIAG(opts, new_file(path, opts), !__ret);
}

void mkf_object__free(struct mkf_object *obj)
{
	if (!obj)
		return;
	mkf_obj_release(&obj->obj);
	free(obj->buf);
	free(obj->name);
	free(obj);
}

const char *mkf_object__name(const struct mkf_object *obj)
{
	return MKF_GET(obj, obj->name, NULL);
}

static struct mkf_plan *compute(const struct mkf_object *obj, const struct mkf_kernel *kernel,
			       const struct mkf_plan_opts *opts)
{
	if (!OPTS_VALID(opts, mkf_plan_opts))
		return mkf_err_ptr(-EINVAL);
	if (!obj || !kernel) {
		pr_err("mkf_plan__compute: no %s given\n", obj ? "kernel" : "object");
		return mkf_err_ptr(-EINVAL);
	}
	/* Reasons in words: whoever holds the plan may ask for them. */
	return mkf_plan_compute_obj(&obj->obj, obj->name, kernel, opts, mkf_libbpf_model_linked(),
				    true);
}

struct mkf_plan *mkf_plan__compute(const struct mkf_object *obj, const struct mkf_kernel *kernel,
				   const struct mkf_plan_opts *opts)
{
	return MKF_WITH_DIAG(opts, compute(obj, kernel, opts), !__ret);
}

int mkf_object__rewrite(const struct mkf_object *obj, const struct mkf_plan *plan,
			void **new_buf, size_t *new_sz, const struct mkf_rewrite_opts *opts)
{
	struct mkf_diag_scope scope;
	int err = -EINVAL;

	mkf_diag_enter(&scope, OPTS_GET(opts, err_buf, NULL), OPTS_GET(opts, err_buf_sz, 0));
	if (!OPTS_VALID(opts, mkf_rewrite_opts)) {
		/* said by OPTS_VALID */
	} else if (!obj || !plan || !new_buf || !new_sz) {
		pr_err("mkf_object__rewrite: no %s given\n",
		       !obj ? "object" : !plan ? "plan" : "output buffer");
	} else {
		err = mkf_obj_apply(&obj->obj, plan, new_buf, new_sz);
	}
	mkf_diag_leave(&scope, err);
	return mkf_err(err);
}

struct bpf_object *mkf_object__open(const struct mkf_object *obj, const struct mkf_plan *plan,
				    const struct bpf_object_open_opts *opts)
{
	struct bpf_object *bo;
	void *out;
	size_t out_sz;
	int err;

	if (!obj || !plan) {
		pr_err("mkf_object__open: no %s given\n", obj ? "plan" : "object");
		return mkf_err_ptr(-EINVAL);
	}
	if (!mkf_plan__change_cnt(plan)) {
		/* libbpf gets the object's very bytes, as in a plain open. */
		if (!mkf_plan_fits(plan, &obj->obj)) {
			pr_err("%s: the plan was computed for a different object\n", obj->name);
			return mkf_err_ptr(-EINVAL);
		}
		return mkf_libbpf_open(obj->buf, obj->sz, false, obj->name, opts);
	}
	err = mkf_obj_apply(&obj->obj, plan, &out, &out_sz);
	if (err)
		return mkf_err_ptr(err);
	bo = mkf_libbpf_open(out, out_sz, true, obj->name, opts);
	err = bo ? 0 : -errno;
	/* libbpf is done with the image when its open returns (open.c). */
	free(out);
	return bo ? bo : mkf_err_ptr(err);
}

int mkf_skeleton__open(struct bpf_object_skeleton *s, const struct mkf_object *obj,
		       const struct mkf_plan *plan, const struct bpf_object_open_opts *opts)
{
	void *buf = NULL;
	size_t sz;
	int err;

	if (!s || !obj || !plan) {
		pr_err("mkf_skeleton__open: no %s given\n", !s ? "skeleton" : !obj ? "object" : "plan");
		return mkf_err(-EINVAL);
	}
	/* The skeleton finds its maps and programs by name in this object. */
	if (!s->data || s->data_sz != obj->sz || memcmp(s->data, obj->buf, obj->sz)) {
		pr_err("%s: not the object of skeleton %s\n", obj->name, s->name ?: "?");
		return mkf_err(-EINVAL);
	}
	if (!mkf_plan_fits(plan, &obj->obj)) {
		pr_err("%s: the plan was computed for a different object\n", obj->name);
		return mkf_err(-EINVAL);
	}
	if (!mkf_plan__change_cnt(plan))
		return mkf_err(bpf_object__open_skeleton(s, opts));
	err = mkf_obj_apply(&obj->obj, plan, &buf, &sz);
	if (err)
		return mkf_err(err);
	err = mkf_libbpf_open_skeleton(s, buf, sz, opts);
	free(buf);
	return mkf_err(err);
}

int mkf_libbpf_open_skeleton(struct bpf_object_skeleton *s, const void *buf, size_t sz,
			     const struct bpf_object_open_opts *opts)
{
	const void *orig_data = s->data;
	size_t orig_sz = s->data_sz;
	int err;

	s->data = buf;
	s->data_sz = sz;
	err = bpf_object__open_skeleton(s, opts);
	/* libbpf is done with the image when its open returns (open.c). */
	s->data = orig_data;
	s->data_sz = orig_sz;
	return err;
}
