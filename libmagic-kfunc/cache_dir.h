/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The rewrite cache's directory, opened only where no other user can
 * change what it holds (docs/rewrite-cache.md, "Whom the cache trusts").
 */
#ifndef MKF_CACHE_DIR_H
#define MKF_CACHE_DIR_H

#include <stdbool.h>

/*
 * Whether this process may use a rewrite cache at all: not when it
 * holds capabilities that its user would not have (a service given
 * CAP_BPF, a program with file capabilities): processes of the same
 * user could write its cache, and through it the programs it loads.
 * Says why (warning) when not.
 */
bool mkf_cache_dir_allowed(void);

/*
 * Open DIR (created with mode 0700 if CREATE and missing) as a
 * directory descriptor, walking from "/" one component at a time:
 * every directory on the way must be owned by root or the effective
 * user and writable by nobody else (an ancestor may be a sticky
 * directory such as /tmp: others cannot rename or remove what they do
 * not own in it); a symbolic link on the way must be owned by root or
 * the effective user, and DIR itself must be a directory, not a link.
 * -errno (with a warning naming the component) if not.
 */
int mkf_cache_dir_open(const char *dir, bool create);

/*
 * Open the entry NAME of the directory DFD for reading, without
 * following a link and without blocking (a FIFO), and only if it is a
 * regular file of the effective user that no one else may write. -1
 * when there is none; -2 (after a warning) when one is there that must
 * not be trusted.
 */
int mkf_cache_entry_open(int dfd, const char *dir, const char *name);

/*
 * A new temporary file in DFD, for an entry named NAME: its name
 * ("NAME.tmpXXXXXX") in tmp. -errno on failure.
 */
int mkf_cache_tmp_create(int dfd, const char *name, char *tmp, size_t tmp_sz);

#endif
