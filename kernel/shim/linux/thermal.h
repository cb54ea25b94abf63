/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no thermal zones (kernel/rt/misc.c); 7.x's main.c
 * stops and restarts thermal control around a transition itself. */
#ifndef _DPMSHIM_LINUX_THERMAL_H
#define _DPMSHIM_LINUX_THERMAL_H

void thermal_pm_prepare(void);
void thermal_pm_complete(void);

#endif
