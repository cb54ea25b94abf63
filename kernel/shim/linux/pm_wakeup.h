/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: wake-up sources (kernel/rt/wakeup.c).  A device
 * that may wake the system has can_wakeup set and a wakeup source
 * attached, as device_init_wakeup(dev, true) leaves it.
 */
#ifndef _DPMSHIM_LINUX_PM_WAKEUP_H
#define _DPMSHIM_LINUX_PM_WAKEUP_H

#include <linux/types.h>
#include <linux/device.h>

struct wakeup_source {
	const char		*name;
	int			id;
	struct device		*dev;
	unsigned long		event_count;
	unsigned long		wakeup_count;
	bool			active:1;
	bool			autosleep_enabled:1;
};

static inline bool device_can_wakeup(struct device *dev)
{
	return dev->power.can_wakeup;
}

static inline bool device_may_wakeup(struct device *dev)
{
	return dev->power.can_wakeup && !!dev->power.wakeup;
}

static inline bool device_wakeup_path(struct device *dev)
{
	return dev->power.wakeup_path;
}

static inline void device_set_wakeup_path(struct device *dev)
{
	dev->power.wakeup_path = true;
}

void device_set_wakeup_capable(struct device *dev, bool capable);
int device_wakeup_enable(struct device *dev);
int device_wakeup_disable(struct device *dev);
int device_init_wakeup(struct device *dev, bool enable);
void pm_wakeup_dev_event(struct device *dev, unsigned int msec, bool hard);
void pm_system_wakeup(void);

/* A soft wake-up event (5.4's main.c reports one this way). */
static inline void pm_wakeup_event(struct device *dev, unsigned int msec)
{
	pm_wakeup_dev_event(dev, msec, false);
}

#endif
