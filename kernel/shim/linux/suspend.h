/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: include/linux/suspend.h, one shape for 6.1 and
 * 6.12.  6.1's main.c defines suspend_stats and counts failures in it;
 * 6.12's calls dpm_save_failed_*() only; both compile against this, and
 * the runtime keeps its own record of failures (kernel/rt/misc.c).
 */
#ifndef _DPMSHIM_LINUX_SUSPEND_H
#define _DPMSHIM_LINUX_SUSPEND_H

#include <linux/types.h>
#include <linux/printk.h>
#include <linux/pm.h>

enum suspend_stat_step {
	SUSPEND_WORKING = 0,
	SUSPEND_FREEZE,
	SUSPEND_PREPARE,
	SUSPEND_SUSPEND,
	SUSPEND_SUSPEND_LATE,
	SUSPEND_SUSPEND_NOIRQ,
	SUSPEND_RESUME_NOIRQ,
	SUSPEND_RESUME_EARLY,
	SUSPEND_RESUME,
	SUSPEND_NR_STEPS
};

#define REC_FAILED_NUM	2

struct suspend_stats {
	int	success;
	int	fail;
	int	failed_freeze;
	int	failed_prepare;
	int	failed_suspend;
	int	failed_suspend_late;
	int	failed_suspend_noirq;
	int	failed_resume;
	int	failed_resume_early;
	int	failed_resume_noirq;
	int	last_failed_dev;
	char	failed_devs[REC_FAILED_NUM][40];
	int	last_failed_errno;
	int	errno[REC_FAILED_NUM];
	int	last_failed_step;
	enum suspend_stat_step	failed_steps[REC_FAILED_NUM];
};

extern struct suspend_stats suspend_stats;

/* 7.x's main.c restricts the allocation mask around the suspend and
 * resume phases: no allocation is restricted here (kernel/rt/misc.c). */
void pm_restrict_gfp_mask(void);
void pm_restore_gfp_mask(void);
void dpm_save_failed_dev(const char *name);
void dpm_save_failed_step(enum suspend_stat_step step);
bool pm_wakeup_pending(void);
extern bool pm_print_times_enabled;
extern bool pm_debug_messages_on;

/* The PM core's debug lines are wanted in dpmrepro's traces: printed. */
#define pm_pr_dbg(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

#endif
