/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * bpf_task_work: run a BPF callback in the context of a given task, when
 * it next returns to user space (_resume) or through a signal-like
 * notification (_signal).
 *
 * Declared in the 7.x form. Which kernels offer which form:
 *   up to 6.17:  nothing
 *   6.18, 6.19:  ..._impl(task, tw, map__map, callback, void *aux__prog) only
 *   7.0 - 7.2:   ...(task, tw, map__map, callback); the _impl entry stays
 *                in BTF as a prototype the verifier refuses to call
 *   7.3:         the same, the map parameter named map__const_map
 * Opened through libmagic-kfunc, the 4-argument calls are bound to the
 * _impl kfuncs of 6.18/6.19. Without the library they exist on 7.x only.
 *
 * The struct bpf_task_work must live in a map value (array, hash or LRU
 * hash) and map__map must be that map.
 */
#ifndef __MAGIC_KFUNC_BPF_TASK_WORK_H
#define __MAGIC_KFUNC_BPF_TASK_WORK_H

#include "bpf_common.h"

/* bpf_task_work_callback_t of the kernel. */
typedef int (*mkf_task_work_callback_t)(struct bpf_map *map, void *key, void *value);

extern int bpf_task_work_schedule_signal(struct task_struct *task, struct bpf_task_work *tw,
					 void *map__map,
					 mkf_task_work_callback_t callback) __mkf_kfunc;
extern int bpf_task_work_schedule_resume(struct task_struct *task, struct bpf_task_work *tw,
					 void *map__map,
					 mkf_task_work_callback_t callback) __mkf_kfunc;

/*
 * For programs loaded WITHOUT libmagic-kfunc (define MKF_COMPAT_IMPL):
 * the 7.x form, else 6.18/6.19's _impl with a NULL dummy. Same limit as
 * in bpf_wq.h: libbpf 1.1 refuses the whole object on 7.x because of the
 * weak _impl extern. Measured: works on 6.18 and 6.19 only.
 */
#ifdef MKF_COMPAT_IMPL
extern int bpf_task_work_schedule_signal_impl(struct task_struct *task,
					      struct bpf_task_work *tw, void *map__map,
					      mkf_task_work_callback_t callback,
					      void *aux__prog) __mkf_kfunc;
extern int bpf_task_work_schedule_resume_impl(struct task_struct *task,
					      struct bpf_task_work *tw, void *map__map,
					      mkf_task_work_callback_t callback,
					      void *aux__prog) __mkf_kfunc;

#define mkf_task_work_schedule_signal(task, tw, map, cb)		\
	(bpf_ksym_exists(bpf_task_work_schedule_signal) ?		\
		bpf_task_work_schedule_signal(task, tw, map, cb) :	\
		bpf_task_work_schedule_signal_impl(task, tw, map, cb, (void *)0))
#define mkf_task_work_schedule_resume(task, tw, map, cb)		\
	(bpf_ksym_exists(bpf_task_work_schedule_resume) ?		\
		bpf_task_work_schedule_resume(task, tw, map, cb) :	\
		bpf_task_work_schedule_resume_impl(task, tw, map, cb, (void *)0))
#define mkf_task_work_schedule_resume_exists()				\
	mkf_ksym_either_exists(bpf_task_work_schedule_resume, bpf_task_work_schedule_resume_impl)
#else
#define mkf_task_work_schedule_signal(task, tw, map, cb)		\
	bpf_task_work_schedule_signal(task, tw, map, cb)
#define mkf_task_work_schedule_resume(task, tw, map, cb)		\
	bpf_task_work_schedule_resume(task, tw, map, cb)
#define mkf_task_work_schedule_resume_exists()				\
	bpf_ksym_exists(bpf_task_work_schedule_resume)
#endif

#endif
