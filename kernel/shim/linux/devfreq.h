/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no device frequency scaling (kernel/rt/misc.c). */
#ifndef _DPMSHIM_LINUX_DEVFREQ_H
#define _DPMSHIM_LINUX_DEVFREQ_H

void devfreq_suspend(void);
void devfreq_resume(void);

/* LOCKS: main.c calls into devfreq only without dpm_list_mtx (devfreq's
 * locks are taken around device registration elsewhere). */
#ifdef DPMK_IN_MAIN_C
#include <dpmshim/host.h>
#define devfreq_suspend()		\
	(DPMK_MAIN_UNLOCKED("calls devfreq_suspend()"), (devfreq_suspend)())
#define devfreq_resume()		\
	(DPMK_MAIN_UNLOCKED("calls devfreq_resume()"), (devfreq_resume)())
#endif

#endif
