/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no CPU frequency scaling (kernel/rt/misc.c). */
#ifndef _DPMSHIM_LINUX_CPUFREQ_H
#define _DPMSHIM_LINUX_CPUFREQ_H

void cpufreq_suspend(void);
void cpufreq_resume(void);

/* LOCKS: main.c calls into cpufreq only without dpm_list_mtx (cpufreq's
 * locks are taken around device registration elsewhere). */
#ifdef DPMK_IN_MAIN_C
#include <dpmshim/host.h>
#define cpufreq_suspend()		\
	(DPMK_MAIN_UNLOCKED("calls cpufreq_suspend()"), (cpufreq_suspend)())
#define cpufreq_resume()		\
	(DPMK_MAIN_UNLOCKED("calls cpufreq_resume()"), (cpufreq_resume)())
#endif

#endif
