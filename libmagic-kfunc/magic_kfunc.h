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
 * The pipeline, and the source file of each stage:
 *
 *   kernel BTF files --kernel_load.c--> struct mkf_kernel (kernel_index.c,
 *       kfuncs.c: the kernel's kfuncs with verifier-provided parameters)
 *   BPF object --object.c (reader, once per open; object_api.c: the
 *       public struct mkf_object)--> its kfunc externs
 *   externs + kernel --resolve.c (one decision per extern, as data;
 *       params.c, btf_compat.c and kfunc_rules.c: the rules)-->
 *       struct mkf_plan (plan.c; reason.c: the words, when asked for)
 *   plan + the same reading of the object --plan_apply.c (btf_edit.c: BTF edits, call_patch.c
 *       on insn_patch.c: register set-up before calls, elf_write.c: the
 *       new ELF image)--> rewritten object
 *   rewritten object --open.c--> libbpf's bpf_object__open_mem()
 *       (cache.c: what an open handed libbpf, kept for the next one)
 *
 * Conventions are libbpf's: opaque objects, mkf_noun__verb() names,
 * options structs declared with MKF_OPTS(), negative errno returns with
 * errno set, NULL + errno for pointer returns.
 *
 * NULL arguments, everywhere: a function given NULL where it needs an
 * object sets errno to EINVAL and returns -EINVAL (int), NULL
 * (pointer), 0 (counts, ids and enums: no enum of this library has a
 * value 0) or false (bool). Freeing NULL does nothing.
 *
 * Errors: besides errno and the warning logged through the print
 * callback, calls that take an options struct with err_buf/err_buf_sz
 * copy that warning's text (one line, without "libmagic-kfunc: ")
 * into err_buf when they fail, and leave "" there when they succeed.
 * docs/errors.md lists every error and its errno.
 *
 * Installed as <magic-kfunc/magic_kfunc.h>.
 */
#ifndef __MAGIC_KFUNC_H
#define __MAGIC_KFUNC_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
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

/**
 * @brief **mkf_major_version()** returns the library's major version.
 * @return MKF_MAJOR_VERSION of the library in use (not of the header)
 */
MKF_API __u32 mkf_major_version(void);
/**
 * @brief **mkf_minor_version()** returns the library's minor version.
 * @return MKF_MINOR_VERSION of the library in use
 */
MKF_API __u32 mkf_minor_version(void);
/**
 * @brief **mkf_version_string()** returns the version as text.
 * @return a static string such as "v0.1.0"
 */
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

/**
 * @brief **mkf_set_print()** sets the callback every message of the
 * library goes through.
 * @param fn libbpf's callback type, so one function can serve both
 * libraries; NULL silences the library
 * @return the previous callback
 *
 * Messages start with "libmagic-kfunc: ". The default callback prints
 * warnings and info to stderr; the environment variable MKF_LOG_LEVEL
 * (warn, info or debug) changes its threshold. The swap is atomic and
 * errno is preserved around every message.
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
	/* On failure, the error's text (see the top of this file). */
	char *err_buf;
	size_t err_buf_sz;
	/*
	 * Check every type's name and references, not only those of the
	 * FUNCs and decl tags the library reads (libbpf 1.1 does not check
	 * them: its btf_dump, for one, crashes on a type id past the last
	 * one). For callers that hand the BTF to such code; it costs about
	 * one more parse of the BTF.
	 */
	bool check_all_types;
	size_t :0;
};
#define mkf_kernel_opts__last_field check_all_types

/**
 * @brief **mkf_kernel__load()** reads and indexes a kernel's BTF.
 * @param opts which kernel; NULL for the running one
 * @return the kernel, to release with mkf_kernel__free(); NULL with
 * errno set on error: the open(2)/read(2) errno of a file (ENOENT,
 * EACCES, EIO...), EISDIR for a directory, ENODATA for an ELF file
 * without .BTF, EINVAL for a BPF object or its BTF (extern FUNCs, its
 * .maps or license sections), a complete BTF given as a module's, BTF
 * that does not parse, or where a
 * FUNC or decl tag (with check_all_types: any type) has a name offset
 * past its strings or refers to a type past the last one (libbpf's
 * LIBBPF_ERRNO__* codes become EINVAL), or for invalid options, ENOMEM
 */
MKF_API struct mkf_kernel *mkf_kernel__load(const struct mkf_kernel_opts *opts);
/**
 * @brief **mkf_kernel__new()** indexes vmlinux BTF the caller already has.
 * @param vmlinux_btf base BTF (not split); borrowed: it must outlive
 * the returned kernel
 * @return the kernel, or NULL with errno set (EINVAL, ENOMEM)
 */
MKF_API struct mkf_kernel *mkf_kernel__new(const struct btf *vmlinux_btf);
/**
 * @brief **mkf_kernel__add_module()** adds a module's BTF to a kernel
 * made by mkf_kernel__new() or mkf_kernel__load().
 * @param kernel the kernel
 * @param name the module's name (copied)
 * @param module_btf split BTF whose base is the kernel's vmlinux BTF;
 * borrowed: it must outlive the kernel
 * @return 0, or a negative errno (EINVAL, ENOMEM)
 */
MKF_API int mkf_kernel__add_module(struct mkf_kernel *kernel, const char *name,
				   const struct btf *module_btf);
/**
 * @brief **mkf_kernel__free()** releases a kernel and the BTF it loaded.
 * @param kernel the kernel, or NULL
 */
MKF_API void mkf_kernel__free(struct mkf_kernel *kernel);

/*
 * A function (BTF FUNC) of the kernel, kfunc or not: see
 * mkf_plan_entry__func(), and <magic-kfunc/magic_kfunc_introspect.h>
 * for what it tells. Valid as long as its kernel.
 */
struct mkf_func;

/* ------------------------------------------------------------------ */
/* BPF object: read once, then planned for, rewritten and opened.      */

/*
 * A relocatable BPF object as the library reads it: its kfunc externs,
 * their BTF and their call sites. One reading serves every plan
 * computed for it, every rewrite and every open.
 */
struct mkf_object;

struct mkf_object_opts {
	size_t sz;
	/*
	 * The object's name, in messages and as libbpf's object_name when
	 * mkf_object__open() opens it. Default: the file's name up to its
	 * first '.' (mkf_object__new_file(), as libbpf names it), else
	 * "object".
	 */
	const char *object_name;
	/* On failure, the error's text (see the top of this file). */
	char *err_buf;
	size_t err_buf_sz;
	size_t :0;
};
#define mkf_object_opts__last_field err_buf_sz

/**
 * @brief **mkf_object__new()** reads a BPF object from memory.
 * @param obj_buf a relocatable BPF ELF object (copied: the caller may
 * free it when the call returns)
 * @param obj_buf_sz its size
 * @param opts options, or NULL
 * @return the object, to release with mkf_object__free(); NULL with
 * errno set: EINVAL for anything but a well-formed relocatable BPF ELF
 * object whose externs have BTF (truncated, wrong type or machine,
 * malformed .BTF, an extern FUNC without a FUNC_PROTO or outside
 * .ksyms, two externs of one name, shapes that crash libbpf 1.1's
 * open), EOPNOTSUPP for .BTF of the other byte order, ENOMEM
 */
MKF_API struct mkf_object *mkf_object__new(const void *obj_buf, size_t obj_buf_sz,
					   const struct mkf_object_opts *opts);
/**
 * @brief **mkf_object__new_file()** reads a BPF object from a file.
 * @param path the file; "-" is not special here
 * @param opts options, or NULL
 * @return as mkf_object__new(), and the file's open(2)/read(2) errno
 * (ENOENT, EACCES, EISDIR, EIO...)
 */
MKF_API struct mkf_object *mkf_object__new_file(const char *path,
						const struct mkf_object_opts *opts);
/**
 * @brief **mkf_object__free()** releases an object.
 * @param obj the object, or NULL
 */
MKF_API void mkf_object__free(struct mkf_object *obj);
/**
 * @brief **mkf_object__name()** returns the object's name.
 * @param obj the object
 * @return its name (see mkf_object_opts.object_name)
 */
MKF_API const char *mkf_object__name(const struct mkf_object *obj);

/* ------------------------------------------------------------------ */
/* Plan: one decision per kfunc extern of an object.                   */

struct mkf_plan;
struct mkf_plan_entry;

struct mkf_plan_opts {
	size_t sz;
	/*
	 * A strong extern that fits nothing is made weak instead of left
	 * unresolved (MKF_DECISION_WEAKEN): libbpf then resolves it to 0,
	 * so a program that calls it only behind bpf_ksym_exists() loads
	 * (the class of sched_ext's "strong extern to a removed kfunc
	 * blocks the whole scheduler"). Off by default: then the plan
	 * reports it unresolved, with the diagnosis.
	 */
	bool weaken_unresolved;
	/* On failure, the error's text (see the top of this file). */
	char *err_buf;
	size_t err_buf_sz;
	size_t :0;
};
#define mkf_plan_opts__last_field err_buf_sz

enum mkf_decision {
	/* The extern binds to a kernel function (maybe renamed/changed). */
	MKF_DECISION_BIND = 1,
	/*
	 * Weak extern, nothing fits: left alone, libbpf resolves it to 0.
	 * Where the kernel has a function of its name that libbpf would
	 * bind or refuse (another prototype, or one the verifier will not
	 * call), the rewrite renames the extern to "mkf_hidden_NAME", a
	 * name no kernel has; the reason says so.
	 */
	MKF_DECISION_LEAVE_WEAK,
	/* Strong extern, nothing fits: left alone, the reason says why. */
	MKF_DECISION_UNRESOLVED,
	/* Strong extern, nothing fits, made weak on request
	 * (weaken_unresolved): libbpf resolves it to 0 (renamed as
	 * above where needed). */
	MKF_DECISION_WEAKEN,
	/*
	 * Nothing the library can prove callable fits, but plain libbpf
	 * binds the extern as it is to a function without the
	 * "bpf_kfunc" tag in a kernel that tags others
	 * (MKF_LIBBPF_BINDS_UNTAGGED): left exactly as plain libbpf
	 * takes it, neither refused nor hidden, and the verifier decides.
	 */
	MKF_DECISION_LEAVE,
};

/*
 * Which rule decided. B is the extern's essential name (no ___flavor)
 * without a trailing "_impl", P the program's prototype. The first
 * rule that matches wins, in this order.
 */
enum mkf_rule {
	/* Nothing fits: the extern is left alone. */
	MKF_RULE_NONE = 1,
	/* Callable B, prototype compatible with P. */
	MKF_RULE_SAME,
	/* Callable B = P plus trailing verifier-provided parameters. */
	MKF_RULE_EXTEND,
	/* Callable B = P minus trailing parameters the program passes as
	 * dummies (verifier-provided in the kernel's B_impl). */
	MKF_RULE_SHRINK,
	/* Callable B_impl = P plus trailing verifier-provided parameters. */
	MKF_RULE_IMPL_EXTEND,
	/* Callable B_impl compatible with P. */
	MKF_RULE_IMPL_SAME,
	/*
	 * Callable B, or then B_impl, with P's parameter count, differing
	 * from P only in the types of parameters the kernel marks
	 * verifier-provided (7.x's "struct bpf_prog_aux *aux" against
	 * 6.16's "void *aux__prog"): P takes the kernel's types. Tried where
	 * same or impl-same would apply.
	 */
	MKF_RULE_RETYPE,
	MKF_RULE_IMPL_RETYPE,
};

enum mkf_proto_change {
	MKF_PROTO_SAME = 1,
	/* Trailing verifier-provided parameters appended. */
	MKF_PROTO_EXTEND,
	/* Trailing parameters the program passes as dummies dropped. */
	MKF_PROTO_SHRINK,
	/* Same count; verifier-provided parameters take the kernel's types. */
	MKF_PROTO_RETYPE,
};

/*
 * What plain libbpf (no rewrite) would do with the extern: the libbpf
 * this process runs with (libbpf_major_version(),
 * libbpf_minor_version()). From 1.3 on, libbpf looks a "name___flavor"
 * extern up without its last ___flavor, and resolves a weak extern
 * whose prototype does not match to 0; 1.1 does neither.
 */
enum mkf_libbpf_outcome {
	MKF_LIBBPF_BINDS = 1,
	/* Binds a prototype-only FUNC: the verifier refuses the call. */
	MKF_LIBBPF_BINDS_UNCALLABLE,
	/* Not found: a weak extern becomes 0, a strong one fails. */
	MKF_LIBBPF_NOT_FOUND,
	/* "func_proto incompatible": libbpf refuses the whole object
	 * (libbpf 1.1: even for a weak extern). */
	MKF_LIBBPF_INCOMPATIBLE,
	/* A weak extern whose prototype does not match: libbpf 1.3 and
	 * later resolve it to 0, as if it were not found. */
	MKF_LIBBPF_DROPPED,
	/*
	 * Binds a FUNC without the "bpf_kfunc" tag in a kernel whose BTF
	 * tags others, and which is not the "_impl" prototype of a tagged
	 * kfunc: BTF cannot tell whether the verifier lets programs call
	 * it. The verifier reads the kernel's kfunc ID sets, which are
	 * filled by name whatever pahole tagged: a kfunc a pahole left
	 * untagged is callable, an ordinary kernel function is not.
	 */
	MKF_LIBBPF_BINDS_UNTAGGED,
};

/*
 * Would plain libbpf (the linked one, unrewritten object) load the
 * object's programs? From the outcomes of all its kfunc externs.
 */
enum mkf_libbpf_verdict {
	/* Every extern binds a function the verifier lets programs call. */
	MKF_LIBBPF_LOADS = 1,
	/*
	 * Loads, but weak externs resolve to 0 (not found, or dropped by
	 * libbpf 1.3 and later for their prototype): the programs take
	 * their fallback where they test bpf_ksym_exists().
	 */
	MKF_LIBBPF_LOADS_DEGRADED,
	/*
	 * Loads if the kernel counts as kfuncs the untagged functions
	 * that externs bind (MKF_LIBBPF_BINDS_UNTAGGED), fails if not:
	 * BTF cannot tell.
	 */
	MKF_LIBBPF_LOADS_IF_KFUNC,
	/*
	 * libbpf opens it, loading fails: a strong extern is not found,
	 * or an extern binds a function the verifier will not call.
	 */
	MKF_LIBBPF_LOAD_FAILS,
	/* libbpf refuses to open it: a prototype it finds incompatible. */
	MKF_LIBBPF_OPEN_FAILS,
};

/**
 * @brief **mkf_plan__compute()** decides, for each kfunc extern of an
 * object, what the kernel offers.
 * @param obj the object
 * @param kernel the target kernel
 * @param opts options, or NULL
 * @return the plan, to release with mkf_plan__free(); NULL with errno
 * set: EINVAL for a NULL object or kernel or invalid options, ENOMEM
 *
 * An extern that fits nothing is a decision, not an error: see
 * mkf_plan__unresolved_cnt(). The plan keeps nothing of the object or
 * of the kernel: either may be freed before it (but for the functions
 * mkf_plan_entry__func() returns, which are the kernel's).
 */
MKF_API struct mkf_plan *mkf_plan__compute(const struct mkf_object *obj,
					   const struct mkf_kernel *kernel,
					   const struct mkf_plan_opts *opts);
/**
 * @brief **mkf_plan__free()** releases a plan.
 * @param plan the plan, or NULL
 */
MKF_API void mkf_plan__free(struct mkf_plan *plan);
/**
 * @brief **mkf_plan__entry_cnt()** returns the number of kfunc externs.
 * @param plan the plan
 * @return one entry per kfunc extern, in symbol table order
 */
MKF_API size_t mkf_plan__entry_cnt(const struct mkf_plan *plan);
/**
 * @brief **mkf_plan__entry()** returns one entry.
 * @param plan the plan
 * @param idx 0 to mkf_plan__entry_cnt() - 1
 * @return the entry, valid as long as the plan; NULL with errno ENOENT
 * past the end
 */
MKF_API const struct mkf_plan_entry *mkf_plan__entry(const struct mkf_plan *plan, size_t idx);
/**
 * @brief **mkf_plan__find_entry()** finds the entry of an extern.
 * @param plan the plan
 * @param name the extern's name in the object
 * @return the entry, or NULL with errno ENOENT
 */
MKF_API const struct mkf_plan_entry *mkf_plan__find_entry(const struct mkf_plan *plan,
							  const char *name);
/**
 * @brief **mkf_plan__unresolved_cnt()** counts strong externs that fit
 * nothing.
 * @param plan the plan
 * @return entries with MKF_DECISION_UNRESOLVED (not those made weak)
 */
MKF_API size_t mkf_plan__unresolved_cnt(const struct mkf_plan *plan);
/**
 * @brief **mkf_plan__change_cnt()** counts entries whose rewrite
 * changes the object.
 * @param plan the plan
 * @return 0 if mkf_object__rewrite() would return the object unchanged
 */
MKF_API size_t mkf_plan__change_cnt(const struct mkf_plan *plan);

/**
 * @brief **mkf_plan__libbpf_verdict()** says whether plain libbpf would
 * load the object, unrewritten, on the plan's kernel.
 * @param plan the plan
 * @return the worst over its externs' mkf_plan_entry__libbpf_outcome();
 * MKF_LIBBPF_LOADS for an object without kfunc externs; 0 with errno
 * EINVAL for a NULL plan
 */
MKF_API enum mkf_libbpf_verdict mkf_plan__libbpf_verdict(const struct mkf_plan *plan);

/**
 * @brief **mkf_plan_entry__name()** returns the extern's name.
 * @param entry the entry
 * @return the name in the object (may carry a ___flavor suffix)
 */
MKF_API const char *mkf_plan_entry__name(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__is_weak()** tells whether the extern is weak.
 * @param entry the entry
 * @return true for a weak extern
 */
MKF_API bool mkf_plan_entry__is_weak(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__decision()** returns the decision.
 * @param entry the entry
 * @return bind, leave weak or unresolved
 */
MKF_API enum mkf_decision mkf_plan_entry__decision(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__rule()** returns the rule that decided.
 * @param entry the entry
 * @return the rule; MKF_RULE_NONE unless MKF_DECISION_BIND
 */
MKF_API enum mkf_rule mkf_plan_entry__rule(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__kernel_name()** returns the function bound.
 * @param entry the entry
 * @return its name, NULL unless MKF_DECISION_BIND (errno left alone)
 */
MKF_API const char *mkf_plan_entry__kernel_name(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__new_name()** returns the extern's name in
 * the rewritten object.
 * @param entry the entry
 * @return its own name when the rewrite keeps it (plain libbpf already
 * finds the bound function under it: from libbpf 1.3 on, a
 * "name___flavor" is looked up without the flavor), else the kernel
 * function's name (from libbpf 1.3 on with the extern's ___flavor),
 * the hidden name of a hidden extern, or, for a merged extern, that
 * of the extern carrying its calls
 */
MKF_API const char *mkf_plan_entry__new_name(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__func()** returns the kernel function bound.
 * @param entry the entry
 * @return the function (see mkf_func__name() and the like), valid as
 * long as the kernel the plan was computed for; NULL unless
 * MKF_DECISION_BIND (errno left alone)
 */
MKF_API const struct mkf_func *mkf_plan_entry__func(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__module()** returns the module of the
 * function bound.
 * @param entry the entry
 * @return the module's name, NULL for vmlinux or when not bound
 */
MKF_API const char *mkf_plan_entry__module(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__proto_change()** says how the extern's
 * prototype changes.
 * @param entry the entry
 * @return same, extended or shrunk
 */
MKF_API enum mkf_proto_change mkf_plan_entry__proto_change(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__param_delta()** returns the number of
 * parameters appended or dropped.
 * @param entry the entry
 * @return > 0 appended, < 0 dropped, 0 unchanged
 */
MKF_API int mkf_plan_entry__param_delta(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__merged_into()** names the extern that
 * carries this one's calls.
 * @param entry the entry
 * @return when two externs bind the same kernel function, all calls go
 * through one of them: for the others its name, else NULL
 */
MKF_API const char *mkf_plan_entry__merged_into(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__set_regs()** says which registers the
 * rewrite sets before every call to the extern.
 * @param entry the entry
 * @return a mask, bit N for register RN: the parameters appended that
 * the verifier checks as scalars before it fills them in (the node
 * offset of bpf_list_push_{front,back}_impl, R4, and of
 * bpf_rbtree_add_impl, R5); "RN = 0" is inserted right before each
 * call site. 0 when nothing is inserted.
 */
MKF_API __u32 mkf_plan_entry__set_regs(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__call_site_cnt()** counts the object's calls
 * to the extern.
 * @param entry the entry
 * @return call instructions in every program and subprogram; with
 * mkf_plan_entry__set_regs(), each of them gets the instructions
 */
MKF_API size_t mkf_plan_entry__call_site_cnt(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__libbpf_outcome()** says what plain libbpf
 * would do with the extern, unrewritten.
 * @param entry the entry
 * @return the outcome
 */
MKF_API enum mkf_libbpf_outcome mkf_plan_entry__libbpf_outcome(const struct mkf_plan_entry *entry);
/**
 * @brief **mkf_plan_entry__reason()** explains the decision.
 * @param entry the entry
 * @return a first line, then detail lines indented by two; for an
 * unresolved extern, each candidate and why it does not fit
 */
MKF_API const char *mkf_plan_entry__reason(const struct mkf_plan_entry *entry);

/**
 * @brief **mkf_decision_str()** names a decision.
 * @param decision the decision
 * @return "bind", "leave-weak", "unresolved", "weaken"; NULL with errno
 * EINVAL for an unknown value
 */
MKF_API const char *mkf_decision_str(enum mkf_decision decision);
/**
 * @brief **mkf_rule_str()** names a rule.
 * @param rule the rule
 * @return "same", "extend", "shrink", "impl-extend", "impl-same",
 * "retype", "impl-retype", "none"; NULL with errno EINVAL for an unknown
 * value
 */
MKF_API const char *mkf_rule_str(enum mkf_rule rule);
/**
 * @brief **mkf_proto_change_str()** names a prototype change.
 * @param change the change
 * @return "same", "extend", "shrink", "retype"; NULL with errno EINVAL
 * for an unknown value
 */
MKF_API const char *mkf_proto_change_str(enum mkf_proto_change change);
/**
 * @brief **mkf_libbpf_outcome_str()** names what plain libbpf does.
 * @param outcome the outcome
 * @return "binds", "binds-uncallable", "not-found", "incompatible",
 * "dropped"; NULL with errno EINVAL for an unknown value
 */
MKF_API const char *mkf_libbpf_outcome_str(enum mkf_libbpf_outcome outcome);
/**
 * @brief **mkf_libbpf_verdict_str()** names what plain libbpf does with
 * an object.
 * @param verdict the verdict
 * @return "loads", "loads-degraded", "load-fails", "open-fails"; NULL
 * with errno EINVAL for an unknown value
 */
MKF_API const char *mkf_libbpf_verdict_str(enum mkf_libbpf_verdict verdict);

/* ------------------------------------------------------------------ */
/* Rewrite and libbpf glue.                                            */

struct mkf_rewrite_opts {
	size_t sz;
	/* On failure, the error's text (see the top of this file). */
	char *err_buf;
	size_t err_buf_sz;
	size_t :0;
};
#define mkf_rewrite_opts__last_field err_buf_sz

/**
 * @brief **mkf_object__rewrite()** applies a plan to the object it was
 * computed for.
 * @param obj the object given to mkf_plan__compute()
 * @param plan the plan
 * @param new_buf receives the new ELF image (release with free(3));
 * NULL on error
 * @param new_sz receives its size
 * @param opts options, or NULL
 * @return 0, or a negative errno: EINVAL for a NULL argument or if the
 * plan was computed for another object, ENOMEM
 *
 * Only symbol names, relocation symbols of merged externs, the
 * externs' BTF FUNC name/prototype and the register set-up before
 * calls (mkf_plan_entry__set_regs()) change; existing BTF type ids
 * never move, so .BTF.ext stays valid. The output is read back as the
 * linked libbpf will read it, and checked to bind as planned. A plan
 * without changes gives back an exact copy.
 */
MKF_API int mkf_object__rewrite(const struct mkf_object *obj, const struct mkf_plan *plan,
				void **new_buf, size_t *new_sz,
				const struct mkf_rewrite_opts *opts);

/**
 * @brief **mkf_object__open()** hands libbpf the object as a plan
 * rewrites it: bpf_object__open_mem() of mkf_object__rewrite()'s
 * output, or of the object's own bytes when the plan changes nothing.
 * @param obj the object
 * @param plan a plan computed for it, maybe for a kernel other than
 * the running one
 * @param opts libbpf's options, or NULL; object_name defaults to the
 * object's name
 * @return libbpf's object; NULL with errno set: those of
 * mkf_object__rewrite(), or what libbpf's open returns
 *
 * For the caller who wants the plan (to print it, or to decide): the
 * one-call mkf_object__open_file() and mkf_object__open_mem() read,
 * plan and open at once. Unlike them, this opens a plan with
 * unresolved externs: libbpf then fails at load time, as it would on
 * the object as it is. The rewritten image is freed when libbpf's open
 * returns (libbpf keeps copies of what it needs).
 */
MKF_API struct bpf_object *mkf_object__open(const struct mkf_object *obj,
					    const struct mkf_plan *plan,
					    const struct bpf_object_open_opts *opts);

struct mkf_open_opts {
	size_t sz;
	/*
	 * The target kernel (mkf_kernel__load() names it by its files).
	 * NULL: the kernel whose BTF is libbpf's option btf_custom_path
	 * (libbpf's CO-RE target), else the running kernel. Given with
	 * btf_custom_path, both must be one kernel (the same file or the
	 * same bytes): else EINVAL.
	 */
	const struct mkf_kernel *kernel;
	/* Open even if a strong extern fits nothing (libbpf will then
	 * fail at load time); by default opening fails with ESRCH. */
	bool allow_unresolved;
	/* Make such externs weak instead (see mkf_plan_opts). */
	bool weaken_unresolved;
	/* On failure, the error's text (see the top of this file). */
	char *err_buf;
	size_t err_buf_sz;
	/*
	 * A directory (created, mode 0700, if missing) where the open
	 * keeps what it hands libbpf, so that opening the same object for
	 * the same kernel again skips reading the kernel's BTF (when the
	 * open loads it), planning and rewriting. An entry is used only if
	 * its whole key matches: the kernel's BTF files (path, inode,
	 * size, times; for the running kernel every file of its BTF
	 * directory and the boot id), this library's and libbpf's
	 * versions, allow_unresolved and weaken_unresolved, and the object
	 * byte for byte; and only if it is a regular file of the caller's
	 * user that no one else may write. The output is checked again
	 * before libbpf gets it. Not used with a kernel whose files are
	 * unknown (mkf_kernel__new(), or a module added to it); a hit logs
	 * one info line instead of the per-extern ones. Entries of earlier
	 * boots are removed when an entry is written; nothing else is.
	 * NULL: no cache.
	 */
	const char *cache_dir;
	size_t :0;
};
#define mkf_open_opts__last_field cache_dir

/**
 * @brief **mkf_object__open_file()** is bpf_object__open_file() with
 * the object rewritten for the target kernel first.
 * @param path the object file
 * @param opts libbpf's options, or NULL
 * @param mkf_opts this library's options, or NULL
 * @return libbpf's object; NULL with errno set: ESRCH if a strong
 * extern fits nothing (see allow_unresolved), the errors of
 * mkf_kernel__load() and mkf_object__new_file(), or what libbpf's
 * open returns
 *
 * One call for mkf_object__new_file(), mkf_plan__compute() and
 * mkf_object__open(), with the rewrite cache; the plan is logged
 * (mkf_set_print()), not kept: call those three to have it.
 */
MKF_API struct bpf_object *mkf_object__open_file(const char *path,
						 const struct bpf_object_open_opts *opts,
						 const struct mkf_open_opts *mkf_opts);
/**
 * @brief **mkf_object__open_mem()** is bpf_object__open_mem() with the
 * object rewritten for the target kernel first.
 * @param obj_buf the ELF image (not kept after the call)
 * @param obj_buf_sz its size
 * @param opts libbpf's options, or NULL
 * @param mkf_opts this library's options, or NULL
 * @return as mkf_object__open_file(), without the file errors
 */
MKF_API struct bpf_object *mkf_object__open_mem(const void *obj_buf, size_t obj_buf_sz,
						const struct bpf_object_open_opts *opts,
						const struct mkf_open_opts *mkf_opts);

/**
 * @brief **mkf_object__open_skeleton()** opens a bpftool-generated
 * skeleton, rewritten for the target kernel: use it instead of the
 * skeleton's NAME__open_opts().
 * @param s the skeleton's bpf_object_skeleton
 * @param opts libbpf's options, or NULL
 * @param mkf_opts this library's options, or NULL
 * @return 0, or a negative errno (as mkf_object__open_mem())
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

/**
 * @brief **mkf_skeleton__open()** opens a bpftool-generated skeleton as
 * a plan rewrites its object: mkf_object__open() for a skeleton.
 * @param s the skeleton's bpf_object_skeleton
 * @param obj its object, read with mkf_object__new(s->data, s->data_sz, ...)
 * @param plan a plan computed for obj
 * @param opts libbpf's options, or NULL
 * @return 0, or a negative errno: EINVAL if obj is not the skeleton's
 * object or plan not obj's, those of mkf_object__rewrite(), or what
 * bpf_object__open_skeleton() returns
 *
 *	MKF_OPTS(mkf_object_opts, oo, .object_name = skel->skeleton->name);
 *	obj = mkf_object__new(skel->skeleton->data, skel->skeleton->data_sz, &oo);
 *	plan = obj ? mkf_plan__compute(obj, kernel, NULL) : NULL;
 *	... look at the plan ...
 *	err = plan ? mkf_skeleton__open(skel->skeleton, obj, plan, NULL) : -errno;
 *	mkf_plan__free(plan);
 *	mkf_object__free(obj);
 *
 * s->data and s->data_sz are restored before it returns, as
 * mkf_object__open_skeleton() does.
 */
MKF_API int mkf_skeleton__open(struct bpf_object_skeleton *s, const struct mkf_object *obj,
			       const struct mkf_plan *plan,
			       const struct bpf_object_open_opts *opts);

/*
 * MKF_SKEL_OPEN(NAME, opts, mkf_opts): the skeleton's NAME__open_opts(opts)
 * with the object rewritten for the target kernel, in one call: allocates
 * struct NAME, fills it (NAME__create_skeleton()) and opens it with
 * mkf_object__open_skeleton(). Returns the skeleton, or NULL with errno
 * set (ENOMEM, or what mkf_object__open_skeleton() returns); then load,
 * attach and destroy it as usual:
 *
 *	struct NAME *skel = MKF_SKEL_OPEN(NAME, NULL, NULL);
 *	if (!skel || NAME__load(skel))
 *		goto fail;
 *	...
 *	NAME__destroy(skel);
 *
 * Light skeletons (bpftool gen skeleton -L) are not supported and do not
 * compile here ("NAME__create_skeleton undeclared"): they carry no ELF
 * object, only a loader program that the kernel runs, in which each
 * kfunc's name was fixed when the skeleton was generated. Generate a
 * regular skeleton (without -L).
 * A GNU C statement expression (gcc, clang).
 */
#define MKF_SKEL_OPEN(NAME, opts, mkf_opts) ({				\
	struct NAME *__mkf_skel = (struct NAME *)calloc(1, sizeof(struct NAME)); \
	int (*__mkf_create)(struct NAME *) = NAME##__create_skeleton; /* a light skeleton (-L) has none: see MKF_SKEL_OPEN */ \
	int __mkf_err = __mkf_skel ? __mkf_create(__mkf_skel) : -ENOMEM;	\
									\
	if (!__mkf_err)							\
		__mkf_err = mkf_object__open_skeleton(__mkf_skel->skeleton, \
						      (opts), (mkf_opts)); \
	if (__mkf_err) {						\
		NAME##__destroy(__mkf_skel);				\
		__mkf_skel = NULL;					\
		errno = -__mkf_err;					\
	}								\
	__mkf_skel;							\
})

#ifdef __cplusplus
}
#endif

#endif /* __MAGIC_KFUNC_H */
