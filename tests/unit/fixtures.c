// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Kernel BTF of each era, with the prototypes measured on
 * Debian's kernels, and program-side BTF as clang 14 emits it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"

const char *const fx_era_names[FX_ERA_CNT] = {
	[FX_612_DEB12] = "6.12-deb12",
	[FX_612_DEB13] = "6.12-deb13",
	[FX_616] = "6.16",
	[FX_617] = "6.17",
	[FX_618] = "6.18",
	[FX_70] = "7.0",
	[FX_73] = "7.3",
	[FX_PATCHED_612] = "patched-6.12",
	[FX_OLD_PAHOLE] = "old-pahole-7.x",
};

struct kb {
	struct btf *btf;
	int i32, u32, u64, boolean, vptr, cptr, cvptr, aux_ptr, wq_ptr, cb_ptr, task_ptr,
	    tw_ptr, twcb, head_ptr, node_ptr, root_ptr, rbnode_ptr, less_ptr;
};

static int ptr_to_struct(struct btf *btf, const char *name, __u32 size)
{
	int s = btf__add_struct(btf, name, size);

	return btf__add_ptr(btf, s);
}

/* A prototype from (name, type) pairs, then its FUNC, tagged if asked. */
static int kfunc(struct kb *k, const char *name, bool tag, int ret, int n, ...)
{
	va_list args;
	int proto, fn, i;

	proto = btf__add_func_proto(k->btf, ret);
	va_start(args, n);
	for (i = 0; i < n; i++) {
		const char *pname = va_arg(args, const char *);
		int type = va_arg(args, int);

		btf__add_func_param(k->btf, pname, type);
	}
	va_end(args);
	/* pahole emits kernel functions with static linkage. */
	fn = btf__add_func(k->btf, name, BTF_FUNC_STATIC, proto);
	if (tag)
		btf__add_decl_tag(k->btf, "bpf_kfunc", fn, -1);
	return fn;
}

static void kb_types(struct kb *k)
{
	struct btf *b = k->btf;
	int u32_int, u64_int, bool_int, chr, cvoid, cb_proto, twcb_proto, map_ptr, less_proto,
	    rbnode, crbnode, int_ptr;

	k->i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u32_int = btf__add_int(b, "unsigned int", 4, 0);
	k->u32 = btf__add_typedef(b, "u32", u32_int);
	u64_int = btf__add_int(b, "long long unsigned int", 8, 0);
	k->u64 = btf__add_typedef(b, "u64", u64_int);
	bool_int = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);
	k->boolean = btf__add_typedef(b, "bool", bool_int);
	k->vptr = btf__add_ptr(b, 0);
	chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	k->cptr = btf__add_ptr(b, btf__add_const(b, chr));
	cvoid = btf__add_const(b, 0);
	k->cvptr = btf__add_ptr(b, cvoid);
	k->aux_ptr = ptr_to_struct(b, "bpf_prog_aux", 1024);
	k->wq_ptr = ptr_to_struct(b, "bpf_wq", 16);
	k->task_ptr = ptr_to_struct(b, "task_struct", 4096);
	k->tw_ptr = ptr_to_struct(b, "bpf_task_work", 8);
	k->head_ptr = ptr_to_struct(b, "bpf_list_head", 16);
	k->node_ptr = ptr_to_struct(b, "bpf_list_node", 24);
	k->root_ptr = ptr_to_struct(b, "bpf_rb_root", 16);
	rbnode = btf__add_struct(b, "bpf_rb_node", 32);
	k->rbnode_ptr = btf__add_ptr(b, rbnode);
	crbnode = btf__add_ptr(b, btf__add_const(b, rbnode));
	map_ptr = ptr_to_struct(b, "bpf_map", 256);
	int_ptr = btf__add_ptr(b, k->i32);

	/* Parameter types exist before each prototype: params must
	 * directly follow their FUNC_PROTO. */
	/* int (*callback_fn)(void *map, int *key, void *value) */
	cb_proto = btf__add_func_proto(b, k->i32);
	btf__add_func_param(b, "", k->vptr);
	btf__add_func_param(b, "", int_ptr);
	btf__add_func_param(b, "", k->vptr);
	k->cb_ptr = btf__add_ptr(b, cb_proto);
	/* typedef int (*bpf_task_work_callback_t)(struct bpf_map *, void *, void *) */
	twcb_proto = btf__add_func_proto(b, k->i32);
	btf__add_func_param(b, "", map_ptr);
	btf__add_func_param(b, "", k->vptr);
	btf__add_func_param(b, "", k->vptr);
	k->twcb = btf__add_typedef(b, "bpf_task_work_callback_t", btf__add_ptr(b, twcb_proto));
	/* bool (*less)(struct bpf_rb_node *a, const struct bpf_rb_node *b) */
	less_proto = btf__add_func_proto(b, k->boolean);
	btf__add_func_param(b, "", k->rbnode_ptr);
	btf__add_func_param(b, "", crbnode);
	k->less_ptr = btf__add_ptr(b, less_proto);
}

/* bpf_wq_set_callback_impl(wq, callback_fn, flags, <aux>) */
static void wq_impl(struct kb *k, bool tag, const char *aux_name, int aux_type)
{
	kfunc(k, "bpf_wq_set_callback_impl", tag, k->i32, 4, "wq", k->wq_ptr,
	      "callback_fn", k->cb_ptr, "flags", k->u32, aux_name, aux_type);
}

static void wq_short(struct kb *k, bool tag)
{
	kfunc(k, "bpf_wq_set_callback", tag, k->i32, 3, "wq", k->wq_ptr,
	      "callback_fn", k->cb_ptr, "flags", k->u32);
}

static void stream(struct kb *k, const char *name, bool tag, const char *aux_name, int aux_type)
{
	if (aux_name)
		kfunc(k, name, tag, k->i32, 5, "stream_id", k->i32, "fmt__str", k->cptr,
		      "args", k->cvptr, "len__sz", k->u32, aux_name, aux_type);
	else
		kfunc(k, name, tag, k->i32, 4, "stream_id", k->i32, "fmt__str", k->cptr,
		      "args", k->cvptr, "len__sz", k->u32);
}

static void task_work(struct kb *k, const char *name, bool tag, const char *aux_name, int aux_type)
{
	if (aux_name)
		kfunc(k, name, tag, k->i32, 5, "task", k->task_ptr, "tw", k->tw_ptr,
		      "map__map", k->vptr, "callback", k->twcb, aux_name, aux_type);
	else
		kfunc(k, name, tag, k->i32, 4, "task", k->task_ptr, "tw", k->tw_ptr,
		      "map__map", k->vptr, "callback", k->twcb);
}

/* 6.12 - 7.0: only the legacy btf_struct_meta forms. */
static void obj_legacy(struct kb *k, bool tag)
{
	kfunc(k, "bpf_obj_new_impl", tag, k->vptr, 2, "local_type_id__k", k->u64,
	      "meta__ign", k->vptr);
	kfunc(k, "bpf_obj_drop_impl", tag, 0, 2, "p__alloc", k->vptr, "meta__ign", k->vptr);
	kfunc(k, "bpf_list_push_front_impl", tag, k->i32, 4, "head", k->head_ptr,
	      "node", k->node_ptr, "meta__ign", k->vptr, "off", k->u64);
	kfunc(k, "bpf_list_push_back_impl", tag, k->i32, 4, "head", k->head_ptr,
	      "node", k->node_ptr, "meta__ign", k->vptr, "off", k->u64);
	kfunc(k, "bpf_rbtree_add_impl", tag, k->i32, 5, "root", k->root_ptr,
	      "node", k->rbnode_ptr, "less", k->less_ptr, "meta__ign", k->vptr, "off", k->u64);
}

/* 7.2 and later: new forms beside the legacy ones. */
static void obj_new(struct kb *k)
{
	kfunc(k, "bpf_obj_new", true, k->vptr, 1, "local_type_id__k", k->u64);
	kfunc(k, "bpf_obj_drop", true, 0, 1, "p__alloc", k->vptr);
	kfunc(k, "bpf_list_push_front", true, k->i32, 2, "head", k->head_ptr, "node", k->node_ptr);
	kfunc(k, "bpf_list_push_back", true, k->i32, 2, "head", k->head_ptr, "node", k->node_ptr);
	kfunc(k, "bpf_rbtree_add", true, k->i32, 3, "root", k->root_ptr, "node", k->rbnode_ptr,
	      "less", k->less_ptr);
}

struct btf *fx_kernel(enum fx_era era)
{
	struct kb k = { .btf = btf__new_empty() };
	/* Debian 12's pahole 1.24 build lacks tags (ours adds them at build time). */
	bool tags = era != FX_612_DEB12;

	if (!k.btf)
		return NULL;
	kb_types(&k);
	/* Something unrelated, so tag-less kernels have ordinary FUNCs too. */
	kfunc(&k, "vfs_read", false, k.i32, 1, "file", k.vptr);
	kfunc(&k, "bpf_rcu_read_lock", tags, 0, 0);

	switch (era) {
	case FX_612_DEB12:
	case FX_612_DEB13:
		wq_impl(&k, tags, "aux__ign", k.vptr);
		obj_legacy(&k, tags);
		break;
	case FX_616:
		wq_impl(&k, true, "aux__prog", k.vptr);
		obj_legacy(&k, true);
		break;
	case FX_617:
		wq_impl(&k, true, "aux__prog", k.vptr);
		stream(&k, "bpf_stream_vprintk", true, "aux__prog", k.vptr);
		obj_legacy(&k, true);
		break;
	case FX_618:
		wq_impl(&k, true, "aux__prog", k.vptr);
		stream(&k, "bpf_stream_vprintk_impl", true, "aux__prog", k.vptr);
		task_work(&k, "bpf_task_work_schedule_signal_impl", true, "aux__prog", k.vptr);
		task_work(&k, "bpf_task_work_schedule_resume_impl", true, "aux__prog", k.vptr);
		obj_legacy(&k, true);
		break;
	case FX_70:
	case FX_73:
		wq_short(&k, true);
		wq_impl(&k, false, "aux", k.aux_ptr);
		stream(&k, "bpf_stream_vprintk", true, NULL, 0);
		stream(&k, "bpf_stream_vprintk_impl", false, "aux", k.aux_ptr);
		task_work(&k, "bpf_task_work_schedule_signal", true, NULL, 0);
		task_work(&k, "bpf_task_work_schedule_signal_impl", false, "aux", k.aux_ptr);
		obj_legacy(&k, true);
		if (era == FX_73)
			obj_new(&k);
		break;
	case FX_PATCHED_612:
		/* Stock 6.12's legacy form kept as it was, beside the short one. */
		wq_short(&k, true);
		wq_impl(&k, true, "aux__ign", k.vptr);
		obj_legacy(&k, true);
		break;
	case FX_OLD_PAHOLE:
		kfunc(&k, "bpf_wq_set_callback", true, k.i32, 4, "wq", k.wq_ptr,
		      "callback_fn", k.cb_ptr, "flags", k.u32, "aux", k.aux_ptr);
		obj_legacy(&k, true);
		break;
	default:
		break;
	}
	return k.btf;
}

struct btf *fx_module(struct btf *base, bool tags)
{
	struct kb k = { .btf = btf__new_empty_split(base) };

	if (!k.btf)
		return NULL;
	/* Module BTF refers to vmlinux's types. */
	k.i32 = btf__find_by_name_kind(base, "int", BTF_KIND_INT);
	k.vptr = btf__add_ptr(k.btf, 0);
	k.aux_ptr = btf__add_ptr(k.btf, btf__find_by_name_kind(base, "bpf_prog_aux",
							       BTF_KIND_STRUCT));
	kfunc(&k, "mkf_testmod_magic", tags, k.i32, 1, "x", k.i32);
	kfunc(&k, "mkf_testmod_magic_impl", tags, k.i32, 2, "x", k.i32, "aux__magic", k.aux_ptr);
	kfunc(&k, "mkf_testmod_legacy_impl", tags, k.i32, 2, "x", k.i32, "aux__prog", k.vptr);
	return k.btf;
}

int fx_local_init(struct fx_local *l)
{
	struct btf *b = btf__new_empty();
	int cb, twcb, less, rbnode, crbnode, map, int_ptr, boolean;

	memset(l, 0, sizeof(*l));
	if (!b)
		return -1;
	l->btf = b;
	/* Spelled the way clang spells them, not the kernel. */
	l->i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	l->u32 = btf__add_int(b, "unsigned int", 4, 0);
	l->u64 = btf__add_typedef(b, "__u64", btf__add_int(b, "unsigned long long", 8, 0));
	l->vptr = btf__add_ptr(b, 0);
	l->cptr = btf__add_ptr(b, btf__add_const(b, btf__add_int(b, "char", 1, BTF_INT_SIGNED)));
	l->cvptr = btf__add_ptr(b, btf__add_const(b, 0));
	l->wq_ptr = ptr_to_struct(b, "bpf_wq", 16);
	l->task_ptr = ptr_to_struct(b, "task_struct", 0);
	l->tw_ptr = ptr_to_struct(b, "bpf_task_work", 8);
	l->head_ptr = ptr_to_struct(b, "bpf_list_head", 16);
	l->node_ptr = ptr_to_struct(b, "bpf_list_node", 24);
	l->root_ptr = ptr_to_struct(b, "bpf_rb_root", 16);
	rbnode = btf__add_struct(b, "bpf_rb_node", 32);
	l->rbnode_ptr = btf__add_ptr(b, rbnode);
	l->aux_ptr = ptr_to_struct(b, "bpf_prog_aux", 0);
	map = ptr_to_struct(b, "bpf_map", 0);
	int_ptr = btf__add_ptr(b, l->i32);
	crbnode = btf__add_ptr(b, btf__add_const(b, rbnode));
	boolean = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);

	cb = btf__add_func_proto(b, l->i32);
	btf__add_func_param(b, "", l->vptr);
	btf__add_func_param(b, "", int_ptr);
	btf__add_func_param(b, "", l->vptr);
	l->cb_ptr = btf__add_ptr(b, cb);
	twcb = btf__add_func_proto(b, l->i32);
	btf__add_func_param(b, "", map);
	btf__add_func_param(b, "", l->vptr);
	btf__add_func_param(b, "", l->vptr);
	l->twcb_ptr = btf__add_ptr(b, twcb);
	less = btf__add_func_proto(b, boolean);
	btf__add_func_param(b, "", l->rbnode_ptr);
	btf__add_func_param(b, "", crbnode);
	l->less_ptr = btf__add_ptr(b, less);
	return 0;
}

static int proto(struct fx_local *l, int ret, int n, ...)
{
	va_list args;
	int id, i;

	id = btf__add_func_proto(l->btf, ret);
	va_start(args, n);
	for (i = 0; i < n; i++)
		btf__add_func_param(l->btf, "", va_arg(args, int)); /* clang: no names */
	va_end(args);
	return id;
}

int fx_local_extern(struct fx_local *l, const char *name, enum fx_shape shape, int *proto_id)
{
	int p;

	switch (shape) {
	case SH_WQ_NEW:
		p = proto(l, l->i32, 3, l->wq_ptr, l->cb_ptr, l->u32);
		break;
	case SH_WQ_OLD:
		p = proto(l, l->i32, 4, l->wq_ptr, l->cb_ptr, l->u32, l->vptr);
		break;
	case SH_WQ_AUX:
		p = proto(l, l->i32, 4, l->wq_ptr, l->cb_ptr, l->u32, l->aux_ptr);
		break;
	case SH_WQ_BADTYPE:
		p = proto(l, l->i32, 3, l->i32, l->cb_ptr, l->u32);
		break;
	case SH_STREAM_NEW:
		p = proto(l, l->i32, 4, l->i32, l->cptr, l->cvptr, l->u32);
		break;
	case SH_STREAM_617:
		p = proto(l, l->i32, 5, l->i32, l->cptr, l->cvptr, l->u32, l->vptr);
		break;
	case SH_TW_NEW:
		p = proto(l, l->i32, 4, l->task_ptr, l->tw_ptr, l->vptr, l->twcb_ptr);
		break;
	case SH_TW_OLD:
		p = proto(l, l->i32, 5, l->task_ptr, l->tw_ptr, l->vptr, l->twcb_ptr, l->vptr);
		break;
	case SH_OBJ_NEW:
		p = proto(l, l->vptr, 1, l->u64);
		break;
	case SH_OBJ_OLD:
		p = proto(l, l->vptr, 2, l->u64, l->vptr);
		break;
	case SH_LIST_NEW:
		p = proto(l, l->i32, 2, l->head_ptr, l->node_ptr);
		break;
	case SH_LIST_OLD:
		p = proto(l, l->i32, 4, l->head_ptr, l->node_ptr, l->vptr, l->u64);
		break;
	case SH_RB_NEW:
		p = proto(l, l->i32, 3, l->root_ptr, l->rbnode_ptr, l->less_ptr);
		break;
	case SH_MOD_NEW:
		p = proto(l, l->i32, 1, l->i32);
		break;
	case SH_MOD_OLD:
		p = proto(l, l->i32, 2, l->i32, l->vptr);
		break;
	default:
		return -1;
	}
	if (proto_id)
		*proto_id = p;
	return btf__add_func(l->btf, name, BTF_FUNC_EXTERN, p);
}
