/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: main.c uses timers only under CONFIG_DPM_WATCHDOG,
 * which dpmfuzz leaves off (LIVENESS is the engines' job). */
#ifndef _DPMSHIM_LINUX_TIMER_H
#define _DPMSHIM_LINUX_TIMER_H

#include <linux/ktime.h>

struct timer_list;

#endif
