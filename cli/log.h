/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * One print callback for libmagic-kfunc and libbpf: silent unless -d,
 * then everything on stderr. Errors come from the library's err_buf.
 */
#ifndef MKF_CLI_LOG_H
#define MKF_CLI_LOG_H

#include <stdbool.h>

/* Install the callback in both libraries. */
void cli_log_init(bool debug);

#endif
