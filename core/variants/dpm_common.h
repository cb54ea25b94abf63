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
#include "dpm_list.h"

enum pm_event { PMSG_SUSPEND, PMSG_RESUME };

/* 2.6.33's dpm_state, in its order (the seed compares with < and >=). */
enum dpm_state {
	DPM_INVALID,
	DPM_ON,
	DPM_PREPARING,
	DPM_RESUMING,
	DPM_SUSPENDING,
	DPM_OFF,
	DPM_OFF_IRQ,
};

/* 2.6.33's dev_pm_info, with what the seed and Linus's proposal add:
 * the per-device state of both variants (dev->pm_state). */
struct dpm_pm_info {
	struct list_head entry;		/* on dpm_list (first: dpm_list.h) */
	unsigned int async_suspend : 1;
	enum dpm_state status;		/* owned by the PM core */
	bool in_dpm_list;		/* later kernels' flag for "on dpm_list" */
	struct completion completion;	/* the seed */
	struct rw_semaphore rwsem;	/* Linus's proposal */
};

/* dev->power of the kernel. */
static inline struct dpm_pm_info *power(struct device *dev)
{
	return (struct dpm_pm_info *)dev->pm_state;
}

/*
 * What a variant plugs into device_suspend() and device_resume(), the
 * walks' step for one device, and into the async jobs they schedule:
 *   suspend_start, resume_start  run by the walk before the device's
 *                         async job is scheduled or its work runs inline
 *   __device_suspend, __device_resume  the device's work, on an async
 *                         thread (async true) or inline in the walk
 * The walk holds a reference to dev throughout.  With pin_parent it also
 * takes one to dev->parent, while dpm_list_mtx guarantees dev is
 * registered (so its parent is alive), for __device_suspend() or
 * __device_resume() to drop when done with the parent.  (The model never
 * moves a device: dev->parent does not change.)
 */
struct dpm_async_ops {
	void (*suspend_start)(struct device *dev);
	int (*__device_suspend)(struct device *dev, bool async);
	void (*resume_start)(struct device *dev);
	int (*__device_resume)(struct device *dev, bool async);
	bool pin_parent;
};

extern struct list_head dpm_list;
extern struct mutex dpm_list_mtx;
extern enum pm_event pm_transition;

/*
 * Reset the shared globals before a run, with the variant's knobs of the
 * shared error handling: async_error_order, a failed async suspend is
 * recorded by __device_suspend() before it wakes the parent (in
 * dpm_suspend_callback()); async_error_once, READ_ONCE() and
 * WRITE_ONCE() for async_error.
 */
void dpm_common_reset(const struct dpm_async_ops *ops, bool async_error_order,
		      bool async_error_once);

/* async_error, a plain int shared by the walk and the async threads as in
 * the seed; the accessors are scheduling points and trace lines. */
int read_async_error(void);
void write_async_error(int error);

/*
 * The middle of __device_suspend(), between waiting for the children and
 * waking the parent: under the device lock, nothing if a failure is
 * recorded already, else the suspend callback; with the async-error-order
 * fix a failure is recorded in async_error before the return.
 */
int dpm_suspend_callback(struct device *dev);

void pm_dev_dbg(struct device *dev, enum pm_event state, const char *info);
void pm_dev_err(struct device *dev, enum pm_event state, const char *info,
		int error);

/* device_pm_add() as in 2.6.33; the list half of device_pm_remove(). */
void dpm_device_pm_add(struct device *dev);
void dpm_list_del(struct device *dev);
void dpm_device_enable_async_suspend(struct device *dev, bool enable);
/* seeds/006: a write to power/async. */
ssize_t dpm_async_store(struct device *dev, const char *buf, size_t n);

/* The knobs of the shared error handling, for the variants' knob tables. */
#define DPM_KNOB_ASYNC_ERROR_ORDER {                                            \
	"async-error-order", "8a0e5ad8cb5f+",                                 \
	"record a failed async suspend in async_error before the parent is woken (complete_all(), rwsem release), so it sees it", \
	.bug = "SUSPEND-AFTER-CHILDREN", .needs = "", .detector = "fuzz",     \
}
/* DPM_KNOB_ASYNC_ERROR_ONCE: variant.h (modern has it too). */

/* kernel/power/suspend.c: suspend_devices_and_enter(), device part: one
 * transition with the ops of the last dpm_common_reset(). */
int dpm_suspend_resume(void);

#endif
