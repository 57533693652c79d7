/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * One print callback for libmagic-kfunc and libbpf. Warnings go to
 * stderr (everything with -d). While capturing, the first warning is
 * kept instead, so that a failing call's cause can become the
 * command's own error message (and, in JSON mode, its {"error": ...}).
 */
#ifndef MKF_CLI_LOG_H
#define MKF_CLI_LOG_H

#include <stdbool.h>

/* Install the callback in both libraries. */
void cli_log_init(bool debug);
/* Start keeping the first warning (forgets what was kept before). */
void cli_log_capture_begin(void);
/*
 * Stop keeping warnings. Returns the first line of the first warning,
 * without the library's name prefix, or "". Valid until the next
 * cli_log_capture_begin() or cli_log_fini().
 */
const char *cli_log_capture_end(void);
void cli_log_fini(void);

#endif
