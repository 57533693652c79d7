/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the bpf_wq test programs share: the declarations Debian 12's
 * headers lack, the maps, and the steps every program takes.
 *
 * Each program inits the bpf_wq in wqs[0], sets a callback, starts it and
 * returns 0, or a WQ_ERR_* code naming the step that failed. The callback
 * runs later in a kernel worker and writes its program's own marker into
 * result[0]; a test runner polls result[0] for that marker, so a callback
 * that never ran, or ran for another program, shows.
 *
 * The markers are repeated in tests/kernel/wq-test: keep them in step.
 */
#ifndef MKF_TESTS_BPF_WQ_H
#define MKF_TESTS_BPF_WQ_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/*
 * Debian 12's <linux/bpf.h> is from 6.1; struct bpf_wq came in 6.10. The
 * verifier recognises the field by its name, size (16) and alignment (8).
 */
struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

/*
 * The two wq kfuncs whose prototypes every kernel with bpf_wq agrees on
 * (6.12: p__map, 7.3: p__const_map; names do not matter to libbpf).
 * Strong externs: a kernel without bpf_wq cannot run these programs.
 * The set-callback kfunc is declared by each program, in its own style.
 */
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;

/* The callback's type, as the kernels' BTF spells it. */
typedef int (*wq_callback_fn)(void *map, int *key, void *value);

/* Markers, one per program, so a result names the callback that wrote it. */
#define WQ_MARK_NEW		0xC0FFEE01ULL
#define WQ_MARK_OLD		0xC0FFEE02ULL
#define WQ_MARK_IMPL_AUX	0xC0FFEE03ULL
#define WQ_MARK_FORGED_PTR	0xC0FFEE04ULL
#define WQ_MARK_FORGED_SCALAR	0xC0FFEE05ULL
#define WQ_MARK_BAD		0xBADBADULL

/* The program's return value: 0, or the step that failed. */
#define WQ_ERR_LOOKUP	1
#define WQ_ERR_INIT	2
#define WQ_ERR_SET	3
#define WQ_ERR_START	4

struct wq_elem {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wq_elem);
} wqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} result SEC(".maps");

/* Called by the callbacks, in the worker: record who ran. */
static __always_inline int wq_report(__u64 mark)
{
	__u32 key = 0;
	__u64 *r = bpf_map_lookup_elem(&result, &key);

	if (r)
		*r = mark;
	return 0;
}

/* The initialised bpf_wq of wqs[0], or NULL with *err set. */
static __always_inline struct bpf_wq *wq_prepare(int *err)
{
	__u32 key = 0;
	struct wq_elem *e = bpf_map_lookup_elem(&wqs, &key);

	if (!e) {
		*err = WQ_ERR_LOOKUP;
		return NULL;
	}
	if (bpf_wq_init(&e->wq, &wqs, 0)) {
		*err = WQ_ERR_INIT;
		return NULL;
	}
	return &e->wq;
}

#endif
