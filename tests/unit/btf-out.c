// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The append-only BTF writer of the rewrite (libmagic-kfunc/btf_out.c)
 * and the edits built on it (btf_edit.c): the same edits made through
 * libbpf's btf__add_*() give the same types, names and params, only the
 * string offsets differ; appended strings are shared among themselves;
 * kernel types are imported as libbpf's compatibility rules need them;
 * misuse is refused. Everything is parsed back with libbpf. The
 * rewrite's check of its output looks at what was appended, all of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>
#include <bpf/libbpf.h>

#include "btf_edit.h"
#include "btf_out.h"
#include "btf_util.h"
#include "obj_check.h"
#include "unit.h"

/* BTF as the library gets it from an object: laid out, then btf__new(). */
static struct btf *reparse(const struct btf *b)
{
	const void *raw;
	__u32 sz;

	raw = btf__raw_data(b, &sz);
	return raw ? btf__new(raw, sz) : NULL;
}

/*
 * A program's BTF: int, a pointer to struct bpf_wq, the prototype
 * int (struct bpf_wq *wq, void *aux__prog) and FUNC foo_impl using it.
 */
static struct btf *program_btf(__u32 *func_id, __u32 *proto_id)
{
	struct btf *b = btf__new_empty(), *r;
	int i_int, s_wq, p_wq, p_void, proto, func;

	if (!b)
		return NULL;
	i_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s_wq = btf__add_struct(b, "bpf_wq", 16);
	p_wq = btf__add_ptr(b, s_wq);
	p_void = btf__add_ptr(b, 0);
	proto = btf__add_func_proto(b, i_int);
	btf__add_func_param(b, "wq", p_wq);
	btf__add_func_param(b, "aux__prog", p_void);
	func = btf__add_func(b, "foo_impl", BTF_FUNC_EXTERN, proto);
	r = func > 0 ? reparse(b) : NULL;
	btf__free(b);
	*func_id = func;
	*proto_id = proto;
	return r;
}

/* A kernel's BTF with one of every kind an import meets. */
static struct btf *kernel_btf(__u32 *proto_id)
{
	struct btf *b = btf__new_empty(), *r;
	int u64, i_int, s_aux, u_val, fwd, e32, e64, arr, flt, p_aux, p_fp, fp, td, c_td, proto;
	int p_val, p_fwd, p_arr;

	if (!b)
		return NULL;
	u64 = btf__add_int(b, "unsigned long long", 8, 0);
	i_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	s_aux = btf__add_struct(b, "bpf_prog_aux", 64);
	btf__add_field(b, "id", i_int, 0, 0);
	u_val = btf__add_union(b, "val", 8);
	fwd = btf__add_fwd(b, "opaque", BTF_FWD_UNION);
	e32 = btf__add_enum(b, "mode", 4);
	btf__add_enum_value(b, "MODE_A", 1);
	e64 = btf__add_enum64(b, "wide", 8, true);
	btf__add_enum64_value(b, "WIDE_A", -1);
	arr = btf__add_array(b, i_int, u64, 3);
	flt = btf__add_float(b, "double", 8);
	p_aux = btf__add_ptr(b, s_aux);
	fp = btf__add_func_proto(b, i_int);
	btf__add_func_param(b, "x", u64);
	p_fp = btf__add_ptr(b, fp);
	td = btf__add_typedef(b, "aux_t", p_aux);
	c_td = btf__add_const(b, td);
	/* Pointers first: a FUNC_PROTO's params must follow it directly. */
	p_val = btf__add_ptr(b, u_val);
	p_fwd = btf__add_ptr(b, fwd);
	p_arr = btf__add_ptr(b, arr);
	proto = btf__add_func_proto(b, i_int);
	btf__add_func_param(b, "wq", i_int);
	btf__add_func_param(b, "aux", c_td);
	btf__add_func_param(b, "v", p_val);
	btf__add_func_param(b, "f", p_fwd);
	btf__add_func_param(b, "m", e32);
	btf__add_func_param(b, "w", e64);
	btf__add_func_param(b, "a", p_arr);
	btf__add_func_param(b, "d", flt);
	btf__add_func_param(b, "cb", p_fp);
	*proto_id = proto;
	r = proto > 0 ? reparse(b) : NULL;
	btf__free(b);
	return r;
}

/* Two BTFs hold the same types, names compared as strings. */
static bool same_btf(const struct btf *a, const struct btf *b, char *why, size_t why_sz)
{
	__u32 id, n = btf__type_cnt(a);

	if (n != btf__type_cnt(b)) {
		snprintf(why, why_sz, "%u types against %u", n, btf__type_cnt(b));
		return false;
	}
	for (id = 1; id < n; id++) {
		const struct btf_type *x = btf__type_by_id(a, id), *y = btf__type_by_id(b, id);
		__u16 i, vlen = btf_vlen(x);

		if (x->info != y->info || x->size != y->size ||
		    strcmp(btf__name_by_offset(a, x->name_off), btf__name_by_offset(b, y->name_off))) {
			snprintf(why, why_sz, "type %u differs", id);
			return false;
		}
		if (btf_is_int(x) && *(const __u32 *)(x + 1) != *(const __u32 *)(y + 1)) {
			snprintf(why, why_sz, "int %u: encoding differs", id);
			return false;
		}
		if (btf_is_array(x) && memcmp(btf_array(x), btf_array(y), sizeof(struct btf_array))) {
			snprintf(why, why_sz, "array %u differs", id);
			return false;
		}
		for (i = 0; btf_is_func_proto(x) && i < vlen; i++) {
			const struct btf_param *p = btf_params(x) + i, *q = btf_params(y) + i;

			if (p->type != q->type || strcmp(btf__name_by_offset(a, p->name_off),
							 btf__name_by_offset(b, q->name_off))) {
				snprintf(why, why_sz, "prototype %u: param %u differs", id, i);
				return false;
			}
		}
	}
	return true;
}

/*
 * The writer's output, parsed by libbpf; the parse the writer hands
 * back must be of those very bytes (its users parse them no more).
 */
static struct btf *finish(struct mkf_btf_out *out)
{
	struct btf *r, *parsed = NULL;
	const void *praw;
	__u32 sz, psz = 0;
	void *raw;

	raw = mkf_btf_out__finish(out, &sz, &parsed);
	if (!raw)
		return NULL;
	r = btf__new(raw, sz);
	praw = parsed ? btf__raw_data(parsed, &psz) : NULL;
	t_check("the writer's own parse is of the bytes it lays out",
		r && praw && psz == sz && !memcmp(praw, raw, sz) &&
		btf__type_cnt(parsed) == btf__type_cnt(r), "it is not");
	btf__free(parsed);
	free(raw);
	return r;
}

/*
 * What a rewrite does to an extern (a shorter prototype, a new name),
 * through the writer and through libbpf's API: the same BTF.
 */
static void test_same_as_libbpf(void)
{
	const char *name = "same as libbpf: shrink and rename";
	__u32 func, proto, vlen;
	struct btf *base = program_btf(&func, &proto), *lib = NULL, *got = NULL;
	struct mkf_btf_out *out = NULL;
	int id, off, lid, loff;
	char why[128] = "";

	if (!base) {
		t_fail(name, "cannot build the program's BTF");
		return;
	}
	out = mkf_btf_out__new(base);
	id = out ? mkf_btf_add_proto(out, proto, 1, NULL, 0, 0, 0) : -1;
	off = out ? mkf_btf_out__add_str(out, "foo") : -1;
	if (id < 0 || off < 0 || mkf_btf_out__set_func(out, func, off, id)) {
		t_fail(name, "the writer refused: id %d, string %d", id, off);
		goto out;
	}
	got = finish(out);

	/* libbpf's way, on a copy of the same base. */
	lib = reparse(base);
	lid = lib ? btf__add_func_proto(lib, btf__type_by_id(base, proto)->type) : -1;
	if (lid > 0)
		btf__add_func_param(lib, "wq", btf_params(btf__type_by_id(base, proto))[0].type);
	loff = lid > 0 ? btf__add_str(lib, "foo") : -1;
	if (loff > 0) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(lib, func);

		t->name_off = loff;
		t->type = lid;
	}
	if (!got || !lib || lid != id) {
		t_fail(name, "no result to compare (writer %p, libbpf %p, ids %d and %d)",
		       (void *)got, (void *)lib, id, lid);
		goto out;
	}
	vlen = btf_vlen(btf__type_by_id(got, id));
	if (t_check(name, same_btf(got, lib, why, sizeof(why)), "%s", why))
		t_check("same as libbpf: the new prototype keeps one param", vlen == 1,
			"%u params", vlen);
	t_check("same as libbpf: the FUNC is renamed in place",
		!strcmp(btf__name_by_offset(got, btf__type_by_id(got, func)->name_off), "foo") &&
		btf__type_by_id(got, func)->type == (__u32)id, "FUNC %u is %s", func,
		btf__name_by_offset(got, btf__type_by_id(got, func)->name_off));
	t_check("same as libbpf: the base is left as it was",
		!strcmp(btf__name_by_offset(base, btf__type_by_id(base, func)->name_off),
			"foo_impl"), "the base's FUNC is now %s",
		btf__name_by_offset(base, btf__type_by_id(base, func)->name_off));
out:
	mkf_btf_out__free(out);
	btf__free(got);
	btf__free(lib);
	btf__free(base);
}

/* Kernel params appended (rule extend): every kind imported as libbpf needs. */
static void test_import(void)
{
	const char *name = "import: the kernel's params appended";
	__u32 func, proto, kproto, i;
	struct btf *base = program_btf(&func, &proto), *k = kernel_btf(&kproto), *got = NULL;
	struct mkf_btf_out *out = NULL;
	const struct btf_type *p;
	int id;
	static const struct {
		const char *param;
		__u32 kind;	/* of the param's type, then what it points to */
		__u32 pointee;
		const char *pointee_name;
	} want[] = {
		{ "aux", BTF_KIND_PTR, BTF_KIND_STRUCT, "bpf_prog_aux" },
		{ "v", BTF_KIND_PTR, BTF_KIND_UNION, "val" },
		{ "f", BTF_KIND_PTR, BTF_KIND_FWD, "opaque" },
		{ "m", BTF_KIND_ENUM, 0, NULL },
		{ "w", BTF_KIND_ENUM64, 0, NULL },
		{ "a", BTF_KIND_PTR, BTF_KIND_ARRAY, NULL },
		{ "d", BTF_KIND_FLOAT, 0, NULL },
		{ "cb", BTF_KIND_PTR, BTF_KIND_FUNC_PROTO, NULL },
	};

	if (!base || !k) {
		t_fail(name, "cannot build the fixtures");
		goto out;
	}
	out = mkf_btf_out__new(base);
	/* Keep the program's first param, append the kernel's 2..9. */
	id = out ? mkf_btf_add_proto(out, proto, 1, k, kproto, 1, 9) : -1;
	got = id > 0 ? finish(out) : NULL;
	p = got ? btf__type_by_id(got, id) : NULL;
	if (!t_check(name, p && btf_is_func_proto(p) && btf_vlen(p) == 9,
		     "prototype %d: %s", id, p ? "not 9 params" : "none"))
		goto out;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct btf_param *prm = btf_params(p) + 1 + i;
		const struct btf_type *t = btf__type_by_id(got, prm->type), *pt;
		char tn[96];
		bool ok;

		snprintf(tn, sizeof(tn), "import: %s", want[i].param);
		ok = !strcmp(btf__name_by_offset(got, prm->name_off), want[i].param) &&
		     t && btf_kind(t) == want[i].kind;
		if (ok && want[i].pointee) {
			pt = btf__type_by_id(got, t->type);
			ok = pt && btf_kind(pt) == want[i].pointee &&
			     (!want[i].pointee_name ||
			      !strcmp(btf__name_by_offset(got, pt->name_off), want[i].pointee_name));
		}
		t_check(tn, ok, "param %u is %s of kind %u", i + 1,
			btf__name_by_offset(got, prm->name_off), t ? btf_kind(t) : 0);
	}
	/* The program's int is reused, the struct is empty, the fwd a union. */
	{
		const struct btf_type *ret = btf__type_by_id(got, p->type);
		const struct btf_type *aux = btf__type_by_id(got, btf__type_by_id(got,
							btf_params(p)[1].type)->type);
		const struct btf_type *f = btf__type_by_id(got, btf__type_by_id(got,
							btf_params(p)[3].type)->type);

		T_EXPECT("import: the return type is the program's int", p->type == 1 &&
			 btf_is_int(ret));
		T_EXPECT("import: structs come empty", btf_vlen(aux) == 0 && aux->size == 0);
		T_EXPECT("import: a union fwd stays a union fwd", btf_kflag(f));
	}
out:
	mkf_btf_out__free(out);
	btf__free(got);
	btf__free(k);
	btf__free(base);
}

static void test_strings(void)
{
	struct mkf_btf_out *out = mkf_btf_out__new(NULL);
	struct btf *got;
	int a, b, c;

	if (!out) {
		t_fail("strings: a writer without base", "%s", strerror(errno));
		return;
	}
	a = mkf_btf_out__add_str(out, "alpha");
	b = mkf_btf_out__add_str(out, "beta");
	c = mkf_btf_out__add_str(out, "alpha");
	T_EXPECT("strings: the empty string is offset 0", mkf_btf_out__add_str(out, "") == 0);
	T_EXPECT("strings: appended once, shared after", a == 1 && c == a && b > a);
	T_EXPECT("strings: read back", !strcmp(mkf_btf_out__str(out, b), "beta"));
	T_EXPECT("strings: out of range reads as empty", !*mkf_btf_out__str(out, 1000));
	got = finish(out);
	T_EXPECT("strings: a BTF of strings only parses", got && btf__type_cnt(got) == 1 &&
		 !strcmp(btf__str_by_offset(got, b), "beta"));
	btf__free(got);
	mkf_btf_out__free(out);
}

static void test_refusals(void)
{
	__u32 func, proto;
	struct btf *base = program_btf(&func, &proto), *edited = btf__new_empty();
	struct mkf_btf_out *out = base ? mkf_btf_out__new(base) : NULL, *bad;
	int id;

	if (!out || !edited) {
		t_fail("refusals", "cannot build the fixtures");
		goto out;
	}
	T_EXPECT("refusals: a param with no prototype before it",
		 mkf_btf_out__add_param(out, 0, 1) == -EINVAL);
	id = mkf_btf_out__add_type(out, 0, mkf_btf_info(BTF_KIND_PTR, 0, 0), 1, NULL, 0);
	T_EXPECT("refusals: a param after a pointer", id > 0 &&
		 mkf_btf_out__add_param(out, 0, 1) == -EINVAL);
	T_EXPECT("refusals: a FUNC repointed at a non-prototype",
		 mkf_btf_out__set_func(out, func, 0, id) == -EINVAL);
	T_EXPECT("refusals: a non-FUNC repointed",
		 mkf_btf_out__set_func(out, proto, 0, proto) == -EINVAL);
	T_EXPECT("refusals: a tail not made of words",
		 mkf_btf_out__add_type(out, 0, mkf_btf_info(BTF_KIND_INT, 0, 0), 4, "ab", 2) ==
		 -EINVAL);
	T_EXPECT("refusals: a type id past the last", !mkf_btf_out__type(out, 1000));
	/* A base libbpf has made modifiable is no longer its raw bytes. */
	btf__add_int(edited, "int", 4, BTF_INT_SIGNED);
	errno = 0;
	bad = mkf_btf_out__new(edited);
	T_EXPECT("refusals: a base that is not as btf__new() keeps it", !bad && errno == EINVAL);
	mkf_btf_out__free(bad);
out:
	mkf_btf_out__free(out);
	btf__free(edited);
	btf__free(base);
}

/* base with one record appended through the writer, parsed back; NULL if that fails. */
static struct btf *base_plus(const struct btf *base, __u32 info, __u32 size_type,
			     const void *tail, size_t tail_sz)
{
	struct mkf_btf_out *out = mkf_btf_out__new(base);
	struct btf *got = NULL;

	if (out && mkf_btf_out__add_type(out, 0, info, size_type, tail, tail_sz) > 0)
		got = finish(out);
	mkf_btf_out__free(out);
	return got;
}

/*
 * The rewrite checks again only the types it appended (obj_check.h):
 * a containment cycle or a reference past the end among them is
 * refused, whatever the base holds (the base passed when it was read).
 */
static void test_added_checked(void)
{
	struct btf *b = btf__new_empty(), *base = NULL, *ptr = NULL, *loop = NULL, *far = NULL;
	struct btf_member m = {};
	__u32 from;
	int s_self;

	/* A base whose struct holds itself: the reader refuses that one. */
	s_self = b && btf__add_int(b, "int", 4, BTF_INT_SIGNED) > 0 ?
		 btf__add_struct(b, "loop", 4) : -1;
	if (s_self > 0 && !btf__add_field(b, "self", s_self, 0, 0))
		base = reparse(b);
	from = base ? btf__type_cnt(base) : 0;
	m.type = from;
	if (base) {
		ptr = base_plus(base, mkf_btf_info(BTF_KIND_PTR, 0, 0), 1, NULL, 0);
		loop = base_plus(base, mkf_btf_info(BTF_KIND_STRUCT, 0, 1), 4, &m, sizeof(m));
		far = base_plus(base, mkf_btf_info(BTF_KIND_PTR, 0, 0), 1000, NULL, 0);
	}
	/* far may not parse: later libbpf checks references itself (1.1 does not). */
	if (!ptr || !loop) {
		t_fail("added types", "cannot build the fixtures");
		goto out;
	}
	T_EXPECT("added types: the base's cycle is the whole check's",
		 mkf_obj_check_btf(NULL, 0, ptr) == -EINVAL);
	T_EXPECT("added types: a pointer appended passes", mkf_btf_check_from(ptr, from, "t") == 0 &&
		 mkf_obj_check_btf_added(ptr, from) == 0);
	T_EXPECT("added types: an appended struct that holds itself is refused",
		 mkf_obj_check_btf_added(loop, from) == -EINVAL);
	T_EXPECT("added types: an appended pointer past the last type is refused",
		 far ? mkf_btf_check_from(far, from, "t") == -EINVAL
		     : libbpf_major_version() > 1 || libbpf_minor_version() > 1);
out:
	btf__free(ptr);
	btf__free(loop);
	btf__free(far);
	btf__free(base);
	btf__free(b);
}

int main(void)
{
	t_quiet_library();
	test_same_as_libbpf();
	test_import();
	test_strings();
	test_refusals();
	test_added_checked();
	return t_done();
}
