# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# BPF test programs shared by the guest tests (tests/kernel/) and the
# library's end-to-end tests: plain objects built by the top-level
# .bpf.c.bpf.o rule and handed to guests with vm-run --file.

tests_bpf_objects = tests/bpf/wq_new.bpf.o tests/bpf/wq_old.bpf.o \
	tests/bpf/wq_impl_aux.bpf.o tests/bpf/wq_forged.bpf.o \
	tests/bpf/wq_forged_aux.bpf.o tests/bpf/wq_bad_new.bpf.o \
	tests/bpf/wq_bad_old.bpf.o tests/bpf/wq_bad_impl_aux.bpf.o \
	tests/bpf/testmod_new.bpf.o tests/bpf/testmod_impl.bpf.o \
	tests/bpf/testmod_old.bpf.o tests/bpf/testmod_trace.bpf.o \
	tests/bpf/graph_new.bpf.o tests/bpf/graph_old.bpf.o
tests_bpf_headers = tests/bpf/wq.h tests/bpf/wq_impl.h tests/bpf/wq_forged.h \
	tests/bpf/wq_bad.h tests/bpf/testmod.h tests/bpf/graph.h tests/bpf/graph_progs.h

# Built by "make": compiling them needs no guest, and catches breakage early.
noinst_DATA += $(tests_bpf_objects)
EXTRA_DIST += $(tests_bpf_objects:.bpf.o=.bpf.c) $(tests_bpf_headers)
CLEANFILES += $(tests_bpf_objects)

# The suffix rule knows only the .bpf.c.
$(tests_bpf_objects): $(tests_bpf_headers)
