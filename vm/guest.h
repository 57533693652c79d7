/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What every statically linked program that runs inside a QEMU guest
 * shares (the tests', the benchmarks', the examples' loaders and
 * mkf-vm-guest, the guest side of "magic-kfunc vm"): the guard that keeps
 * them from ever loading BPF into a host kernel, and the "ok/FAIL"
 * lines with their closing count. Those lines are records (record.h):
 * "ok" or "FAIL", then the case's text escaped, so a name or a message
 * a case quotes cannot break the line or pose as another case.
 */
#ifndef MKF_GUEST_H
#define MKF_GUEST_H

#include <stdarg.h>
#include <stdbool.h>

/*
 * Exit with status 2 unless this is a magic-kfunc test guest: the
 * kernel's own command line carries mkf.guest=1 and mkf.nonce=N (only
 * vm/vm-run sets them, N new for each boot), the root file system is
 * the initramfs, and it holds /etc/mkf-guest with the same N (only
 * vm/mkinitramfs --nonce writes it).
 */
void guest_require(const char *prog);

/* Record one case. */
void guest_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void guest_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void guest_check(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "N passed, N failed" and return the exit status to use. */
int guest_done(void);

/* Route libbpf's warnings to stderr, dropping debug chatter unless asked. */
void guest_libbpf_logs(bool verbose);

#endif
