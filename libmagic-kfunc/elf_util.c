// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* ELF helpers shared by the object reader and the ELF writer. */
#include <string.h>

#include "elf_util.h"

Elf_Scn *mkf_elf_find_scn(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *sname;

		if (!gelf_getshdr(scn, shdr))
			return NULL;
		sname = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (sname && !strcmp(sname, name))
			return scn;
	}
	return NULL;
}
