/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no idle CPUs to pause (kernel/rt/misc.c); main.c
 * before 5.7 pauses cpuidle around the noirq phases itself. */
#ifndef _DPMSHIM_LINUX_CPUIDLE_H
#define _DPMSHIM_LINUX_CPUIDLE_H

void cpuidle_pause(void);
void cpuidle_resume(void);

#endif
