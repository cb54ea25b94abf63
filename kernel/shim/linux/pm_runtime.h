/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: runtime PM (kernel/rt/runtime.c follows
 * drivers/base/power/runtime.c's counters and status).  The helpers are
 * the kernel's inline ones over the runtime's functions.
 */
#ifndef _DPMSHIM_LINUX_PM_RUNTIME_H
#define _DPMSHIM_LINUX_PM_RUNTIME_H

#include <linux/device.h>
#include <linux/atomic.h>

#define RPM_ASYNC		0x01
#define RPM_NOWAIT		0x02
#define RPM_GET_PUT		0x04
#define RPM_AUTO		0x08
#define RPM_TRANSPARENT		0x10

int __pm_runtime_idle(struct device *dev, int rpmflags);
int __pm_runtime_suspend(struct device *dev, int rpmflags);
int __pm_runtime_resume(struct device *dev, int rpmflags);
int pm_runtime_barrier(struct device *dev);
void pm_runtime_enable(struct device *dev);
void __pm_runtime_disable(struct device *dev, bool check_resume);
int __pm_runtime_set_status(struct device *dev, unsigned int status);
bool pm_runtime_need_not_resume(struct device *dev);
/* Whether it blocked runtime PM (disabled and never enabled); 6.12's
 * main.c ignores the answer, 7.x's reads it. */
bool pm_runtime_block_if_disabled(struct device *dev);
void pm_runtime_unblock(struct device *dev);
bool pm_runtime_blocked(struct device *dev);
void pm_runtime_no_callbacks(struct device *dev);
void pm_runtime_new_link(struct device *dev);
void pm_runtime_drop_link(struct device_link *link);
void pm_runtime_release_supplier(struct device_link *link);

static inline void pm_suspend_ignore_children(struct device *dev, bool enable)
{
	dev->power.ignore_children = enable;
}

static inline void pm_runtime_get_noresume(struct device *dev)
{
	atomic_inc(&dev->power.usage_count);
}

static inline void pm_runtime_put_noidle(struct device *dev)
{
	atomic_add_unless(&dev->power.usage_count, -1, 0);
}

static inline bool pm_runtime_suspended(struct device *dev)
{
	return dev->power.runtime_status == RPM_SUSPENDED &&
		!dev->power.disable_depth;
}

static inline bool pm_runtime_active(struct device *dev)
{
	return dev->power.runtime_status == RPM_ACTIVE ||
		dev->power.disable_depth;
}

static inline bool pm_runtime_status_suspended(struct device *dev)
{
	return dev->power.runtime_status == RPM_SUSPENDED;
}

static inline bool pm_runtime_enabled(struct device *dev)
{
	return !dev->power.disable_depth;
}

static inline int pm_runtime_put(struct device *dev)
{
	return __pm_runtime_idle(dev, RPM_GET_PUT | RPM_ASYNC);
}

static inline int pm_runtime_get_sync(struct device *dev)
{
	return __pm_runtime_resume(dev, RPM_GET_PUT);
}

static inline int pm_runtime_resume(struct device *dev)
{
	return __pm_runtime_resume(dev, 0);
}

static inline int pm_request_idle(struct device *dev)
{
	return __pm_runtime_idle(dev, RPM_ASYNC);
}

static inline void pm_runtime_disable(struct device *dev)
{
	__pm_runtime_disable(dev, true);
}

static inline int pm_runtime_set_active(struct device *dev)
{
	return __pm_runtime_set_status(dev, RPM_ACTIVE);
}

static inline int pm_runtime_set_suspended(struct device *dev)
{
	return __pm_runtime_set_status(dev, RPM_SUSPENDED);
}

#endif
