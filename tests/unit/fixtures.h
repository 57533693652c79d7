/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * BTF fixtures built with libbpf's btf__add_*(): kernels of every era
 * (docs/design.md, section 1, as measured on Debian's images) and the program side as clang emits
 * it for extern kfuncs (no parameter names).
 */
#ifndef MKF_FIXTURES_H
#define MKF_FIXTURES_H

#include <stdbool.h>
#include <bpf/btf.h>

enum fx_era {
	FX_612_DEB12,	/* 6.12 by pahole 1.24: _impl(..., void *aux__ign), no tags at all */
	FX_612_DEB13,	/* same kfuncs, with bpf_kfunc tags */
	FX_616,		/* _impl(..., void *aux__prog) */
	FX_617,		/* + 5-argument bpf_stream_vprintk(..., void *aux__prog) */
	FX_618,		/* _impl-only stream/task_work (6.18, 6.19) */
	FX_70,		/* KF_IMPLICIT_ARGS: foo [kfunc] + foo_impl(..., struct bpf_prog_aux *aux) proto-only */
	FX_73,		/* 7.x plus bpf_obj_new & co next to the legacy _impl forms */
	FX_PATCHED_612,	/* our series: foo + stock's foo_impl(..., void *aux__ign), tagged */
	FX_OLD_PAHOLE,	/* 7.x built by an old pahole: foo(..., struct bpf_prog_aux *aux), no _impl */
	FX_ERA_CNT,
};

extern const char *const fx_era_names[FX_ERA_CNT];

/* vmlinux BTF of an era. */
struct btf *fx_kernel(enum fx_era era);

/*
 * Split module BTF "mkf_testmod" on top of base: mkf_testmod_magic(int)
 * with mkf_testmod_magic_impl(int, struct bpf_prog_aux *aux__magic),
 * and legacy-only mkf_testmod_legacy_impl(int, void *aux__prog); tagged
 * when tags is set.
 */
struct btf *fx_module(struct btf *base, bool tags);

/* The program side. */
struct fx_local {
	struct btf *btf;
	int i32, u32, u64, vptr, cptr, cvptr, wq_ptr, cb_ptr, task_ptr, tw_ptr, twcb_ptr,
	    head_ptr, node_ptr, root_ptr, rbnode_ptr, less_ptr, aux_ptr;
};

enum fx_shape {
	SH_WQ_NEW,	/* int (struct bpf_wq *, cb, unsigned int) */
	SH_WQ_OLD,	/* ... , void *) */
	SH_STREAM_NEW,	/* int (int, const char *, const void *, u32) */
	SH_STREAM_617,	/* ... , void *) */
	SH_TW_NEW,	/* int (struct task_struct *, struct bpf_task_work *, void *, cb) */
	SH_TW_OLD,	/* ... , void *) */
	SH_OBJ_NEW,	/* void *(u64) */
	SH_OBJ_OLD,	/* void *(u64, void *) */
	SH_LIST_NEW,	/* int (struct bpf_list_head *, struct bpf_list_node *) */
	SH_LIST_OLD,	/* ... , void *, u64) */
	SH_RB_NEW,	/* int (struct bpf_rb_root *, struct bpf_rb_node *, less) */
	SH_MOD_NEW,	/* int (int) */
	SH_MOD_OLD,	/* int (int, void *) */
	SH_WQ_AUX,	/* int (struct bpf_wq *, cb, unsigned int, struct bpf_prog_aux *) */
	SH_WQ_BADTYPE,	/* int (int, cb, unsigned int): first param not a pointer */
};

int fx_local_init(struct fx_local *l);
/* A FUNC_PROTO of that shape; its FUNC "name" with extern linkage. */
int fx_local_extern(struct fx_local *l, const char *name, enum fx_shape shape, int *proto_id);

#endif
