// SPDX-License-Identifier: GPL-2.0-only
/*
 * rwsem: the scheme Linus Torvalds proposed for asynchronous suspend and
 * resume in the 2.6.33 pull-request thread (December 2009), in place of
 * the seed's completions: one rw_semaphore per device (power.rwsem).
 *
 *   suspend  the walk (children before parents) read-locks the parent on
 *            behalf of each child before it starts the child's step; the
 *            step write-locks the device itself, which waits until every
 *            child has released the read lock taken for it, runs the
 *            callback, then releases its own write lock and the
 *            parent's read lock.
 *   resume   the walk (parents before children) write-locks each device
 *            before it starts the device's step; the step read-locks the
 *            parent, which waits until the parent's step released its
 *            write lock, runs the callback, then releases the parent's
 *            read lock and its own write lock.
 *
 * Async and sync devices run the same step, on an async thread or inline
 * in the walk.  Everything else (the phases, the walks, pm_async, pm_trace,
 * power/async, PCI, async_error and the roll-back) is the seed's, from
 * dpm_common.c.  The locks are taken and released in different threads,
 * which is what lockdep objected to; kapi's rw_semaphore allows it, like
 * the kernel's non-owner variants.  docs/model.md, "The rwsem variant",
 * maps each function and lists what the proposal left open.
 *
 * Knobs: the seed's two fixes to the error handling this variant shares;
 * off by default, as in the seed.
 */
#include "dpm_common.h"
#include "variant.h"

enum {
	FIX_ASYNC_ERROR_ORDER,
	FIX_ASYNC_ERROR_ONCE,
	NR_RWSEM_FIX
};

static const struct knob rwsem_knobs[NR_RWSEM_FIX] = {
	[FIX_ASYNC_ERROR_ORDER] = {
		"async-error-order", "8a0e5ad8cb5f+",
		"record a failed suspend in async_error before releasing the rwsems, so the parent that write-locks next sees it",
	},
	[FIX_ASYNC_ERROR_ONCE] = {
		"async-error-once", "dbd4bccd9662",
		"read and write async_error with READ_ONCE()/WRITE_ONCE(): no data race between the threads",
	},
};

static int device_suspend(struct device *dev, struct device *parent);
static int device_resume(struct device *dev, struct device *parent);

/* The walks pin each device's parent for its step: the step releases a
 * lock in the parent's memory, possibly after the device was removed. */
static const struct dpm_async_ops rwsem_ops = {
	.device_suspend = device_suspend,
	.device_resume = device_resume,
	.pin_parent = true,
};

static void rwsem_reset(void)
{
	dpm_common_reset(&rwsem_ops, fix_on(FIX_ASYNC_ERROR_ONCE));
}

/* One operation on a device's power.rwsem, with a trace line. */
static void dpm_rwsem(struct device *dev, const char *what,
		      void (*op)(struct rw_semaphore *sem))
{
	pr_debug("%s: %s(power.rwsem)", dev_name(dev), what);
	op(&dev->power.rwsem);
}

/* ---- driver-core hooks ---- */

/* No lock is taken at the start: a device no walk visited never blocks
 * anybody. */
static void rwsem_device_pm_init(struct device *dev)
{
	dev->power.status = DPM_ON;
	init_rwsem(&dev->power.rwsem);
}

/*
 * device_pm_remove() only takes the device off dpm_list: it has nothing
 * to release.  Every lock on a device's rwsem is released by the step
 * that took it or was handed it, and that step runs to its end whether
 * or not the device is still registered (its callback is skipped once
 * the driver is unbound); the references the walk took keep the memory
 * of the device and of its parent until then.
 */

/* ---- resume ---- */

static int __device_resume(struct device *dev, struct device *parent)
{
	int error;

	if (parent)
		dpm_rwsem(parent, "down_read", down_read);
	down(&dev->sem);
	error = dpm_run_callback(dev, PH_RESUME);
	up(&dev->sem);
	if (parent) {
		dpm_rwsem(parent, "up_read", up_read);
		put_device(parent);
	}
	dpm_rwsem(dev, "up_write", up_write);
	return error;
}

/* The parent the walk pinned for this step is dev->parent: the model
 * never moves a device (no device_move()). */
static void async_resume(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	int error;

	(void)cookie;
	pm_dev_dbg(dev, pm_transition, "async ");
	error = __device_resume(dev, dev->parent);
	if (error)
		pm_dev_err(dev, pm_transition, " async", error);
	put_device(dev);
}

static int device_resume(struct device *dev, struct device *parent)
{
	dpm_rwsem(dev, "down_write", down_write);

	if (pm_async_enabled && dev->power.async_suspend &&
	    !pm_trace_is_enabled()) {
		get_device(dev);
		async_schedule(async_resume, dev);
		return 0;
	}
	return __device_resume(dev, parent);
}

/* ---- suspend ---- */

static int __device_suspend(struct device *dev, struct device *parent)
{
	int error = 0;

	dpm_rwsem(dev, "down_write", down_write);
	down(&dev->sem);

	if (read_async_error())
		goto End;

	error = dpm_run_callback(dev, PH_SUSPEND);
	if (!error)
		dev->power.status = DPM_OFF;
End:
	up(&dev->sem);
	if (fix_on(FIX_ASYNC_ERROR_ORDER) && error)
		write_async_error(error);
	dpm_rwsem(dev, "up_write", up_write);
	if (parent) {
		dpm_rwsem(parent, "up_read", up_read);
		put_device(parent);
	}
	return error;
}

static void async_suspend(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	int error;

	(void)cookie;
	pm_dev_dbg(dev, pm_transition, "async ");
	error = __device_suspend(dev, dev->parent);
	if (error) {
		pm_dev_err(dev, pm_transition, " async", error);
		if (!fix_on(FIX_ASYNC_ERROR_ORDER))
			write_async_error(error);
	}
	put_device(dev);
}

static int device_suspend(struct device *dev, struct device *parent)
{
	if (parent)
		dpm_rwsem(parent, "down_read", down_read);

	if (pm_async_enabled && dev->power.async_suspend) {
		get_device(dev);
		async_schedule(async_suspend, dev);
		return 0;
	}
	return __device_suspend(dev, parent);
}

const struct pm_variant variant_rwsem = {
	.name = "rwsem",
	.knobs = rwsem_knobs,
	.nknobs = NR_RWSEM_FIX,
	.reset = rwsem_reset,
	.device_pm_init = rwsem_device_pm_init,
	.device_pm_add = dpm_device_pm_add,
	.device_pm_remove = dpm_list_del,
	.suspend_resume = dpm_suspend_resume,
	.device_enable_async_suspend = dpm_device_enable_async_suspend,
	.async_store = dpm_async_store,
};
