/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the test programs of tests/bpf/ need beyond the public BPF-side
 * headers (<magic-kfunc/bpf_*.h>, included first, with
 * MKF_DEFINE_UAPI_TYPES): the declarations those headers deliberately
 * leave out, each with the reason, and the bpf_wq maps and steps that
 * several programs share: define WQ_MAPS for wqs[] and its helpers,
 * WQ_RESULT for result[] and wq_report() (with or without WQ_MAPS).
 *
 * The kfuncs are declared __mkf_kfunc, as the public ones are: weak,
 * unless the program defines __mkf_kfunc as __ksym first (a strong
 * extern, which libbpf and the library must resolve or refuse).
 *
 * The numbers below are repeated in tests/kernel/wq-test and
 * tests/kernel/module-test: keep them in step.
 */
#ifndef MKF_TESTS_BPF_TEST_H
#define MKF_TESTS_BPF_TEST_H

#include <magic-kfunc/bpf_common.h>

/*
 * The kernel's struct, which no public declaration names: the verifier
 * provides it, so a program written for the library never passes one.
 * The tests pass one to the legacy _impl kfuncs, and the tracing
 * programs read aux->id (CO-RE). libbpf and the library compare a
 * pointed-to struct by its kind only, so this one field is enough.
 */
struct bpf_prog_aux {
	__u32 id;
} __attribute__((preserve_access_index));

/*
 * bpf_wq_set_callback_impl() as the BTF of 7.x and of our patched 6.12
 * declares it, a last "struct bpf_prog_aux *" (define WQ_IMPL_STRUCT_AUX):
 * what a program built on a vmlinux.h of those kernels calls. Not in
 * <magic-kfunc/bpf_wq.h>, whose programs call bpf_wq_set_callback(): on
 * 7.x the verifier refuses to call this prototype. The 6.x form, a last
 * "void *", is the public one of MKF_COMPAT_IMPL.
 */
#ifdef WQ_IMPL_STRUCT_AUX
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (*callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, struct bpf_prog_aux *aux) __mkf_kfunc;
#endif

/*
 * The kfuncs of our test modules, which no public header can know.
 * First kernel/testmod's (mkf_testmod.ko, loaded in guests of the
 * patched 6.12), as its BTF declares them. Each magic kfunc returns the
 * calling program's ID plus its arguments, so the value a program
 * returns proves which struct bpf_prog_aux the kfunc received;
 * tests/kernel/module-test compares it with the program's ID. Their
 * _impl twins are declared by the programs that call them, each in the
 * spelling it tests.
 */
extern __u32 mkf_testmod_magic(__u32 a) __mkf_kfunc;
extern __u32 mkf_testmod_magic2(__u32 a, __u32 b, __u32 c) __mkf_kfunc;
extern __u32 mkf_testmod_magic_const(__u32 a) __mkf_kfunc;
extern __u32 mkf_testmod_legacy(__u32 a) __mkf_kfunc;
/* A legacy kfunc of its own, not a twin: calls of either name run its code. */
extern __u32 mkf_testmod_legacy_impl(__u32 a, void *aux__ign) __mkf_kfunc;
/* Then tests/cli/mkf_testmod.c's (split BTF only, never loaded), called
 * in the new style: the module has only mkf_testmod_set_impl(..., aux__ign). */
extern int mkf_testmod_set(struct bpf_wq *wq, unsigned int flags) __mkf_kfunc;

/* The first argument of each module call, so that a result names its call. */
#define TM_MAGIC_NEW	100
#define TM_MAGIC_IMPL	200
#define TM_LEGACY_NEW	300
#define TM_MAGIC_OLD	400
#define TM_MAGIC_TRACE	500
#define TM_LEGACY_IMPL	7
#define TM_MAGIC_CONST	600
#define TM_LEGACY_TRACE	700
#define TM_LEGACY_IMPL_TRACE	800
#define TM_LATE		900
/* What the module's real mkf_testmod_legacy_impl() adds to its argument. */
#define TM_LEGACY_BIAS	0x5000

/*
 * The bpf_wq programs init the bpf_wq in wqs[0], set a callback, start
 * it and return 0, or a WQ_ERR_* code naming the step that failed. The
 * callback runs later in a kernel worker and writes its program's own
 * marker into result[0]; the test runner polls result[0] for it, so a
 * callback that never ran, or ran for another program, shows.
 */
#define WQ_MARK_NEW		0xC0FFEE01ULL
#define WQ_MARK_OLD		0xC0FFEE02ULL
#define WQ_MARK_IMPL_AUX	0xC0FFEE03ULL
#define WQ_MARK_FORGED_PTR	0xC0FFEE04ULL
#define WQ_MARK_FORGED_SCALAR	0xC0FFEE05ULL
#define WQ_MARK_COMPAT		0xC0FFEE06ULL
#define WQ_MARK_BAD		0xBADBADULL

#define WQ_ERR_LOOKUP	1
#define WQ_ERR_INIT	2
#define WQ_ERR_SET	3
#define WQ_ERR_START	4

#ifdef WQ_MAPS
struct wq_elem {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wq_elem);
} wqs SEC(".maps");

/* The bpf_wq of wqs[0], not initialised, or NULL. */
static __always_inline struct bpf_wq *wq_lookup(void)
{
	__u32 key = 0;
	struct wq_elem *e = bpf_map_lookup_elem(&wqs, &key);

	return e ? &e->wq : NULL;
}

/*
 * The initialised bpf_wq of wqs[0], or NULL with *err set (err may be
 * NULL). Only after <magic-kfunc/bpf_wq.h>, for bpf_wq_init(): a program
 * that declares bpf_wq_set_callback() its own way cannot include it.
 */
#ifdef __MAGIC_KFUNC_BPF_WQ_H
static __always_inline struct bpf_wq *wq_prepare(int *err)
{
	__u32 key = 0;
	struct wq_elem *e = bpf_map_lookup_elem(&wqs, &key);

	if (!e) {
		if (err)
			*err = WQ_ERR_LOOKUP;
		return NULL;
	}
	if (bpf_wq_init(&e->wq, &wqs, 0)) {
		if (err)
			*err = WQ_ERR_INIT;
		return NULL;
	}
	return &e->wq;
}
#endif

#endif

/*
 * result[0], which the guest runner reads back (--wait-map): the bpf_wq
 * callbacks record who ran, other programs a value they got.
 */
#ifdef WQ_RESULT
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} result SEC(".maps");

static __always_inline int wq_report(__u64 mark)
{
	__u32 key = 0;
	__u64 *r = bpf_map_lookup_elem(&result, &key);

	if (r)
		*r = mark;
	return 0;
}
#endif

#endif
