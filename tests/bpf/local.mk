# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# Every BPF test program, built on the public BPF-side headers
# (headers/magic-kfunc/) and tests/bpf/bpf_test.h. Plain objects built by
# the top-level .bpf.c.bpf.o rule (and the rules below), named by user:
#
#   unit_*  tests/unit: opened by libbpf, planned and rewritten, never loaded
#   cli_*   tests/cli: read by the command line tool, never loaded
#   others  the guest tests (tests/kernel/), handed to guests with
#           vm-run --file, and the bench (wq_old)

tests_bpf_unit_objects = tests/bpf/unit_wq_new.bpf.o tests/bpf/unit_wq_old.bpf.o \
	tests/bpf/unit_compat.bpf.o tests/bpf/unit_list.bpf.o tests/bpf/unit_clash.bpf.o \
	tests/bpf/unit_list_debugger.bpf.o \
	tests/bpf/unit_kconfig.bpf.o tests/bpf/unit_struct_ops.bpf.o
# tests/unit/insn-patch's inputs, about instructions, not declarations:
# libbpf's headers only.
tests_bpf_insn_objects = tests/bpf/unit_ip_calls.bpf.o tests/bpf/unit_ip_core.bpf.o
tests_bpf_cli_objects = tests/bpf/cli_wq_new.bpf.o tests/bpf/cli_wq_old.bpf.o \
	tests/bpf/cli_wq_impl_aux.bpf.o tests/bpf/cli_stream_new.bpf.o \
	tests/bpf/cli_mod_user.bpf.o
tests_bpf_guest_objects = tests/bpf/wq_new.bpf.o tests/bpf/wq_old.bpf.o \
	tests/bpf/wq_impl_aux.bpf.o tests/bpf/wq_forged.bpf.o \
	tests/bpf/testmod_new.bpf.o tests/bpf/testmod_impl.bpf.o \
	tests/bpf/testmod_old.bpf.o tests/bpf/testmod_trace.bpf.o tests/bpf/testmod_neg.bpf.o \
	tests/bpf/graph_new.bpf.o tests/bpf/graph_old.bpf.o tests/bpf/graph_neg.bpf.o \
	tests/bpf/scx_nr_queued.bpf.o tests/bpf/untagged.bpf.o
# Built from wq_bad.bpf.c and wq_forged.bpf.c, one object per calling
# style of the set-callback call (the rules below).
tests_bpf_style_objects = tests/bpf/wq_bad_new.bpf.o tests/bpf/wq_bad_old.bpf.o \
	tests/bpf/wq_bad_impl_aux.bpf.o tests/bpf/wq_forged_aux.bpf.o \
	tests/bpf/wq_compat_wrapper_first.bpf.o tests/bpf/wq_compat_extern_first.bpf.o
tests_bpf_plain_objects = $(tests_bpf_unit_objects) $(tests_bpf_insn_objects) \
	$(tests_bpf_cli_objects) $(tests_bpf_guest_objects)
tests_bpf_objects = $(tests_bpf_plain_objects) $(tests_bpf_style_objects)

# Built by "make": compiling them needs no guest, and catches breakage early.
noinst_DATA += $(tests_bpf_objects)
EXTRA_DIST += tests/bpf/bpf_test.h tests/bpf/graph.h tests/bpf/graph_progs.h tests/bpf/wq_bad.bpf.c \
	tests/bpf/wq_compat.bpf.c \
	$(tests_bpf_plain_objects:.bpf.o=.bpf.c)
CLEANFILES += $(tests_bpf_objects)

# The suffix rule knows only the .bpf.c.
$(tests_bpf_objects): tests/bpf/bpf_test.h $(mkfbpf_HEADERS)
tests/bpf/graph_new.bpf.o tests/bpf/graph_old.bpf.o: tests/bpf/graph.h tests/bpf/graph_progs.h

# One source, one object per style: WQ_STYLE_NEW calls bpf_wq_set_callback(),
# WQ_IMPL_STRUCT_AUX declares the _impl as 7.x does, neither as 6.x does.
tests_bpf_style_cc = $(MKDIR_P) $(@D) && $(CLANG) $(BPF_CFLAGS)
tests/bpf/wq_bad_new.bpf.o: tests/bpf/wq_bad.bpf.c
	$(AM_V_GEN)$(tests_bpf_style_cc) -DWQ_STYLE_NEW -c $< -o $@.tmp && mv $@.tmp $@
tests/bpf/wq_bad_old.bpf.o: tests/bpf/wq_bad.bpf.c
	$(AM_V_GEN)$(tests_bpf_style_cc) -c $< -o $@.tmp && mv $@.tmp $@
tests/bpf/wq_bad_impl_aux.bpf.o: tests/bpf/wq_bad.bpf.c
	$(AM_V_GEN)$(tests_bpf_style_cc) -DWQ_IMPL_STRUCT_AUX -c $< -o $@.tmp && mv $@.tmp $@
tests/bpf/wq_forged_aux.bpf.o: tests/bpf/wq_forged.bpf.c
	$(AM_V_GEN)$(tests_bpf_style_cc) -DWQ_IMPL_STRUCT_AUX -c $< -o $@.tmp && mv $@.tmp $@
# sched_ext's compat.bpf.h shape, in both BTF orders of wrapper and extern.
tests/bpf/wq_compat_wrapper_first.bpf.o: tests/bpf/wq_compat.bpf.c
	$(AM_V_GEN)$(tests_bpf_style_cc) -c $< -o $@.tmp && mv $@.tmp $@
tests/bpf/wq_compat_extern_first.bpf.o: tests/bpf/wq_compat.bpf.c
	$(AM_V_GEN)$(tests_bpf_style_cc) -DEXTERN_FIRST -c $< -o $@.tmp && mv $@.tmp $@
