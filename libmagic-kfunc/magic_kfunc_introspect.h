/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libmagic-kfunc introspection: what a kernel's BTF holds, as the
 * library reads it. The BTF of vmlinux and its modules, each function's
 * facts, the kernel's kfuncs with verifier-provided ("magic")
 * parameters by shape, and which parameter the verifier provides and
 * why. For tools that explain a kernel (magic-kfunc kfuncs and doctor);
 * a loader needs only <magic-kfunc/magic_kfunc.h>, which this includes.
 *
 * Installed as <magic-kfunc/magic_kfunc_introspect.h>. The conventions
 * (NULL arguments, errno) are those of magic_kfunc.h.
 */
#ifndef __MAGIC_KFUNC_INTROSPECT_H
#define __MAGIC_KFUNC_INTROSPECT_H

#include "magic_kfunc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* The kernel's BTF.                                                    */

/**
 * @brief **mkf_kernel__has_kfunc_tags()** tells whether the kernel's
 * BTF marks kfuncs with DECL_TAG "bpf_kfunc" (pahole >= 1.26).
 * @param kernel the kernel
 * @return true if any such tag exists; without tags every FUNC counts
 * as callable
 */
MKF_API bool mkf_kernel__has_kfunc_tags(const struct mkf_kernel *kernel);
/**
 * @brief **mkf_kernel__btf()** returns the kernel's vmlinux BTF.
 * @param kernel the kernel
 * @return its BTF, valid as long as the kernel
 */
MKF_API const struct btf *mkf_kernel__btf(const struct mkf_kernel *kernel);
/**
 * @brief **mkf_kernel__module_btf()** returns a module's split BTF.
 * @param kernel the kernel
 * @param idx 0 to mkf_kernel__module_cnt() - 1
 * @return its BTF, or NULL with errno ENOENT past the end
 */
MKF_API const struct btf *mkf_kernel__module_btf(const struct mkf_kernel *kernel, size_t idx);
/**
 * @brief **mkf_kernel__module_cnt()** returns the number of modules.
 * @param kernel the kernel
 * @return modules whose BTF was added
 */
MKF_API size_t mkf_kernel__module_cnt(const struct mkf_kernel *kernel);
/**
 * @brief **mkf_kernel__module_name()** returns a module's name.
 * @param kernel the kernel
 * @param idx 0 to mkf_kernel__module_cnt() - 1, in the order added
 * @return the name, or NULL with errno ENOENT past the end
 */
MKF_API const char *mkf_kernel__module_name(const struct mkf_kernel *kernel, size_t idx);

/**
 * @brief **mkf_func__name()** returns a function's name.
 * @param fn the function
 * @return its name, in its BTF's strings
 */
MKF_API const char *mkf_func__name(const struct mkf_func *fn);
/**
 * @brief **mkf_func__btf()** returns the BTF a function is in.
 * @param fn the function
 * @return vmlinux's BTF, or a module's split BTF
 */
MKF_API const struct btf *mkf_func__btf(const struct mkf_func *fn);
/**
 * @brief **mkf_func__proto_id()** returns the id of its FUNC_PROTO.
 * @param fn the function
 * @return the FUNC_PROTO's type id in mkf_func__btf()
 */
MKF_API __u32 mkf_func__proto_id(const struct mkf_func *fn);
/**
 * @brief **mkf_func__module()** returns the module a function is in.
 * @param fn the function
 * @return the module's name, NULL for vmlinux (errno left alone then)
 */
MKF_API const char *mkf_func__module(const struct mkf_func *fn);
/**
 * @brief **mkf_func__is_callable()** tells whether BTF proves that a
 * BPF program may call the function.
 * @param fn the function
 * @return true if it is tagged, or if its kernel has no kfunc tags at
 * all (then every FUNC counts as callable). False proves nothing in a
 * kernel that tags only some kfuncs: the verifier reads the kernel's
 * kfunc ID sets, not the tags.
 */
MKF_API bool mkf_func__is_callable(const struct mkf_func *fn);

/*
 * The kernel's kfuncs that take verifier-provided parameters, by how
 * the kernel offers them. Classified once per kernel, on first use,
 * with the rules the resolver applies.
 */
struct mkf_kfunc;

enum mkf_kfunc_shape {
	/*
	 * Callable foo, and foo_impl whose prototype is foo's (leading
	 * parameters compatible by libbpf's rules) plus trailing
	 * verifier-provided parameters; foo_impl may be prototype-only
	 * (7.x) or callable (our patched 6.12, the 7.1 allocator family).
	 */
	MKF_KFUNC_PAIR = 1,
	/*
	 * Callable, no short form: its own prototype ends in parameters
	 * the verifier provides (known by name or by the scalar table).
	 * Programs pass dummies (6.x: foo_impl(..., NULL)).
	 */
	MKF_KFUNC_LEGACY,
	/*
	 * Tagged foo (not _impl) ending in parameters known only by their
	 * type (struct bpf_prog_aux *), with no foo_impl: KF_IMPLICIT_ARGS
	 * BTF written by a pahole that cannot split the prototype.
	 */
	MKF_KFUNC_UNSPLIT,
	/*
	 * foo_impl, not callable, with no callable foo that fits: 7.x's
	 * prototype of a KF_IMPLICIT_ARGS kfunc whose foo differs, or in
	 * a kernel that tags only some kfuncs, one left untagged (BTF
	 * cannot tell; docs/design.md, section 3).
	 */
	MKF_KFUNC_PROTO_ONLY,
};

/**
 * @brief **mkf_kernel__kfunc_cnt()** returns the number of kfuncs with
 * verifier-provided parameters.
 * @param kernel the kernel
 * @return their number; 0 with errno ENOMEM if classifying failed
 *
 * The first call classifies the kernel (safe from several threads);
 * adding a module afterwards classifies it again.
 */
MKF_API size_t mkf_kernel__kfunc_cnt(const struct mkf_kernel *kernel);
/**
 * @brief **mkf_kernel__kfunc()** returns one of them.
 * @param kernel the kernel
 * @param idx 0 to mkf_kernel__kfunc_cnt() - 1; sorted by shape, then name
 * @return the kfunc, or NULL with errno ENOENT past the end
 */
MKF_API const struct mkf_kfunc *mkf_kernel__kfunc(const struct mkf_kernel *kernel, size_t idx);
/**
 * @brief **mkf_kfunc__shape()** returns how the kernel offers it.
 * @param kf the kfunc
 * @return its shape
 */
MKF_API enum mkf_kfunc_shape mkf_kfunc__shape(const struct mkf_kfunc *kf);
/**
 * @brief **mkf_kfunc__func()** returns the function named after the
 * kfunc: foo for a pair, else the only function.
 * @param kf the kfunc
 * @return the function
 */
MKF_API const struct mkf_func *mkf_kfunc__func(const struct mkf_kfunc *kf);
/**
 * @brief **mkf_kfunc__impl()** returns a pair's foo_impl.
 * @param kf the kfunc
 * @return foo_impl for MKF_KFUNC_PAIR, else NULL (errno left alone)
 */
MKF_API const struct mkf_func *mkf_kfunc__impl(const struct mkf_kfunc *kf);
/**
 * @brief **mkf_kfunc__full()** returns the function whose prototype
 * lists the verifier-provided parameters.
 * @param kf the kfunc
 * @return foo_impl for a pair, else the only function
 */
MKF_API const struct mkf_func *mkf_kfunc__full(const struct mkf_kfunc *kf);
/**
 * @brief **mkf_kfunc__provided_cnt()** returns how many parameters the
 * verifier provides.
 * @param kf the kfunc
 * @return the number of trailing parameters of mkf_kfunc__full()'s
 * prototype that the verifier provides (see mkf_btf__param_kind())
 */
MKF_API int mkf_kfunc__provided_cnt(const struct mkf_kfunc *kf);
/**
 * @brief **mkf_kfunc_shape_str()** names a shape.
 * @param shape the shape
 * @return "pair", "legacy", "unsplit", "proto-only", or NULL with errno
 * EINVAL for an unknown value
 */
MKF_API const char *mkf_kfunc_shape_str(enum mkf_kfunc_shape shape);

/* ------------------------------------------------------------------ */
/* Kernel function parameters: which ones the verifier provides.       */

enum mkf_param_kind {
	/* The program passes the value. */
	MKF_PARAM_NORMAL = 1,
	/*
	 * The verifier supplies the value and ignores the register: the
	 * program need not set it.
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
 * Why a parameter is verifier-provided: which verifier code fills it
 * (libmagic-kfunc/params.c cites it). A name suffix alone is never
 * enough: "__ign" only means "type not checked".
 */
enum mkf_param_basis {
	/* It is not: an ordinary parameter. */
	MKF_PARAM_BASIS_NONE = 1,
	/* __magic: KF_MAGIC_ARGS (our 6.12 series), any kfunc. */
	MKF_PARAM_BASIS_SUFFIX_MAGIC,
	/* __prog: 6.16 to 6.19's aux__prog, any kfunc. */
	MKF_PARAM_BASIS_SUFFIX_PROG,
	/*
	 * The legacy aux__ign / meta__ign of the kfuncs whose calls the
	 * verifier patches by their id: bpf_wq_set_callback_impl (6.10 to
	 * 6.15), the allocator and graph _impl kfuncs (6.2 and later).
	 */
	MKF_PARAM_BASIS_SUFFIX_IGN,
	/* Not given: no kernel fills parameters by this suffix. */
	MKF_PARAM_BASIS_SUFFIX_IMPLICIT,
	/* Types. struct bpf_prog_aux *: 7.0 and later, any kfunc. */
	MKF_PARAM_BASIS_TYPE_PROG_AUX,
	/* struct btf_struct_meta *: 7.1's allocator and graph kfuncs. */
	MKF_PARAM_BASIS_TYPE_STRUCT_META,
	/*
	 * The node offset of the graph kfuncs: checked as a scalar first
	 * by their legacy _impl forms (MKF_PARAM_CHECKED_SCALAR), implicit
	 * after 7.1's struct btf_struct_meta *.
	 */
	MKF_PARAM_BASIS_KNOWN_SCALAR,
	/*
	 * A DECL_TAG "bpf_magic:<kind>" on the parameter: our series' BTF
	 * pass marks so each parameter of a legacy _impl the verifier fills
	 * (a module's legacy kfunc, for one).
	 */
	MKF_PARAM_BASIS_MAGIC_TAG,
};

/**
 * @brief **mkf_btf__param_kind()** tells how the verifier treats a
 * parameter of a kernel function, by the rules the resolver applies.
 * @param btf the kernel BTF holding the prototype
 * @param func_name the function's name (the scalar table is by name)
 * @param proto_id its FUNC_PROTO
 * @param idx the parameter, from 0
 * @param basis if not NULL, receives why (MKF_PARAM_BASIS_NONE for an
 * ordinary parameter)
 * @return the kind; MKF_PARAM_NORMAL for a type that is not a
 * FUNC_PROTO or an idx out of range; 0 (and *basis 0) with errno EINVAL
 * for a NULL btf or func_name
 *
 * From the prototype and the function's name only: the decl tags of a
 * kernel (MKF_PARAM_BASIS_MAGIC_TAG) need mkf_func__param_kind().
 */
MKF_API enum mkf_param_kind mkf_btf__param_kind(const struct btf *btf, const char *func_name,
						__u32 proto_id, int idx,
						enum mkf_param_basis *basis);
/**
 * @brief **mkf_func__param_kind()** tells how the verifier treats a
 * parameter of a kernel function, by the rules the resolver applies,
 * its kernel's decl tags included.
 * @param fn the function
 * @param idx the parameter, from 0
 * @param basis if not NULL, receives why
 * @return as mkf_btf__param_kind(); 0 with errno EINVAL for a NULL fn
 */
MKF_API enum mkf_param_kind mkf_func__param_kind(const struct mkf_func *fn, int idx,
						 enum mkf_param_basis *basis);
/**
 * @brief **mkf_param_basis_str()** describes a basis.
 * @param basis the basis
 * @return "__magic", "__prog", "__ign", "__implicit", "struct
 * bpf_prog_aux *", "struct btf_struct_meta *", "known scalar",
 * "bpf_magic tag" or "none"; NULL with errno EINVAL for an unknown value
 */
MKF_API const char *mkf_param_basis_str(enum mkf_param_basis basis);

#ifdef __cplusplus
}
#endif

#endif /* __MAGIC_KFUNC_INTROSPECT_H */
