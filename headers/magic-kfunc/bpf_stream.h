/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * BPF streams: a program prints into its own stdout/stderr stream, which
 * user space reads with the bpf(2) command BPF_PROG_STREAM_READ_BY_FD.
 *
 * Declared in the 7.x form. Which kernels offer which form:
 *   up to 6.16:  nothing
 *   6.17:        bpf_stream_vprintk(id, fmt, args, len, void *aux__prog)
 *   6.18, 6.19:  bpf_stream_vprintk_impl(id, fmt, args, len, void *aux__prog) only
 *   7.0 - 7.3:   bpf_stream_vprintk(id, fmt, args, len); the _impl entry
 *                stays in BTF as a prototype the verifier refuses to call
 * Opened through libmagic-kfunc, the 4-argument call is bound to the
 * 5-argument kfunc of 6.17 or to the _impl of 6.18/6.19 (the verifier
 * fills in the aux argument). Without the library, libbpf 1.1 binds it
 * on 7.x only; on 6.17 it refuses the whole object ("func_proto
 * incompatible": 4 parameters against 5), on 6.18/6.19 the extern is
 * not found and stays 0.
 */
#ifndef __MAGIC_KFUNC_BPF_STREAM_H
#define __MAGIC_KFUNC_BPF_STREAM_H

#include "bpf_common.h"

/* enum bpf_stream_id of the kernel (6.17 and later). */
#ifndef BPF_STDOUT
#define BPF_STDOUT 1
#define BPF_STDERR 2
#endif

extern int bpf_stream_vprintk(int stream_id, const char *fmt__str, const void *args,
			      __u32 len__sz) __mkf_kfunc;

/*
 * For programs loaded WITHOUT libmagic-kfunc (define MKF_COMPAT_IMPL):
 * the 7.x form, else 6.18/6.19's _impl with a NULL dummy. 6.17's
 * 5-argument bpf_stream_vprintk cannot be reached this way: libbpf 1.1
 * finds the 4-argument extern incompatible there and refuses the object.
 * On 7.x libbpf 1.1 refuses the object too, because of the weak _impl
 * extern (see bpf_wq.h). Measured: works on 6.18 and 6.19 only.
 */
#ifdef MKF_COMPAT_IMPL
extern int bpf_stream_vprintk_impl(int stream_id, const char *fmt__str, const void *args,
				   __u32 len__sz, void *aux__prog) __mkf_kfunc;

#define mkf_stream_vprintk(id, fmt, args, len)				\
	(bpf_ksym_exists(bpf_stream_vprintk) ?				\
		bpf_stream_vprintk(id, fmt, args, len) :		\
		bpf_stream_vprintk_impl(id, fmt, args, len, (void *)0))
#define mkf_stream_vprintk_exists()					\
	mkf_ksym_either_exists(bpf_stream_vprintk, bpf_stream_vprintk_impl)
#else
#define mkf_stream_vprintk(id, fmt, args, len) bpf_stream_vprintk(id, fmt, args, len)
#define mkf_stream_vprintk_exists() bpf_ksym_exists(bpf_stream_vprintk)
#endif

/*
 * printk-style: bpf_stream_printk(BPF_STDOUT, "n=%d\n", n). Builds the
 * u64 argument array the way libbpf's BPF_SNPRINTF does (at least one
 * argument, as there: the kernel wants a non-empty array). Returns the
 * kfunc's result: 0, or a negative errno.
 *
 * libbpf 1.7's <bpf/bpf_helpers.h> defines a bpf_stream_printk too (the
 * same 4-argument bpf_stream_vprintk call, without the MKF_COMPAT_IMPL
 * fallback). Ours replaces it, or any other earlier definition: the
 * header compiles (no -Wmacro-redefined) and the fallback applies.
 */
#undef bpf_stream_printk
#define bpf_stream_printk(stream_id, fmt, args...)			\
({									\
	static const char ___fmt[] = fmt;				\
	unsigned long long ___param[___bpf_narg(args)];			\
									\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")		\
	___bpf_fill(___param, args);					\
	_Pragma("GCC diagnostic pop")					\
									\
	mkf_stream_vprintk(stream_id, ___fmt, ___param, sizeof(___param)); \
})

#endif
