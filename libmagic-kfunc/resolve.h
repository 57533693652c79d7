/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The resolver: one kfunc extern + the kernel index -> one decision
 * (docs/design.md, section 3; the rules are enum mkf_rule, first match
 * wins). Pure: reads BTF already in memory, no I/O, no logging, no
 * words: what it tried and why is data (struct mkf_resolution), which
 * reason.c puts into words when someone asks.
 */
#ifndef MKF_RESOLVE_H
#define MKF_RESOLVE_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "magic_kfunc.h"
#include "strbuf.h"
#include "kernel_index.h"
#include "libbpf_model.h"
#include "object.h"

/* What the kernel has under a name the resolver tried (B or B_impl). */
enum mkf_cand_state {
	MKF_CAND_ABSENT,	/* not in vmlinux or module BTF */
	/* B_impl untagged beside a tagged B: the KF_IMPLICIT_ARGS
	 * prototype resolve_btfids made; the verifier refuses calls. */
	MKF_CAND_PROTO_ONLY,
	MKF_CAND_UNSPLIT,	/* B in the old-pahole KF_IMPLICIT_ARGS shape (mkf_func_unsplit()) */
	/*
	 * Any other FUNC without the tag in a kernel that tags others: a
	 * kfunc its pahole left untagged or an ordinary function. Never
	 * bound by a rule (the library binds only what it can prove
	 * callable); left to plain libbpf if it binds it by itself.
	 */
	MKF_CAND_UNTAGGED,
	MKF_CAND_CALLABLE,
};

/* Why a callable candidate was passed over (the rule its param count picks). */
enum mkf_misfit {
	MKF_MISFIT_NONE = 0,		/* it binds, or was not tried */
	MKF_MISFIT_INCOMPATIBLE,	/* same count, incompatible by libbpf's rules */
	MKF_MISFIT_PREFIX_DIFFERS,	/* longer: its first params differ from the program's */
	MKF_MISFIT_NOT_PROVIDED,	/* longer: extra param `param` is not verifier-provided */
	MKF_MISFIT_SHRINK_PREFIX,	/* B shorter: its params differ from the program's first */
	MKF_MISFIT_SHRINK_NO_IMPL,	/* B shorter, and no B_impl tells what the extra are */
	MKF_MISFIT_SHRINK_IMPL_CNT,	/* B shorter, and B_impl's count is not the program's */
	MKF_MISFIT_SHRINK_NOT_PROVIDED,	/* B shorter, and B_impl's param `param` is not provided */
	MKF_MISFIT_IMPL_FEWER,		/* B_impl shorter: only B may drop dummies */
};

struct mkf_candidate {
	const char *name;		/* B or B_impl (the resolution's) */
	const struct mkf_func *fn;	/* NULL when absent */
	enum mkf_cand_state state;
	enum mkf_misfit misfit;
	int param;			/* the param (0-based) a misfit names */
};

struct mkf_resolution {
	enum mkf_decision decision;
	enum mkf_rule rule;			/* MKF_RULE_NONE: left alone */
	const struct mkf_func *target;		/* bound FUNC, else NULL */
	enum mkf_proto_change change;
	/*
	 * Params appended (> 0) or dropped (< 0). Appended params are
	 * target's parameters [n, n + delta) of its own prototype, n
	 * being the program's parameter count.
	 */
	int delta;
	int nparams;				/* n */
	/* Registers (bit N: RN) the rewrite sets to 0 before each call:
	 * verifier-checked scalars among the appended params. */
	__u32 set_regs;
	enum mkf_libbpf_outcome libbpf;		/* what plain libbpf would do */
	const struct mkf_func *libbpf_fn;	/* what it finds, NULL if nothing */
	bool libbpf_unsplit;			/* ... an unsplit kfunc it binds */
	/*
	 * Bound, and plain libbpf looking up the extern's own name (flavor
	 * stripped or not, as it does) finds target: the name stays.
	 */
	bool keep_name;
	/* The names tried: B, then B_impl (kernel pointers: the kernel's lifetime). */
	struct mkf_candidate base, impl;
	char *names;				/* B and B_impl, owned */
};

/* 0 on success (whatever the decision), negative errno on failure. */
int mkf_resolve(const struct mkf_kernel *kernel, const struct btf *local_btf,
		const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
		struct mkf_resolution *res);
void mkf_resolution_free(struct mkf_resolution *res);

/*
 * Every name mkf_resolve() will ask the kernel for these externs (three
 * each, in names[0, cnt)): 0, or -ENOMEM and nothing to free.
 */
struct mkf_resolve_names {
	const char **names;
	size_t cnt;
	char **owned;
};

int mkf_resolve_names(struct mkf_resolve_names *rn, const struct mkf_extern *exts, size_t cnt,
		      const struct mkf_libbpf_model *lbm);
void mkf_resolve_names_free(struct mkf_resolve_names *rn);

/*
 * Look up, in one scan of the kernel, every name mkf_resolve() will ask
 * for these externs. Only a matter of speed: 0 or -ENOMEM.
 */
int mkf_resolve_prefetch(const struct mkf_kernel *kernel, const struct mkf_extern *exts,
			 size_t cnt, const struct mkf_libbpf_model *lbm);

/*
 * reason.c: the words for a resolution of ext (in local_btf), while
 * the kernel it was made on lives: the decision, then for rule none
 * each name tried and why it does not fit, then what plain libbpf
 * would do. Appended to out (check out->failed).
 */
void mkf_resolution_say(const struct mkf_resolution *res, const struct btf *local_btf,
			const struct mkf_extern *ext, const struct mkf_libbpf_model *lbm,
			struct mkf_sb *out);

#endif
