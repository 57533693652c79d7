/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What a rewrite cache entry keeps of a rewrite: not its output, but
 * the plan's decisions that the rewrite applies (per extern: the name
 * it binds, its prototype change, the registers set before its calls,
 * merges; the kernel types appended to prototypes). A hit applies them
 * again to the caller's own bytes (mkf_object__rewrite()), so an entry,
 * whoever wrote it, cannot hand libbpf anything but a rewrite of the
 * object being opened; and a decoded plan only holds what the planner
 * can decide (see mkf_cache_plan_decode()).
 */
#ifndef MKF_CACHE_PLAN_H
#define MKF_CACHE_PLAN_H

#include <stdbool.h>
#include <stddef.h>

struct mkf_plan;

/* The record of PLAN, malloc'd into *buf; 0 or -ENOMEM. */
int mkf_cache_plan_encode(const struct mkf_plan *plan, void **buf, size_t *sz);

/*
 * The plan a record describes, or NULL (errno EINVAL) unless every
 * decision in it is one the planner can make: each extern bound to
 * its own name, the name without "_impl" or with it (after libbpf's
 * flavor suffix is dropped), or renamed to "mkf_hidden_NAME" when left
 * weak; made weak only if WEAKEN (the open's weaken_unresolved);
 * registers set to 0 only among the parameters appended to the
 * program's own (never one the program passes); merges only into an
 * extern bound to the same name. Whether the plan fits the object is
 * checked by the rewrite (same externs, symbols and BTF ids).
 */
struct mkf_plan *mkf_cache_plan_decode(const void *buf, size_t sz, bool weaken);

#endif
