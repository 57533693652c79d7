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
 * mkf_testmod_legacy() - a magic kfunc with a legacy _impl function
 * @a: any number
 * @aux__magic: the calling program's aux, set by the verifier
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
 * @aux__ign: ignored, programs pass NULL
 *
 * A kfunc of its own, with its own code: resolve_btfids must keep it.
 *
 * Return: @a plus MKF_TESTMOD_LEGACY_BIAS.
 */
__bpf_kfunc u32 mkf_testmod_legacy_impl(u32 a, void *aux__ign)
{
	return a + MKF_TESTMOD_LEGACY_BIAS;
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

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(mkf_testmod_kfunc_ids)
BTF_ID_FLAGS(func, mkf_testmod_magic, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_magic2, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_legacy, KF_MAGIC_ARGS)
BTF_ID_FLAGS(func, mkf_testmod_legacy_impl)
#if defined(MKF_TESTMOD_BAD_ORDER) || defined(MKF_TESTMOD_BAD_TYPE)
BTF_ID_FLAGS(func, mkf_testmod_bad, KF_MAGIC_ARGS)
#endif
BTF_KFUNCS_END(mkf_testmod_kfunc_ids)

static const struct btf_kfunc_id_set mkf_testmod_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &mkf_testmod_kfunc_ids,
};

static int __init mkf_testmod_init(void)
{
	int err;

	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_SYSCALL, &mkf_testmod_kfunc_set);
	if (!err)
		err = register_btf_kfunc_id_set(BPF_PROG_TYPE_TRACING, &mkf_testmod_kfunc_set);
	return err;
}

static void __exit mkf_testmod_exit(void)
{
}

module_init(mkf_testmod_init);
module_exit(mkf_testmod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Kfuncs with verifier-provided arguments, for tests");
