# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
# BPF-side headers: the new-style (7.x) declarations of the kfuncs with
# verifier-provided arguments, installed as <magic-kfunc/bpf_kfuncs.h>
# beside the library's <magic-kfunc/magic_kfunc.h>.

mkfbpfdir = $(includedir)/magic-kfunc
mkfbpf_HEADERS = headers/magic-kfunc/bpf_kfuncs.h headers/magic-kfunc/bpf_common.h \
	headers/magic-kfunc/bpf_wq.h headers/magic-kfunc/bpf_stream.h \
	headers/magic-kfunc/bpf_task_work.h headers/magic-kfunc/bpf_obj.h

# Compile a program that uses every declaration, with and without the
# compat macros: a header that stops compiling shows at "make".
headers_check_objects = headers/check-headers.bpf.o headers/check-headers-compat.bpf.o
noinst_DATA += $(headers_check_objects)
EXTRA_DIST += headers/check-headers.bpf.c
CLEANFILES += $(headers_check_objects)
headers/check-headers.bpf.o: $(mkfbpf_HEADERS)
headers/check-headers-compat.bpf.o: headers/check-headers.bpf.c $(mkfbpf_HEADERS)
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)$(CLANG) $(BPF_CFLAGS) -DMKF_COMPAT_IMPL -c $< -o $@.tmp && mv $@.tmp $@
