// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Forged aux arguments, _impl declared as 7.x and our patched 6.12 do. */
#define WQ_IMPL_STRUCT_AUX
#include "wq_forged.h"
