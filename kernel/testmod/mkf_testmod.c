// SPDX-License-Identifier: GPL-2.0
/*
 * mkf_testmod: kfuncs with KF_MAGIC_ARGS in a module, for the tests of the
 * magic-kfunc kernel series. Its BTF is rewritten by resolve_btfids at
 * module build time and its kfunc set is paired at registration, like
 * those of vmlinux.
 *
 * Every kfunc returns a value that proves which struct bpf_prog_aux it
 * received: the calling program's ID plus its first argument.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>

/* What the legacy mkf_testmod_legacy_impl() adds to its argument. */
#define MKF_TESTMOD_LEGACY_BIAS 0x5000

__bpf_kfunc_start_defs();

/**
 * mkf_testmod_magic() - a magic kfunc
 * @a: any number
 * @aux__magic: the calling program's aux, set by the verifier
 *
 * BPF programs call mkf_testmod_magic(a), or
 * mkf_testmod_magic_impl(a, anything) as written for older kernels.
 *
 * Return: the calling program's ID plus @a.
 */
__bpf_kfunc u32 mkf_testmod_magic(u32 a, struct bpf_prog_aux *aux__magic)
{
	return aux__magic->id + a;
}

/**
 * mkf_testmod_magic2() - a magic kfunc with two magic arguments
 * @a: any number
 * @b: any number
 * @c: any number
 * @aux__magic: the calling program's aux, set by the verifier
 * @aux2__magic: the same
 *
 * Return: the calling program's ID plus @a + @b + @c if both magic
 * arguments are the same aux, 0 otherwise.
 */
__bpf_kfunc u32 mkf_testmod_magic2(u32 a, u32 b, u32 c,
				   struct bpf_prog_aux *aux__magic,
				   struct bpf_prog_aux *aux2__magic)
{
	if (aux__magic != aux2__magic)
		return 0;
	return aux__magic->id + a + b + c;
}

/**
 * mkf_testmod_magic_const() - a magic kfunc whose magic argument is const
 * @a: any number
 * @aux__magic: the calling program's aux, set by the verifier
 *
 * resolve_btfids and the kernel skip modifiers when they check its type.
 *
 * Return: the calling program's ID plus @a.
 */
__bpf_kfunc u32 mkf_testmod_magic_const(u32 a, struct bpf_prog_aux *const aux__magic)
{
	return aux__magic->id + a;
}

/**
 * mkf_testmod_legacy() - a magic kfunc with a legacy _impl function
 * @a: any number
 * @aux__magic: the calling program's aux, set by the verifier
 *
 * BPF calls of either name run mkf_testmod_legacy_impl(), whose result
 * differs from this one's on purpose: tests see which code ran. A real
 * kfunc does what its legacy form does, by calling it.
 *
 * Return: the calling program's ID plus @a.
 */
__bpf_kfunc u32 mkf_testmod_legacy(u32 a, struct bpf_prog_aux *aux__magic)
{
	return aux__magic->id + a;
}

/**
 * mkf_testmod_legacy_impl() - the legacy form of mkf_testmod_legacy()
 * @a: any number
 * @aux__ign: programs pass NULL, the verifier provides the calling
 *	program's aux as for mkf_testmod_legacy()
 *
 * A kfunc of its own, with its own code: resolve_btfids must keep it, and
 * the verifier binds calls of mkf_testmod_legacy() to it.
 *
 * Return: @a plus MKF_TESTMOD_LEGACY_BIAS plus the ID of the program whose
 * aux it received (nothing if NULL).
 */
__bpf_kfunc u32 mkf_testmod_legacy_impl(u32 a, void *aux__ign)
{
	struct bpf_prog_aux *aux = aux__ign;

	return a + MKF_TESTMOD_LEGACY_BIAS + (aux ? aux->id : 0);
}

/**
 * mkf_testmod_late_impl() - the legacy form of mkf_testmod_late()
 * @a: any number
 * @aux__ign: programs pass NULL, the verifier provides the calling
 *	program's aux once the set is registered
 *
 * Return: @a plus MKF_TESTMOD_LEGACY_BIAS plus the ID of the program whose
 * aux it received (nothing if NULL).
 */
__bpf_kfunc u32 mkf_testmod_late_impl(u32 a, void *aux__ign)
{
	struct bpf_prog_aux *aux = aux__ign;

	return a + MKF_TESTMOD_LEGACY_BIAS + (aux ? aux->id : 0);
}

/**
 * mkf_testmod_late() - a magic kfunc of a set registered late
 * @a: any number
 * @aux__magic: the calling program's aux, set by the verifier
 *
 * Its set is registered while a program is verified (see
 * mkf_testmod_filter()); calls of either name run mkf_testmod_late_impl().
 *
 * Return: what mkf_testmod_late_impl() returns.
 */
__bpf_kfunc u32 mkf_testmod_late(u32 a, struct bpf_prog_aux *aux__magic)
{
	return mkf_testmod_late_impl(a, aux__magic);
}

/**
 * mkf_testmod_trigger() - a plain kfunc whose first check registers a set
 * @a: any number
 *
 * Return: @a.
 */
__bpf_kfunc u32 mkf_testmod_trigger(u32 a)
{
	return a;
}

/**
 * mkf_testmod_plain() - a plain kfunc, flagged magic at run time by @forge
 * @a: any number
 *
 * Return: @a.
 */
__bpf_kfunc u32 mkf_testmod_plain(u32 a)
{
	return a;
}

/**
 * mkf_testmod_mismatch() - a plain kfunc, flagged magic at run time by @forge
 * @a: any number
 *
 * Return: @a.
 */
__bpf_kfunc u64 mkf_testmod_mismatch(u64 a)
{
	return a;
}

/**
 * mkf_testmod_mismatch_impl() - not the full prototype of mkf_testmod_mismatch()
 * @a: any number, but a u32 where mkf_testmod_mismatch() takes a u64
 * @aux__ign: ignored
 *
 * Return: @a.
 */
__bpf_kfunc u64 mkf_testmod_mismatch_impl(u32 a, void *aux__ign)
{
	return a;
}

/**
 * mkf_testmod_flags() - a plain kfunc, flagged magic at run time by @forge
 * @a: any number
 *
 * Return: @a.
 */
__bpf_kfunc u32 mkf_testmod_flags(u32 a)
{
	return a;
}

/**
 * mkf_testmod_flags_impl() - its legacy form, with other flags in its set
 * @a: any number
 * @aux__ign: ignored
 *
 * Return: @a.
 */
__bpf_kfunc u32 mkf_testmod_flags_impl(u32 a, void *aux__ign)
{
	return a;
}

/**
 * mkf_testmod_untagged() - a plain kfunc, flagged magic at run time by @forge
 * @a: any number
 *
 * Return: @a.
 */
__bpf_kfunc u32 mkf_testmod_untagged(u32 a)
{
	return a;
}

/**
 * mkf_testmod_untagged_impl() - its full prototype, without bpf_magic tags
 * @a: any number
 * @aux__ign: ignored
 *
 * Return: @a.
 */
__bpf_kfunc u32 mkf_testmod_untagged_impl(u32 a, void *aux__ign)
{
	return a;
}

#ifdef MKF_TESTMOD_BAD_ORDER
/* Misdeclared on purpose: a magic argument must come last. */
__bpf_kfunc u32 mkf_testmod_bad(struct bpf_prog_aux *aux__magic, u32 a)
{
	return aux__magic->id + a;
}
#endif

#ifdef MKF_TESTMOD_BAD_TYPE
/* Misdeclared on purpose: a magic argument is a struct bpf_prog_aux *. */
__bpf_kfunc u32 mkf_testmod_bad(u32 a, void *aux__magic)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_NONE
/* Misdeclared on purpose: KF_MAGIC_ARGS without a magic argument. */
__bpf_kfunc u32 mkf_testmod_bad(u32 a)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_COUNT
/* Misdeclared on purpose: more arguments than a kfunc may have. */
__bpf_kfunc u32 mkf_testmod_bad(u32 a, u32 b, u32 c, u32 d, u32 e,
				struct bpf_prog_aux *aux__magic)
{
	return a + b + c + d + e;
}
#endif

#if defined(MKF_TESTMOD_BAD_LEGACY_RET) || defined(MKF_TESTMOD_BAD_LEGACY_ARG) || \
	defined(MKF_TESTMOD_BAD_UNLISTED)
__bpf_kfunc u32 mkf_testmod_bad(u32 a, struct bpf_prog_aux *aux__magic)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_LEGACY_RET
/* Misdeclared on purpose: the legacy form returns another type. */
__bpf_kfunc u64 mkf_testmod_bad_impl(u32 a, void *aux__ign)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_LEGACY_ARG
/* Misdeclared on purpose: the legacy form takes another type. */
__bpf_kfunc u32 mkf_testmod_bad_impl(u64 a, void *aux__ign)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_UNLISTED
/* Misdeclared on purpose: a function of that name, but in no kfunc set. */
noinline u32 mkf_testmod_bad_impl(u32 a, void *aux__ign)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_BASE
/* Misdeclared on purpose: vmlinux has a __bpf_obj_drop_impl function. */
__bpf_kfunc void *__bpf_obj_drop(void *p, struct bpf_prog_aux *aux__magic)
{
	return NULL;
}
#endif

#ifdef MKF_TESTMOD_BAD_META
/*
 * Misdeclared on purpose: only vmlinux's allocator and graph kfuncs get a
 * struct btf_struct_meta from the verifier.
 */
__bpf_kfunc u32 mkf_testmod_bad(u32 a, struct btf_struct_meta *meta__magic)
{
	return a;
}
#endif

#ifdef MKF_TESTMOD_BAD_PLAIN
/* Misdeclared on purpose: a magic argument without KF_MAGIC_ARGS. */
__bpf_kfunc u32 mkf_testmod_bad(u32 a, struct bpf_prog_aux *aux__magic)
{
	return a;
}
#endif

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(mkf_testmod_kfunc_ids)
BTF_ID_FLAGS(func, mkf_testmod_magic, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_magic2, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_magic_const, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_legacy, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_legacy_impl)
BTF_ID_FLAGS(func, mkf_testmod_trigger)
#if defined(MKF_TESTMOD_BAD_ORDER) || defined(MKF_TESTMOD_BAD_TYPE) || \
	defined(MKF_TESTMOD_BAD_NONE) || defined(MKF_TESTMOD_BAD_COUNT) || \
	defined(MKF_TESTMOD_BAD_LEGACY_RET) || defined(MKF_TESTMOD_BAD_LEGACY_ARG) || \
	defined(MKF_TESTMOD_BAD_UNLISTED) || defined(MKF_TESTMOD_BAD_META)
BTF_ID_FLAGS(func, mkf_testmod_bad, KF_MAGIC_ARGS)
#endif
#if defined(MKF_TESTMOD_BAD_LEGACY_RET) || defined(MKF_TESTMOD_BAD_LEGACY_ARG)
BTF_ID_FLAGS(func, mkf_testmod_bad_impl)
#endif
#ifdef MKF_TESTMOD_BAD_BASE
BTF_ID_FLAGS(func, __bpf_obj_drop, KF_MAGIC_ARGS)
#endif
#ifdef MKF_TESTMOD_BAD_PLAIN
BTF_ID_FLAGS(func, mkf_testmod_bad)
#endif
BTF_KFUNCS_END(mkf_testmod_kfunc_ids)

/*
 * A set registered for every program type in the middle of a program's
 * verification, by mkf_testmod_filter(): after the verifier looked the
 * program's kfunc calls up, before it checks them. A module registering
 * its sets while another CPU verifies a program can land there by chance.
 */
BTF_KFUNCS_START(mkf_testmod_late_ids)
BTF_ID_FLAGS(func, mkf_testmod_late, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_late_impl)
BTF_KFUNCS_END(mkf_testmod_late_ids)

static const struct btf_kfunc_id_set mkf_testmod_late_set = {
	.owner = THIS_MODULE,
	.set = &mkf_testmod_late_ids,
};

BTF_ID_LIST_SINGLE(mkf_testmod_trigger_id, func, mkf_testmod_trigger)

static atomic_t mkf_testmod_late_done = ATOMIC_INIT(0);

/*
 * The first check of a call to mkf_testmod_trigger() registers
 * mkf_testmod_late_set. Filters run when the verifier checks a call, in
 * process context, with no lock of the verifier's held.
 */
static int mkf_testmod_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	int err;

	if (kfunc_id == mkf_testmod_trigger_id[0] &&
	    !atomic_cmpxchg(&mkf_testmod_late_done, 0, 1)) {
		err = register_btf_kfunc_id_set(BPF_PROG_TYPE_UNSPEC, &mkf_testmod_late_set);
		pr_info("mkf_testmod: late set registered: %d\n", err);
	}
	return 0;
}

static const struct btf_kfunc_id_set mkf_testmod_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &mkf_testmod_kfunc_ids,
	.filter = mkf_testmod_filter,
};

/*
 * Kfuncs of sets that forge=1 registers with KF_MAGIC_ARGS added at run
 * time, as if their BTF had been made without resolve_btfids' checks: the
 * kernel must refuse each set, and only it.
 */
BTF_KFUNCS_START(mkf_testmod_forge_ids)
BTF_ID_FLAGS(func, mkf_testmod_plain)
BTF_ID_FLAGS(func, mkf_testmod_mismatch)
BTF_ID_FLAGS(func, mkf_testmod_mismatch_impl)
BTF_ID_FLAGS(func, mkf_testmod_untagged)
BTF_ID_FLAGS(func, mkf_testmod_untagged_impl)
BTF_ID_FLAGS(func, mkf_testmod_flags)
BTF_ID_FLAGS(func, mkf_testmod_flags_impl, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(mkf_testmod_forge_ids)

BTF_ID_LIST(mkf_testmod_forge_funcs)
BTF_ID(func, mkf_testmod_plain)
BTF_ID(func, mkf_testmod_mismatch)
BTF_ID(func, mkf_testmod_untagged)
BTF_ID(func, mkf_testmod_flags)

static bool forge;
module_param(forge, bool, 0444);
MODULE_PARM_DESC(forge, "also register kfunc sets the kernel must refuse");

/* Register mkf_testmod_forge_ids with KF_MAGIC_ARGS on the kfunc @func_id. */
static void mkf_testmod_forge_one(const char *name, u32 func_id)
{
	struct btf_kfunc_id_set kset = { .owner = THIS_MODULE };
	struct btf_id_set8 *set;
	size_t size;
	u32 i;
	int err;

	size = struct_size(set, pairs, mkf_testmod_forge_ids.cnt);
	set = kmemdup(&mkf_testmod_forge_ids, size, GFP_KERNEL);
	if (!set) {
		pr_info("mkf_testmod: forged %s: no memory\n", name);
		return;
	}
	for (i = 0; i < set->cnt; i++) {
		if (set->pairs[i].id == func_id)
			set->pairs[i].flags |= KF_MAGIC_ARGS;
	}
	kset.set = set;
	/* A hook the real set does not use: a module registers each hook once. */
	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_XDP, &kset);
	pr_info("mkf_testmod: forged %s: %d\n", name, err);
	kfree(set);
}

static int __init mkf_testmod_init(void)
{
	int err;

	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_SYSCALL, &mkf_testmod_kfunc_set);
	if (!err)
		err = register_btf_kfunc_id_set(BPF_PROG_TYPE_TRACING, &mkf_testmod_kfunc_set);
	if (!err && forge) {
		mkf_testmod_forge_one("mkf_testmod_plain", mkf_testmod_forge_funcs[0]);
		mkf_testmod_forge_one("mkf_testmod_mismatch", mkf_testmod_forge_funcs[1]);
		mkf_testmod_forge_one("mkf_testmod_untagged", mkf_testmod_forge_funcs[2]);
		mkf_testmod_forge_one("mkf_testmod_flags", mkf_testmod_forge_funcs[3]);
	}
	return err;
}

static void __exit mkf_testmod_exit(void)
{
}

module_init(mkf_testmod_init);
module_exit(mkf_testmod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Kfuncs with verifier-provided arguments, for tests");
