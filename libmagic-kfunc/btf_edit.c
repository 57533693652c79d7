// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btf_edit.h"
#include "btf_util.h"

static char *str_dup(const char *s)
{
	return strdup(s ? s : "");
}

int mkf_btf_add_proto(struct btf *btf, __u32 local_proto, int keep,
		      const struct btf *src, __u32 src_proto, int from, int to)
{
	const struct btf_type *t = btf__type_by_id(btf, local_proto);
	int i, id, err = 0, nparams = keep + (to - from);
	__u32 *types, ret;
	char **names;

	if (!t || !btf_is_func_proto(t) || keep < 0 || keep > btf_vlen(t) || from > to)
		return -EINVAL;
	if (from < to) {
		const struct btf_type *st = src ? btf__type_by_id(src, src_proto) : NULL;

		if (!st || !btf_is_func_proto(st) || from < 0 || to > btf_vlen(st))
			return -EINVAL;
	}
	types = calloc(nparams + 1, sizeof(*types));
	names = calloc(nparams + 1, sizeof(*names));
	if (!types || !names) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * Copy ids and names first: adding types and strings moves this
	 * BTF's data, and libbpf reads a new string after growing its
	 * buffer, so a name must not point into that buffer.
	 */
	ret = t->type;
	for (i = 0; i < keep; i++) {
		types[i] = btf_params(t)[i].type;
		names[i] = str_dup(btf__name_by_offset(btf, btf_params(t)[i].name_off));
		if (!names[i]) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (i = from; i < to; i++) {
		const struct btf_param *p = btf_params(btf__type_by_id(src, src_proto)) + i;

		/* Keep the kernel's name: bpftool dumps then show what the
		 * verifier will provide. */
		names[keep + i - from] = str_dup(btf__name_by_offset(src, p->name_off));
		if (!names[keep + i - from]) {
			err = -ENOMEM;
			goto out;
		}
		id = mkf_btf_import_type(btf, src, p->type);
		if (id < 0) {
			err = id;
			goto out;
		}
		types[keep + i - from] = id;
	}
	id = btf__add_func_proto(btf, ret);
	if (id < 0) {
		err = id;
		goto out;
	}
	for (i = 0; i < nparams; i++) {
		err = btf__add_func_param(btf, names[i], types[i]);
		if (err)
			goto out;
	}
out:
	for (i = 0; names && i < nparams; i++)
		free(names[i]);
	free(types);
	free(names);
	return err ? err : id;
}

int mkf_btf_set_func(struct btf *btf, __u32 func_id, __u32 name_off, __u32 proto_id)
{
	/* libbpf hands out const types; the BTF is ours and modifiable. */
	struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, func_id);
	const struct btf_type *p = btf__type_by_id(btf, proto_id);

	if (!t || !btf_is_func(t) || !p || !btf_is_func_proto(p))
		return -EINVAL;
	t->name_off = name_off;
	t->type = proto_id;
	return 0;
}
