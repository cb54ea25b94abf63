// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rest of the kernel main.c calls, and what each stands for here.
 *
 * Switches from kernel/power/main.c: pm_async_enabled (the scenario's
 * pm_async), pm_print_times_enabled (on while the host keeps a log, so
 * the "calling ... @ pid" lines of initcall_debug appear in traces),
 * pm_debug_messages_on; pm_trace_enabled (the scenario's pm_trace).
 *
 * No-ops, because nothing here has what they act on: device interrupts
 * (suspend_device_irqs(), resume_device_irqs()), dedicated wake-up IRQs
 * (device_wakeup_arm_wake_irqs() and the disarm), idle CPUs
 * (wake_up_all_idle_cpus(), and cpuidle_pause()/_resume(), which main.c
 * called itself up to 5.15), CPU and device frequency scaling
 * (cpufreq_*(), devfreq_*()), thermal control and the allocation mask
 * (thermal_pm_prepare()/_complete(), pm_restrict_gfp_mask(), pm_restore_gfp_mask(),
 * 7.x).  Interrupts being off in the noirq phases
 * matters to drivers, not to main.c's ordering; the runtime keeps other
 * tasks' device removals out of the late/noirq window instead
 * (kernel/rt/events.c).
 *
 * dpm_save_failed_dev()/_step(): kernel/power/main.c's suspend_stats;
 * the runtime logs them, and publishes each device and step recorded
 * (EV_FAILED_DEV, EV_FAILED_STEP) for the oracle's STATS.
 */
#include <linux/interrupt.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/cpufreq.h>
#include <linux/devfreq.h>
#include <linux/cpuidle.h>
#include <linux/thermal.h>
#include <linux/pm-trace.h>

#include "rt.h"

int pm_async_enabled = 1;
int pm_trace_enabled;
bool pm_print_times_enabled;
bool pm_debug_messages_on;
int dpmk_spin_real;

/* Failures are logged, nothing more: a record shared by the async jobs
 * that fail together would need a lock, which would order them for
 * ThreadSanitizer as nothing in main.c does. */
void dpmk_misc_reset(void)
{
	pm_async_enabled = dpmk_run.s->pm_async;
	pm_trace_enabled = dpmk_run.s->pm_trace;
	pm_print_times_enabled = dpmk_log_on;
	pm_debug_messages_on = dpmk_log_on;
}

void dpm_save_failed_dev(const char *name)
{
	int idx = -1;

	dpmk_log("failed device: %s", name);
	for (int i = 0; i < dpmk_run.ndev && name; i++)
		if (!strcmp(dpmk_run.s->dev[i].name, name)) {
			idx = i;
			break;
		}
	dpmk_emit(EV_FAILED_DEV, idx, dpmk_phase_now(), 0, 0, 0, name);
}

void dpm_save_failed_step(enum suspend_stat_step step)
{
	static const char *const names[SUSPEND_NR_STEPS] = {
		"working", "freeze", "prepare", "suspend", "suspend_late",
		"suspend_noirq", "resume_noirq", "resume_early", "resume",
	};

	static const int phase[SUSPEND_NR_STEPS] = {
		[SUSPEND_WORKING] = -1, [SUSPEND_FREEZE] = -1,
		[SUSPEND_PREPARE] = PH_PREPARE, [SUSPEND_SUSPEND] = PH_SUSPEND,
		[SUSPEND_SUSPEND_LATE] = PH_SUSPEND_LATE,
		[SUSPEND_SUSPEND_NOIRQ] = PH_SUSPEND_NOIRQ,
		[SUSPEND_RESUME_NOIRQ] = PH_RESUME_NOIRQ,
		[SUSPEND_RESUME_EARLY] = PH_RESUME_EARLY,
		[SUSPEND_RESUME] = PH_RESUME,
	};
	bool known = (unsigned)step < SUSPEND_NR_STEPS;

	dpmk_log("failed step: %s", known ? names[step] : "?");
	dpmk_emit(EV_FAILED_STEP, -1, dpmk_phase_now(), 0, known ? phase[step] : -1, 0, NULL);
}

void suspend_device_irqs(void)
{
}

void resume_device_irqs(void)
{
}

void device_wakeup_arm_wake_irqs(void)
{
}

void device_wakeup_disarm_wake_irqs(void)
{
}

void wake_up_all_idle_cpus(void)
{
}

void cpufreq_suspend(void)
{
}

void cpufreq_resume(void)
{
}

void devfreq_suspend(void)
{
}

void thermal_pm_prepare(void)
{
}

void thermal_pm_complete(void)
{
}

void pm_restrict_gfp_mask(void)
{
}

void pm_restore_gfp_mask(void)
{
}

void cpuidle_pause(void)
{
}

void cpuidle_resume(void)
{
}

void devfreq_resume(void)
{
}

/* current: the engine task; its pid the task id. */
struct task_struct *dpmk_current(void)
{
	return (struct task_struct *)(uintptr_t)(dpmk_host_task_id() + 1);
}

pid_t task_pid_nr(struct task_struct *tsk)
{
	return (pid_t)(uintptr_t)tsk;
}

void show_stack(struct task_struct *task, unsigned long *sp, const char *loglvl)
{
}

void panic(const char *fmt, ...)
{
	dpmk_host_bug("panic() called");
}
