/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the bpf_wq test objects share: the map holding the bpf_wq and
 * the lookup of its one element. Each object declares its kfuncs and
 * its callback itself: those are what the tests are about.
 */
#ifndef KF_WQ_H
#define KF_WQ_H

#include "kf_bpf.h"

struct elem {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wq_map SEC(".maps");

/* wq_map's element, NULL if the lookup fails. */
static inline __attribute__((always_inline)) struct elem *wq_elem(void)
{
	int key = 0;

	return bpf_map_lookup_elem(&wq_map, &key);
}

#endif
