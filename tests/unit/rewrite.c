// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Rewrite tests: BPF objects compiled in the build, rewritten against
 * fixture kernels, then checked at the ELF/BTF level and re-opened with
 * libbpf (open only: nothing is ever loaded).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include <linux/bpf.h>

#include "magic_kfunc.h"
#include "fixtures.h"
#include "libbpf_model.h"
#include "plan.h"
#include "unit.h"

#ifndef MKF_BPF_OBJDIR
#define MKF_BPF_OBJDIR "tests/bpf"
#endif

struct image {
	void *buf;
	size_t sz;
};

/*
 * The cases of this file describe what the rewrite does for libbpf 1.1,
 * whatever libbpf runs the test: later ones strip flavors and drop weak
 * externs of another prototype themselves, so the library changes less
 * (test_compat_wrapper(), test_fixed_point() and test_name_clash() take
 * both).
 */
static struct mkf_plan *plan11(const void *buf, size_t sz, const struct mkf_kernel *k,
			       const struct mkf_plan_opts *opts)
{
	struct mkf_libbpf_model lbm = mkf_libbpf_model_of(1, 1);

	return mkf_plan_compute_for(buf, sz, k, opts, &lbm);
}

static int read_image(const char *base, struct image *img)
{
	return t_read_bpf_object(base, &img->buf, &img->sz);
}

/* ---- ELF-level inspection of an image (libelf, read-only copy) ---- */

struct elf_view {
	void *copy;
	Elf *elf;
	Elf_Scn *symtab;
	GElf_Shdr symtab_sh;
	struct btf *btf;
};

static Elf_Scn *scn_by_name(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	elf_getshdrstrndx(elf, &shstrndx);
	while ((scn = elf_nextscn(elf, scn))) {
		gelf_getshdr(scn, &sh);
		if (!strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name))
			return scn;
	}
	return NULL;
}

static int view_open(struct elf_view *v, const struct image *img)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;

	memset(v, 0, sizeof(*v));
	elf_version(EV_CURRENT);
	v->copy = malloc(img->sz);
	memcpy(v->copy, img->buf, img->sz);
	v->elf = elf_memory(v->copy, img->sz);
	if (!v->elf)
		return -1;
	while ((scn = elf_nextscn(v->elf, scn))) {
		gelf_getshdr(scn, &v->symtab_sh);
		if (v->symtab_sh.sh_type == SHT_SYMTAB) {
			v->symtab = scn;
			break;
		}
	}
	scn = scn_by_name(v->elf, ".BTF");
	d = scn ? elf_getdata(scn, NULL) : NULL;
	v->btf = d ? btf__new(d->d_buf, d->d_size) : NULL;
	return v->symtab && v->btf ? 0 : -1;
}

static void view_close(struct elf_view *v)
{
	btf__free(v->btf);
	if (v->elf)
		elf_end(v->elf);
	free(v->copy);
}

/* Index of the undefined symbol with that name, -1 if none. */
static long find_und_sym(struct elf_view *v, const char *name)
{
	Elf_Data *d = elf_getdata(v->symtab, NULL);
	size_t i, n = v->symtab_sh.sh_size / v->symtab_sh.sh_entsize;
	GElf_Sym sym;

	for (i = 0; i < n; i++) {
		gelf_getsym(d, (int)i, &sym);
		if (sym.st_shndx == SHN_UNDEF &&
		    !strcmp(elf_strptr(v->elf, v->symtab_sh.sh_link, sym.st_name), name))
			return (long)i;
	}
	return -1;
}

static const char *sym_name(struct elf_view *v, long idx)
{
	GElf_Sym sym;

	gelf_getsym(elf_getdata(v->symtab, NULL), (int)idx, &sym);
	return elf_strptr(v->elf, v->symtab_sh.sh_link, sym.st_name);
}

/* Whether any relocation refers to symbol idx. */
static bool reloc_uses(struct elf_view *v, long idx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(v->elf, scn))) {
		Elf_Data *d;
		size_t k;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_REL)
			continue;
		d = elf_getdata(scn, NULL);
		for (k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Rel r;

			gelf_getrel(d, (int)k, &r);
			if ((long)GELF_R_SYM(r.r_info) == idx)
				return true;
		}
	}
	return false;
}

static bool section_bytes_equal(struct elf_view *a, struct elf_view *b, const char *name)
{
	Elf_Scn *sa = scn_by_name(a->elf, name), *sb = scn_by_name(b->elf, name);
	Elf_Data *da, *db;

	if (!sa || !sb)
		return !sa && !sb;
	da = elf_getdata(sa, NULL);
	db = elf_getdata(sb, NULL);
	return da->d_size == db->d_size && !memcmp(da->d_buf, db->d_buf, da->d_size);
}

static int func_id(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
}

/* Bytes following struct btf_type for each kind. */
static size_t extra_size(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return btf_vlen(t) * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return btf_vlen(t) * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return btf_vlen(t) * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return btf_vlen(t) * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return btf_vlen(t) * sizeof(struct btf_var_secinfo);
	default:
		return 0;
	}
}

/*
 * Every type of the original keeps its id and content, except the FUNCs
 * listed in changed (renamed / repointed externs). Strings compared by
 * content at the original offsets, so line_info etc. stay valid too.
 */
static bool old_types_unchanged(const struct btf *a, const struct btf *b,
				const int *changed, int nchanged, char *why, size_t wsz)
{
	__u32 id, n = btf__type_cnt(a);
	int i;

	if (btf__type_cnt(b) < n) {
		snprintf(why, wsz, "types lost: %u -> %u", n, btf__type_cnt(b));
		return false;
	}
	for (id = 1; id < n; id++) {
		const struct btf_type *ta = btf__type_by_id(a, id), *tb = btf__type_by_id(b, id);
		bool skip = false;

		for (i = 0; i < nchanged; i++)
			skip = skip || changed[i] == (int)id;
		if (skip) {
			if (!btf_is_func(tb)) {
				snprintf(why, wsz, "[%u] no longer a FUNC", id);
				return false;
			}
			continue;
		}
		if (ta->info != tb->info || ta->size != tb->size ||
		    strcmp(btf__name_by_offset(a, ta->name_off), btf__name_by_offset(b, tb->name_off)) ||
		    ta->name_off != tb->name_off ||
		    memcmp(ta + 1, tb + 1, extra_size(ta))) {
			snprintf(why, wsz, "type [%u] changed", id);
			return false;
		}
	}
	return true;
}

/* ---- What libbpf sees ---- */

static bool is_setup(const struct bpf_insn *in, size_t i, size_t n)
{
	/* "RN = 0" right before a kfunc call (still unresolved at open: imm -1). */
	return in[i].code == (BPF_ALU64 | BPF_MOV | BPF_K) && !in[i].imm && in[i].dst_reg >= 1 &&
	       in[i].dst_reg <= 5 && i + 1 < n && in[i + 1].code == (BPF_JMP | BPF_CALL) &&
	       (in[i + 1].imm == -1 || in[i + 1].src_reg == BPF_PSEUDO_KFUNC_CALL);
}

static bool is_jump(const struct bpf_insn *in)
{
	__u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL && op != BPF_EXIT;
}

/*
 * b is a with set-up instructions inserted before some kfunc calls:
 * the same instructions once those are taken out, each jump (and
 * bpf-to-bpf call) reaching the instruction it reached in a. *found
 * gets how many set-ups there were.
 */
static bool same_insns(const struct bpf_program *pa, const struct bpf_program *pb,
		       size_t *found)
{
	const struct bpf_insn *a = bpf_program__insns(pa), *b = bpf_program__insns(pb);
	size_t na = bpf_program__insn_cnt(pa), nb = bpf_program__insn_cnt(pb), i, p = 0;
	long *old = calloc(nb + 1, sizeof(*old));
	bool ok = old != NULL;

	/* old[j]: where b's instruction j (or, for a set-up, its call) was in a. */
	for (i = 0; ok && i < nb; i++) {
		if (is_setup(b, i, nb)) {
			(*found)++;
			old[i] = -1;
			continue;
		}
		old[i] = (long)p++;
	}
	for (i = nb; ok && i-- > 0;)
		if (old[i] < 0)
			old[i] = old[i + 1];
	old[nb] = (long)na;
	ok = ok && p == na;
	for (i = 0, p = 0; ok && i < nb; i++) {
		struct bpf_insn x = b[i], y;
		long tb, ta;

		if (is_setup(b, i, nb))
			continue;
		y = a[p];
		if (is_jump(&x) || (x.code == (BPF_JMP | BPF_CALL) && x.src_reg == BPF_PSEUDO_CALL)) {
			bool in_imm = x.code == (BPF_JMP32 | BPF_JA) ||
				      x.code == (BPF_JMP | BPF_CALL);
			long off_b = in_imm ? x.imm : x.off, off_a = in_imm ? y.imm : y.off;

			tb = (long)i + 1 + off_b;
			ta = (long)p + 1 + off_a;
			ok = tb >= 0 && tb <= (long)nb && old[tb] == ta;
			x.off = y.off;
			x.imm = y.imm;
		}
		ok = ok && !memcmp(&x, &y, sizeof(x));
		p++;
	}
	free(old);
	return ok;
}

static bool same_libbpf_view(const struct image *x, const struct image *y, size_t set_calls,
			     char *why, size_t wsz)
{
	size_t found = 0;
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "cmp");
	struct bpf_object *a = bpf_object__open_mem(x->buf, x->sz, &opts);
	struct bpf_object *b = bpf_object__open_mem(y->buf, y->sz, &opts);
	struct bpf_program *pa, *pb;
	struct bpf_map *ma, *mb;
	bool ok = a && b;

	if (!ok)
		snprintf(why, wsz, "open failed: original %s, rewritten %s", a ? "ok" : "failed",
			 b ? "ok" : "failed");
	for (pa = ok ? bpf_object__next_program(a, NULL) : NULL,
	     pb = ok ? bpf_object__next_program(b, NULL) : NULL; ok && (pa || pb);
	     pa = bpf_object__next_program(a, pa), pb = bpf_object__next_program(b, pb)) {
		if (!pa || !pb || strcmp(bpf_program__name(pa), bpf_program__name(pb)) ||
		    strcmp(bpf_program__section_name(pa), bpf_program__section_name(pb)) ||
		    !(set_calls ? same_insns(pa, pb, &found)
				: bpf_program__insn_cnt(pa) == bpf_program__insn_cnt(pb) &&
				  !memcmp(bpf_program__insns(pa), bpf_program__insns(pb),
					  bpf_program__insn_cnt(pa) * sizeof(struct bpf_insn)))) {
			snprintf(why, wsz, "programs differ at '%s'", pa ? bpf_program__name(pa) : "?");
			ok = false;
		}
	}
	for (ma = ok ? bpf_object__next_map(a, NULL) : NULL,
	     mb = ok ? bpf_object__next_map(b, NULL) : NULL; ok && (ma || mb);
	     ma = bpf_object__next_map(a, ma), mb = bpf_object__next_map(b, mb)) {
		if (!ma || !mb || strcmp(bpf_map__name(ma), bpf_map__name(mb)) ||
		    bpf_map__type(ma) != bpf_map__type(mb) ||
		    bpf_map__key_size(ma) != bpf_map__key_size(mb) ||
		    bpf_map__value_size(ma) != bpf_map__value_size(mb) ||
		    bpf_map__max_entries(ma) != bpf_map__max_entries(mb)) {
			snprintf(why, wsz, "maps differ at '%s'", ma ? bpf_map__name(ma) : "?");
			ok = false;
		}
	}
	if (ok && found != set_calls) {
		snprintf(why, wsz, "%zu register set-ups before kfunc calls, want %zu", found,
			 set_calls);
		ok = false;
	}
	bpf_object__close(a);
	bpf_object__close(b);
	return ok;
}

/* ---- Cases ---- */

struct expect {
	const char *ext;		/* extern name in the object */
	const char *kernel_name;	/* NULL: not bound */
	enum mkf_proto_change change;
	int delta;
	const char *merged_into;	/* NULL: not merged */
};

struct wcase {
	const char *name;
	const char *object;
	enum fx_era era;
	size_t changes;
	size_t unresolved;
	/* "RN = 0" set-ups the rewrite inserts before kfunc calls. */
	size_t set_calls;
	struct expect ex[4];
};

static const struct wcase wcases[] = {
	{ "wq-new on 6.16", "unit_wq_new", FX_616, 1, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback_impl", MKF_PROTO_EXTEND, 1, NULL },
		{ "bpf_stream_vprintk", NULL, 0, 0, NULL } } },
	{ "wq-new on 6.12-deb12", "unit_wq_new", FX_612_DEB12, 1, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback_impl", MKF_PROTO_EXTEND, 1, NULL },
		{ "bpf_stream_vprintk", NULL, 0, 0, NULL } } },
	{ "wq-new on 6.17", "unit_wq_new", FX_617, 2, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback_impl", MKF_PROTO_EXTEND, 1, NULL },
		{ "bpf_stream_vprintk", "bpf_stream_vprintk", MKF_PROTO_EXTEND, 1, NULL } } },
	{ "wq-new on 6.18", "unit_wq_new", FX_618, 2, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback_impl", MKF_PROTO_EXTEND, 1, NULL },
		{ "bpf_stream_vprintk", "bpf_stream_vprintk_impl", MKF_PROTO_EXTEND, 1, NULL } } },
	{ "wq-new on 7.0 (nothing to do)", "unit_wq_new", FX_70, 0, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback", MKF_PROTO_SAME, 0, NULL },
		{ "bpf_stream_vprintk", "bpf_stream_vprintk", MKF_PROTO_SAME, 0, NULL } } },
	{ "wq-old on 7.0", "unit_wq_old", FX_70, 1, 0, 0, {
		{ "bpf_wq_set_callback_impl", "bpf_wq_set_callback", MKF_PROTO_SHRINK, -1, NULL } } },
	{ "wq-old on 6.16 (nothing to do)", "unit_wq_old", FX_616, 0, 0, 0, {
		{ "bpf_wq_set_callback_impl", "bpf_wq_set_callback_impl", MKF_PROTO_SAME, 0, NULL } } },
	{ "compat on 7.0 (merge into the short form)", "unit_compat", FX_70, 2, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback", MKF_PROTO_SAME, 0, NULL },
		{ "bpf_wq_set_callback_impl", "bpf_wq_set_callback", MKF_PROTO_SHRINK, -1,
		  "bpf_wq_set_callback" },
		{ "bpf_stream_vprintk___v617", "bpf_stream_vprintk", MKF_PROTO_SHRINK, -1, NULL } } },
	{ "compat on 6.16 (merge into _impl)", "unit_compat", FX_616, 1, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback_impl", MKF_PROTO_EXTEND, 1,
		  "bpf_wq_set_callback_impl" },
		{ "bpf_wq_set_callback_impl", "bpf_wq_set_callback_impl", MKF_PROTO_SAME, 0, NULL },
		{ "bpf_stream_vprintk___v617", NULL, 0, 0, NULL } } },
	{ "compat on 6.17 (flavor renamed)", "unit_compat", FX_617, 2, 0, 0, {
		{ "bpf_wq_set_callback", "bpf_wq_set_callback_impl", MKF_PROTO_EXTEND, 1,
		  "bpf_wq_set_callback_impl" },
		{ "bpf_wq_set_callback_impl", "bpf_wq_set_callback_impl", MKF_PROTO_SAME, 0, NULL },
		{ "bpf_stream_vprintk___v617", "bpf_stream_vprintk", MKF_PROTO_SAME, 0, NULL } } },
	{ "list-new on 6.12-deb12 (R4 = 0 before the call)", "unit_list", FX_612_DEB12, 1, 0, 1, {
		{ "bpf_list_push_back", "bpf_list_push_back_impl", MKF_PROTO_EXTEND, 2, NULL } } },
	{ "list-new on 7.3", "unit_list", FX_73, 0, 0, 0, {
		{ "bpf_list_push_back", "bpf_list_push_back", MKF_PROTO_SAME, 0, NULL } } },
};

static bool check_plan(const struct wcase *c, const struct mkf_plan *plan, char *why, size_t wsz)
{
	size_t i;

	if (mkf_plan__change_cnt(plan) != c->changes || mkf_plan__unresolved_cnt(plan) != c->unresolved) {
		snprintf(why, wsz, "%zu changes, %zu unresolved", mkf_plan__change_cnt(plan),
			 mkf_plan__unresolved_cnt(plan));
		return false;
	}
	for (i = 0; i < 4 && c->ex[i].ext; i++) {
		const struct expect *x = &c->ex[i];
		const struct mkf_plan_entry *e = mkf_plan__find_entry(plan, x->ext);
		const char *kn = e ? mkf_plan_entry__kernel_name(e) : NULL;
		const char *mi = e ? mkf_plan_entry__merged_into(e) : NULL;

		if (!e || !x->kernel_name != !kn || (kn && strcmp(kn, x->kernel_name)) ||
		    (kn && (mkf_plan_entry__proto_change(e) != x->change ||
			    mkf_plan_entry__param_delta(e) != x->delta)) ||
		    !x->merged_into != !mi || (mi && strcmp(mi, x->merged_into))) {
			snprintf(why, wsz, "extern '%s': %s", x->ext,
				 e ? mkf_plan_entry__reason(e) : "missing");
			return false;
		}
	}
	return true;
}

/* ELF and BTF of the rewritten image against the original and the plan. */
static bool check_image(const struct wcase *c, const struct image *orig, const struct image *out,
			char *why, size_t wsz)
{
	struct elf_view a, b;
	int changed[4], nchanged = 0;
	bool ok = false;
	size_t i;

	if (view_open(&a, orig) || view_open(&b, out)) {
		snprintf(why, wsz, "cannot read the images");
		goto out;
	}
	for (i = 0; i < 4 && c->ex[i].ext; i++) {
		const struct expect *x = &c->ex[i];
		int id = func_id(a.btf, x->ext);
		const struct btf_type *t = btf__type_by_id(b.btf, id);
		const char *now = btf__name_by_offset(b.btf, t->name_off);
		const char *want = x->kernel_name ? x->kernel_name : x->ext;
		int vlen_a = btf_vlen(btf__type_by_id(a.btf, btf__type_by_id(a.btf, id)->type));
		int vlen_b = btf_vlen(btf__type_by_id(b.btf, t->type));
		long sym_old = find_und_sym(&a, x->ext);

		changed[nchanged++] = id;
		/* The extern's FUNC keeps its id, takes the kernel's name. */
		if (strcmp(now, want)) {
			snprintf(why, wsz, "FUNC [%d] is '%s', want '%s'", id, now, want);
			goto out;
		}
		if (x->kernel_name && !x->merged_into && vlen_b != vlen_a + x->delta) {
			snprintf(why, wsz, "'%s': %d params, want %d", want, vlen_b, vlen_a + x->delta);
			goto out;
		}
		if (x->merged_into) {
			/* Nameless symbol, no relocation left on it. */
			if (*sym_name(&b, sym_old) || reloc_uses(&b, sym_old)) {
				snprintf(why, wsz, "merged '%s' still named or referenced", x->ext);
				goto out;
			}
		} else if (find_und_sym(&b, want) != sym_old) {
			snprintf(why, wsz, "symbol %ld is not named '%s'", sym_old, want);
			goto out;
		}
	}
	if (!old_types_unchanged(a.btf, b.btf, changed, nchanged, why, wsz))
		goto out;
	/* Inserted instructions move .BTF.ext offsets: only then may it change. */
	if (!c->set_calls && !section_bytes_equal(&a, &b, ".BTF.ext")) {
		snprintf(why, wsz, ".BTF.ext changed");
		goto out;
	}
	ok = true;
out:
	view_close(&a);
	view_close(&b);
	return ok;
}

static void run_wcase(const struct wcase *c)
{
	struct btf *vm = fx_kernel(c->era);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	struct image orig = {}, out = {}, again = {};
	struct mkf_plan *plan = NULL;
	char name[256], why[1024] = "";
	int err;

	snprintf(name, sizeof(name), "%s: object read", c->name);
	err = read_image(c->object, &orig);
	if (err) {
		t_fail(name, "%s/%s.bpf.o: %s", MKF_BPF_OBJDIR, c->object, strerror(-err));
		goto out;
	}
	plan = plan11(orig.buf, orig.sz, k, NULL);
	snprintf(name, sizeof(name), "%s: plan", c->name);
	if (!plan) {
		t_fail(name, "mkf_plan__compute: %s", strerror(errno));
		goto out;
	}
	if (!t_check(name, check_plan(c, plan, why, sizeof(why)), "%s", why))
		goto out;

	snprintf(name, sizeof(name), "%s: rewrite", c->name);
	err = t_rewrite(orig.buf, orig.sz, plan, &out.buf, &out.sz, NULL);
	if (!t_check(name, !err && out.buf, "mkf_object__rewrite: %d", err))
		goto out;
	snprintf(name, sizeof(name), "%s: ELF/BTF as planned, old type ids and .BTF.ext unchanged",
		 c->name);
	t_check(name, check_image(c, &orig, &out, why, sizeof(why)), "%s", why);
	snprintf(name, sizeof(name), "%s: libbpf opens it with the same programs, insns, maps",
		 c->name);
	t_check(name, same_libbpf_view(&orig, &out, c->set_calls, why, sizeof(why)), "%s", why);
	/*
	 * The first rewrite took the plan's own reading of the object; a
	 * second one reads it again and must write the very same bytes.
	 */
	snprintf(name, sizeof(name), "%s: a second rewrite with the plan writes the same bytes",
		 c->name);
	err = t_rewrite(orig.buf, orig.sz, plan, &again.buf, &again.sz, NULL);
	t_check(name, !err && again.sz == out.sz && !memcmp(again.buf, out.buf, out.sz),
		"err %d, %zu vs %zu bytes", err, again.sz, out.sz);
out:
	free(orig.buf);
	free(out.buf);
	free(again.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/* The plan of one object does not apply to another. */
static void test_plan_mismatch(void)
{
	struct btf *vm = fx_kernel(FX_70);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	struct image a = {}, b = {};
	struct mkf_plan *plan = NULL;
	void *out = NULL;
	size_t sz;
	int err = 0;

	if (read_image("unit_wq_new", &a) || read_image("unit_wq_old", &b)) {
		t_fail("rewrite refuses a plan made for another object", "objects missing");
		goto out;
	}
	plan = plan11(a.buf, a.sz, k, NULL);
	err = t_rewrite(b.buf, b.sz, plan, &out, &sz, NULL);
	t_check("rewrite refuses a plan made for another object",
		err == -EINVAL && errno == EINVAL && !out, "got %d", err);
out:
	free(out);
	free(a.buf);
	free(b.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/*
 * A renamed extern takes the name of a weak one left alone: that one is
 * hidden (resolves to 0, as libbpf 1.3 and later make it anyway: its
 * prototype does not match), and the output binds as planned.
 */
static void test_name_clash(unsigned int minor)
{
	struct mkf_libbpf_model lbm = mkf_libbpf_model_of(1, minor);
	struct btf *vm = fx_kernel(FX_70);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	const struct mkf_plan_entry *good = NULL, *bad = NULL;
	struct mkf_plan *plan = NULL;
	struct image img = {};
	void *out = NULL;
	size_t sz = 0;
	char name[128];
	int err = -1;

	if (!read_image("unit_clash", &img))
		plan = mkf_plan_compute_for(img.buf, img.sz, k, NULL, &lbm);
	if (plan) {
		good = mkf_plan__find_entry(plan, "bpf_wq_set_callback___good");
		bad = mkf_plan__find_entry(plan, "bpf_wq_set_callback");
		err = t_rewrite(img.buf, img.sz, plan, &out, &sz, NULL);
	}
	if (minor < 3) {
		snprintf(name, sizeof(name), "a weak extern whose name a renamed one takes is hidden");
		t_check(name, good && bad && mkf_plan_entry__decision(good) == MKF_DECISION_BIND &&
			mkf_plan_entry__decision(bad) == MKF_DECISION_LEAVE_WEAK &&
			strstr(mkf_plan_entry__reason(bad),
			       "sharing its name with the extern renamed to it") && !err && out,
			"rewrite %d; %s", err, bad ? mkf_plan_entry__reason(bad) : "no plan");
	} else {
		/* libbpf 1.3+ finds the flavored one itself, and drops the other. */
		snprintf(name, sizeof(name), "libbpf 1.%u: neither extern of unit_clash changes", minor);
		t_check(name, good && bad && mkf_plan_entry__decision(good) == MKF_DECISION_BIND &&
			!strcmp(mkf_plan_entry__new_name(good), "bpf_wq_set_callback___good") &&
			mkf_plan_entry__libbpf_outcome(bad) == MKF_LIBBPF_DROPPED &&
			!strcmp(mkf_plan_entry__new_name(bad), "bpf_wq_set_callback") &&
			!mkf_plan__change_cnt(plan) && !err && out && sz == img.sz,
			"rewrite %d; %s", err, bad ? mkf_plan_entry__reason(bad) : "no plan");
	}
	free(out);
	free(img.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/*
 * Found by fuzz/fuzz_object: an undefined symbol libbpf does not take
 * for an extern (not STT_NOTYPE) kept its name, and an extern renamed to
 * that name made an object libbpf cannot read. The rename is not made:
 * the extern stays as plain libbpf sees it.
 */
/*
 * unit_compat planned for k with its undefined symbol SYM made a weak
 * object: a name the object then holds for something libbpf does not
 * take for an extern. NULL if any step fails.
 */
static struct mkf_plan *plan_name_held(const struct mkf_kernel *k, const char *sym)
{
	struct mkf_plan *plan = NULL;
	struct elf_view v = {};
	struct image img = {};
	long idx = -1;

	if (k && !read_image("unit_compat", &img) && !view_open(&v, &img))
		idx = find_und_sym(&v, sym);
	if (idx >= 0) {
		Elf64_Sym *syms = (Elf64_Sym *)((char *)img.buf + v.symtab_sh.sh_offset);

		syms[idx].st_info = GELF_ST_INFO(STB_WEAK, STT_OBJECT);
		plan = plan11(img.buf, img.sz, k, NULL);
	}
	view_close(&v);
	free(img.buf);
	return plan;
}

/*
 * The same refusal where plain libbpf binds the extern, as it is, to an
 * untagged function of a kernel that tags others (tagged
 * bpf_wq_set_callback_impl, untagged bpf_wq_set_callback): the extern
 * goes to libbpf as it is, decision "leave" (neither unresolved nor
 * hidden: BTF cannot tell whether the verifier calls it).
 */
static void test_name_taken_untagged(void)
{
	static const char b_name[] = "bpf_wq_set_callback", bi_name[] = "bpf_wq_set_callback_impl";
	struct btf *vm = fx_kernel(FX_612_DEB12);
	const struct btf_param *p;
	const struct btf_type *t;
	struct mkf_kernel *k = NULL;
	const struct mkf_plan_entry *e = NULL;
	struct mkf_plan *plan;
	int impl = vm ? btf__find_by_name_kind(vm, bi_name, BTF_KIND_FUNC) : -1, proto = -1, i;

	/* bpf_wq_set_callback(wq, cb, flags), untagged; the _impl tagged. */
	if (impl > 0 && btf__add_decl_tag(vm, "bpf_kfunc", impl, -1) > 0) {
		t = btf__type_by_id(vm, btf__type_by_id(vm, impl)->type);
		proto = btf__add_func_proto(vm, t->type);
		for (i = 0; proto > 0 && i < 3; i++) {
			t = btf__type_by_id(vm, btf__type_by_id(vm, impl)->type);
			p = btf_params(t) + i;
			btf__add_func_param(vm, btf__name_by_offset(vm, p->name_off), p->type);
		}
	}
	if (proto > 0 && btf__add_func(vm, b_name, BTF_FUNC_GLOBAL, proto) > 0)
		k = mkf_kernel__new(vm);
	plan = plan_name_held(k, bi_name);
	if (plan)
		e = mkf_plan__find_entry(plan, b_name);
	t_check("a rename not made, plain libbpf binding an untagged function: left to it",
		e && mkf_plan_entry__decision(e) == MKF_DECISION_LEAVE &&
		mkf_plan_entry__libbpf_outcome(e) == MKF_LIBBPF_BINDS_UNTAGGED &&
		!strcmp(mkf_plan_entry__new_name(e), b_name) &&
		strstr(mkf_plan_entry__reason(e), "left alone, rule none: the object holds the name "
		       "'bpf_wq_set_callback_impl' for something other than a static subprogram"),
		"%s", e ? mkf_plan_entry__reason(e) : "no plan or no entry");
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

static void test_name_taken(void)
{
	struct btf *vm = fx_kernel(FX_73);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	const struct mkf_plan_entry *e = NULL;
	struct mkf_plan *plan = plan_name_held(k, "bpf_wq_set_callback");

	if (plan)
		e = mkf_plan__find_entry(plan, "bpf_wq_set_callback_impl");
	t_check("a rename to a name the object has for a non-extern symbol is not made",
		e && !mkf_plan__find_entry(plan, "bpf_wq_set_callback") &&
		mkf_plan_entry__decision(e) != MKF_DECISION_BIND &&
		strstr(mkf_plan_entry__reason(e), "left alone, rule none: the object holds the name "
		       "'bpf_wq_set_callback' for something other than a static subprogram"),
		"%s", e ? mkf_plan_entry__reason(e) : "no plan or no entry");
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/*
 * A weak extern that nothing fits, under a name libbpf still finds with
 * another prototype (the old-pahole kernel's unsplit
 * bpf_wq_set_callback): the rewrite renames it to a name no kernel has,
 * prototype untouched, so that libbpf resolves it to 0.
 */
static bool sym_is_weak(struct elf_view *v, long idx)
{
	Elf_Data *d = elf_getdata(v->symtab, NULL);
	GElf_Sym sym;

	return idx >= 0 && gelf_getsym(d, (int)idx, &sym) && GELF_ST_BIND(sym.st_info) == STB_WEAK;
}

/*
 * OBJECT's extern of the unsplit bpf_wq_set_callback on the old-pahole
 * kernel: left alone (weak) or weakened (strong, weaken_unresolved), and
 * hidden either way.
 */
static void check_hidden(const char *object, bool weaken, enum mkf_decision want)
{
	static const char ext[] = "bpf_wq_set_callback", hidden[] = "mkf_hidden_bpf_wq_set_callback";
	MKF_OPTS(mkf_plan_opts, po, .weaken_unresolved = weaken);
	struct btf *vm = fx_kernel(FX_OLD_PAHOLE);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	const struct mkf_plan_entry *e = NULL;
	struct image img = {}, out = {};
	struct mkf_plan *plan = NULL;
	struct elf_view a = {}, b = {};
	bool opened = false;
	char name[160];
	int err = -1, id;

	if (!read_image(object, &img))
		plan = plan11(img.buf, img.sz, k, &po);
	e = plan ? mkf_plan__find_entry(plan, ext) : NULL;
	snprintf(name, sizeof(name), "old pahole, %s: the unsplit kfunc's extern is %s and hidden",
		 object, mkf_decision_str(want));
	t_check(name, e && mkf_plan_entry__decision(e) == want &&
		!mkf_plan_entry__kernel_name(e) && strstr(mkf_plan_entry__reason(e), hidden),
		"%s", e ? mkf_plan_entry__reason(e) : "no plan or entry");
	if (plan)
		err = t_rewrite(img.buf, img.sz, plan, &out.buf, &out.sz, NULL);
	if (!err) {
		bool oa = !view_open(&a, &img), ob = !view_open(&b, &out);

		opened = oa && ob;
	}
	id = opened ? func_id(a.btf, ext) : -1;
	snprintf(name, sizeof(name), "old pahole, %s: the hidden extern's FUNC and weak symbol "
		 "take the new name, same prototype", object);
	t_check(name, opened && id > 0 && func_id(b.btf, hidden) == id &&
		btf__type_by_id(b.btf, id)->type == btf__type_by_id(a.btf, id)->type &&
		find_und_sym(&b, hidden) == find_und_sym(&a, ext) && find_und_sym(&a, ext) >= 0 &&
		sym_is_weak(&b, find_und_sym(&b, hidden)),
		"rewrite %d, FUNC [%d]", err, id);
	view_close(&a);
	view_close(&b);
	free(out.buf);
	free(img.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/* Nothing to change: the output is the input, byte for byte. */
static void test_unchanged_is_identical(void)
{
	struct btf *vm = fx_kernel(FX_73);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	struct mkf_plan *plan = NULL;
	struct image img = {};
	void *out = NULL;
	size_t sz = 0;
	int err = -1;

	if (!read_image("unit_wq_new", &img))
		plan = plan11(img.buf, img.sz, k, NULL);
	if (plan && !mkf_plan__change_cnt(plan))
		err = t_rewrite(img.buf, img.sz, plan, &out, &sz, NULL);
	t_check("an object needing no change is rewritten to the same bytes",
		!err && out && sz == img.sz && !memcmp(out, img.buf, sz),
		"plan %p, %zu changes, err %d, %zu of %zu bytes", (void *)plan,
		plan ? mkf_plan__change_cnt(plan) : 0, err, sz, img.sz);
	free(out);
	free(img.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

static void test_not_bpf(void)
{
	static const char junk[256] = "not an ELF object";
	struct btf *vm = fx_kernel(FX_70);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	struct mkf_plan *plan = plan11(junk, sizeof(junk), k, NULL);

	t_check("plan refuses a buffer that is not an ELF object", !plan && errno == EINVAL,
		"errno %d", errno);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/*
 * Call patching refuses what it cannot follow, and says so: here the
 * code's relocation section names section 0 as its target (found by
 * fuzz_object, which crashed on it).
 */
static void test_call_patch_refusal(void)
{
	struct btf *vm = fx_kernel(FX_612_DEB12);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	MKF_OPTS(mkf_rewrite_opts, ro);
	struct image img = {};
	struct mkf_plan *plan = NULL;
	char why[256] = "";
	void *out = NULL;
	size_t sz = 0, i;
	Elf64_Ehdr eh;
	bool patched = false;
	int err = -1;

	ro.err_buf = why;
	ro.err_buf_sz = sizeof(why);
	if (!k || read_image("unit_list", &img)) {
		t_fail("call patching: a relocation section aimed at section 0", "setup failed");
		goto out;
	}
	plan = plan11(img.buf, img.sz, k, NULL);
	memcpy(&eh, img.buf, sizeof(eh));
	for (i = 0; plan && i < eh.e_shnum; i++) {
		Elf64_Shdr sh, target;
		char *at = (char *)img.buf + eh.e_shoff + i * sizeof(sh);

		memcpy(&sh, at, sizeof(sh));
		if (sh.sh_type != SHT_REL || !sh.sh_info || sh.sh_info >= eh.e_shnum)
			continue;
		memcpy(&target, (char *)img.buf + eh.e_shoff + sh.sh_info * sizeof(sh),
		       sizeof(target));
		if (!(target.sh_flags & SHF_EXECINSTR))
			continue;
		sh.sh_info = 0;
		memcpy(at, &sh, sizeof(sh));
		patched = true;
		break;
	}
	if (patched) {
		/* Refused when the object is read, before any plan meets it. */
		MKF_OPTS(mkf_object_opts, oo, .err_buf = why, .err_buf_sz = sizeof(why));
		struct mkf_object *obj = mkf_object__new(img.buf, img.sz, &oo);

		err = obj ? mkf_object__rewrite(obj, plan, &out, &sz, &ro) : -errno;
		mkf_object__free(obj);
	}
	t_check("call patching: a relocation section aimed at section 0 is refused, not "
		"followed", patched && err == -EINVAL && !out &&
		strstr(why, "relocations for section 0, which has no contents"), "err %d: %s", err, why);
out:
	free(out);
	free(img.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/* The value of the defined symbol NAME, or -1. */
static long sym_value(struct elf_view *v, const char *name)
{
	Elf_Data *d = elf_getdata(v->symtab, NULL);
	size_t i, n = v->symtab_sh.sh_size / v->symtab_sh.sh_entsize;
	GElf_Sym sym;

	for (i = 0; i < n; i++) {
		gelf_getsym(d, (int)i, &sym);
		if (sym.st_shndx != SHN_UNDEF &&
		    !strcmp(elf_strptr(v->elf, v->symtab_sh.sh_link, sym.st_name), name))
			return (long)sym.st_value;
	}
	return -1;
}

/*
 * The instruction (index into the target's section) that the calls of
 * section SEC relocated against the .text section reach, as libbpf
 * computes it (relocation symbol's value / 8 + imm + 1): a bitmask of
 * the first 64, so that a call to the wrong subprogram shows.
 */
static __u64 call_targets(struct elf_view *v, const char *sec)
{
	char rel_name[64];
	Elf_Scn *rs, *ts = scn_by_name(v->elf, sec);
	Elf_Data *rd, *td, *sd = elf_getdata(v->symtab, NULL);
	__u64 targets = 0;
	GElf_Shdr sh;
	size_t k;

	snprintf(rel_name, sizeof(rel_name), ".rel%s", sec);
	rs = scn_by_name(v->elf, rel_name);
	if (!rs || !ts || !gelf_getshdr(rs, &sh))
		return 0;
	rd = elf_getdata(rs, NULL);
	td = elf_getdata(ts, NULL);
	for (k = 0; rd && td && k < sh.sh_size / sizeof(Elf64_Rel); k++) {
		struct bpf_insn insn;
		GElf_Sym sym;
		GElf_Rel r;
		long at;

		gelf_getrel(rd, (int)k, &r);
		if (r.r_offset + sizeof(insn) > td->d_size ||
		    !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		memcpy(&insn, (char *)td->d_buf + r.r_offset, sizeof(insn));
		if (insn.code != (BPF_JMP | BPF_CALL) || insn.src_reg != BPF_PSEUDO_CALL)
			continue;
		at = (long)sym.st_value / 8 + insn.imm + 1;
		if (at >= 0 && at < 64)
			targets |= 1ull << at;
	}
	return targets;
}

/*
 * A program section named ".debugger" is code, not DWARF (libbpf
 * ignores ".debug_*" only): inserting "R4 = 0" before its kfunc call
 * must move the relocation of the subprogram call after it. Before, the
 * patcher skipped every relocation section of a ".debug" target and
 * left that one on the instruction before the call.
 */
static void test_debug_prefix(void)
{
	struct btf *vm = fx_kernel(FX_612_DEB13);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	struct mkf_plan *plan = NULL;
	struct image img = {}, out = {};
	struct elf_view v = {};
	struct bpf_object *bo = NULL;
	long first = -1, second = -1;
	__u64 targets = 0;
	int err = -1;

	if (!read_image("unit_list_debugger", &img))
		plan = plan11(img.buf, img.sz, k, NULL);
	if (plan)
		err = t_rewrite(img.buf, img.sz, plan, &out.buf, &out.sz, NULL);
	if (!err && !view_open(&v, &out)) {
		first = sym_value(&v, "first");
		second = sym_value(&v, "second");
		targets = call_targets(&v, ".debugger");
		bo = bpf_object__open_mem(out.buf, out.sz, NULL);
	}
	/* first, patched, comes before second in .text: second moved by one. */
	t_check("a code section named .debugger: its call to the subprogram after a patched one "
		"follows it", !err && first == 0 && second == 5 * 8 &&
		targets == ((1ull << 0) | (1ull << 5)) && bo,
		"rewrite %d, first at %ld, second at %ld, calls reach %#llx, libbpf open %s", err,
		first, second, (unsigned long long)targets, bo ? "ok" : "failed");
	bpf_object__close(bo);
	view_close(&v);
	free(out.buf);
	free(img.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/* Whether a defined symbol (not an extern) of that name exists. */
static bool has_defined_sym(struct elf_view *v, const char *name)
{
	Elf_Data *d = elf_getdata(v->symtab, NULL);
	size_t i, n = v->symtab_sh.sh_size / v->symtab_sh.sh_entsize;
	GElf_Sym sym;

	for (i = 0; i < n; i++) {
		gelf_getsym(d, (int)i, &sym);
		if (sym.st_shndx != SHN_UNDEF &&
		    !strcmp(elf_strptr(v->elf, v->symtab_sh.sh_link, sym.st_name), name))
			return true;
	}
	return false;
}

/*
 * sched_ext's compat.bpf.h shape (tests/bpf/wq_compat.bpf.c): flavored
 * externs and a static wrapper named like the kernel function, in both
 * BTF orders. For libbpf 1.1 the externs must take the kernel's name,
 * so the wrapper gives it up (a static subprogram's name carries no
 * ABI); for 1.3 and later, which strip flavors, an extern keeps its
 * flavor and nothing else changes. Either way libbpf opens the output
 * (open only), where the object as rewritten before failed with
 * "failed to find BTF for extern 'bpf_wq_set_callback'" when the
 * wrapper's FUNC came first.
 */
static void test_compat_wrapper(const char *obj, enum fx_era era, unsigned int minor)
{
	struct mkf_libbpf_model lbm = mkf_libbpf_model_of(1, minor);
	struct btf *vm = fx_kernel(era);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	const struct mkf_plan_entry *nw = NULL, *old = NULL;
	struct elf_view v = {};
	struct mkf_plan *plan = NULL;
	struct image img = {}, out = {};
	struct bpf_object *bo = NULL;
	char name[160], detail[400] = "";
	bool ok = false;
	int err = -1;

	snprintf(name, sizeof(name), "compat wrapper %s on %s, libbpf 1.%u model", obj,
		 fx_era_names[era], minor);
	if (!read_image(obj, &img))
		plan = mkf_plan_compute_for(img.buf, img.sz, k, NULL, &lbm);
	if (plan) {
		nw = mkf_plan__find_entry(plan, "bpf_wq_set_callback___new");
		old = mkf_plan__find_entry(plan, "bpf_wq_set_callback_impl___old");
		err = t_rewrite(img.buf, img.sz, plan, &out.buf, &out.sz, NULL);
	}
	if (!nw || !old || err || view_open(&v, &out)) {
		snprintf(detail, sizeof(detail), "plan %p, rewrite %d", (void *)plan, err);
		goto out;
	}
	bo = bpf_object__open_mem(out.buf, out.sz, NULL);
	if (!bo) {
		snprintf(detail, sizeof(detail), "libbpf cannot open the output: %d", -errno);
		goto out;
	}
	if (era == FX_70 && minor < 3) {
		/* Both renamed to the kernel's name, one carrying the other's calls. */
		ok = find_und_sym(&v, "bpf_wq_set_callback") >= 0 &&
		     !has_defined_sym(&v, "bpf_wq_set_callback") &&
		     has_defined_sym(&v, "mkf_local_bpf_wq_set_callback") &&
		     mkf_plan_entry__merged_into(old) &&
		     strstr(mkf_plan_entry__reason(nw), "name clash repaired: static subprogram "
			    "'bpf_wq_set_callback' renamed to 'mkf_local_bpf_wq_set_callback'");
	} else if (era == FX_70) {
		/* The flavored names stay or keep their flavor: no clash at all. */
		ok = find_und_sym(&v, "bpf_wq_set_callback___new") >= 0 &&
		     find_und_sym(&v, "bpf_wq_set_callback___old") >= 0 &&
		     has_defined_sym(&v, "bpf_wq_set_callback") &&
		     !mkf_plan_entry__merged_into(old) &&
		     mkf_plan_entry__rule(old) == MKF_RULE_SHRINK;
	} else {
		/* 6.12: the _impl; the wrapper's name was never wanted. */
		ok = find_und_sym(&v, minor < 3 ? "bpf_wq_set_callback_impl"
						: "bpf_wq_set_callback_impl___new") >= 0 &&
		     has_defined_sym(&v, "bpf_wq_set_callback") &&
		     mkf_plan_entry__rule(nw) == MKF_RULE_IMPL_EXTEND;
	}
	snprintf(detail, sizeof(detail), "new: %s; old: %s", mkf_plan_entry__reason(nw),
		 mkf_plan_entry__reason(old));
out:
	t_check(name, ok, "%s", detail);
	bpf_object__close(bo);
	view_close(&v);
	free(out.buf);
	free(img.buf);
	mkf_plan__free(plan);
	mkf_kernel__free(k);
	btf__free(vm);
}

/*
 * No broken output, as a fixed point: planning the rewritten object
 * again against the same kernel and libbpf must find every binding
 * already made (the same kernel function, under the extern's new name,
 * nothing left to change) and every extern left alone still alone. A
 * rewrite that libbpf would bind otherwise breaks it.
 */
static const char *const fixed_point_objects[] = {
	"unit_wq_new", "unit_wq_old", "unit_compat", "unit_list", "unit_clash", "unit_kconfig",
	"unit_struct_ops", "unit_list_debugger", "cli_wq_new", "cli_wq_old", "cli_wq_impl_aux",
	"cli_stream_new", "wq_new", "wq_old", "wq_impl_aux", "wq_forged", "graph_new", "graph_old",
	"scx_nr_queued", "wq_compat_wrapper_first", "wq_compat_extern_first",
};

static void test_fixed_point(enum fx_era era, unsigned int minor)
{
	struct mkf_libbpf_model lbm = mkf_libbpf_model_of(1, minor);
	struct btf *vm = fx_kernel(era);
	struct mkf_kernel *k = mkf_kernel__new(vm);
	char name[128], detail[512] = "";
	size_t o, i, objects = 0;
	bool ok = k != NULL;

	snprintf(name, sizeof(name), "fixed point: every test object on %s, libbpf 1.%u model",
		 fx_era_names[era], minor);
	for (o = 0; ok && o < sizeof(fixed_point_objects) / sizeof(fixed_point_objects[0]); o++) {
		struct mkf_plan *p1 = NULL, *p2 = NULL;
		struct image img = {}, out = {};

		if (read_image(fixed_point_objects[o], &img)) {
			snprintf(detail, sizeof(detail), "%s: not built", fixed_point_objects[o]);
			ok = false;
			break;
		}
		p1 = mkf_plan_compute_for(img.buf, img.sz, k, NULL, &lbm);
		if (p1 && !t_rewrite(img.buf, img.sz, p1, &out.buf, &out.sz, NULL))
			p2 = mkf_plan_compute_for(out.buf, out.sz, k, NULL, &lbm);
		if (!p2) {
			snprintf(detail, sizeof(detail), "%s: %s", fixed_point_objects[o],
				 p1 ? "the output does not plan" : "no plan");
			ok = false;
		}
		for (i = 0; ok && i < mkf_plan__entry_cnt(p1); i++) {
			const struct mkf_plan_entry *e1 = mkf_plan__entry(p1, i), *e2;
			bool bound = mkf_plan_entry__decision(e1) == MKF_DECISION_BIND;

			if (mkf_plan_entry__merged_into(e1))
				continue;
			e2 = mkf_plan__find_entry(p2, mkf_plan_entry__new_name(e1));
			if (!e2 || (bound ? mkf_plan_entry__decision(e2) != MKF_DECISION_BIND ||
					    strcmp(mkf_plan_entry__kernel_name(e2),
						   mkf_plan_entry__kernel_name(e1))
					  : mkf_plan_entry__decision(e2) == MKF_DECISION_BIND)) {
				snprintf(detail, sizeof(detail), "%s: '%s' as '%s' is now: %s",
					 fixed_point_objects[o], mkf_plan_entry__name(e1),
					 mkf_plan_entry__new_name(e1),
					 e2 ? mkf_plan_entry__reason(e2) : "gone");
				ok = false;
			}
		}
		if (ok && mkf_plan__change_cnt(p2)) {
			snprintf(detail, sizeof(detail), "%s: %zu changes left after the rewrite",
				 fixed_point_objects[o], mkf_plan__change_cnt(p2));
			ok = false;
		}
		objects += ok;
		mkf_plan__free(p1);
		mkf_plan__free(p2);
		free(out.buf);
		free(img.buf);
	}
	t_check(name, ok, "%zu objects held; %s", objects, detail);
	mkf_kernel__free(k);
	btf__free(vm);
}

int main(void)
{
	size_t i;

	t_quiet_library();
	for (i = 0; i < sizeof(wcases) / sizeof(wcases[0]); i++)
		run_wcase(&wcases[i]);
	test_plan_mismatch();
	test_name_clash(1);
	test_name_clash(7);
	test_name_taken();
	test_name_taken_untagged();
	for (i = 0; i < 2; i++) {
		const char *obj = i ? "wq_compat_extern_first" : "wq_compat_wrapper_first";

		test_compat_wrapper(obj, FX_70, 1);
		test_compat_wrapper(obj, FX_70, 7);
		test_compat_wrapper(obj, FX_612_DEB13, 1);
		test_compat_wrapper(obj, FX_612_DEB13, 7);
	}
	test_not_bpf();
	test_unchanged_is_identical();
	test_call_patch_refusal();
	test_debug_prefix();
	for (i = 0; i < FX_ERA_CNT; i++) {
		test_fixed_point((enum fx_era)i, 1);
		test_fixed_point((enum fx_era)i, 7);
	}
	check_hidden("unit_wq_new", false, MKF_DECISION_LEAVE_WEAK);
	check_hidden("wq_new", true, MKF_DECISION_WEAKEN);
	return t_done();
}
