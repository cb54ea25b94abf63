/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no CPU frequency scaling (kernel/rt/misc.c). */
#ifndef _DPMSHIM_LINUX_CPUFREQ_H
#define _DPMSHIM_LINUX_CPUFREQ_H

void cpufreq_suspend(void);
void cpufreq_resume(void);

#endif
