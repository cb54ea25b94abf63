/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_STDDEF_H
#define _DPMSHIM_LINUX_STDDEF_H

#include <linux/types.h>

#endif
