// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Resolver table tests: one program-side extern against fixture kernels
 * of every era, expected decision per docs/design.md, section 3.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "magic_kfunc_introspect.h"
#include "btf_compat.h"
#include "fixtures.h"
#include "kernel_index.h"
#include "kfunc_rules.h"
#include "params.h"
#include "plan.h"
#include "object.h"
#include "resolve.h"
#include "unit.h"

/*
 * The rule tables decide as for libbpf 1.1, whatever libbpf runs the
 * test: the plain-libbpf outcomes and renames they expect are 1.1's
 * (test_libbpf_model() covers what 1.3 and later change).
 */
static struct mkf_libbpf_model lbm11;

#define ANY -1

struct rcase {
	const char *name;
	enum fx_era era;
	bool module;
	const char *ext;
	enum fx_shape shape;
	bool weak;
	enum mkf_decision decision;
	enum mkf_rule rule;
	const char *kernel_name;	/* NULL: not bound */
	const char *module_name;	/* NULL: vmlinux */
	enum mkf_proto_change change;
	int delta;
	__u32 set_regs;			/* registers set before each call */
	int libbpf;			/* enum mkf_libbpf_outcome or ANY */
	const char *reason_has;		/* NULL: not checked */
	const char *reason_lacks;	/* NULL: not checked */
};

#define BIND MKF_DECISION_BIND
#define R_NONE MKF_RULE_NONE
#define R_SAME MKF_RULE_SAME
#define R_EXT MKF_RULE_EXTEND
#define R_SHR MKF_RULE_SHRINK
#define R_IEXT MKF_RULE_IMPL_EXTEND
#define R_ISAME MKF_RULE_IMPL_SAME
#define R_IRET MKF_RULE_IMPL_RETYPE
#define R_RET MKF_RULE_RETYPE
#define RET MKF_PROTO_RETYPE
#define LEAVE MKF_DECISION_LEAVE_WEAK
#define UNRES MKF_DECISION_UNRESOLVED
#define SAME MKF_PROTO_SAME
#define EXT MKF_PROTO_EXTEND
#define SHR MKF_PROTO_SHRINK
#define L_OK MKF_LIBBPF_BINDS
#define L_UNCALL MKF_LIBBPF_BINDS_UNCALLABLE
#define L_NF MKF_LIBBPF_NOT_FOUND
#define L_INC MKF_LIBBPF_INCOMPATIBLE

static const char WQ[] = "bpf_wq_set_callback", WQI[] = "bpf_wq_set_callback_impl";
static const char ST[] = "bpf_stream_vprintk", STI[] = "bpf_stream_vprintk_impl";
static const char TW[] = "bpf_task_work_schedule_signal",
		  TWI[] = "bpf_task_work_schedule_signal_impl";

static const struct rcase cases[] = {
	/* A program written for 7.x: bpf_wq_set_callback(wq, cb, flags). */
	{ "wq-new/6.12-deb12 (no tags, aux__ign)", FX_612_DEB12, false, WQ, SH_WQ_NEW, true,
	  BIND, R_IEXT, WQI, NULL, EXT, 1, 0, L_NF, "'void *aux__ign'", NULL },
	{ "wq-new/6.12-deb13", FX_612_DEB13, false, WQ, SH_WQ_NEW, true,
	  BIND, R_IEXT, WQI, NULL, EXT, 1, 0, L_NF, NULL, NULL },
	{ "wq-new/6.16 (aux__prog)", FX_616, false, WQ, SH_WQ_NEW, true,
	  BIND, R_IEXT, WQI, NULL, EXT, 1, 0, L_NF, "'void *aux__prog'", NULL },
	{ "wq-new/6.18", FX_618, false, WQ, SH_WQ_NEW, false,
	  BIND, R_IEXT, WQI, NULL, EXT, 1, 0, L_NF, NULL, NULL },
	{ "wq-new/7.0", FX_70, false, WQ, SH_WQ_NEW, true,
	  BIND, R_SAME, WQ, NULL, SAME, 0, 0, L_OK, NULL, "renamed" },
	{ "wq-new/7.3", FX_73, false, WQ, SH_WQ_NEW, false,
	  BIND, R_SAME, WQ, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "wq-new/patched-6.12 (both callable)", FX_PATCHED_612, false, WQ, SH_WQ_NEW,
	  true, BIND, R_SAME, WQ, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	/*
	 * Old pahole: the public bpf_wq_set_callback keeps its aux and has
	 * no _impl. Its verifier takes the prototype from the _impl, so no
	 * call to it loads (measured on linux-source-7.2 built with pahole
	 * 1.24): the weak extern is left 0, not bound.
	 */
	{ "wq-new/old-pahole shape (not callable: left 0)", FX_OLD_PAHOLE, false, WQ, SH_WQ_NEW,
	  true, LEAVE, R_NONE, NULL, NULL, SAME, 0, 0, L_INC,
	  "old-pahole KF_IMPLICIT_ARGS shape", "binds" },

	/* A program written for 6.x: bpf_wq_set_callback_impl(wq, cb, flags, NULL). */
	{ "wq-old/6.12-deb12", FX_612_DEB12, false, WQI, SH_WQ_OLD, false,
	  BIND, R_ISAME, WQI, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "wq-old/6.16", FX_616, false, WQI, SH_WQ_OLD, false,
	  BIND, R_ISAME, WQI, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "wq-old/7.0 (shrink to the short form)", FX_70, false, WQI, SH_WQ_OLD, false,
	  BIND, R_SHR, WQ, NULL, SHR, -1, 0, L_INC, "'struct bpf_prog_aux *aux'", NULL },
	{ "wq-old/7.3", FX_73, false, WQI, SH_WQ_OLD, false,
	  BIND, R_SHR, WQ, NULL, SHR, -1, 0, L_INC, "renamed from 'bpf_wq_set_callback_impl'",
	  NULL },
	{ "wq-old/7.0 weak (sched_ext-style compat)", FX_70, false, WQI, SH_WQ_OLD, true,
	  BIND, R_SHR, WQ, NULL, SHR, -1, 0, L_INC, "although the extern is weak", NULL },
	{ "wq-old/patched-6.12 (prefers the short name; plain libbpf binds _impl)", FX_PATCHED_612,
	  false, WQI, SH_WQ_OLD, false, BIND, R_SHR, WQ, NULL, SHR, -1, 0, L_OK, "'void *aux__ign'",
	  NULL },
	{ "wq-old/old-pahole (no retype onto the unsplit prototype)", FX_OLD_PAHOLE, false, WQI,
	  SH_WQ_OLD, false, UNRES, R_NONE, NULL, NULL, SAME, 0, 0, L_NF,
	  "refuses every call to 'bpf_wq_set_callback'", "rule retype" },
	{ "wq-aux/6.16 (retype: struct bpf_prog_aux * vs void *aux__prog)", FX_616, false, WQI,
	  SH_WQ_AUX, false, BIND, R_IRET, WQI, NULL, RET, 0, 0, L_INC,
	  "differs from the program's prototype only in the types of verifier-provided", NULL },
	{ "wq-aux/6.12-deb12 (retype against void *aux__ign)", FX_612_DEB12, false, WQI,
	  SH_WQ_AUX, false, BIND, R_IRET, WQI, NULL, RET, 0, 0, L_INC, NULL, NULL },
	{ "wq-aux/7.0 (libbpf binds proto-only _impl)", FX_70, false, WQI, SH_WQ_AUX, false,
	  BIND, R_SHR, WQ, NULL, SHR, -1, 0, L_UNCALL, "verifier refuses the call", NULL },

	/* bpf_stream_vprintk across 6.16 - 7.x. */
	{ "stream-new/6.16 weak (absent)", FX_616, false, ST, SH_STREAM_NEW, true,
	  LEAVE, R_NONE, NULL, NULL, SAME, 0, 0, L_NF, "resolves to 0", NULL },
	{ "stream-new/6.17 (5-arg public form)", FX_617, false, ST, SH_STREAM_NEW, true,
	  BIND, R_EXT, ST, NULL, EXT, 1, 0, L_INC, "aux__prog", "old-pahole" },
	{ "stream-new/6.18 (_impl only)", FX_618, false, ST, SH_STREAM_NEW, true,
	  BIND, R_IEXT, STI, NULL, EXT, 1, 0, L_NF, NULL, NULL },
	{ "stream-new/7.0", FX_70, false, ST, SH_STREAM_NEW, true,
	  BIND, R_SAME, ST, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "stream-617/6.17", FX_617, false, ST, SH_STREAM_617, false,
	  BIND, R_SAME, ST, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "stream-617/6.18 (rename to _impl)", FX_618, false, ST, SH_STREAM_617, false,
	  BIND, R_ISAME, STI, NULL, SAME, 0, 0, L_NF, "renamed from 'bpf_stream_vprintk'", NULL },
	{ "stream-617/7.0 (shrink)", FX_70, false, ST, SH_STREAM_617, false,
	  BIND, R_SHR, ST, NULL, SHR, -1, 0, L_INC, "kernel takes 4 params, the program passes 5",
	  NULL },
	{ "stream-617/6.16 strong (no candidate at all)", FX_616, false, ST, SH_STREAM_617,
	  false, UNRES, R_NONE, NULL, NULL, SAME, 0, 0, L_NF,
	  "'bpf_stream_vprintk_impl': not in vmlinux or module BTF", NULL },

	/* bpf_task_work_schedule_signal. */
	{ "task-work-new/6.18", FX_618, false, TW, SH_TW_NEW, true,
	  BIND, R_IEXT, TWI, NULL, EXT, 1, 0, L_NF, NULL, NULL },
	{ "task-work-new/7.0", FX_70, false, TW, SH_TW_NEW, true,
	  BIND, R_SAME, TW, NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "task-work-new/6.16 weak (absent)", FX_616, false, TW, SH_TW_NEW, true,
	  LEAVE, R_NONE, NULL, NULL, SAME, 0, 0, L_NF, NULL, NULL },
	{ "task-work-old/7.0 (shrink)", FX_70, false, TWI, SH_TW_OLD, false,
	  BIND, R_SHR, TW, NULL, SHR, -1, 0, L_INC, NULL, NULL },

	/* The btf_struct_meta family. */
	{ "obj-new/6.12-deb12 (extend with meta__ign)", FX_612_DEB12, false, "bpf_obj_new",
	  SH_OBJ_NEW, false, BIND, R_IEXT, "bpf_obj_new_impl", NULL, EXT, 1, 0, L_NF,
	  "meta__ign", NULL },
	{ "obj-new/7.3", FX_73, false, "bpf_obj_new", SH_OBJ_NEW, false,
	  BIND, R_SAME, "bpf_obj_new", NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "obj-old/7.3 (shrink)", FX_73, false, "bpf_obj_new_impl", SH_OBJ_OLD, false,
	  BIND, R_SHR, "bpf_obj_new", NULL, SHR, -1, 0, L_OK, NULL, NULL },
	{ "obj-old/7.0", FX_70, false, "bpf_obj_new_impl", SH_OBJ_OLD, false,
	  BIND, R_ISAME, "bpf_obj_new_impl", NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "list-new/7.0 strong: R4 set before the call (verifier-checked scalar)", FX_70, false,
	  "bpf_list_push_back", SH_LIST_NEW, false, BIND, R_IEXT, "bpf_list_push_back_impl", NULL,
	  EXT, 2, 1u << 4, L_NF, "the verifier checks that R4 holds a scalar", NULL },
	{ "list-new/6.12-deb12 weak: R4 set before the call", FX_612_DEB12, false,
	  "bpf_list_push_back", SH_LIST_NEW, true, BIND, R_IEXT, "bpf_list_push_back_impl", NULL,
	  EXT, 2, 1u << 4, L_NF, "sets it to 0 before every call", NULL },
	{ "list-new/7.3", FX_73, false, "bpf_list_push_back", SH_LIST_NEW, false,
	  BIND, R_SAME, "bpf_list_push_back", NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "list-old/7.0", FX_70, false, "bpf_list_push_back_impl", SH_LIST_OLD, false,
	  BIND, R_ISAME, "bpf_list_push_back_impl", NULL, SAME, 0, 0, L_OK, NULL, NULL },
	{ "list-old/7.3 (shrink by 2)", FX_73, false, "bpf_list_push_back_impl", SH_LIST_OLD,
	  false, BIND, R_SHR, "bpf_list_push_back", NULL, SHR, -2, 0, L_OK, NULL, NULL },
	{ "rbtree-new/6.16 strong: R5 set before the call", FX_616, false, "bpf_rbtree_add",
	  SH_RB_NEW, false, BIND, R_IEXT, "bpf_rbtree_add_impl", NULL, EXT, 2, 1u << 5, L_NF,
	  "R5 holds a scalar", NULL },

	/* Module kfuncs (split BTF over vmlinux). */
	{ "module/7.0 short form", FX_70, true, "mkf_testmod_magic", SH_MOD_NEW, false,
	  BIND, R_SAME, "mkf_testmod_magic", "mkf_testmod", SAME, 0, 0, L_OK, "module mkf_testmod",
	  NULL },
	{ "module/7.0 old call shrinks", FX_70, true, "mkf_testmod_magic_impl", SH_MOD_OLD, false,
	  BIND, R_SHR, "mkf_testmod_magic", "mkf_testmod", SHR, -1, 0, L_INC, NULL, NULL },
	{ "module/6.16 legacy-only extends", FX_616, true, "mkf_testmod_legacy", SH_MOD_NEW,
	  false, BIND, R_IEXT, "mkf_testmod_legacy_impl", "mkf_testmod", EXT, 1, 0, L_NF, NULL,
	  NULL },
	{ "module/patched-6.12", FX_PATCHED_612, true, "mkf_testmod_magic", SH_MOD_NEW,
	  false, BIND, R_SAME, "mkf_testmod_magic", "mkf_testmod", SAME, 0, 0, L_OK, NULL, NULL },

	/* ___flavor names: libbpf 1.1 looks them up verbatim, we strip. */
	{ "flavor/6.16", FX_616, false, "bpf_wq_set_callback___new", SH_WQ_NEW, true,
	  BIND, R_IEXT, WQI, NULL, EXT, 1, 0, L_NF, NULL, NULL },
	{ "flavor/7.0 renamed", FX_70, false, "bpf_wq_set_callback___v70", SH_WQ_NEW, true,
	  BIND, R_SAME, WQ, NULL, SAME, 0, 0, L_NF, "renamed from 'bpf_wq_set_callback___v70'",
	  NULL },
	{ "flavor/7.0 old call", FX_70, false, "bpf_wq_set_callback_impl___old", SH_WQ_OLD, true,
	  BIND, R_SHR, WQ, NULL, SHR, -1, 0, L_NF, NULL, NULL },
	{ "flavor/only the last suffix is stripped", FX_70, false, "bpf_wq_set_callback___a___b",
	  SH_WQ_NEW, true, LEAVE, R_NONE, NULL, NULL, SAME, 0, 0, L_NF,
	  "'bpf_wq_set_callback___a'", NULL },

	/* Weak vs strong with a real prototype mismatch. */
	{ "mismatch/7.0 strong (diagnosis per param)", FX_70, false, WQ, SH_WQ_BADTYPE, false,
	  UNRES, R_NONE, NULL, NULL, SAME, 0, 0, L_INC,
	  "param 1: program 'int', kernel 'struct bpf_wq *wq'", NULL },
	{ "mismatch/7.0 strong lists proto-only _impl", FX_70, false, WQ, SH_WQ_BADTYPE, false,
	  UNRES, R_NONE, NULL, NULL, SAME, 0, 0, L_INC, "prototype-only", NULL },
	{ "mismatch/7.0 weak (libbpf 1.1 refuses the object)", FX_70, false, WQ, SH_WQ_BADTYPE,
	  true, LEAVE, R_NONE, NULL, NULL, SAME, 0, 0, L_INC,
	  "refuses the whole object although the extern is weak", NULL },
};

static struct btf *kernels[FX_ERA_CNT], *modules[FX_ERA_CNT];
static struct mkf_kernel *kidx[FX_ERA_CNT], *kidx_mod[FX_ERA_CNT];

static const struct mkf_kernel *kernel_for(enum fx_era era, bool module)
{
	if (!kernels[era]) {
		bool tags = era != FX_612_DEB12;

		kernels[era] = fx_kernel(era);
		kidx[era] = mkf_kernel__new(kernels[era]);
		modules[era] = fx_module(kernels[era], tags);
		kidx_mod[era] = mkf_kernel__new(kernels[era]);
		if (mkf_kernel__add_module(kidx_mod[era], "mkf_testmod", modules[era]))
			return NULL;
	}
	return module ? kidx_mod[era] : kidx[era];
}

/* The resolver's decision in words, as a plan's reason starts. */
static char *say(const struct mkf_resolution *res, const struct btf *lb,
		 const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm)
{
	struct mkf_sb sb = {};

	mkf_resolution_say(res, lb, ext, lbm, &sb);
	return mkf_sb_steal(&sb) ?: strdup("(out of memory)");
}

static void run_case(const struct rcase *c)
{
	const struct mkf_kernel *k = kernel_for(c->era, c->module);
	struct mkf_resolution res;
	struct mkf_extern ext = {};
	struct fx_local l;
	char name[256], *reason;
	int proto, fn;
	const char *bad = NULL;
	char detail[512] = "";

	snprintf(name, sizeof(name), "resolve %s", c->name);
	if (!k || fx_local_init(&l)) {
		t_fail(name, "fixture setup failed");
		return;
	}
	fn = fx_local_extern(&l, c->ext, c->shape, &proto);
	ext.name = (char *)c->ext;
	ext.essential = strndup(c->ext, mkf_essential_name_len(c->ext));
	ext.func_id = fn;
	ext.proto_id = proto;
	ext.weak = c->weak;
	if (mkf_resolve(k, l.btf, &ext, &lbm11, &res)) {
		t_fail(name, "mkf_resolve failed");
		goto out_free;
	}
	reason = say(&res, l.btf, &ext, &lbm11);
	if (res.decision != c->decision)
		bad = "decision";
	else if (res.rule != c->rule)
		bad = "rule";
	else if (!c->kernel_name != !res.target ||
		 (res.target && strcmp(res.target->name, c->kernel_name)))
		bad = "kernel function";
	else if (res.target && (!c->module_name != !res.target->module_name ||
		 (c->module_name && strcmp(c->module_name, res.target->module_name))))
		bad = "module";
	else if (res.target && (res.change != c->change || res.delta != c->delta))
		bad = "prototype change";
	else if (res.set_regs != c->set_regs)
		bad = "registers set before the calls";
	else if (c->libbpf != ANY && (int)res.libbpf != c->libbpf)
		bad = "plain-libbpf outcome";
	else if (c->reason_has && !strstr(reason, c->reason_has))
		bad = "reason text";
	else if (c->reason_lacks && strstr(reason, c->reason_lacks))
		bad = "reason text (unexpected)";
	if (bad)
		snprintf(detail, sizeof(detail),
			 "%s: got decision %d rule %s -> %s change %d delta %d set_regs %#x libbpf %d; reason: %s",
			 bad, res.decision, mkf_rule_str(res.rule), res.target ? res.target->name : "(none)",
			 res.change, res.delta, res.set_regs, res.libbpf, reason);
	t_check(name, !bad, "%s", detail);
	if (getenv("MKF_TEST_VERBOSE"))
		printf("%s", reason);
	free(reason);
	mkf_resolution_free(&res);
out_free:
	free(ext.essential);
	btf__free(l.btf);
}

static void test_essential_names(void)
{
	static const struct {
		const char *in;
		size_t len;
	} t[] = {
		{ "bpf_wq_set_callback", 19 },
		{ "bpf_wq_set_callback___v2", 19 },
		{ "bpf_wq_set_callback___a___b", 23 },
		{ "foo____x", 8 },	/* four underscores: not a separator */
		{ "___x", 4 },
		{ "a___", 4 },
	};
	size_t i;
	bool ok = true;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ok = ok && mkf_essential_name_len(t[i].in) == t[i].len;
	t_check("essential name strips only libbpf's last ___flavor", ok, "mismatch at case %zu", i);
}

static void test_param_rules(void)
{
	struct btf *k = fx_kernel(FX_73);
	int p, cptr;

	/* bpf_list_push_back_impl(head, node, void *meta__ign, u64 off) */
	p = btf__type_by_id(k, btf__find_by_name_kind(k, "bpf_list_push_back_impl",
							BTF_KIND_FUNC))->type;
	T_EXPECT("param rule: __ign suffix is provided",
		mkf_param_info(k, "bpf_list_push_back_impl", p, 2).kind == MKF_PARAM_PROVIDED);
	T_EXPECT("param rule: list off is a verifier-checked scalar",
		mkf_param_info(k, "bpf_list_push_back_impl", p, 3).kind == MKF_PARAM_CHECKED_SCALAR);
	T_EXPECT("param rule: head is an ordinary param",
		mkf_param_info(k, "bpf_list_push_back_impl", p, 0).kind == MKF_PARAM_NORMAL);
	/* bpf_wq_set_callback_impl(..., struct bpf_prog_aux *aux): by type. */
	p = btf__type_by_id(k, btf__find_by_name_kind(k, "bpf_wq_set_callback_impl",
							BTF_KIND_FUNC))->type;
	T_EXPECT("param rule: struct bpf_prog_aux * is provided by type",
		mkf_param_info(k, "bpf_wq_set_callback_impl", p, 3).by_type);
	btf__free(k);

	/* 6.17+: bpf_strlen(const char *s__ign) takes a real pointer. */
	k = btf__new_empty();
	cptr = btf__add_ptr(k, btf__add_const(k, btf__add_int(k, "char", 1, BTF_INT_SIGNED)));
	p = btf__add_func_proto(k, btf__add_int(k, "int", 4, BTF_INT_SIGNED));
	/* The parameter must follow its prototype directly. */
	T_EXPECT("fixture: bpf_strlen's prototype", btf__add_func_param(k, "s__ign", cptr) == 0);
	T_EXPECT("param rule: a char pointer named __ign is not provided (bpf_strlen)",
		mkf_param_info(k, "bpf_strlen", p, 0).kind == MKF_PARAM_NORMAL);
	btf__free(k);
}

static void test_compat_rules(void)
{
	struct btf *a = btf__new_empty(), *b = btf__new_empty();
	int a_int = btf__add_int(a, "int", 4, BTF_INT_SIGNED);
	int a_long = btf__add_int(a, "long", 8, BTF_INT_SIGNED);
	int a_fwd = btf__add_fwd(a, "s", BTF_FWD_STRUCT);
	int a_fwdp = btf__add_ptr(a, a_fwd);
	int a_enum = btf__add_enum(a, "e", 4);
	int a_vptr = btf__add_ptr(a, 0);
	int b_int = btf__add_int(b, "unsigned char", 1, 0);
	int b_st = btf__add_struct(b, "other_name", 8);
	int b_stp = btf__add_ptr(b, b_st);
	int b_enum64 = btf__add_enum64(b, "e", 8, false);
	int a_st = btf__add_struct(a, "s", 4);
	int a_stp = btf__add_ptr(a, a_st);

	T_EXPECT("compat: ints of any size", mkf_types_compat(a, a_int, b, b_int) == 1);
	T_EXPECT("compat: int vs long", mkf_types_compat(a, a_long, b, b_int) == 1);
	T_EXPECT("compat: struct names not compared below top level",
		mkf_types_compat(a, a_stp, b, b_stp) == 1);
	T_EXPECT("compat: declaration-only struct does not match a definition",
		mkf_types_compat(a, a_fwdp, b, b_stp) == 0);
	T_EXPECT("compat: enum vs enum64", mkf_types_compat(a, a_enum, b, b_enum64) == 1);
	T_EXPECT("compat: void * vs struct *", mkf_types_compat(a, a_vptr, b, b_stp) == 0);
	btf__free(a);
	btf__free(b);
}

static void test_kernel_index(void)
{
	struct btf *vm = fx_kernel(FX_70), *mod = fx_module(vm, true);
	struct btf *vm12 = fx_kernel(FX_612_DEB12);
	struct mkf_kernel *k = mkf_kernel__new(vm), *k12 = mkf_kernel__new(vm12);
	const struct mkf_func *f;

	mkf_kernel__add_module(k, "mkf_testmod", mod);
	T_EXPECT("kernel index: tags found", mkf_kernel__has_kfunc_tags(k));
	T_EXPECT("kernel index: no tags on Debian 12's 6.12", !mkf_kernel__has_kfunc_tags(k12));
	f = mkf_kernel_find(k12, "vfs_read");
	T_EXPECT("kernel index: without tags every FUNC is callable",
		f && mkf_func_callable(f));
	f = mkf_kernel_find(k, "bpf_wq_set_callback_impl");
	T_EXPECT("kernel index: untagged FUNC is prototype-only when tags exist",
		f && !mkf_func_callable(f));
	f = mkf_kernel_find(k, "mkf_testmod_magic");
	T_EXPECT("kernel index: module FUNC found with its module",
		f && f->module_name && !strcmp(f->module_name, "mkf_testmod"));
	T_EXPECT("kernel index: module count and name", mkf_kernel__module_cnt(k) == 1 &&
		!strcmp(mkf_kernel__module_name(k, 0), "mkf_testmod"));
	T_EXPECT("kernel index: add_module refuses BTF of another base",
		mkf_kernel__add_module(k12, "x", mod) < 0);
	T_EXPECT("kernel index: missing name", !mkf_kernel_find(k, "no_such_function"));
	mkf_kernel__free(k);
	mkf_kernel__free(k12);
	btf__free(mod);
	btf__free(vm);
	btf__free(vm12);
}

/*
 * A name defined more than once: libbpf binds the first FUNC of vmlinux
 * (lowest id), a module's only when vmlinux has none. Enough FUNCs to
 * make the hash table grow while a module is added.
 */
static void test_kernel_index_first_wins(void)
{
	struct btf *vm = btf__new_empty(), *mod = NULL;
	struct mkf_kernel *k = NULL;
	const struct mkf_func *f, *g;
	int proto = -1, first = -1, i, mod_first = -1;
	bool added;
	char name[32];

	if (vm && btf__add_int(vm, "int", 4, BTF_INT_SIGNED) == 1)
		proto = btf__add_func_proto(vm, 1);
	if (proto > 0) {
		first = btf__add_func(vm, "dup", BTF_FUNC_GLOBAL, proto);
		btf__add_func(vm, "dup", BTF_FUNC_GLOBAL, proto);
	}
	for (i = 0; proto > 0 && i < 200; i++) {
		snprintf(name, sizeof(name), "vm_func_%d", i);
		btf__add_func(vm, name, BTF_FUNC_GLOBAL, proto);
	}
	mod = vm ? btf__new_empty_split(vm) : NULL;
	for (i = 0; mod && i < 300; i++) {
		snprintf(name, sizeof(name), "mod_func_%d", i);
		btf__add_func(mod, name, BTF_FUNC_GLOBAL, proto);
	}
	if (mod) {
		btf__add_func(mod, "dup", BTF_FUNC_GLOBAL, proto);
		mod_first = btf__add_func(mod, "mod_dup", BTF_FUNC_GLOBAL, proto);
		btf__add_func(mod, "mod_dup", BTF_FUNC_GLOBAL, proto);
		k = mkf_kernel__new(vm);
	}
	added = k && !mkf_kernel__add_module(k, "m", mod);
	f = added ? mkf_kernel_find(k, "dup") : NULL;
	g = added ? mkf_kernel_find(k, "mod_dup") : NULL;
	T_EXPECT("kernel index: a name in vmlinux twice and in a module binds vmlinux's first",
		f && (int)f->id == first && !f->module_name);
	T_EXPECT("kernel index: a name twice in a module binds the module's first",
		g && (int)g->id == mod_first && g->module_name);
	T_EXPECT("kernel index: every FUNC found after the table grew",
		added && mkf_kernel_find(k, "vm_func_199") && mkf_kernel_find(k, "mod_func_0") &&
		mkf_kernel_find(k, "mod_func_299"));
	mkf_kernel__free(k);
	btf__free(mod);
	btf__free(vm);
}

/*
 * btf read back from a file of its bytes (split on base if given), as
 * kernel BTF is read. Through a file: libbpf 1.1 does not export
 * btf__new_split().
 */
static struct btf *reparse(const struct btf *btf, struct btf *base)
{
	char path[] = "/tmp/mkf-unit-btf.XXXXXX";
	struct btf *out = NULL;
	const void *raw;
	__u32 sz;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;

	raw = f ? btf__raw_data(btf, &sz) : NULL;
	if (raw && fwrite(raw, 1, sz, f) == sz && !fflush(f))
		out = base ? btf__parse_raw_split(path, base) : btf__parse_raw(path);
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	if (fd >= 0)
		unlink(path);
	return out;
}

/* FUNC name taking (int x, struct bpf_prog_aux *aux_name), tagged a kfunc. */
static int add_aux_kfunc(struct btf *b, const char *name, int i32, int auxp,
			 const char *aux_name)
{
	int proto = btf__add_func_proto(b, i32), f;

	if (proto < 0 || btf__add_func_param(b, "x", i32) ||
	    btf__add_func_param(b, aux_name, auxp))
		return -1;
	f = btf__add_func(b, name, BTF_FUNC_GLOBAL, proto);
	return f > 0 ? btf__add_decl_tag(b, "bpf_kfunc", f, -1) : f;
}

/*
 * mkf_func_unsplit() keeps its answer with the function; a module
 * added afterwards may bring the _impl twin, and the answer changes.
 */
static void test_unsplit_memo(void)
{
	struct btf *vm = btf__new_empty(), *mod = NULL;
	const struct mkf_func *fn = NULL;
	struct mkf_kernel *k = NULL;
	int i32, auxp, before = -1, again = -1, after = -1;

	/*
	 * All BTF first: the kernel keeps pointers to names where libbpf
	 * keeps them, and adding to a split BTF after the kernel was made
	 * changed what those pointed at.
	 */
	i32 = btf__add_int(vm, "int", 4, BTF_INT_SIGNED);
	auxp = btf__add_ptr(vm, btf__add_struct(vm, "bpf_prog_aux", 0));
	/* The split BTF after its base is complete: it numbers on from there. */
	if (add_aux_kfunc(vm, "uns", i32, auxp, "aux") > 0)
		mod = btf__new_empty_split(vm);
	if (mod && add_aux_kfunc(mod, "uns_impl", i32, auxp, "aux__magic") > 0)
		k = mkf_kernel__new(vm);
	fn = k ? mkf_kernel_find(k, "uns") : NULL;
	if (fn) {
		before = mkf_func_unsplit(fn);
		again = mkf_func_unsplit(fn);
		if (!mkf_kernel__add_module(k, "twin", mod))
			after = mkf_func_unsplit(fn);
	}
	t_check("unsplit: foo(..., struct bpf_prog_aux *aux) without a twin, asked twice",
		before == 1 && again == 1, "%d, then %d", before, again);
	t_check("unsplit: a module bringing foo_impl changes the answer", after == 0,
		"%d", after);
	mkf_kernel__free(k);
	btf__free(mod);
	btf__free(vm);
}

/*
 * The index reads names straight from the string tables of BTF parsed
 * from bytes, eight at a time in a scan, and through libbpf for BTF
 * built with btf__add_*(): both must give the same answers, for names
 * shorter than eight bytes, sharing eight with another, at the very end
 * of a string table, and a module FUNC whose name is in its base's.
 */
static void test_kernel_index_strings(void)
{
	static const char *const vm_funcs[] = {
		"a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "bpf_wq_s",
		"bpf_wq_set_callback", "bpf_wq_set_callback_impl", "y",
	};
	static const char *const mod_funcs[] = {
		"shared_name", "abcdefgh", "mod_only_function", "z",
	};
	static const char *const misses[] = {
		"", "abc", "abcdefgX", "abcdefgh_", "bpf_wq_s_x", "bpf_wq_set_callbac",
		"shared_nam", "zz", "y_",
	};
	struct btf *vm = btf__new_empty(), *mod = NULL, *vm2 = NULL, *mod2 = NULL;
	struct mkf_kernel *k1 = NULL, *k2 = NULL;
	const char *names[32];
	size_t n = 0, i, bad = 0, refs_bad = 0;
	int proto = -1, shared = -1;

	if (vm && btf__add_int(vm, "int", 4, BTF_INT_SIGNED) == 1)
		proto = btf__add_func_proto(vm, 1);
	if (proto > 0)
		btf__add_struct(vm, "shared_name", 0);
	for (i = 0; proto > 0 && i < sizeof(vm_funcs) / sizeof(vm_funcs[0]); i++)
		btf__add_func(vm, vm_funcs[i], BTF_FUNC_GLOBAL, proto);
	mod = proto > 0 ? btf__new_empty_split(vm) : NULL;
	for (i = 0; mod && i < sizeof(mod_funcs) / sizeof(mod_funcs[0]); i++) {
		int id = btf__add_func(mod, mod_funcs[i], BTF_FUNC_GLOBAL, proto);

		if (i == 0)
			shared = id;
	}
	vm2 = mod ? reparse(vm, NULL) : NULL;
	mod2 = vm2 ? reparse(mod, vm2) : NULL;
	k1 = mod2 ? mkf_kernel__new(vm) : NULL;
	k2 = k1 ? mkf_kernel__new(vm2) : NULL;
	if (!k2 || mkf_kernel__add_module(k1, "m", mod) || mkf_kernel__add_module(k2, "m", mod2)) {
		T_EXPECT("kernel index strings: fixtures", false);
		goto out;
	}
	T_EXPECT("kernel index strings: BTF built with libbpf is read through libbpf",
		 !k1->parts[0].strs && !k1->parts[1].strs);
	T_EXPECT("kernel index strings: BTF parsed from bytes is read directly, module after base",
		 k2->parts[0].strs && k2->parts[1].strs &&
		 k2->parts[1].str_start == k2->parts[0].str_len);
	T_EXPECT("kernel index strings: the module FUNC named like a base type uses the base's string",
		 shared > 0 && btf__type_by_id(mod2, shared)->name_off < k2->parts[1].str_start);
	T_EXPECT("kernel index strings: the same FUNCs described",
		 k1->ref_cnt == k2->ref_cnt &&
		 k1->ref_cnt == sizeof(vm_funcs) / sizeof(vm_funcs[0]) +
				sizeof(mod_funcs) / sizeof(mod_funcs[0]));
	for (i = 0; i < k1->ref_cnt && i < k2->ref_cnt; i++) {
		const char *a = mkf_ref_name(k1, i), *b = mkf_ref_name(k2, i);

		refs_bad += !a || !b || strcmp(a, b);
	}
	T_EXPECT("kernel index strings: every described name the same both ways", !refs_bad);

	for (i = 0; i < sizeof(vm_funcs) / sizeof(vm_funcs[0]); i++)
		names[n++] = vm_funcs[i];
	for (i = 0; i < sizeof(mod_funcs) / sizeof(mod_funcs[0]); i++)
		names[n++] = mod_funcs[i];
	for (i = 0; i < sizeof(misses) / sizeof(misses[0]); i++)
		names[n++] = misses[i];
	/* Half in one scan, the rest one at a time. */
	mkf_kernel_prefetch(k1, names, n / 2);
	mkf_kernel_prefetch(k2, names, n / 2);
	for (i = 0; i < n; i++) {
		const struct mkf_func *f1 = mkf_kernel_find(k1, names[i]);
		const struct mkf_func *f2 = mkf_kernel_find(k2, names[i]);
		bool hit = i < sizeof(vm_funcs) / sizeof(vm_funcs[0]) +
			       sizeof(mod_funcs) / sizeof(mod_funcs[0]);

		if (!f1 != !f2 || !f1 != !hit ||
		    (f1 && (f1->id != f2->id || !f1->module_name != !f2->module_name ||
			    strcmp(f1->name, names[i]) || strcmp(f2->name, names[i])))) {
			printf("# '%s': %s libbpf's way, %s directly\n", names[i],
			       f1 ? "found" : "missed", f2 ? "found" : "missed");
			bad++;
		}
	}
	T_EXPECT("kernel index strings: every lookup the same both ways, misses missed", !bad);
	T_EXPECT("kernel index strings: a name in vmlinux and a module binds vmlinux's",
		 mkf_kernel_find(k2, "abcdefgh") && !mkf_kernel_find(k2, "abcdefgh")->module_name);
out:
	mkf_kernel__free(k2);
	mkf_kernel__free(k1);
	btf__free(mod2);
	btf__free(vm2);
	btf__free(mod);
	btf__free(vm);
}

/*
 * Hand-built kernels for what the era fixtures do not have: each
 * refusal of the resolver, suffixes no verifier fills for (__implicit,
 * __ign outside its table), struct btf_struct_meta by its type for the
 * graph kfuncs only, and __magic on a type that alone would not be
 * provided. The kernel's functions are named after the extern.
 * The program's side is int foo(int) or int foo(int, void *).
 */
struct kshape {
	const char *name;	/* test name */
	const char *ext;	/* the extern */
	int local_params;	/* 1: (int), 2: (int, void *) */
	/* The kernel: "B" and "B_impl" prototypes as param lists, NULL = absent;
	 * a leading '!' leaves that one untagged (prototype-only). */
	const char *b, *bi;
	enum mkf_decision decision;
	enum mkf_rule rule;
	const char *kernel_name;
	const char *reason_has;
	bool weak;
	int libbpf;			/* enum mkf_libbpf_outcome or 0: not checked */
};

/* Parameter types by letter, indexes into the kernel's types[]: int,
 * void *, struct bpf_prog_aux *, struct btf_struct_meta *, long *. */
#define PTYPES "ivaml"

/* "i:x,v:aux__ign" -> FUNC name with those params, tagged. */
static void kfunc_from(struct btf *b, const char *name, const char *spec, const int types[])
{
	char buf[256], *save = NULL, *tok;
	int proto = btf__add_func_proto(b, types[0]), fn;
	bool tagged = spec[0] != '!';

	snprintf(buf, sizeof(buf), "%s", spec + !tagged);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		btf__add_func_param(b, tok + 2, types[strchr(PTYPES, tok[0]) - PTYPES]);
	fn = btf__add_func(b, name, BTF_FUNC_GLOBAL, proto);
	if (tagged)
		btf__add_decl_tag(b, "bpf_kfunc", fn, -1);
}

static const struct kshape kshapes[] = {
	{ "refusal: an extra kernel param the verifier does not provide", "foo", 1,
	  NULL, "i:x,i:flags", UNRES, R_NONE, NULL,
	  "param 2 'int flags' is not verifier-provided: the program would have to pass it", false, 0 },
	{ "refusal: fewer params and no B_impl to tell the extra are dummies", "foo_impl", 2,
	  "i:x", NULL, UNRES, R_NONE, NULL,
	  "no 'foo_impl' in the kernel tells whether the extra ones are dummies", false, 0 },
	{ "refusal: B_impl's count differs from the program's: cannot be matched", "foo_impl", 2,
	  "i:x", "!i:x,v:a__ign,v:b__ign", UNRES, R_NONE, NULL,
	  "the extra ones cannot be matched", false, 0 },
	{ "refusal: dropping a param the kernel's B_impl says is real", "foo_impl", 2,
	  "i:x", "!i:x,v:data", UNRES, R_NONE, NULL,
	  "is not verifier-provided: the program's value would be lost", false, 0 },
	{ "rule: no kernel fills a parameter for an __implicit suffix", "foo", 1,
	  NULL, "i:x,v:aux__implicit", UNRES, R_NONE, NULL,
	  "'void *aux__implicit' is not verifier-provided", false, 0 },
	{ "rule: struct btf_struct_meta * of a graph kfunc, callable _impl", "bpf_obj_new", 1,
	  NULL, "i:x,m:meta", BIND, R_IEXT, "bpf_obj_new_impl", "'struct btf_struct_meta *meta'", false, 0 },
	{ "rule: struct btf_struct_meta * of another kfunc is not provided", "foo", 1,
	  NULL, "i:x,m:meta", UNRES, R_NONE, NULL,
	  "'struct btf_struct_meta *meta' is not verifier-provided", false, 0 },
	{ "rule: the graph kfuncs' node offset follows their meta", "bpf_list_add", 1,
	  NULL, "i:x,m:meta,i:off", BIND, R_IEXT, "bpf_list_add_impl", "'int off'", false, 0 },
	{ "rule: 6.16's unsafe_ptr__ign is the program's pointer", "bpf_probe_read_kernel_dynptr", 1,
	  "i:x,v:unsafe_ptr__ign", NULL, UNRES, R_NONE, NULL,
	  "'void *unsafe_ptr__ign' is not verifier-provided", false, 0 },
	{ "rule: aux__ign is provided only for bpf_wq_set_callback_impl", "foo", 1,
	  NULL, "i:x,v:aux__ign", UNRES, R_NONE, NULL, "'void *aux__ign' is not verifier-provided", false, 0 },
	{ "rule: aux__ign of bpf_wq_set_callback_impl is provided", "bpf_wq_set_callback", 1,
	  NULL, "i:x,v:aux__ign", BIND, R_IEXT, "bpf_wq_set_callback_impl", "'void *aux__ign'", false, 0 },
	{ "rule: __magic on a long * is provided by its name alone", "foo", 1,
	  NULL, "i:x,l:p__magic", BIND, R_IEXT, "foo_impl", "'long *p__magic'", false, 0 },
	{ "rule: the same long * without __magic is not", "foo", 1,
	  NULL, "i:x,l:p", UNRES, R_NONE, NULL, "'long *p' is not verifier-provided", false, 0 },
	{ "retype: an ordinary param that differs forbids it", "foo_impl", 2,
	  NULL, "l:p,a:aux", UNRES, R_NONE, NULL, "prototype incompatible", false, 0 },
	{ "retype: only the provided param differs", "foo_impl", 2,
	  NULL, "i:x,a:aux", BIND, R_IRET, "foo_impl", "only in the types of verifier-provided", false, 0 },
	{ "rule: __ign on a non-void pointer is not provided", "foo", 1,
	  NULL, "i:x,l:s__ign", UNRES, R_NONE, NULL, "'long *s__ign' is not verifier-provided", false, 0 },
	/*
	 * Partly tagged kernels (a pahole that tagged some kfuncs): the
	 * verifier reads the kfunc ID sets, not the tags, so an untagged
	 * FUNC that plain libbpf binds by itself may load. It is left as
	 * plain libbpf takes it, strong or weak; the library binds no
	 * rename or prototype change to it. Only B_impl beside a tagged
	 * B is known prototype-only.
	 */
	{ "untagged: strong extern plain libbpf binds is left to it", "foo", 1,
	  "!i:x", NULL, MKF_DECISION_LEAVE, R_NONE, NULL, "'foo' has no bpf_kfunc tag and the "
	  "verifier decides", false, MKF_LIBBPF_BINDS_UNTAGGED },
	{ "untagged: weak extern plain libbpf binds is neither hidden nor left 0", "foo", 1,
	  "!i:x", NULL, MKF_DECISION_LEAVE, R_NONE, NULL, "binds 'foo', untagged", true,
	  MKF_LIBBPF_BINDS_UNTAGGED },
	{ "untagged: an _impl with no tagged B is not prototype-only", "foo_impl", 2,
	  NULL, "!i:x,v:aux__prog", MKF_DECISION_LEAVE, R_NONE, NULL,
	  "no DECL_TAG \"bpf_kfunc\" in a kernel that tags others", false,
	  MKF_LIBBPF_BINDS_UNTAGGED },
	{ "untagged: no rule binds an untagged _impl (impl-extend)", "foo", 1,
	  NULL, "!i:x,v:aux__prog", UNRES, R_NONE, NULL, "the library binds nothing to it", false,
	  MKF_LIBBPF_NOT_FOUND },
	{ "untagged: _impl beside a tagged B is prototype-only", "foo_impl", 2,
	  "i:x", "!i:x,a:aux", BIND, R_SHR, "foo", "renamed from 'foo_impl'", true,
	  MKF_LIBBPF_INCOMPATIBLE },
	{ "untagged: plain libbpf binding the prototype-only _impl is refused", "foo_impl", 2,
	  "i:x,i:y", "!i:x,v:aux__prog", UNRES, R_NONE, NULL, "binds prototype-only 'foo_impl'",
	  false, MKF_LIBBPF_BINDS_UNCALLABLE },
};

static void run_kshape(const struct kshape *s)
{
	struct btf *kb = btf__new_empty(), *lb = btf__new_empty();
	struct mkf_kernel *k = NULL;
	struct mkf_resolution res = {};
	struct mkf_extern ext = {};
	int types[5], li, lv, proto, fn;
	char name[256], base[64], base_impl[80], *reason = NULL;
	bool ok;

	snprintf(name, sizeof(name), "resolve %s", s->name);
	types[0] = btf__add_int(kb, "int", 4, BTF_INT_SIGNED);
	types[1] = btf__add_ptr(kb, 0);
	types[2] = btf__add_ptr(kb, btf__add_struct(kb, "bpf_prog_aux", 0));
	types[3] = btf__add_ptr(kb, btf__add_struct(kb, "btf_struct_meta", 0));
	types[4] = btf__add_ptr(kb, btf__add_int(kb, "long", 8, BTF_INT_SIGNED));
	/* The kernel's B and B_impl, named after the extern. */
	snprintf(base, sizeof(base), "%.*s", (int)(strlen(s->ext) - (strstr(s->ext, "_impl") ? 5 : 0)),
		 s->ext);
	snprintf(base_impl, sizeof(base_impl), "%s_impl", base);
	if (s->b)
		kfunc_from(kb, base, s->b, types);
	if (s->bi)
		kfunc_from(kb, base_impl, s->bi, types);
	/* A tagged kfunc of its own: the kernel tags kfuncs, so '!' means untagged. */
	kfunc_from(kb, "mkf_other_kfunc", "i:x", types);
	k = mkf_kernel__new(kb);
	li = btf__add_int(lb, "int", 4, BTF_INT_SIGNED);
	lv = btf__add_ptr(lb, 0);
	proto = btf__add_func_proto(lb, li);
	btf__add_func_param(lb, "", li);
	if (s->local_params == 2)
		btf__add_func_param(lb, "", lv);
	fn = btf__add_func(lb, s->ext, BTF_FUNC_EXTERN, proto);
	ext.name = (char *)s->ext;
	ext.essential = strdup(s->ext);
	ext.func_id = fn;
	ext.proto_id = proto;
	ext.weak = s->weak;
	if (!k || !ext.essential || mkf_resolve(k, lb, &ext, &lbm11, &res)) {
		t_fail(name, "setup or mkf_resolve failed");
		goto out;
	}
	reason = say(&res, lb, &ext, &lbm11);
	ok = res.decision == s->decision && res.rule == s->rule &&
	     (!s->kernel_name ? !res.target
			      : res.target && !strcmp(res.target->name, s->kernel_name)) &&
	     strstr(reason, s->reason_has) && (!s->libbpf || (int)res.libbpf == s->libbpf);
	t_check(name, ok, "got decision %d, rule %s, %s, libbpf %s; reason: %s", res.decision,
		mkf_rule_str(res.rule), res.target ? res.target->name : "(none)",
		mkf_libbpf_outcome_str(res.libbpf), reason);
out:
	free(reason);
	mkf_resolution_free(&res);
	free(ext.essential);
	mkf_kernel__free(k);
	btf__free(kb);
	btf__free(lb);
}

/*
 * The object's verdict for plain libbpf, from its externs' outcomes:
 * the worst wins, and a strong extern not found fails the load even
 * when a weak one dropped by libbpf 1.3+ is met first.
 */
static void test_libbpf_verdict(void)
{
	static const struct {
		const char *name;
		enum mkf_libbpf_outcome o[2];
		bool weak[2];
		size_t n;
		enum mkf_libbpf_verdict want;
	} cases[] = {
		{ "no kfunc extern: loads", { 0 }, { 0 }, 0, MKF_LIBBPF_LOADS },
		{ "all bind: loads", { MKF_LIBBPF_BINDS, MKF_LIBBPF_BINDS }, { false, true }, 2,
		  MKF_LIBBPF_LOADS },
		{ "a weak extern not found: loads without it",
		  { MKF_LIBBPF_BINDS, MKF_LIBBPF_NOT_FOUND }, { false, true }, 2,
		  MKF_LIBBPF_LOADS_DEGRADED },
		{ "a weak extern dropped (libbpf 1.3+): loads without it",
		  { MKF_LIBBPF_DROPPED, MKF_LIBBPF_BINDS }, { true, false }, 2,
		  MKF_LIBBPF_LOADS_DEGRADED },
		{ "a weak extern dropped, then a strong one not found: the load fails",
		  { MKF_LIBBPF_DROPPED, MKF_LIBBPF_NOT_FOUND }, { true, false }, 2,
		  MKF_LIBBPF_LOAD_FAILS },
		{ "a weak extern bound to a prototype-only function: the load fails",
		  { MKF_LIBBPF_BINDS_UNCALLABLE, MKF_LIBBPF_BINDS }, { true, false }, 2,
		  MKF_LIBBPF_LOAD_FAILS },
		{ "an incompatible prototype, even weak: the open fails",
		  { MKF_LIBBPF_NOT_FOUND, MKF_LIBBPF_INCOMPATIBLE }, { false, true }, 2,
		  MKF_LIBBPF_OPEN_FAILS },
	};
	struct mkf_plan_entry entries[2];
	struct mkf_plan plan;
	size_t i, j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&plan, 0, sizeof(plan));
		memset(entries, 0, sizeof(entries));
		for (j = 0; j < cases[i].n; j++) {
			entries[j].libbpf = cases[i].o[j];
			entries[j].weak = cases[i].weak[j];
		}
		plan.entries = entries;
		plan.entry_cnt = cases[i].n;
		t_check(cases[i].name, mkf_plan__libbpf_verdict(&plan) == cases[i].want,
			"got %s", mkf_libbpf_verdict_str(mkf_plan__libbpf_verdict(&plan)) ?: "?");
	}
	errno = 0;
	t_check("verdict of no plan: 0, EINVAL", !mkf_plan__libbpf_verdict(NULL) && errno == EINVAL,
		"errno %d", errno);
	t_check("verdict names", !strcmp(mkf_libbpf_verdict_str(MKF_LIBBPF_LOADS_DEGRADED),
					 "loads-degraded") && !mkf_libbpf_verdict_str(0),
		"%s", mkf_libbpf_verdict_str(MKF_LIBBPF_LOADS_DEGRADED));
}

int main(void)
{
	size_t i;
	int rc;

	t_quiet_library();
	lbm11 = mkf_libbpf_model_of(1, 1);
	test_essential_names();
	test_param_rules();
	test_compat_rules();
	for (size_t i = 0; i < sizeof(kshapes) / sizeof(kshapes[0]); i++)
		run_kshape(&kshapes[i]);
	test_kernel_index();
	test_kernel_index_first_wins();
	test_kernel_index_strings();
	test_unsplit_memo();
	test_libbpf_verdict();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);

	rc = t_done();
	for (i = 0; i < FX_ERA_CNT; i++) {
		mkf_kernel__free(kidx[i]);
		mkf_kernel__free(kidx_mod[i]);
		btf__free(modules[i]);
		btf__free(kernels[i]);
	}
	return rc;
}
