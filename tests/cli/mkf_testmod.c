// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Stands in for a kernel module's BTF: cli-test compiles it with clang
 * -g and has pahole encode it as split BTF on top of a cached vmlinux
 * BTF, for --module-btf. Never built into anything, never run.
 */
struct bpf_wq {
	unsigned long long __opaque[2];
} __attribute__((aligned(8)));

/*
 * A legacy kfunc of a module on our patched 6.12, whose BTF pass tags
 * each parameter the verifier fills in: the tag, not the name, says so
 * (__ign alone only means "type not checked").
 */
int mkf_testmod_set_impl(struct bpf_wq *wq, unsigned int flags,
			 void *aux__ign __attribute__((btf_decl_tag("bpf_magic:aux"))))
{
	return (int)flags + (wq != 0) + (aux__ign != 0);
}
