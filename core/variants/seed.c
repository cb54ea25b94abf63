// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seed: asynchronous suspend and resume as the patches of December
 * 2009 post it (shared/seeds/002-006, PCI devices async as in 011), on
 * top of the 2.6.33 drivers/base/power/main.c they apply to.  Function
 * names are the kernel's so this file reads beside that main.c; where
 * the seeds are silent, docs/model.md says what was assumed.
 *
 * Each later kernel fix that changes this behaviour is a knob, off by
 * default: the default is the code as posted.
 */
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../device/device.h"
#include "variant.h"

enum {
	FIX_COMPLETION_INIT,
	FIX_ASYNC_ERROR_ORDER,
	FIX_RESUME_DELETED,
	FIX_ASYNC_ERROR_ONCE,
	NR_SEED_FIX
};

static const struct knob seed_knobs[NR_SEED_FIX] = {
	[FIX_COMPLETION_INIT] = {
		"completion-init", "013b99631422",
		"start every power.completion done, so nobody waits for a device suspend never reached",
		.bug = "LIVENESS", .needs = "", .detector = "fuzz",
	},
	[FIX_ASYNC_ERROR_ORDER] = {
		"async-error-order", "8a0e5ad8cb5f+",
		"record a failed suspend in async_error before complete_all(), so a waiting parent sees it",
		.bug = "SUSPEND-AFTER-CHILDREN", .needs = "", .detector = "fuzz",
	},
	[FIX_RESUME_DELETED] = {
		"resume-deleted", "0552e05fdfea",
		"pin the parent while waiting for it and skip a device deleted meanwhile",
		.bug = "REMOVED", .needs = "", .detector = "fuzz",
	},
	[FIX_ASYNC_ERROR_ONCE] = {
		"async-error-once", "dbd4bccd9662",
		"read and write async_error with READ_ONCE()/WRITE_ONCE(): no data race between the threads",
		.bug = "data race", .needs = "", .detector = "tsan",
	},
};

enum pm_event { PMSG_SUSPEND, PMSG_RESUME };

static LIST_HEAD(dpm_list);
static DEFINE_MUTEX(dpm_list_mtx);
static enum pm_event pm_transition;
static bool transition_started;
static int async_error;

static void seed_reset(void)
{
	INIT_LIST_HEAD(&dpm_list);
	mutex_init(&dpm_list_mtx);
	pm_transition = PMSG_SUSPEND;
	transition_started = false;
	async_error = 0;
}

/*
 * async_error is a plain int shared by the walk and the async threads,
 * read and written without a lock as in the seed; the accessors are
 * scheduling points so the det engine can interleave there.
 */
static int read_async_error(void)
{
	eng_sched_point();
	int e = fix_on(FIX_ASYNC_ERROR_ONCE) ?
		__atomic_load_n(&async_error, __ATOMIC_RELAXED) : async_error;

	pr_debug("reads async_error = %d", e);
	return e;
}

static void write_async_error(int error)
{
	if (fix_on(FIX_ASYNC_ERROR_ONCE))
		__atomic_store_n(&async_error, error, __ATOMIC_RELAXED);
	else
		async_error = error;
	pr_debug("writes async_error = %d", error);
	eng_sched_point();
}

/* complete_all() on a device's completion, with a trace line. */
static void dpm_complete_dev(struct device *dev)
{
	pr_debug("%s: complete_all(power.completion)", dev_name(dev));
	complete_all(&dev->power.completion);
}

static struct device *to_device(struct list_head *entry)
{
	return container_of(entry, struct device, power.entry);
}

static const char *pm_verb(enum pm_event event)
{
	return event == PMSG_SUSPEND ? "suspend" : "resume";
}

static void pm_dev_dbg(struct device *dev, enum pm_event state,
		       const char *info)
{
	pr_debug("%s: %s%s", dev_name(dev), info, pm_verb(state));
}

static void pm_dev_err(struct device *dev, enum pm_event state,
		       const char *info, int error)
{
	pr_info("PM: Device %s failed to %s%s: error %d", dev_name(dev),
		pm_verb(state), info, error);
}

/* seeds/003: the time of a whole phase, with its ns >> 10 "usecs". */
static void dpm_show_time(ktime_t starttime, enum pm_event state,
			  const char *info)
{
	ktime_t delta = ktime_sub(ktime_get(), starttime);
	unsigned long long usecs = (unsigned long long)ktime_to_ns(delta) >> 10;

	pr_info("PM: %s%s%s of devices complete after %llu.%03llu msecs",
		info ? info : "", info ? " " : "", pm_verb(state),
		usecs / USEC_PER_MSEC, usecs % USEC_PER_MSEC);
}

/* ---- driver-core hooks ---- */

static void seed_device_pm_init(struct device *dev)
{
	dev->power.status = DPM_ON;
	init_completion(&dev->power.completion);
	if (fix_on(FIX_COMPLETION_INIT))
		complete_all(&dev->power.completion);
}

static void seed_device_pm_add(struct device *dev)
{
	mutex_lock(&dpm_list_mtx);
	if (dev->parent) {
		if (dev->parent->power.status >= DPM_SUSPENDING)
			pr_info("%s: parent %s should not be sleeping",
				dev_name(dev), dev_name(dev->parent));
	} else if (transition_started) {
		pr_info("%s: parentless device registered during a PM transaction",
			dev_name(dev));
	}
	list_add_tail(&dev->power.entry, &dpm_list);
	__atomic_store_n(&dev->power.in_dpm_list, true, __ATOMIC_RELAXED);
	mutex_unlock(&dpm_list_mtx);
}

static void seed_device_pm_remove(struct device *dev)
{
	dpm_complete_dev(dev);
	mutex_lock(&dpm_list_mtx);
	list_del_init(&dev->power.entry);
	__atomic_store_n(&dev->power.in_dpm_list, false, __ATOMIC_RELAXED);
	mutex_unlock(&dpm_list_mtx);
}

static void seed_device_enable_async_suspend(struct device *dev, bool enable)
{
	if (dev->power.status == DPM_ON)
		dev->power.async_suspend = enable;
}

/* seeds/006: power/async accepts "enabled" or "disabled", a newline
 * ending the word; anything else is -EINVAL. */
static ssize_t seed_async_store(struct device *dev, const char *buf, size_t n)
{
	static const char enabled[] = "enabled", disabled[] = "disabled";
	const char *cp = memchr(buf, '\n', n);
	size_t len = cp ? (size_t)(cp - buf) : n;

	if (len == sizeof(enabled) - 1 && !strncmp(buf, enabled, len))
		seed_device_enable_async_suspend(dev, true);
	else if (len == sizeof(disabled) - 1 && !strncmp(buf, disabled, len))
		seed_device_enable_async_suspend(dev, false);
	else
		return -EINVAL;
	return (ssize_t)n;
}

/* ---- waiting for other devices ---- */

static void dpm_wait(struct device *dev, bool async)
{
	if (!dev)
		return;
	if (async || (pm_async_enabled && dev->power.async_suspend)) {
		pr_debug("waits for %s", dev_name(dev));
		wait_for_completion(&dev->power.completion);
	}
}

static int dpm_wait_fn(struct device *dev, void *async_ptr)
{
	dpm_wait(dev, *(bool *)async_ptr);
	return 0;
}

static void dpm_wait_for_children(struct device *dev, bool async)
{
	device_for_each_child(dev, &async, dpm_wait_fn);
}

/* ---- resume ---- */

static int device_resume_noirq(struct device *dev)
{
	return dpm_run_callback(dev, PH_RESUME_NOIRQ);
}

static void dpm_resume_noirq(enum pm_event state)
{
	struct device *dev;
	ktime_t starttime = ktime_get();

	check_phase_begin(PH_RESUME_NOIRQ);
	mutex_lock(&dpm_list_mtx);
	transition_started = false;
	list_for_each_entry(dev, &dpm_list, power.entry) {
		if (dev->power.status > DPM_OFF) {
			int error;

			dev->power.status = DPM_OFF;
			error = device_resume_noirq(dev);
			if (error)
				pm_dev_err(dev, state, " early", error);
		}
	}
	mutex_unlock(&dpm_list_mtx);
	check_phase_end(PH_RESUME_NOIRQ);
	dpm_show_time(starttime, state, "early");
}

/*
 * With the fix: is the device still on the PM list?  The fix reads a flag
 * kept beside the list entry (power.in_dpm_list), once under the mutex
 * and once without: the list pointers themselves change under the mutex
 * whenever a neighbour moves.  The unlocked read is modelled as a
 * relaxed atomic (docs/model.md).
 */
static bool device_pm_initialized(struct device *dev)
{
	return __atomic_load_n(&dev->power.in_dpm_list, __ATOMIC_RELAXED);
}

static int __device_resume(struct device *dev, enum pm_event state,
			   bool async)
{
	int error = 0;

	(void)state;
	if (fix_on(FIX_RESUME_DELETED)) {
		struct device *parent;

		mutex_lock(&dpm_list_mtx);
		if (!device_pm_initialized(dev)) {
			mutex_unlock(&dpm_list_mtx);
			goto Complete;
		}
		parent = get_device(dev->parent);
		mutex_unlock(&dpm_list_mtx);
		dpm_wait(parent, async);
		put_device(parent);
		if (!device_pm_initialized(dev))
			goto Complete;
	} else {
		dpm_wait(dev->parent, async);
	}
	down(&dev->sem);
	error = dpm_run_callback(dev, PH_RESUME);
	up(&dev->sem);
Complete:
	dpm_complete_dev(dev);
	return error;
}

static void async_resume(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	int error;

	(void)cookie;
	pm_dev_dbg(dev, pm_transition, "async ");
	error = __device_resume(dev, pm_transition, true);
	if (error)
		pm_dev_err(dev, pm_transition, " async", error);
	put_device(dev);
}

static int device_resume(struct device *dev)
{
	INIT_COMPLETION(dev->power.completion);

	if (pm_async_enabled && dev->power.async_suspend &&
	    !pm_trace_is_enabled()) {
		get_device(dev);
		async_schedule(async_resume, dev);
		return 0;
	}
	return __device_resume(dev, pm_transition, false);
}

static void dpm_resume(enum pm_event state)
{
	LIST_HEAD(list);
	ktime_t starttime = ktime_get();

	check_phase_begin(PH_RESUME);
	mutex_lock(&dpm_list_mtx);
	pm_transition = state;
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.next);

		get_device(dev);
		if (dev->power.status >= DPM_OFF) {
			int error;

			dev->power.status = DPM_RESUMING;
			mutex_unlock(&dpm_list_mtx);

			error = device_resume(dev);

			mutex_lock(&dpm_list_mtx);
			if (error)
				pm_dev_err(dev, state, "", error);
		} else if (dev->power.status == DPM_SUSPENDING) {
			/* New children of the device may be registered again. */
			dev->power.status = DPM_PREPARING;
		}
		if (!list_empty(&dev->power.entry))
			list_move_tail(&dev->power.entry, &list);
		put_device(dev);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	async_synchronize_full();
	check_phase_end(PH_RESUME);
	dpm_show_time(starttime, state, NULL);
}

static void device_complete(struct device *dev)
{
	down(&dev->sem);
	dpm_run_callback(dev, PH_COMPLETE);
	up(&dev->sem);
}

static void dpm_complete(void)
{
	LIST_HEAD(list);

	check_phase_begin(PH_COMPLETE);
	mutex_lock(&dpm_list_mtx);
	transition_started = false;
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.prev);

		get_device(dev);
		if (dev->power.status > DPM_ON) {
			dev->power.status = DPM_ON;
			mutex_unlock(&dpm_list_mtx);

			device_complete(dev);

			mutex_lock(&dpm_list_mtx);
		}
		if (!list_empty(&dev->power.entry))
			list_move(&dev->power.entry, &list);
		put_device(dev);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	check_phase_end(PH_COMPLETE);
}

static void dpm_resume_end(enum pm_event state)
{
	dpm_resume(state);
	dpm_complete();
}

/* ---- suspend ---- */

static int device_suspend_noirq(struct device *dev)
{
	return dpm_run_callback(dev, PH_SUSPEND_NOIRQ);
}

static int dpm_suspend_noirq(enum pm_event state)
{
	struct device *dev;
	ktime_t starttime = ktime_get();
	int error = 0;

	check_phase_begin(PH_SUSPEND_NOIRQ);
	mutex_lock(&dpm_list_mtx);
	list_for_each_entry_reverse(dev, &dpm_list, power.entry) {
		error = device_suspend_noirq(dev);
		if (error) {
			pm_dev_err(dev, state, " late", error);
			break;
		}
		dev->power.status = DPM_OFF_IRQ;
	}
	mutex_unlock(&dpm_list_mtx);
	check_phase_end(PH_SUSPEND_NOIRQ);
	if (error)
		dpm_resume_noirq(PMSG_RESUME);
	else
		dpm_show_time(starttime, state, "late");
	return error;
}

static int __device_suspend(struct device *dev, enum pm_event state,
			    bool async)
{
	int error = 0;

	(void)state;
	dpm_wait_for_children(dev, async);
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
	dpm_complete_dev(dev);
	return error;
}

static void async_suspend(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	int error;

	(void)cookie;
	pm_dev_dbg(dev, pm_transition, "async ");
	error = __device_suspend(dev, pm_transition, true);
	if (error) {
		pm_dev_err(dev, pm_transition, " async", error);
		if (!fix_on(FIX_ASYNC_ERROR_ORDER))
			write_async_error(error);
	}
	put_device(dev);
}

static int device_suspend(struct device *dev)
{
	INIT_COMPLETION(dev->power.completion);

	if (pm_async_enabled && dev->power.async_suspend) {
		get_device(dev);
		async_schedule(async_suspend, dev);
		return 0;
	}
	return __device_suspend(dev, pm_transition, false);
}

static int dpm_suspend(enum pm_event state)
{
	LIST_HEAD(list);
	ktime_t starttime = ktime_get();
	int error = 0;

	check_phase_begin(PH_SUSPEND);
	mutex_lock(&dpm_list_mtx);
	pm_transition = state;
	write_async_error(0);
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.prev);

		get_device(dev);
		mutex_unlock(&dpm_list_mtx);

		error = device_suspend(dev);

		mutex_lock(&dpm_list_mtx);
		if (error) {
			pm_dev_err(dev, state, "", error);
			put_device(dev);
			break;
		}
		if (!list_empty(&dev->power.entry))
			list_move(&dev->power.entry, &list);
		put_device(dev);
		if (read_async_error())
			break;
	}
	list_splice(&list, dpm_list.prev);
	mutex_unlock(&dpm_list_mtx);
	async_synchronize_full();
	if (!error)
		error = read_async_error();
	check_phase_end(PH_SUSPEND);
	if (!error)
		dpm_show_time(starttime, state, NULL);
	return error;
}

static int device_prepare(struct device *dev)
{
	int error;

	down(&dev->sem);
	error = dpm_run_callback(dev, PH_PREPARE);
	up(&dev->sem);
	return error;
}

static int dpm_prepare(enum pm_event state)
{
	LIST_HEAD(list);
	int error = 0;

	(void)state;
	check_phase_begin(PH_PREPARE);
	mutex_lock(&dpm_list_mtx);
	transition_started = true;
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.next);

		get_device(dev);
		dev->power.status = DPM_PREPARING;
		mutex_unlock(&dpm_list_mtx);

		error = device_prepare(dev);

		mutex_lock(&dpm_list_mtx);
		if (error) {
			dev->power.status = DPM_ON;
			if (error == -EAGAIN) {
				put_device(dev);
				error = 0;
				continue;
			}
			pr_info("PM: Failed to prepare device %s for power transition: error %d",
				dev_name(dev), error);
			put_device(dev);
			break;
		}
		dev->power.status = DPM_SUSPENDING;
		if (!list_empty(&dev->power.entry))
			list_move_tail(&dev->power.entry, &list);
		put_device(dev);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	check_phase_end(PH_PREPARE);
	return error;
}

static int dpm_suspend_start(enum pm_event state)
{
	int error = dpm_prepare(state);

	if (!error)
		error = dpm_suspend(state);
	return error;
}

/* kernel/power/suspend.c: suspend_devices_and_enter(), device part. */
static int seed_suspend_resume(void)
{
	int error = dpm_suspend_start(PMSG_SUSPEND);

	if (error) {
		pr_info("PM: Some devices failed to suspend");
		goto Resume_devices;
	}
	error = dpm_suspend_noirq(PMSG_SUSPEND);
	if (error) {
		pr_info("PM: Some devices failed to power down");
		goto Resume_devices;
	}
	/* The system sleeps here. */
	dpm_resume_noirq(PMSG_RESUME);
Resume_devices:
	dpm_resume_end(PMSG_RESUME);
	return error;
}

const struct pm_variant variant_seed = {
	.name = "seed",
	.knobs = seed_knobs,
	.nknobs = NR_SEED_FIX,
	.reset = seed_reset,
	.device_pm_init = seed_device_pm_init,
	.device_pm_add = seed_device_pm_add,
	.device_pm_remove = seed_device_pm_remove,
	.suspend_resume = seed_suspend_resume,
	.device_enable_async_suspend = seed_device_enable_async_suspend,
	.async_store = seed_async_store,
};
