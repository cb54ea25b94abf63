// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wake-up sources and pm_wakeup_pending(), after
 * drivers/base/power/wakeup.c (written for dpmfuzz).
 *
 * A DPMK_DEV_WAKEUP device is set up as device_init_wakeup(dev, true)
 * leaves it: wake-up capable, with a wakeup source attached, so
 * device_may_wakeup() is true and main.c propagates wakeup_path.
 * device_pm_remove() detaches the source (device_wakeup_disable()).
 *
 * The scenario's wake-up event happens at wakeup_at_us of virtual time
 * (pm_system_wakeup(): the abort counter goes up).  From then on
 * pm_wakeup_pending() is true until the transition in progress ends; an
 * event outside any transition is forgotten, as freeze_processes()
 * clears the counter (pm_wakeup_clear()) before the next one starts.
 * The first true answer in a transition is published as
 * EV_WAKEUP_ABORT (in a suspend-side phase main.c makes it the phase's
 * error, -EBUSY).
 */
#include "rt.h"

static long long transition_start_ns;
static int wakeup_told;

void dpmk_wakeup_reset(void)
{
	dpmk_run.wakeup_ns = dpmk_run.s->wakeup_at_us < 0 ? -1 :
			     dpmk_run.s->wakeup_at_us * 1000LL;
	wakeup_told = 0;
	transition_start_ns = -1;
}

void dpmk_wakeup_transition(bool begin)
{
	if (begin) {
		transition_start_ns = (long long)dpmk_host_now_ns();
		__atomic_store_n(&wakeup_told, 0, __ATOMIC_RELAXED);
	} else {
		transition_start_ns = -1;
	}
}

/* The first wake-up capable device registered, for the log. */
static const char *wakeup_source_name(void)
{
	for (int i = 0; i < dpmk_run.ndev; i++)
		if (dpmk_run.s->dev[i].flags & DPMK_DEV_WAKEUP)
			return dpmk_run.s->dev[i].name;
	return "the platform";
}

bool pm_wakeup_pending(void)
{
	long long now = (long long)dpmk_host_now_ns();
	long long at = dpmk_run.wakeup_ns;

	dpmk_queue_racing_request();
	if (at < 0 || transition_start_ns < 0 || at < transition_start_ns ||
	    now < at)
		return false;
	/* 0: not told, 1: being told, 2: told.  No caller answers true
	 * before the oracle has the event: on real threads a second caller
	 * that answered at once could make main.c skip a device as aborting
	 * before the first caller's EV_WAKEUP_ABORT (a false SKIP, seen once
	 * in 300 TSan scenarios of kernel-6.1.192). */
	int none = 0;

	if (__atomic_compare_exchange_n(&wakeup_told, &none, 1, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		pm_pr_dbg("a wake-up event is pending: the transition aborts\n");
		dpmk_log("wake-up event from %s at %lld us", wakeup_source_name(),
			 at / 1000);
		dpmk_emit(EV_WAKEUP_ABORT, -1, dpmk_phase_now(), -EBUSY,
			  dpmk_run.cycle, at / 1000, NULL);
		__atomic_store_n(&wakeup_told, 2, __ATOMIC_RELAXED);
	}
	while (__atomic_load_n(&wakeup_told, __ATOMIC_RELAXED) != 2)
		dpmk_host_sched_point();
	return true;
}

void pm_system_wakeup(void)
{
	/* The scenario's event is the only one: nothing to add. */
}

void pm_wakeup_dev_event(struct device *dev, unsigned int msec, bool hard)
{
}

void device_set_wakeup_capable(struct device *dev, bool capable)
{
	dev->power.can_wakeup = capable;
}

int device_wakeup_enable(struct device *dev)
{
	struct wakeup_source *ws;

	if (!dev || !dev->power.can_wakeup)
		return -EINVAL;
	if (dev->power.wakeup)
		return -EEXIST;
	ws = calloc(1, sizeof(*ws));
	if (!ws)
		return -ENOMEM;
	ws->name = dev_name(dev);
	ws->dev = dev;
	dpmk_fp_note(to_dpmk(dev)->idx, 2, ws);
	spin_lock_irq(&dev->power.lock);
	dev->power.wakeup = ws;
	spin_unlock_irq(&dev->power.lock);
	return 0;
}

int device_wakeup_disable(struct device *dev)
{
	struct wakeup_source *ws;

	if (!dev || !dev->power.can_wakeup)
		return -EINVAL;
	/* The kernel's unregisters the source's device (device_del(): the
	 * device links lock), the reverse of device_link_add()'s order. */
	dpmk_main_lock_rule(to_dpmk(dev)->idx, "calls device_wakeup_disable() (it takes the device links lock)", 0);
	spin_lock_irq(&dev->power.lock);
	ws = dev->power.wakeup;
	WRITE_ONCE(dev->power.wakeup, NULL);
	spin_unlock_irq(&dev->power.lock);
	dpmk_fp_note(to_dpmk(dev)->idx, 2, NULL);
	free(ws);
	return 0;
}

int device_init_wakeup(struct device *dev, bool enable)
{
	if (enable) {
		device_set_wakeup_capable(dev, true);
		return device_wakeup_enable(dev);
	}
	device_wakeup_disable(dev);
	device_set_wakeup_capable(dev, false);
	return 0;
}
