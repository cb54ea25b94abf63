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
 * in the walk.  Everything else (the phases, the walks, the async jobs,
 * pm_async, pm_trace, power/async, PCI, async_error and the roll-back) is
 * the seed's, from dpm_common.c; the walks pin each device's parent for
 * its step (dpm_async_ops.pin_parent).  The locks are taken and released
 * in different threads, which is what lockdep objected to; kapi's
 * rw_semaphore allows it, like the kernel's non-owner variants.
 * docs/model.md, "The rwsem variant", maps each function and lists what
 * the proposal left open.
 *
 * Knobs: the seed's two fixes to the error handling this variant shares;
 * off by default, as in the seed.
 */
#include <stdio.h>

#include "model.h"
#include "dpm_common.h"
#include "variant.h"

enum {
	FIX_ASYNC_ERROR_ORDER,
	FIX_ASYNC_ERROR_ONCE,
	NR_RWSEM_FIX
};

static const struct knob rwsem_knobs[NR_RWSEM_FIX] = {
	[FIX_ASYNC_ERROR_ORDER] = DPM_KNOB_ASYNC_ERROR_ORDER,
	[FIX_ASYNC_ERROR_ONCE] = DPM_KNOB_ASYNC_ERROR_ONCE,
};

static void down_read_parent(struct device *dev);
static int __device_suspend(struct device *dev, bool async);
static void down_write_dev(struct device *dev);
static int __device_resume(struct device *dev, bool async);

static const struct dpm_async_ops rwsem_ops = {
	.suspend_start = down_read_parent,
	.__device_suspend = __device_suspend,
	.resume_start = down_write_dev,
	.__device_resume = __device_resume,
	/* The step releases a lock in its parent's memory, possibly after
	 * both were unregistered. */
	.pin_parent = true,
};

static void rwsem_reset(void)
{
	dpm_common_reset(&rwsem_ops, fix_on(FIX_ASYNC_ERROR_ORDER),
			 fix_on(FIX_ASYNC_ERROR_ONCE));
}

/* One operation on a device's power.rwsem, with a trace line. */
static void dpm_rwsem(struct device *dev, const char *what,
		      void (*op)(struct rw_semaphore *sem))
{
	pr_debug("%s: %s(power.rwsem)", dev_name(dev), what);
	op(&power(dev)->rwsem);
}

/* The end of a step's work on its parent: release its lock (read-locked
 * in both directions) and the reference the walk took for the step. */
static void up_read_parent(struct device *dev)
{
	if (dev->parent) {
		dpm_rwsem(dev->parent, "up_read", up_read);
		put_device(dev->parent);
	}
}

/* ---- driver-core hooks ---- */

/* No lock is taken at the start: a device no walk visited never blocks
 * anybody. */
static void rwsem_device_pm_init(struct device *dev)
{
	power(dev)->status = DPM_ON;
	init_rwsem(&power(dev)->rwsem);
}

/*
 * device_pm_remove() only takes the device off dpm_list (dpm_list_del()):
 * it has nothing to release.  Every lock on a device's rwsem is released
 * by the step that took it or was handed it, and that step runs to its
 * end whether or not the device is still registered (its callback is
 * skipped once the driver is unbound); the references the walk took keep
 * the memory of the device and of its parent until then.
 */

/* ---- resume ---- */

/* The walk, before the step: children's steps wait on this. */
static void down_write_dev(struct device *dev)
{
	dpm_rwsem(dev, "down_write", down_write);
}

static int __device_resume(struct device *dev, bool async)
{
	int error;

	(void)async;
	if (dev->parent)
		dpm_rwsem(dev->parent, "down_read", down_read);
	down(&dev->sem);
	error = dpm_run_callback(dev, PH_RESUME);
	up(&dev->sem);
	up_read_parent(dev);
	dpm_rwsem(dev, "up_write", up_write);
	return error;
}

/* ---- suspend ---- */

/* The walk, before the child's step, on the child's behalf: the
 * parent's own down_write() waits until the step released it. */
static void down_read_parent(struct device *dev)
{
	if (dev->parent)
		dpm_rwsem(dev->parent, "down_read", down_read);
}

static int __device_suspend(struct device *dev, bool async)
{
	int error;

	(void)async;
	dpm_rwsem(dev, "down_write", down_write);
	error = dpm_suspend_callback(dev);
	dpm_rwsem(dev, "up_write", up_write);
	up_read_parent(dev);
	return error;
}

static const char *rwsem_describe(struct device *dev, const void *obj,
				  char *buf, size_t n, int *why)
{
	struct rw_semaphore *s = &power(dev)->rwsem;

	if (obj != s)
		return NULL;
	eng_lock(&s->wait.lk);
	bool w = s->writer;
	int r = s->readers;

	eng_unlock(&s->wait.lk);
	snprintf(buf, n, "the power.rwsem of '%s' (%s, %d reader%s)",
		 dev_name(dev), w ? "write-locked" : "not write-locked",
		 r, r == 1 ? "" : "s");
	*why = -1;
	return buf;
}

static const struct model_ops rwsem_model = {
	.dev_state_size = sizeof(struct dpm_pm_info),
	.reset = rwsem_reset,
	.device_pm_init = rwsem_device_pm_init,
	.device_pm_add = dpm_device_pm_add,
	.device_pm_remove = dpm_list_del,
	.suspend_resume = dpm_suspend_resume,
	.device_enable_async_suspend = dpm_device_enable_async_suspend,
	.async_store = dpm_async_store,
	.describe = rwsem_describe,
};

static const struct diff_config rwsem_diff[] = { { .fixes = "all" }, { 0 } };

const struct pm_variant variant_rwsem = {
	.name = "rwsem",
	.summary = "Linus Torvalds' per-device rw_semaphore proposal of December 2009",
	.corpus = "rwsem",
	.knobs = rwsem_knobs,
	.nknobs = NR_RWSEM_FIX,
	.diff = rwsem_diff,
	.diff_with = "seed",
	.ops = &model_variant_ops,
	.model = &rwsem_model,
};
