/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: main.c uses this only under CONFIG_DPM_WATCHDOG,
 * which dpmfuzz leaves off. */
#ifndef _DPMSHIM_LINUX_SCHED_DEBUG_H
#define _DPMSHIM_LINUX_SCHED_DEBUG_H

struct task_struct;

void show_stack(struct task_struct *task, unsigned long *sp, const char *loglvl);

#endif
