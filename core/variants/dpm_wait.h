/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every completion-based variant does the same way since 2.6.33:
 * waiting for a device (dpm_wait(), its children) and the complete phase's
 * per-device step.  Included by seed, its shared code and modern.
 */
#ifndef DPM_VARIANTS_DPM_WAIT_H
#define DPM_VARIANTS_DPM_WAIT_H

#include "../device/device.h"

/* Wait for dev's completion if the caller is async or dev is. */
static inline void dpm_wait(struct device *dev, bool async)
{
	if (!dev)
		return;
	if (async || (pm_async_enabled && dev->power.async_suspend)) {
		pr_debug("waits for %s", dev_name(dev));
		wait_for_completion(&dev->power.completion);
	}
}

static inline int dpm_wait_fn(struct device *dev, void *async_ptr)
{
	dpm_wait(dev, *(bool *)async_ptr);
	return 0;
}

static inline void dpm_wait_for_children(struct device *dev, bool async)
{
	device_for_each_child(dev, &async, dpm_wait_fn);
}

/* The complete callback, under the device lock. */
static inline void device_complete(struct device *dev)
{
	down(&dev->sem);
	dpm_run_callback(dev, PH_COMPLETE);
	up(&dev->sem);
}

#endif
