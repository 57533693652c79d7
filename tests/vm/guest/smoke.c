// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * mkf-smoke: loads a tiny SEC("syscall") program, runs it twice with
 * BPF_PROG_TEST_RUN and checks its return value and the counter it
 * keeps in a map. Also reports whether the kernel exposes its BTF.
 * Runs only inside a test guest.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "guest.h"
#include "smoke.skel.h"

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct smoke *skel;
	__u32 key = 0;
	__u64 count = 0;
	int i, err;

	guest_require(argv[0]);
	guest_libbpf_logs(argc > 1 && !strcmp(argv[1], "-v"));

	guest_check(access("/sys/kernel/btf/vmlinux", R_OK) == 0,
		    "kernel BTF at /sys/kernel/btf/vmlinux");

	skel = smoke__open_and_load();
	if (!skel) {
		guest_fail("load the syscall program: %s", strerror(errno));
		return guest_done();
	}
	guest_ok("load the syscall program");

	for (i = 0; i < 2; i++) {
		run.retval = 0;
		err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.smoke), &run);
		guest_check(!err && run.retval == 42, "run %d: err=%d retval=%u (want 42)",
			    i + 1, err, run.retval);
	}
	err = bpf_map_lookup_elem(bpf_map__fd(skel->maps.runs), &key, &count);
	guest_check(!err && count == 2, "map counter is %llu after 2 runs (want 2)",
		    (unsigned long long)count);

	smoke__destroy(skel);
	return guest_done();
}
