// SPDX-License-Identifier: GPL-2.0-only
/*
 * WAIT: what device_pm_wait_for_dev() returns to a driver.  It returns
 * main.c's async_error, which tells a waiter whether the phase has
 * failed: an error only once a callback failed or a wake-up aborted
 * since main.c last cleared it.  Every kernel main.c clears it as
 * dpm_suspend(), dpm_suspend_late(), the noirq suspend and dpm_resume()
 * begin; 6.12 also as the noirq and early resume phases begin, 6.1 does
 * not (a failed late or noirq suspend's error still shows in the early
 * and noirq resume that roll it back), so only the four count here.  A
 * stale error, left over from an earlier phase or transition, tells the
 * driver its resume failed when nothing did.
 *
 * Where the wait returns is judged by the record (oracle.c,
 * check_pm_wait(): the device waited for is through the phase); this
 * judges what it returns.  The runtime tells both (EV_PM_WAIT), so only
 * the kernel variants have it.
 */
#include "invariant.h"

/* A callback failed or a wake-up aborted since main.c last cleared
 * async_error. */
static bool failed;

static void wait_reset(void)
{
	failed = false;
}

static bool clears_async_error(int phase)
{
	return phase == PH_SUSPEND || phase == PH_SUSPEND_LATE ||
	       phase == PH_SUSPEND_NOIRQ || phase == PH_RESUME;
}

static void wait_check(int id, const struct dpm_event *ev)
{
	switch (ev->kind) {
	case EV_PHASE_BEGIN:
		if (clears_async_error(ev->phase))
			failed = false;
		return;
	case EV_CB_END:
		/* prepare's positive return is no error; prepare and
		 * complete leave async_error alone, but an error there is
		 * an error all the same: counting it only widens what a
		 * wait may return. */
		if (ev->err < 0)
			failed = true;
		return;
	case EV_WAKEUP_ABORT:
		failed = true;
		return;
	case EV_PM_WAIT:
		if (ev->err && !failed)
			oracle_fail(id, "device_pm_wait_for_dev() returned %d to the %s callback of '%s' (waiting for '%s'), though no callback failed and no wake-up aborted since the phase began",
				    ev->err, pm_phase_name(ev->phase),
				    oracle_dev_name(ev->dev),
				    ev->a >= 0 && ev->a < oracle_ndev() ?
				    oracle_dev_name((int)ev->a) : "?");
		return;
	default:
		return;
	}
}

const struct invariant inv_wait = {
	.name = "WAIT",
	.meaning = "device_pm_wait_for_dev() returns an error only after a callback failed or a wake-up aborted since main.c last cleared its error.",
	.events = EVB(EV_PHASE_BEGIN) | EVB(EV_CB_END) | EVB(EV_WAKEUP_ABORT) |
		  EVB(EV_PM_WAIT),
	/* Whether the phase has failed: the run's.  A failure is written
	 * by the failing callback's end, which main.c's own async_error
	 * already orders before any wait that can see it, as the record's
	 * failure is (table.c): a callback's end writes no more than
	 * before, and a wait reads the phase. */
	.reads = OS_GLOBAL,
	.writes = 0,
	.reset = wait_reset,
	.check = wait_check,
};
