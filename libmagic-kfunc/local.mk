# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# libmagic-kfunc: the library (included by the top-level Makefile.am;
# paths are relative to the top source directory).

lib_LTLIBRARIES += libmagic-kfunc/libmagic-kfunc.la

libmagic_kfunc_libmagic_kfunc_la_SOURCES = \
	libmagic-kfunc/btf_compat.c libmagic-kfunc/btf_compat.h \
	libmagic-kfunc/cache.c libmagic-kfunc/cache.h \
	libmagic-kfunc/cache_dir.c libmagic-kfunc/cache_dir.h \
	libmagic-kfunc/cache_plan.c libmagic-kfunc/cache_plan.h \
	libmagic-kfunc/btf_edit.c libmagic-kfunc/btf_edit.h \
	libmagic-kfunc/btf_out.c libmagic-kfunc/btf_out.h \
	libmagic-kfunc/btf_util.c libmagic-kfunc/btf_util.h \
	libmagic-kfunc/call_patch.c libmagic-kfunc/call_patch.h \
	libmagic-kfunc/elf_util.c libmagic-kfunc/elf_util.h \
	libmagic-kfunc/enum_names.c \
	libmagic-kfunc/elf_write.c libmagic-kfunc/elf_write.h \
	libmagic-kfunc/insn_patch.c libmagic-kfunc/insn_patch.h \
	libmagic-kfunc/kernel_index.c libmagic-kfunc/kernel_index.h \
	libmagic-kfunc/kfunc_rules.c libmagic-kfunc/kfunc_rules.h \
	libmagic-kfunc/kfuncs.c libmagic-kfunc/kfuncs.h \
	libmagic-kfunc/kernel_load.c libmagic-kfunc/kernel_load.h \
	libmagic-kfunc/kernel_view.c libmagic-kfunc/kernel_view.h \
	libmagic-kfunc/libbpf_model.c libmagic-kfunc/libbpf_model.h \
	libmagic-kfunc/log.c libmagic-kfunc/log.h \
	libmagic-kfunc/obj_check.c libmagic-kfunc/obj_check.h \
	libmagic-kfunc/obj_image.c libmagic-kfunc/obj_image.h \
	libmagic-kfunc/object.c libmagic-kfunc/object.h \
	libmagic-kfunc/object_api.c libmagic-kfunc/object_api.h \
	libmagic-kfunc/open.c \
	libmagic-kfunc/opts.c libmagic-kfunc/opts.h \
	libmagic-kfunc/params.c libmagic-kfunc/params.h \
	libmagic-kfunc/plan.c libmagic-kfunc/plan.h \
	libmagic-kfunc/plan_apply.c \
	libmagic-kfunc/reason.c \
	libmagic-kfunc/resolve.c libmagic-kfunc/resolve.h \
	libmagic-kfunc/strbuf.c libmagic-kfunc/strbuf.h \
	libmagic-kfunc/version.c
libmagic_kfunc_libmagic_kfunc_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libmagic-kfunc \
	$(LIBBPF_CFLAGS) $(LIBELF_CFLAGS) $(ZLIB_CFLAGS)
# Only what magic_kfunc.h marks MKF_API is exported, under the map's versions.
libmagic_kfunc_libmagic_kfunc_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libmagic_kfunc_libmagic_kfunc_la_LIBADD = $(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)
libmagic_kfunc_libmagic_kfunc_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-Wl,--version-script=$(srcdir)/libmagic-kfunc/libmagic-kfunc.map
EXTRA_libmagic_kfunc_libmagic_kfunc_la_DEPENDENCIES = \
	libmagic-kfunc/libmagic-kfunc.map libmagic-kfunc/map-version.stamp

mkfincludedir = $(includedir)/magic-kfunc
mkfinclude_HEADERS = libmagic-kfunc/magic_kfunc.h libmagic-kfunc/magic_kfunc_introspect.h
dist_man3_MANS = libmagic-kfunc/libmagic-kfunc.3

# Generated here rather than by configure so that it follows the
# installation directories given to make.
mkfpkgconfigdir = $(libdir)/pkgconfig
mkfpkgconfig_DATA = libmagic-kfunc/libmagic-kfunc.pc
libmagic-kfunc/libmagic-kfunc.pc: libmagic-kfunc/libmagic-kfunc.pc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) libmagic-kfunc && \
	$(SED) -e 's|[@]prefix[@]|$(prefix)|g' -e 's|[@]exec_prefix[@]|$(exec_prefix)|g' \
	       -e 's|[@]libdir[@]|$(libdir)|g' -e 's|[@]includedir[@]|$(includedir)|g' \
	       -e 's|[@]PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	       $(srcdir)/libmagic-kfunc/libmagic-kfunc.pc.in > $@.tmp && mv $@.tmp $@

# The package version, the newest symbol version block and the header's
# version macros must agree: refuse to build otherwise.
libmagic-kfunc/map-version.stamp: libmagic-kfunc/libmagic-kfunc.map libmagic-kfunc/magic_kfunc.h Makefile
	$(AM_V_GEN)newest=$$($(SED) -n 's/^\(MKF_[0-9.]*\)[ 	]*{.*/\1/p' \
		$(srcdir)/libmagic-kfunc/libmagic-kfunc.map | tail -n 1); \
	if test "$$newest" != "MKF_$(PACKAGE_VERSION)"; then \
		echo "libmagic-kfunc.map: newest block is '$$newest', package version is $(PACKAGE_VERSION)" >&2; \
		exit 1; \
	fi; \
	hdr=$$($(SED) -n 's/^#define MKF_MAJOR_VERSION \([0-9]*\)$$/\1/p' $(srcdir)/libmagic-kfunc/magic_kfunc.h).$$( \
	      $(SED) -n 's/^#define MKF_MINOR_VERSION \([0-9]*\)$$/\1/p' $(srcdir)/libmagic-kfunc/magic_kfunc.h); \
	case "$(PACKAGE_VERSION)" in \
	"$$hdr".*) ;; \
	*) echo "magic_kfunc.h: version $$hdr does not match package version $(PACKAGE_VERSION)" >&2; exit 1;; \
	esac; \
	$(MKDIR_P) libmagic-kfunc && touch $@

EXTRA_DIST += libmagic-kfunc/libmagic-kfunc.map libmagic-kfunc/libmagic-kfunc.pc.in
CLEANFILES += libmagic-kfunc/libmagic-kfunc.pc libmagic-kfunc/map-version.stamp
