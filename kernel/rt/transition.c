// SPDX-License-Identifier: GPL-2.0-only
/*
 * One cycle of the scenario's transition: main.c's entry points in the
 * order kernel/power sequences them, with its error handling (written
 * for dpmfuzz; each function names the kernel function it follows).
 * The platform, console, CPU hot-unplug, memory and image steps are not
 * modelled: they do nothing and never fail.  syscore_suspend() and
 * syscore_resume() stand where the kernel has them (after the noirq
 * phase, with the one pm_wakeup_pending() check that follows it); no
 * syscore_ops are registered, so they call nothing.
 */
#include "rt.h"

static void syscore_suspend(void)
{
	dpmk_log("syscore_suspend()");
}

static void syscore_resume(void)
{
	dpmk_log("syscore_resume()");
}

/* kernel/power/suspend.c: suspend_enter(), the part after dpm_suspend(). */
static int suspend_enter(bool s2idle, bool *wakeup)
{
	int error;

	error = dpm_suspend_late(PMSG_SUSPEND);
	if (error) {
		pr_err("PM: dpm_suspend_late() failed: %d\n", error);
		return error;
	}
	error = dpm_suspend_noirq(PMSG_SUSPEND);
	if (error) {
		pr_err("PM: dpm_suspend_noirq() failed: %d\n", error);
		goto early_resume;
	}
	if (s2idle) {
		/* s2idle_loop(): the CPUs idle until a wake-up; no check can
		 * fail here. */
		dpmk_log("s2idle: idle, then woken");
		goto platform_wake;
	}
	syscore_suspend();
	*wakeup = pm_wakeup_pending();
	if (*wakeup)
		error = -EBUSY;
	else
		dpmk_log("the system sleeps and wakes");	/* suspend_ops->enter() */
	syscore_resume();
platform_wake:
	dpm_resume_noirq(PMSG_RESUME);
early_resume:
	dpm_resume_early(PMSG_RESUME);
	return error;
}

/* kernel/power/suspend.c: platform_suspend_again(), the platform's
 * suspend_again() asking for the scenario's number of rounds (none for
 * suspend to idle). */
static bool platform_suspend_again(bool s2idle, int *again)
{
	if (s2idle || *again <= 0)
		return false;
	(*again)--;
	dpmk_log("the platform asks to suspend again");
	return true;
}

/* kernel/power/suspend.c: suspend_devices_and_enter(). */
static int suspend_devices_and_enter(bool s2idle)
{
	int again = dpmk_run.s->suspend_again;
	bool wakeup = false;
	int error;

	error = dpm_suspend_start(PMSG_SUSPEND);
	if (error) {
		pr_err("PM: dpm_suspend_start() failed: %d\n", error);
		goto resume_devices;
	}
	do {
		error = suspend_enter(s2idle, &wakeup);
	} while (!error && !wakeup && platform_suspend_again(s2idle, &again));
resume_devices:
	dpm_resume_end(PMSG_RESUME);
	return error;
}

/*
 * kernel/power/hibernate.c: create_image().  in_suspend becomes 1 when
 * the image is made (swsusp_arch_suspend() returns 0 on this side); a
 * pending wake-up skips making it and leaves in_suspend 0, so the
 * devices are then resumed as after a restore.
 */
static int create_image(int *in_suspend)
{
	int error;

	error = dpm_suspend_end(PMSG_FREEZE);
	if (error) {
		pr_err("PM: dpm_suspend_end() failed before the image: %d\n", error);
		return error;
	}
	syscore_suspend();
	if (pm_wakeup_pending())
		goto power_up;
	*in_suspend = 1;
	dpmk_log("hibernation image created");
power_up:
	syscore_resume();
	dpm_resume_start(*in_suspend ? (error ? PMSG_RECOVER : PMSG_THAW) :
			 PMSG_RESTORE);
	return error;
}

/* kernel/power/hibernate.c: hibernation_snapshot(), its device part. */
static int hibernation_snapshot(void)
{
	pm_message_t msg;
	int in_suspend = 0;
	int error;

	error = dpm_prepare(PMSG_FREEZE);
	if (error) {
		dpm_complete(PMSG_RECOVER);
		return error;
	}
	error = dpm_suspend(PMSG_FREEZE);
	if (!error)
		error = create_image(&in_suspend);
	/* Still 0 if freezing failed: the kernel then resumes with RESTORE. */
	msg = in_suspend ? (error ? PMSG_RECOVER : PMSG_THAW) : PMSG_RESTORE;
	dpm_resume(msg);
	dpm_complete(msg);
	return error;
}

/*
 * kernel/power/hibernate.c: hibernation_platform_enter().  The power-off
 * (hibernation_ops->enter()) does not happen here: the run goes on as
 * the kernel does when the platform wakes before it, from Power_up, so
 * the devices come back with RESTORE.
 */
static int hibernation_platform_enter(void)
{
	int error;

	error = dpm_suspend_start(PMSG_HIBERNATE);
	if (error)
		goto resume_devices;
	error = dpm_suspend_end(PMSG_HIBERNATE);
	if (error)
		goto resume_devices;
	syscore_suspend();
	if (pm_wakeup_pending())
		error = -EAGAIN;
	else
		dpmk_log("the platform does not power off: back from Power_up");
	syscore_resume();
	dpm_resume_start(PMSG_RESTORE);
resume_devices:
	dpm_resume_end(PMSG_RESTORE);
	return error;
}

/*
 * kernel/power/hibernate.c: hibernation_restore() and
 * resume_target_kernel().  The jump into the image succeeds: control
 * goes on in the image kernel's create_image() with in_suspend 0, whose
 * devices are these, in the state QUIESCE left them; it resumes them
 * with RESTORE (create_image(), then hibernation_snapshot()).
 */
static int hibernation_restore(void)
{
	int error;

	error = dpm_suspend_start(PMSG_QUIESCE);
	if (error)
		goto recover;
	error = dpm_suspend_end(PMSG_QUIESCE);	/* resume_target_kernel() */
	if (error) {
		pr_err("PM: dpm_suspend_end() failed before the jump: %d\n", error);
		goto recover;
	}
	syscore_suspend();
	dpmk_log("jumping into the image kernel");
	syscore_resume();
	dpm_resume_start(PMSG_RESTORE);
	dpm_resume(PMSG_RESTORE);
	dpm_complete(PMSG_RESTORE);
	return 0;
recover:
	dpm_resume_end(PMSG_RECOVER);
	return error;
}

int dpmk_cycle(int n)
{
	int error;

	dpmk_run.cycle = n;
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_dev_get(i);

		if (!d)
			continue;
		d->depth = 0;
		d->in_dc = false;
		put_device(&d->dev);
	}
	dpmk_run.in_transition = true;
	dpmk_wakeup_transition(true);
	switch (dpmk_run.s->transition) {
	case DPMK_MEM:
		error = suspend_devices_and_enter(false);
		break;
	case DPMK_S2IDLE:
		error = suspend_devices_and_enter(true);
		break;
	case DPMK_FREEZE:
		error = hibernation_snapshot();
		break;
	case DPMK_POWEROFF:
		error = hibernation_platform_enter();
		break;
	case DPMK_RESTORE:
		error = hibernation_restore();
		break;
	default:
		dpmk_host_bug("cycle: unknown transition");
	}
	dpmk_wakeup_transition(false);
	dpmk_run.in_transition = false;
	return error;
}
