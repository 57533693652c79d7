// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * --xlated-imm64: what the kernel shows of the 64-bit immediates the
 * verifier wrote into a program (BPF_LD_IMM64 with no pseudo source, e.g.
 * the struct bpf_prog_aux pointer it loads into magic kfunc arguments)
 * when user space dumps the translated instructions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "bpftest.h"
#include "guest.h"

void bt_check_xlated_imm64(const struct bt_case *c, int prog_fd)
{
	struct bpf_prog_info info;
	struct bpf_insn *insns;
	__u32 len = sizeof(info), i, n, nr_zero = 0, nr_imm64 = 0, nr_addr = 0;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		guest_fail("%s: xlated instructions: %s", c->label, strerror(errno));
		return;
	}
	n = info.xlated_prog_len / sizeof(*insns);
	insns = calloc(n ?: 1, sizeof(*insns));
	if (!insns) {
		guest_fail("%s: xlated instructions: out of memory", c->label);
		return;
	}
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = n * sizeof(*insns);
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		guest_fail("%s: xlated instructions: %s", c->label, strerror(errno));
		free(insns);
		return;
	}
	for (i = 0; i + 1 < n; i++) {
		if (insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (!insns[i].src_reg) {
			nr_imm64++;
			nr_zero += !insns[i].imm && !insns[i + 1].imm;
			/*
			 * The upper half, where x86-64 kernel addresses are:
			 * what the verifier loads, not what these programs do.
			 */
			nr_addr += (__u32)insns[i + 1].imm >= 0x80000000U;
			/* Say which, for a failure to be read from the report. */
			printf("# %s: xlated insn %u: r%u = 0x%08x%08x\n", c->label, i,
			       insns[i].dst_reg, (unsigned int)insns[i + 1].imm,
			       (unsigned int)insns[i].imm);
		}
		i++;
	}
	free(insns);
	if (c->xlated_imm64 == BT_IMM64_NOADDR)
		guest_check(nr_zero && !nr_addr,
			    "%s: xlated dump hides the kernel's addresses (%u of %u zero, %u kernel addresses)",
			    c->label, nr_zero, nr_imm64, nr_addr);
	else if (c->xlated_imm64 == BT_IMM64_ZERO)
		guest_check(nr_imm64 && nr_zero == nr_imm64,
			    "%s: xlated dump hides the kernel's 64-bit immediates (%u of %u zero)",
			    c->label, nr_zero, nr_imm64);
	else
		guest_check(nr_imm64 && !nr_zero,
			    "%s: xlated dump shows the kernel's 64-bit immediates (%u of %u zero)",
			    c->label, nr_zero, nr_imm64);
}
