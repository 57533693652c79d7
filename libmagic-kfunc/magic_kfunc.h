/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libmagic-kfunc: bind the kfunc externs of a BPF object to what the
 * target kernel offers.
 *
 * A kfunc that takes verifier-provided ("magic") arguments has been
 * exposed under different names and prototypes over time: foo_impl()
 * with a trailing void *aux__ign / aux__prog, foo() with the argument
 * left out, or both. This library reads the target kernel's BTF,
 * decides per extern which kernel function the program can call, and
 * rewrites the object in memory (symbol name, BTF name and prototype of
 * the extern) before libbpf opens it.
 *
 * Conventions are libbpf's: opaque objects, mkf_noun__verb() names,
 * options structs declared with MKF_OPTS(), negative errno returns with
 * errno set, NULL + errno for pointer returns.
 *
 * Installed as <magic-kfunc/magic_kfunc.h>.
 */
#ifndef __MAGIC_KFUNC_H
#define __MAGIC_KFUNC_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MKF_API
#define MKF_API __attribute__((visibility("default")))
#endif

#define MKF_MAJOR_VERSION 0
#define MKF_MINOR_VERSION 1

MKF_API __u32 mkf_major_version(void);
MKF_API __u32 mkf_minor_version(void);
/* "v0.1.0" */
MKF_API const char *mkf_version_string(void);

/*
 * Declare and zero an options struct, setting its sz field:
 *   MKF_OPTS(mkf_kernel_opts, opts, .vmlinux_path = "vmlinux.btf");
 * Zeroing first clears padding, so the library can tell unknown
 * (newer) fields from garbage.
 */
#define MKF_OPTS(TYPE, NAME, ...)					\
	struct TYPE NAME = ({						\
		memset(&NAME, 0, sizeof(struct TYPE));			\
		(struct TYPE) {						\
			.sz = sizeof(struct TYPE),			\
			__VA_ARGS__					\
		};							\
	})

/*
 * Logging. The callback has libbpf's type, so one function can serve
 * both libraries. Messages start with "libmagic-kfunc: ". The default
 * callback prints warnings and info to stderr; the environment variable
 * MKF_LOG_LEVEL (warn, info or debug) changes its threshold. Passing
 * NULL silences the library. Returns the previous callback.
 */
MKF_API libbpf_print_fn_t mkf_set_print(libbpf_print_fn_t fn);

/* ------------------------------------------------------------------ */
/* Target kernel: its BTF (vmlinux and modules), indexed for lookups.  */

struct mkf_kernel;

struct mkf_kernel_opts {
	size_t sz; /* size of this struct, for forward/backward compatibility */
	/*
	 * vmlinux BTF of the target kernel: a raw .BTF blob (as in
	 * /sys/kernel/btf/vmlinux) or an ELF file with a .BTF section.
	 * NULL: the running kernel, read from btf_dir.
	 */
	const char *vmlinux_path;
	/*
	 * Split BTF files of modules, on top of vmlinux_path (raw or ELF).
	 * A module is named after its file, up to the first '.'.
	 * Only used with vmlinux_path.
	 */
	const char *const *module_paths;
	size_t module_cnt;
	/*
	 * Where the running kernel's BTF lives when vmlinux_path is NULL:
	 * a "vmlinux" file plus one file per module. Default
	 * "/sys/kernel/btf".
	 */
	const char *btf_dir;
	/* With btf_dir: read vmlinux only, no module BTF. */
	bool skip_modules;
	size_t :0;
};
#define mkf_kernel_opts__last_field skip_modules

/*
 * Load and index a kernel's BTF. opts may be NULL (running kernel).
 * Errors (docs/errors.md): the open(2)/read(2) errno of a file (ENOENT,
 * EACCES, EIO...), EINVAL for BTF that does not parse or has a name
 * offset past its strings (libbpf's LIBBPF_ERRNO__* codes become EINVAL),
 * ENOMEM.
 */
MKF_API struct mkf_kernel *mkf_kernel__load(const struct mkf_kernel_opts *opts);
/*
 * Index BTF the caller already has. The kernel object borrows it: the
 * BTF must outlive the mkf_kernel. Module BTF must be split BTF whose
 * base is vmlinux_btf.
 */
MKF_API struct mkf_kernel *mkf_kernel__new(const struct btf *vmlinux_btf);
MKF_API int mkf_kernel__add_module(struct mkf_kernel *kernel, const char *name,
				   const struct btf *module_btf);
MKF_API void mkf_kernel__free(struct mkf_kernel *kernel);

/*
 * Whether any DECL_TAG "bpf_kfunc" exists (pahole >= 1.26). Without
 * such tags every FUNC counts as callable.
 */
MKF_API bool mkf_kernel__has_kfunc_tags(const struct mkf_kernel *kernel);
MKF_API size_t mkf_kernel__module_cnt(const struct mkf_kernel *kernel);
MKF_API const char *mkf_kernel__module_name(const struct mkf_kernel *kernel, size_t idx);

/*
 * The kernel's functions: every FUNC of vmlinux (type id order), then of
 * each module, kfunc or not. For tools that list or explain what a
 * kernel offers; resolving objects needs none of this.
 */
struct mkf_kfunc;

MKF_API size_t mkf_kernel__func_cnt(const struct mkf_kernel *kernel);
/* NULL + errno ENOENT past the end. */
MKF_API const struct mkf_kfunc *mkf_kernel__func(const struct mkf_kernel *kernel, size_t idx);
/*
 * The FUNC libbpf binds for a name: the first in vmlinux, else in the
 * first module that has one. NULL + errno ENOENT if none.
 */
MKF_API const struct mkf_kfunc *mkf_kernel__find_func(const struct mkf_kernel *kernel,
						      const char *name);
/* Whether a BPF program may call it: tagged, or the kernel has no tags. */
MKF_API bool mkf_kernel__func_callable(const struct mkf_kernel *kernel,
				       const struct mkf_kfunc *fn);
MKF_API const char *mkf_kfunc__name(const struct mkf_kfunc *fn);
/* The BTF it is in: vmlinux's, or a module's split BTF. */
MKF_API const struct btf *mkf_kfunc__btf(const struct mkf_kfunc *fn);
MKF_API __u32 mkf_kfunc__type_id(const struct mkf_kfunc *fn);
MKF_API __u32 mkf_kfunc__proto_id(const struct mkf_kfunc *fn);
/* Module name, NULL for vmlinux. */
MKF_API const char *mkf_kfunc__module(const struct mkf_kfunc *fn);
/* A DECL_TAG "bpf_kfunc" points at it. */
MKF_API bool mkf_kfunc__has_kfunc_tag(const struct mkf_kfunc *fn);

/* ------------------------------------------------------------------ */
/* Plan: one decision per kfunc extern of an object.                   */

struct mkf_plan;
struct mkf_plan_entry;

struct mkf_plan_opts {
	size_t sz;
	/* Name used in messages (default "object"). */
	const char *object_name;
	size_t :0;
};
#define mkf_plan_opts__last_field object_name

enum mkf_decision {
	/* The extern binds to a kernel function (maybe renamed/changed). */
	MKF_DECISION_BIND = 1,
	/* Weak extern, nothing fits: left alone, libbpf resolves it to 0. */
	MKF_DECISION_LEAVE_WEAK,
	/* Strong extern, nothing fits: left alone, the reason says why. */
	MKF_DECISION_UNRESOLVED,
};

enum mkf_proto_change {
	MKF_PROTO_SAME = 0,
	/* Trailing verifier-provided parameters appended. */
	MKF_PROTO_EXTEND,
	/* Trailing parameters the program passes as dummies dropped. */
	MKF_PROTO_SHRINK,
};

/* What plain libbpf (no rewrite) would do with the extern. */
enum mkf_libbpf_outcome {
	MKF_LIBBPF_BINDS = 0,
	/* Binds a prototype-only FUNC: the verifier refuses the call. */
	MKF_LIBBPF_BINDS_UNCALLABLE,
	/* Not found: a weak extern becomes 0, a strong one fails. */
	MKF_LIBBPF_NOT_FOUND,
	/* "func_proto incompatible": libbpf 1.1 refuses the whole object,
	 * even for a weak extern; newer libbpf drops a weak one. */
	MKF_LIBBPF_INCOMPATIBLE,
};

/*
 * Decide, for each kfunc extern of the ELF object in obj_buf, what the
 * kernel offers. Never fails because of an extern that does not fit:
 * see mkf_plan__unresolved_cnt(). NULL + errno on invalid input:
 * EINVAL for anything but a well-formed relocatable BPF ELF object
 * whose externs have BTF (truncated, wrong type or machine, malformed
 * .BTF, an extern FUNC without a FUNC_PROTO or outside .ksyms, two
 * externs of one name), EOPNOTSUPP for .BTF of the other byte order,
 * ENOMEM. A warning says which (docs/errors.md lists them all).
 */
MKF_API struct mkf_plan *mkf_plan__compute(const void *obj_buf, size_t obj_buf_sz,
					   const struct mkf_kernel *kernel,
					   const struct mkf_plan_opts *opts);
MKF_API void mkf_plan__free(struct mkf_plan *plan);
MKF_API size_t mkf_plan__entry_cnt(const struct mkf_plan *plan);
/* NULL + errno ENOENT past the end. */
MKF_API const struct mkf_plan_entry *mkf_plan__entry(const struct mkf_plan *plan, size_t idx);
MKF_API const struct mkf_plan_entry *mkf_plan__find_entry(const struct mkf_plan *plan,
							  const char *name);
/* Number of strong externs left unresolved. */
MKF_API size_t mkf_plan__unresolved_cnt(const struct mkf_plan *plan);
/* Number of entries whose rewrite changes the object. */
MKF_API size_t mkf_plan__change_cnt(const struct mkf_plan *plan);

/* The extern's name in the object (may carry a ___flavor suffix). */
MKF_API const char *mkf_plan_entry__name(const struct mkf_plan_entry *entry);
MKF_API bool mkf_plan_entry__is_weak(const struct mkf_plan_entry *entry);
MKF_API enum mkf_decision mkf_plan_entry__decision(const struct mkf_plan_entry *entry);
/* Which rule of the resolver decided (1-5 bind, 6 left alone). */
MKF_API int mkf_plan_entry__rule(const struct mkf_plan_entry *entry);
/* Kernel function bound, NULL unless MKF_DECISION_BIND. */
MKF_API const char *mkf_plan_entry__kernel_name(const struct mkf_plan_entry *entry);
/* Module holding it, NULL for vmlinux. */
MKF_API const char *mkf_plan_entry__module(const struct mkf_plan_entry *entry);
MKF_API enum mkf_proto_change mkf_plan_entry__proto_change(const struct mkf_plan_entry *entry);
/* Parameters appended (> 0) or dropped (< 0). */
MKF_API int mkf_plan_entry__param_delta(const struct mkf_plan_entry *entry);
/*
 * When two externs bind the same kernel function, all calls go through
 * one of them; for the others this names that one, else NULL.
 */
MKF_API const char *mkf_plan_entry__merged_into(const struct mkf_plan_entry *entry);
/* A candidate was refused because binding it needs an instruction
 * fix-up this version does not do (verifier-checked scalar). */
MKF_API bool mkf_plan_entry__refused(const struct mkf_plan_entry *entry);
MKF_API enum mkf_libbpf_outcome mkf_plan_entry__libbpf_outcome(const struct mkf_plan_entry *entry);
/* Human-readable reason; for an unresolved extern, the diagnosis
 * listing each candidate and why it does not fit (several lines). */
MKF_API const char *mkf_plan_entry__reason(const struct mkf_plan_entry *entry);

/* ------------------------------------------------------------------ */
/* Rewrite and libbpf glue.                                            */

/*
 * Apply a plan computed for obj_buf: returns a new ELF object in
 * *new_buf (release with free(3)); on error *new_buf is NULL. Errors:
 * those of mkf_plan__compute() for obj_buf, EINVAL if the plan was
 * computed for another object, ENOMEM. Only symbol names, relocation
 * symbols of merged externs and the externs' BTF FUNC name/prototype
 * change; existing BTF type ids never move, so .BTF.ext stays valid.
 */
MKF_API int mkf_object__rewrite(const void *obj_buf, size_t obj_buf_sz,
				const struct mkf_plan *plan,
				void **new_buf, size_t *new_sz);

struct mkf_open_opts {
	size_t sz;
	/* Target kernel. NULL: load it with kernel_opts, or from the
	 * libbpf option btf_custom_path, or the running kernel. */
	const struct mkf_kernel *kernel;
	const struct mkf_kernel_opts *kernel_opts;
	/* If non-NULL, receives the plan (free with mkf_plan__free). */
	struct mkf_plan **plan;
	/* Open even if a strong extern fits nothing (libbpf will then
	 * fail at load time); by default opening fails with ESRCH. */
	bool allow_unresolved;
	size_t :0;
};
#define mkf_open_opts__last_field allow_unresolved

/*
 * bpf_object__open_file()/_mem() with the object rewritten first.
 * NULL + errno: ESRCH if a strong extern fits nothing (see
 * allow_unresolved), the errors of mkf_kernel__load() and
 * mkf_plan__compute(), a file's open(2)/read(2) errno (ENOENT, EISDIR,
 * EIO...), or what libbpf's open returns.
 */
MKF_API struct bpf_object *mkf_object__open_file(const char *path,
						 const struct bpf_object_open_opts *opts,
						 const struct mkf_open_opts *mkf_opts);
MKF_API struct bpf_object *mkf_object__open_mem(const void *obj_buf, size_t obj_buf_sz,
						const struct bpf_object_open_opts *opts,
						const struct mkf_open_opts *mkf_opts);

/*
 * Skeletons (bpftool gen skeleton): use instead of the skeleton's
 * NAME__open_opts():
 *
 *	struct NAME *skel = calloc(1, sizeof(*skel));
 *	if (!skel || NAME__create_skeleton(skel))
 *		goto fail;
 *	if (mkf_object__open_skeleton(skel->skeleton, NULL, NULL))
 *		goto fail;
 *	... NAME__load(skel), NAME__attach(skel) ...
 *	NAME__destroy(skel);
 *
 * The embedded ELF (s->data, s->data_sz) is rewritten into a private
 * buffer for the duration of bpf_object__open_skeleton() only: libbpf
 * has copied everything it needs when open returns, so the buffer is
 * freed there and s->data/s->data_sz are restored. Nothing to release
 * later; NAME__destroy() stays the only cleanup.
 */
MKF_API int mkf_object__open_skeleton(struct bpf_object_skeleton *s,
				      const struct bpf_object_open_opts *opts,
				      const struct mkf_open_opts *mkf_opts);

/* ------------------------------------------------------------------ */
/* Kernel function parameters: which ones the verifier provides.       */

enum mkf_param_kind {
	/* The program passes the value. */
	MKF_PARAM_NORMAL = 0,
	/*
	 * The verifier supplies the value and ignores the register: the
	 * program need not set it. Known by the parameter's name (suffix
	 * __magic, __prog, __implicit, or __ign on a void pointer) or by
	 * its type (struct bpf_prog_aux *, struct btf_struct_meta *).
	 */
	MKF_PARAM_PROVIDED,
	/*
	 * The verifier supplies the value but first checks that the
	 * register holds a scalar (the node offset of
	 * bpf_list_push_{front,back}_impl and bpf_rbtree_add_impl).
	 */
	MKF_PARAM_CHECKED_SCALAR,
};

/*
 * How the verifier treats parameter idx of FUNC_PROTO proto_id in btf,
 * the prototype of kernel function func_name (the name matters for
 * MKF_PARAM_CHECKED_SCALAR). The rules are those the resolver applies.
 * by_type (optional) is set when a provided parameter is known by its
 * type only; why (optional) gets a short static description: for one
 * known by its name, the suffix ("__magic"). MKF_PARAM_NORMAL for a
 * type that is not a FUNC_PROTO or an idx out of range.
 */
MKF_API enum mkf_param_kind mkf_btf__param_kind(const struct btf *btf, const char *func_name,
						__u32 proto_id, int idx, bool *by_type,
						const char **why);

#ifdef __cplusplus
}
#endif

#endif /* __MAGIC_KFUNC_H */
