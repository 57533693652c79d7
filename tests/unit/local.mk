# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Host unit tests of libmagic-kfunc: BTF fixtures built in the tests,
# the BPF objects of tests/bpf (unit_*), real Debian kernel BTF when
# cached. Nothing is ever loaded into the running kernel.

unit_tests = tests/unit/resolve tests/unit/rewrite tests/unit/api tests/unit/real-btf \
	tests/unit/kernel-view \
	tests/unit/insn-patch tests/unit/cache tests/unit/btf-out tests/unit/strbuf \
	tests/unit/obj-image tests/unit/xlated-diff tests/unit/one-parse
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)

# Verifier-provided parameters of every catalogue kernel, against the
# reviewed list (the kernels' BTF from the cache).
check_PROGRAMS += tests/unit/provided-params
TESTS += tests/unit/provided-params-test
EXTRA_DIST += tests/unit/provided-params-test tests/unit/provided-params.expected

# MKF_SKEL_OPEN() with a regular and a light skeleton, at compile time.
TESTS += tests/unit/skel-open-test
EXTRA_DIST += tests/unit/skel-open-test
tests_unit_provided_params_SOURCES = tests/unit/provided-params.c
tests_unit_provided_params_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_provided_params_LDADD = $(UNIT_LDADD)

UNIT_COMMON = tests/unit/unit.c tests/unit/unit.h tests/unit/fixtures.c tests/unit/fixtures.h
UNIT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libmagic-kfunc -I$(top_srcdir)/tests/unit \
	-I$(top_builddir)/tests/bpf $(LIBBPF_CFLAGS) $(LIBELF_CFLAGS) \
	-DMKF_BPF_OBJDIR='"$(abs_top_builddir)/tests/bpf"'
UNIT_LDADD = libmagic-kfunc/libmagic-kfunc.la $(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS)

# The BPF objects the rewrite tests work on are tests/bpf's unit_*
# (tests/bpf/local.mk); the API test opens one through its skeleton.
BUILT_SOURCES += tests/bpf/unit_wq_new.skel.h
CLEANFILES += tests/bpf/unit_wq_new.skel.h

# Resolver, rewrite and real-BTF tests reach internal functions: they
# link the static library (hidden symbols are only hidden from the .so).
tests_unit_resolve_SOURCES = tests/unit/resolve.c $(UNIT_COMMON)
tests_unit_resolve_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_resolve_LDFLAGS = -static
tests_unit_resolve_LDADD = $(UNIT_LDADD)

# The view of kernel BTF files against libbpf's parse: catalogue kernels'
# answers, fixture kernels' plans and rewrites of every test object.
tests_unit_kernel_view_SOURCES = tests/unit/kernel-view.c $(UNIT_COMMON)
tests_unit_kernel_view_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_kernel_view_LDFLAGS = -static
tests_unit_kernel_view_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_kernel_view_DEPENDENCIES = $(tests_bpf_unit_objects) $(tests_bpf_cli_objects) \
	$(tests_bpf_guest_objects) $(tests_bpf_style_objects)

tests_unit_rewrite_SOURCES = tests/unit/rewrite.c $(UNIT_COMMON)
tests_unit_rewrite_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_rewrite_LDFLAGS = -static
tests_unit_rewrite_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_rewrite_DEPENDENCIES = $(tests_bpf_unit_objects) $(tests_bpf_cli_objects) \
	$(tests_bpf_guest_objects) $(tests_bpf_style_objects)

# The append-only BTF writer of the rewrite against libbpf's own edits.
tests_unit_btf_out_SOURCES = tests/unit/btf-out.c tests/unit/unit.c tests/unit/unit.h
tests_unit_btf_out_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_btf_out_LDFLAGS = -static
tests_unit_btf_out_LDADD = $(UNIT_LDADD)

# Each stage of an open reads the object once, and puts decisions into
# words only for a reader: the library's calls into libelf, libbpf's BTF
# parser and its reason formatter, counted with --wrap.
tests_unit_one_parse_SOURCES = tests/unit/one-parse.c $(UNIT_COMMON)
tests_unit_one_parse_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_one_parse_LDFLAGS = -static \
	-Wl,--wrap=elf_memory,--wrap=btf__new,--wrap=bpf_object__open_mem \
	-Wl,--wrap=mkf_resolution_say
tests_unit_one_parse_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_one_parse_DEPENDENCIES = $(tests_bpf_unit_objects)

# No loop between the library's files (includes and calls, from nm).
TESTS += tests/unit/file-cycle-test
EXTRA_DIST += tests/unit/file-cycle-test

# The reader's private image without the DWARF.
tests_unit_obj_image_SOURCES = tests/unit/obj-image.c $(UNIT_COMMON)
tests_unit_obj_image_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_obj_image_LDFLAGS = -static
tests_unit_obj_image_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_obj_image_DEPENDENCIES = $(tests_bpf_unit_objects)

# P3's code check of make bench (bench/xlated-diff.c) on hand-made programs.
tests_unit_xlated_diff_SOURCES = tests/unit/xlated-diff.c bench/xlated-diff.c \
	bench/xlated-diff.h tests/unit/unit.c tests/unit/unit.h
tests_unit_xlated_diff_CPPFLAGS = $(UNIT_CPPFLAGS) -I$(top_srcdir)/bench
tests_unit_xlated_diff_LDADD = $(UNIT_LDADD)

# The reasons' string builder and its own formatter against snprintf().
tests_unit_strbuf_SOURCES = tests/unit/strbuf.c tests/unit/unit.c tests/unit/unit.h
tests_unit_strbuf_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_strbuf_LDFLAGS = -static
tests_unit_strbuf_LDADD = $(UNIT_LDADD)

tests_unit_real_btf_SOURCES = tests/unit/real-btf.c $(UNIT_COMMON)
tests_unit_real_btf_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_real_btf_LDFLAGS = -static
tests_unit_real_btf_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_real_btf_DEPENDENCIES = $(tests_bpf_unit_objects)

# The public API as users get it: the shared library, exported symbols only.
# The rewrite cache, through the public API as well.
tests_unit_cache_SOURCES = tests/unit/cache.c $(UNIT_COMMON)
tests_unit_cache_CPPFLAGS = $(UNIT_CPPFLAGS)
# Static: also checks the library's internal mkf_cache_key_holds().
tests_unit_cache_LDFLAGS = -static
tests_unit_cache_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_cache_DEPENDENCIES = $(tests_bpf_unit_objects)

tests_unit_api_SOURCES = tests/unit/api.c $(UNIT_COMMON)
nodist_tests_unit_api_SOURCES = tests/bpf/unit_wq_new.skel.h
tests_unit_api_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_api_LDFLAGS = -static
tests_unit_api_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_api_DEPENDENCIES = $(tests_bpf_unit_objects)

# The instruction patcher (libmagic-kfunc/insn_patch.c, docs/design.md,
# section 5): hand-assembled sections, then two clang objects (tests/bpf's
# unit_ip_*) patched before every helper and kfunc call and opened with
# libbpf. Its own copy of the patcher: the test wraps malloc/calloc to
# fail each allocation in turn.
tests_unit_insn_patch_SOURCES = tests/unit/insn-patch.c libmagic-kfunc/insn_patch.c \
	libmagic-kfunc/insn_patch.h
tests_unit_insn_patch_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_insn_patch_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc
tests_unit_insn_patch_LDADD = $(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS) -ldl
EXTRA_tests_unit_insn_patch_DEPENDENCIES = $(tests_bpf_insn_objects)

# The guest programs' record format and ok/FAIL lines (vm/record.c,
# vm/guest.c): host only, nothing is loaded.
check_PROGRAMS += tests/unit/record
TESTS += tests/unit/record
tests_unit_record_SOURCES = tests/unit/record.c tests/unit/unit.c tests/unit/unit.h \
	vm/record.c vm/record.h vm/guest.c vm/guest.h
tests_unit_record_CPPFLAGS = $(UNIT_CPPFLAGS) -I$(top_srcdir)/vm
tests_unit_record_LDADD = $(UNIT_LDADD)
