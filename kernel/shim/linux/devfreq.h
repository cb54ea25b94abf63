/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no device frequency scaling (kernel/rt/misc.c). */
#ifndef _DPMSHIM_LINUX_DEVFREQ_H
#define _DPMSHIM_LINUX_DEVFREQ_H

void devfreq_suspend(void);
void devfreq_resume(void);

#endif
