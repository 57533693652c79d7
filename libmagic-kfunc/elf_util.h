/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* ELF helpers shared by the object reader (object.c) and the writer (elf_write.c). */
#ifndef MKF_ELF_UTIL_H
#define MKF_ELF_UTIL_H

#include <gelf.h>

/* The first section named name (its header in *shdr), or NULL. */
Elf_Scn *mkf_elf_find_scn(Elf *elf, const char *name, GElf_Shdr *shdr);

#endif
