/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parts of 2.6.33's drivers/base/power/main.c (with the seed patches)
 * that do not depend on how async devices wait for each other: dpm_list
 * and its mutex, async_error, the debug lines, prepare, complete, the
 * noirq phases, the suspend and resume walks, the power/async attribute.
 * The seed (completions) and rwsem (Linus's proposal) variants share
 * them; each gives the walks its own step for one device.
 */
#ifndef DPM_COMMON_H
#define DPM_COMMON_H

#include <stdbool.h>
#include <sys/types.h>

#include "../device/device.h"

enum pm_event { PMSG_SUSPEND, PMSG_RESUME };

/*
 * What a variant plugs into the walks of dpm_suspend() and dpm_resume().
 * The walk holds a reference to dev and calls the step without
 * dpm_list_mtx.  With pin_parent the walk also takes a reference to
 * dev->parent while dpm_list_mtx still guarantees dev is registered (so
 * its parent is alive) and hands it to the step, which owns it from then
 * on; without it, parent is NULL.
 */
struct dpm_async_ops {
	int (*device_suspend)(struct device *dev, struct device *parent);
	int (*device_resume)(struct device *dev, struct device *parent);
	bool pin_parent;
};

extern struct list_head dpm_list;
extern struct mutex dpm_list_mtx;
extern enum pm_event pm_transition;

/* Reset the shared globals before a run.  async_error_once: the
 * READ_ONCE()/WRITE_ONCE() fix (dbd4bccd9662) is on. */
void dpm_common_reset(const struct dpm_async_ops *ops, bool async_error_once);

/* async_error, a plain int shared by the walk and the async threads as in
 * the seed; the accessors are scheduling points and trace lines. */
int read_async_error(void);
void write_async_error(int error);

void pm_dev_dbg(struct device *dev, enum pm_event state, const char *info);
void pm_dev_err(struct device *dev, enum pm_event state, const char *info,
		int error);

/* device_pm_add() as in 2.6.33; the list half of device_pm_remove(). */
void dpm_device_pm_add(struct device *dev);
void dpm_list_del(struct device *dev);
void dpm_device_enable_async_suspend(struct device *dev, bool enable);
/* seeds/006: a write to power/async. */
ssize_t dpm_async_store(struct device *dev, const char *buf, size_t n);

/* kernel/power/suspend.c: suspend_devices_and_enter(), device part: one
 * transition with the ops of the last dpm_common_reset(). */
int dpm_suspend_resume(void);

#endif
