/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_TIMEKEEPING_H
#define _DPMSHIM_LINUX_TIMEKEEPING_H

#include <linux/ktime.h>

#endif
