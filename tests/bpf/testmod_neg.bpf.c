// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Programs the patched 6.12's verifier must refuse on the magic kfunc
 * paths, each with the exact message tests/kernel/module-test expects:
 * the module's magic kfuncs and bpf_wq_set_callback, called by either
 * name, with a regular argument unset or of the wrong kind, from a
 * program type their kfunc set is not registered for, under a spin lock,
 * and seen from tracing programs. The calls are written in assembly so
 * that each register holds exactly what the case needs; the magic
 * registers are never set, as a program for the short form leaves them.
 * One control per kind loads and runs.
 */
#include <linux/bpf.h>
#define MKF_DEFINE_UAPI_TYPES
#define __mkf_kfunc __ksym	/* strong: only the module's kernel runs it */
#include <magic-kfunc/bpf_wq.h>
#define WQ_MAPS
#include "bpf_test.h"
#include <bpf/bpf_tracing.h>

extern __u32 mkf_testmod_magic_impl(__u32 a, struct bpf_prog_aux *aux__magic) __mkf_kfunc;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (*callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux__ign) __mkf_kfunc;

/*
 * Never loaded: clang emits the BTF libbpf needs for a kfunc extern only
 * for one called from C, not from assembly.
 */
SEC("syscall")
int keep_externs(void *ctx)
{
	return mkf_testmod_magic(1) + mkf_testmod_magic2(1, 2, 3) + mkf_testmod_legacy(1) +
	       mkf_testmod_magic_impl(1, (void *)0) + mkf_testmod_legacy_impl(1, (void *)0) +
	       bpf_wq_set_callback((void *)0, (void *)0, 0) +
	       bpf_wq_set_callback_impl((void *)0, (void *)0, 0, (void *)0);
}

/*
 * The first check of a call to mkf_testmod_trigger() registers the set of
 * mkf_testmod_late() and its legacy form, in the middle of the program's
 * verification: the verifier must refuse the program rather than check the
 * legacy call as a plain kfunc and run it without the aux it needs. Loaded
 * again, with the set registered, it runs with the aux.
 */
extern __u32 mkf_testmod_trigger(__u32 a) __mkf_kfunc;
extern __u32 mkf_testmod_late_impl(__u32 a, void *aux__ign) __mkf_kfunc;

SEC("syscall")
int late_pair(void *ctx)
{
	return mkf_testmod_trigger(0) + mkf_testmod_late_impl(TM_LATE, (void *)0);
}

#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)

/* --- a regular argument unset: every name, vmlinux's and the module's --- */

SEC("syscall") __naked int magic_r1_unset(void)
{
	asm volatile("call %[mkf_testmod_magic]; exit;" :: __imm(mkf_testmod_magic) : "memory");
}

SEC("syscall") __naked int magic2_r3_unset(void)
{
	asm volatile("r1 = 1; r2 = 2; call %[mkf_testmod_magic2]; exit;"
		     :: __imm(mkf_testmod_magic2) : "memory");
}

/* The twin checks the regular argument as the kfunc does... */
SEC("syscall") __naked int impl_r1_unset(void)
{
	asm volatile("r2 = 0; call %[mkf_testmod_magic_impl]; exit;"
		     :: __imm(mkf_testmod_magic_impl) : "memory");
}

/* ...and never the magic one: R2 unset, the control loads and runs. */
SEC("syscall") __naked int impl_r2_unset(void)
{
	asm volatile("r1 = %[a]; call %[mkf_testmod_magic_impl]; exit;"
		     :: [a] "i"(TM_MAGIC_IMPL), __imm(mkf_testmod_magic_impl) : "memory");
}

SEC("syscall") __naked int legacy_r1_unset(void)
{
	asm volatile("call %[mkf_testmod_legacy]; exit;" :: __imm(mkf_testmod_legacy) : "memory");
}

SEC("syscall") __naked int legacy_impl_r1_unset(void)
{
	asm volatile("r2 = 0; call %[mkf_testmod_legacy_impl]; exit;"
		     :: __imm(mkf_testmod_legacy_impl) : "memory");
}

/* A legacy _impl's magic register unset: loads, its code gets the aux. */
SEC("syscall") __naked int legacy_impl_r2_unset(void)
{
	asm volatile("r1 = %[a]; call %[mkf_testmod_legacy_impl]; exit;"
		     :: [a] "i"(TM_LEGACY_IMPL), __imm(mkf_testmod_legacy_impl) : "memory");
}

/* --- a pointer where a scalar is expected --- */

SEC("syscall") __naked int magic_r1_ptr(void)
{
	asm volatile("r1 = r10; call %[mkf_testmod_magic]; exit;"
		     :: __imm(mkf_testmod_magic) : "memory");
}

SEC("syscall") __naked int magic2_r3_ptr(void)
{
	asm volatile("r1 = 1; r2 = 2; r3 = r10; call %[mkf_testmod_magic2]; exit;"
		     :: __imm(mkf_testmod_magic2) : "memory");
}

SEC("syscall") __naked int impl_r1_ptr(void)
{
	asm volatile("r1 = r10; r2 = 0; call %[mkf_testmod_magic_impl]; exit;"
		     :: __imm(mkf_testmod_magic_impl) : "memory");
}

/* --- a program type the module's kfunc set is not registered for --- */

SEC("socket") __naked int magic_socket(void)
{
	asm volatile("r1 = 1; call %[mkf_testmod_magic]; exit;"
		     :: __imm(mkf_testmod_magic) : "memory");
}

SEC("socket") __naked int impl_socket(void)
{
	asm volatile("r1 = 1; r2 = 0; call %[mkf_testmod_magic_impl]; exit;"
		     :: __imm(mkf_testmod_magic_impl) : "memory");
}

SEC("socket") __naked int legacy_socket(void)
{
	asm volatile("r1 = 1; call %[mkf_testmod_legacy]; exit;"
		     :: __imm(mkf_testmod_legacy) : "memory");
}

/* --- bpf_wq_set_callback: the callback argument, by either name --- */

SEC("syscall") __naked int wq_r2_scalar(void)
{
	asm volatile("r1 = 0; *(u32 *)(r10 - 4) = r1; r2 = r10; r2 += -4;"
		     "r1 = %[wqs] ll; call %[bpf_map_lookup_elem];"
		     "if r0 != 0 goto 1f; exit;"
		     "1: r1 = r0; r2 = 0; r3 = 0; call %[bpf_wq_set_callback]; exit;"
		     :: [wqs] "i"(&wqs), __imm(bpf_map_lookup_elem), __imm(bpf_wq_set_callback)
		     : "memory");
}

SEC("syscall") __naked int wq_impl_r2_scalar(void)
{
	asm volatile("r1 = 0; *(u32 *)(r10 - 4) = r1; r2 = r10; r2 += -4;"
		     "r1 = %[wqs] ll; call %[bpf_map_lookup_elem];"
		     "if r0 != 0 goto 1f; exit;"
		     "1: r1 = r0; r2 = 0; r3 = 0; r4 = 0; call %[bpf_wq_set_callback_impl]; exit;"
		     :: [wqs] "i"(&wqs), __imm(bpf_map_lookup_elem),
			__imm(bpf_wq_set_callback_impl)
		     : "memory");
}

/* --- under a spin lock, where only the graph kfuncs may be called --- */

struct locked {
	struct bpf_spin_lock lock;
	__u32 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct locked);
} locks SEC(".maps");

SEC("tc")
int magic_locked(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &key);

	if (!l)
		return 0;
	bpf_spin_lock(&l->lock);
	l->n = bpf_wq_set_callback((struct bpf_wq *)l, (void *)0, 0);
	bpf_spin_unlock(&l->lock);
	return 0;
}

SEC("tc")
int impl_locked(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct locked *l = bpf_map_lookup_elem(&locks, &key);

	if (!l)
		return 0;
	bpf_spin_lock(&l->lock);
	l->n = bpf_wq_set_callback_impl((struct bpf_wq *)l, (void *)0, 0, (void *)0);
	bpf_spin_unlock(&l->lock);
	return 0;
}

/*
 * --- a map whose value is a bare struct bpf_wq: no field record. Stock
 * 6.12's verifier dereferenced NULL here (kernel/patches, patch 12). ---
 */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_wq);
} bare_wqs SEC(".maps");

static int bare_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("tc")
int bare_wq_impl(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct bpf_wq *w = bpf_map_lookup_elem(&bare_wqs, &key);

	return w ? bpf_wq_set_callback_impl(w, bare_cb, 0, (void *)0) : 0;
}

SEC("tc")
int bare_wq_magic(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct bpf_wq *w = bpf_map_lookup_elem(&bare_wqs, &key);

	return w ? bpf_wq_set_callback(w, bare_cb, 0) : 0;
}

/* --- what tracing programs see --- */

/* bpf_wq_set_callback's aux is the legacy form's void *: not a typed pointer. */
SEC("fentry/bpf_wq_set_callback")
int BPF_PROG(fentry_wq_typed_aux, struct bpf_wq *wq, void *callback_fn, unsigned int flags,
	     struct bpf_prog_aux *aux)
{
	return aux->id;
}

/* The prototype-only twin has no code to attach to. */
SEC("fentry/mkf_testmod_magic_impl")
int BPF_PROG(fentry_twin, __u32 a, struct bpf_prog_aux *aux)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
