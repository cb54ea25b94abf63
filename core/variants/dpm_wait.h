/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every completion-based variant does the same way since 2.6.33:
 * waiting for a device (dpm_wait(), its children) and the complete phase's
 * per-device step.  Included by seed, its shared code and modern, after
 * they define power(dev), their per-device state, with a completion and
 * an async_suspend flag.
 */
#ifndef DPM_VARIANTS_DPM_WAIT_H
#define DPM_VARIANTS_DPM_WAIT_H

#include <stdio.h>

#include "../device/device.h"

/* Wait for dev's completion if the caller is async or dev is. */
static inline void dpm_wait(struct device *dev, bool async)
{
	if (!dev)
		return;
	if (async || (pm_async_enabled && power(dev)->async_suspend)) {
		pr_debug("waits for %s", dev_name(dev));
		wait_for_completion(&power(dev)->completion);
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

/* A LIVENESS report's words for a device's completion (model_ops.describe). */
static inline const char *dpm_describe_completion(struct device *dev,
						  const void *obj, char *buf,
						  size_t n, int *why)
{
	struct completion *c = &power(dev)->completion;

	if (obj != c)
		return NULL;
	eng_lock(&c->wait.lk);
	bool done = c->done;

	eng_unlock(&c->wait.lk);
	snprintf(buf, n, "the power.completion of '%s'%s", dev_name(dev),
		 done ? "" : ", which nobody completes: ");
	*why = done ? -1 : dev->id;
	return buf;
}

#endif
