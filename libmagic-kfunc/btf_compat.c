// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include <errno.h>

#include "btf_util.h"
#include "btf_compat.h"

#define MAX_DEPTH 32

static bool kind_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) ||
	       (btf_is_any_enum(a) && btf_is_any_enum(b));
}

static int types_compat(const struct btf *lb, __u32 lid,
			const struct btf *kb, __u32 kid, int level)
{
	const struct btf_type *lt, *kt;
	int depth = MAX_DEPTH;

	lt = btf__type_by_id(lb, lid);
	kt = btf__type_by_id(kb, kid);
	if (!lt || !kt)
		return -EINVAL;
	if (!kind_compat(lt, kt))
		return 0;
recur:
	if (--depth < 0)
		return -ELOOP;
	lt = mkf_skip_mods_typedefs(lb, lid, &lid);
	kt = mkf_skip_mods_typedefs(kb, kid, &kid);
	if (!lt || !kt)
		return -EINVAL;
	if (!kind_compat(lt, kt))
		return 0;

	switch (btf_kind(lt)) {
	case BTF_KIND_UNKN:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM64:
		return 1;
	case BTF_KIND_INT:
		return btf_int_offset(lt) == 0 && btf_int_offset(kt) == 0;
	case BTF_KIND_PTR:
		lid = lt->type;
		kid = kt->type;
		goto recur;
	case BTF_KIND_ARRAY:
		lid = btf_array(lt)->type;
		kid = btf_array(kt)->type;
		goto recur;
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *lp = btf_params(lt), *kp = btf_params(kt);
		__u16 i, vlen = btf_vlen(lt);
		__u32 lpid, kpid;
		int err;

		if (vlen != btf_vlen(kt))
			return 0;
		for (i = 0; i < vlen; i++, lp++, kp++) {
			if (level <= 0)
				return -ELOOP;
			mkf_skip_mods_typedefs(lb, lp->type, &lpid);
			mkf_skip_mods_typedefs(kb, kp->type, &kpid);
			err = types_compat(lb, lpid, kb, kpid, level - 1);
			if (err <= 0)
				return err;
		}
		mkf_skip_mods_typedefs(lb, lt->type, &lid);
		mkf_skip_mods_typedefs(kb, kt->type, &kid);
		goto recur;
	}
	default:
		return 0;
	}
}

int mkf_types_compat(const struct btf *local_btf, __u32 local_id,
		     const struct btf *kern_btf, __u32 kern_id)
{
	return types_compat(local_btf, local_id, kern_btf, kern_id, MAX_DEPTH);
}

static bool compat_skipped(const struct btf *lb, __u32 lid, const struct btf *kb, __u32 kid)
{
	mkf_skip_mods_typedefs(lb, lid, &lid);
	mkf_skip_mods_typedefs(kb, kid, &kid);
	return types_compat(lb, lid, kb, kid, MAX_DEPTH) > 0;
}

int mkf_proto_prefix_diff(const struct btf *local_btf, __u32 local_proto,
			  const struct btf *kern_btf, __u32 kern_proto,
			  int nparams, struct mkf_sb *diff)
{
	const struct btf_type *lt = btf__type_by_id(local_btf, local_proto);
	const struct btf_type *kt = btf__type_by_id(kern_btf, kern_proto);
	char lstr[128], kstr[128], kdecl[192];
	int i, n = 0;

	if (!lt || !kt || !btf_is_func_proto(lt) || !btf_is_func_proto(kt) ||
	    nparams > btf_vlen(lt) || nparams > btf_vlen(kt))
		return -EINVAL;

	if (!compat_skipped(local_btf, lt->type, kern_btf, kt->type)) {
		n++;
		if (diff) {
			mkf_type_str(local_btf, lt->type, lstr, sizeof(lstr));
			mkf_type_str(kern_btf, kt->type, kstr, sizeof(kstr));
			mkf_sb_printf(diff, "      return: program '%s', kernel '%s'\n", lstr, kstr);
		}
	}
	for (i = 0; i < nparams; i++) {
		const struct btf_param *lp = btf_params(lt) + i;
		const struct btf_param *kp = btf_params(kt) + i;

		if (compat_skipped(local_btf, lp->type, kern_btf, kp->type))
			continue;
		n++;
		if (diff) {
			mkf_type_str(local_btf, lp->type, lstr, sizeof(lstr));
			mkf_type_str(kern_btf, kp->type, kstr, sizeof(kstr));
			mkf_decl_str(kstr, btf__name_by_offset(kern_btf, kp->name_off),
				     kdecl, sizeof(kdecl));
			mkf_sb_printf(diff, "      param %d: program '%s', kernel '%s'\n",
				  i + 1, lstr, kdecl);
		}
	}
	return n;
}

int mkf_protos_compat(const struct btf *local_btf, __u32 local_proto,
		      const struct btf *kern_btf, __u32 kern_proto)
{
	return types_compat(local_btf, local_proto, kern_btf, kern_proto, MAX_DEPTH) > 0;
}
