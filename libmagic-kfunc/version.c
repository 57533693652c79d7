// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "magic_kfunc.h"

#define STR_(x) #x
#define STR(x) STR_(x)

__u32 mkf_major_version(void)
{
	return MKF_MAJOR_VERSION;
}

__u32 mkf_minor_version(void)
{
	return MKF_MINOR_VERSION;
}

const char *mkf_version_string(void)
{
	return "v" STR(MKF_MAJOR_VERSION) "." STR(MKF_MINOR_VERSION) ".0";
}
