// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Forged aux arguments, _impl declared as 6.10 - 6.19 do ("void *"). */
#include "wq_forged.h"
