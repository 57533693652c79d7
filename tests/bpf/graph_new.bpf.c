// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The allocator and graph kfuncs as Linux 7.1+ declares them, through
 * <magic-kfunc/bpf_obj.h>: bpf_obj_new(type_id), bpf_list_push_back(head,
 * node), bpf_rbtree_add(root, node, less), ... with no meta or offset
 * arguments. Kernels up to 7.0 have only the _impl forms: the library
 * binds these calls to them and sets the offset register before each
 * list push and rbtree add.
 */
#include "graph.h"
#include <magic-kfunc/bpf_obj.h>

#include "graph_progs.h"
