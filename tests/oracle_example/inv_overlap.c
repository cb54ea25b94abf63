// SPDX-License-Identifier: GPL-2.0-only
/*
 * OVERLAP: at most two driver callbacks run at once.  A platform rule,
 * not the kernel's: say the firmware behind every device takes two
 * requests at a time.  The worked example of docs/oracle.md, "Adding an
 * invariant".
 */
#include "invariant.h"

static int running;	/* callbacks started and not yet returned */

static void overlap_reset(void)
{
	running = 0;
}

static void overlap_check(int id, const struct dpm_event *ev)
{
	if (ev->kind == EV_CB_END) {
		running--;
		return;
	}
	if (++running > 2)
		oracle_fail(id, "the %s callback of '%s' starts while %d others run",
			    pm_phase_name(ev->phase), oracle_dev_name(ev->dev),
			    running - 1);
}

const struct invariant inv_overlap = {
	.name = "OVERLAP",
	.meaning = "At most two driver callbacks run at once.",
	.events = EVB(EV_CB_START) | EVB(EV_CB_END),
	/* The count of running callbacks: the run's, not a device's. */
	.reads = OS_GLOBAL,
	.writes = OS_GLOBAL,
	.reset = overlap_reset,
	.check = overlap_check,
};
