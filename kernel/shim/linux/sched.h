/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: tasks.  current stands for the engine task
 * running (the PM task, an async job, a hotplug task); its pid is the
 * engine's task id.
 */
#ifndef _DPMSHIM_LINUX_SCHED_H
#define _DPMSHIM_LINUX_SCHED_H

#include <linux/types.h>
#include <linux/smp.h>
#include <linux/ktime.h>

struct task_struct;

struct task_struct *dpmk_current(void);
#define current		dpmk_current()
pid_t task_pid_nr(struct task_struct *tsk);

#endif
