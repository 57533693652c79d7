/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the CLI's test objects share. They are only read by the CLI
 * (and dumped by bpftool), never loaded.
 */
#ifndef MKF_TESTS_CLI_BPF_H
#define MKF_TESTS_CLI_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* libbpf 1.1's bpf_helpers.h predates it (1.2). */
#ifndef bpf_ksym_exists
#define bpf_ksym_exists(sym) (!!(sym))
#endif

/* Debian 12's <linux/bpf.h> (6.1) predates struct bpf_wq (6.10). */
struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct wq_elem {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wq_elem);
} wqs SEC(".maps");

/* Same prototype on every kernel that has bpf_wq. */
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;

static __always_inline struct bpf_wq *wq_get(void)
{
	__u32 key = 0;
	struct wq_elem *e = bpf_map_lookup_elem(&wqs, &key);

	if (!e || bpf_wq_init(&e->wq, &wqs, 0))
		return 0;
	return &e->wq;
}

#endif
