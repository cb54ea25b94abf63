// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the variants of 2.6.33's drivers/base/power/main.c share
 * (dpm_common.h): everything but how a device waits for the others (the
 * start of its step, its __device_suspend() and __device_resume()).
 * Moved here from the seed variant without a change to what it does, so
 * the seed runs as before, scheduling point for scheduling point.
 */
#include "dpm_common.h"
#include "dpm_wait.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>


LIST_HEAD(dpm_list);
DEFINE_MUTEX(dpm_list_mtx);
enum pm_event pm_transition;
static bool transition_started;
/*
 * async_error is an int, alone in its 8-byte word: ThreadSanitizer keeps
 * four accesses per word, and variables beside it read by every thread
 * (the knob flags below, read at every access) push out the accesses
 * that race.  Not static, so the compiler keeps the whole word.
 */
union async_error_word {
	int val;
	uint64_t word;
} async_error;
static bool async_error_order, async_error_once;
static const struct dpm_async_ops *dpm_ops;

void dpm_common_reset(const struct dpm_async_ops *ops, bool order, bool once)
{
	INIT_LIST_HEAD(&dpm_list);
	mutex_init(&dpm_list_mtx);
	pm_transition = PMSG_SUSPEND;
	transition_started = false;
	async_error.val = 0;
	async_error_order = order;
	async_error_once = once;
	dpm_ops = ops;
}

/*
 * async_error is a plain int shared by the walk and the async threads,
 * read and written without a lock as in the seed; the accessors are
 * scheduling points so the det engine can interleave there.
 */
int read_async_error(void)
{
	eng_sched_point();
	KAPI_ACCESS(&async_error, KACC_READ);
	int e = async_error_once ?
		__atomic_load_n(&async_error.val, __ATOMIC_RELAXED) :
		async_error.val;

	pr_debug("reads async_error = %d", e);
	return e;
}

void write_async_error(int error)
{
	KAPI_ACCESS(&async_error, KACC_WRITE);
	if (async_error_once)
		__atomic_store_n(&async_error.val, error, __ATOMIC_RELAXED);
	else
		async_error.val = error;
	pr_debug("writes async_error = %d", error);
	eng_sched_point();
}

int dpm_suspend_callback(struct device *dev)
{
	int error = 0;

	down(&dev->sem);

	if (read_async_error())
		goto End;

	error = dpm_run_callback(dev, PH_SUSPEND);
	if (!error)
		power(dev)->status = DPM_OFF;
End:
	up(&dev->sem);
	if (async_error_order && error)
		write_async_error(error);
	return error;
}

static const char *pm_verb(enum pm_event event)
{
	return event == PMSG_SUSPEND ? "suspend" : "resume";
}

void pm_dev_dbg(struct device *dev, enum pm_event state, const char *info)
{
	pr_debug("%s: %s%s", dev_name(dev), info, pm_verb(state));
}

void pm_dev_err(struct device *dev, enum pm_event state, const char *info,
		int error)
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

void dpm_device_pm_add(struct device *dev)
{
	mutex_lock(&dpm_list_mtx);
	if (dev->parent) {
		if (power(dev->parent)->status >= DPM_SUSPENDING)
			pr_info("%s: parent %s should not be sleeping",
				dev_name(dev), dev_name(dev->parent));
	} else if (transition_started) {
		pr_info("%s: parentless device registered during a PM transaction",
			dev_name(dev));
	}
	list_add_tail(&power(dev)->entry, &dpm_list);
	KAPI_ACCESS(&power(dev)->in_dpm_list, KACC_WRITE);
	__atomic_store_n(&power(dev)->in_dpm_list, true, __ATOMIC_RELAXED);
	mutex_unlock(&dpm_list_mtx);
}

void dpm_list_del(struct device *dev)
{
	mutex_lock(&dpm_list_mtx);
	list_del_init(&power(dev)->entry);
	KAPI_ACCESS(&power(dev)->in_dpm_list, KACC_WRITE);
	__atomic_store_n(&power(dev)->in_dpm_list, false, __ATOMIC_RELAXED);
	mutex_unlock(&dpm_list_mtx);
}

void dpm_device_enable_async_suspend(struct device *dev, bool enable)
{
	if (power(dev)->status == DPM_ON)
		power(dev)->async_suspend = enable;
}

/* seeds/006: power/async accepts "enabled" or "disabled", a newline
 * ending the word; anything else is -EINVAL. */
ssize_t dpm_async_store(struct device *dev, const char *buf, size_t n)
{
	static const char enabled[] = "enabled", disabled[] = "disabled";
	const char *cp = memchr(buf, '\n', n);
	size_t len = cp ? (size_t)(cp - buf) : n;

	if (len == sizeof(enabled) - 1 && !strncmp(buf, enabled, len))
		dpm_device_enable_async_suspend(dev, true);
	else if (len == sizeof(disabled) - 1 && !strncmp(buf, disabled, len))
		dpm_device_enable_async_suspend(dev, false);
	else
		return -EINVAL;
	return (ssize_t)n;
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

	pm_phase_begin(PH_RESUME_NOIRQ);
	mutex_lock(&dpm_list_mtx);
	transition_started = false;
	list_for_each_dev(dev, &dpm_list) {
		if (power(dev)->status > DPM_OFF) {
			int error;

			power(dev)->status = DPM_OFF;
			error = device_resume_noirq(dev);
			if (error)
				pm_dev_err(dev, state, " early", error);
		}
	}
	mutex_unlock(&dpm_list_mtx);
	pm_phase_end(PH_RESUME_NOIRQ);
	dpm_show_time(starttime, state, "early");
}

static void async_resume(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	int error;

	(void)cookie;
	pm_dev_dbg(dev, pm_transition, "async ");
	error = dpm_ops->__device_resume(dev, true);
	if (error)
		pm_dev_err(dev, pm_transition, " async", error);
	put_device(dev);
}

static int device_resume(struct device *dev)
{
	dpm_ops->resume_start(dev);

	if (pm_async_enabled && power(dev)->async_suspend &&
	    !pm_trace_is_enabled()) {
		get_device(dev);
		async_schedule(async_resume, dev);
		return 0;
	}
	return dpm_ops->__device_resume(dev, false);
}

static void dpm_resume(enum pm_event state)
{
	LIST_HEAD(list);
	ktime_t starttime = ktime_get();

	pm_phase_begin(PH_RESUME);
	mutex_lock(&dpm_list_mtx);
	pm_transition = state;
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.next);

		get_device(dev);
		if (power(dev)->status >= DPM_OFF) {
			int error;

			if (dpm_ops->pin_parent)
				get_device(dev->parent);
			power(dev)->status = DPM_RESUMING;
			mutex_unlock(&dpm_list_mtx);

			error = device_resume(dev);

			mutex_lock(&dpm_list_mtx);
			if (error)
				pm_dev_err(dev, state, "", error);
		} else if (power(dev)->status == DPM_SUSPENDING) {
			/* New children of the device may be registered again. */
			power(dev)->status = DPM_PREPARING;
		}
		if (!list_empty(&power(dev)->entry))
			list_move_tail(&power(dev)->entry, &list);
		put_device(dev);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	async_synchronize_full();
	pm_phase_end(PH_RESUME);
	dpm_show_time(starttime, state, NULL);
}


static void dpm_complete(void)
{
	LIST_HEAD(list);

	pm_phase_begin(PH_COMPLETE);
	mutex_lock(&dpm_list_mtx);
	transition_started = false;
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.prev);

		get_device(dev);
		if (power(dev)->status > DPM_ON) {
			power(dev)->status = DPM_ON;
			mutex_unlock(&dpm_list_mtx);

			device_complete(dev);

			mutex_lock(&dpm_list_mtx);
		}
		if (!list_empty(&power(dev)->entry))
			list_move(&power(dev)->entry, &list);
		put_device(dev);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	pm_phase_end(PH_COMPLETE);
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

	pm_phase_begin(PH_SUSPEND_NOIRQ);
	mutex_lock(&dpm_list_mtx);
	list_for_each_dev_reverse(dev, &dpm_list) {
		error = device_suspend_noirq(dev);
		if (error) {
			pm_dev_err(dev, state, " late", error);
			break;
		}
		power(dev)->status = DPM_OFF_IRQ;
	}
	mutex_unlock(&dpm_list_mtx);
	pm_phase_end(PH_SUSPEND_NOIRQ);
	if (error)
		dpm_resume_noirq(PMSG_RESUME);
	else
		dpm_show_time(starttime, state, "late");
	return error;
}

static void async_suspend(void *data, async_cookie_t cookie)
{
	struct device *dev = data;
	int error;

	(void)cookie;
	pm_dev_dbg(dev, pm_transition, "async ");
	error = dpm_ops->__device_suspend(dev, true);
	if (error) {
		pm_dev_err(dev, pm_transition, " async", error);
		if (!async_error_order)
			write_async_error(error);
	}
	put_device(dev);
}

static int device_suspend(struct device *dev)
{
	dpm_ops->suspend_start(dev);

	if (pm_async_enabled && power(dev)->async_suspend) {
		get_device(dev);
		async_schedule(async_suspend, dev);
		return 0;
	}
	return dpm_ops->__device_suspend(dev, false);
}

static int dpm_suspend(enum pm_event state)
{
	LIST_HEAD(list);
	ktime_t starttime = ktime_get();
	int error = 0;

	pm_phase_begin(PH_SUSPEND);
	mutex_lock(&dpm_list_mtx);
	pm_transition = state;
	write_async_error(0);
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.prev);

		get_device(dev);
		if (dpm_ops->pin_parent)
			get_device(dev->parent);
		mutex_unlock(&dpm_list_mtx);

		error = device_suspend(dev);

		mutex_lock(&dpm_list_mtx);
		if (error) {
			pm_dev_err(dev, state, "", error);
			put_device(dev);
			break;
		}
		if (!list_empty(&power(dev)->entry))
			list_move(&power(dev)->entry, &list);
		put_device(dev);
		if (read_async_error())
			break;
	}
	list_splice(&list, dpm_list.prev);
	mutex_unlock(&dpm_list_mtx);
	async_synchronize_full();
	if (!error)
		error = read_async_error();
	pm_phase_end(PH_SUSPEND);
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
	pm_phase_begin(PH_PREPARE);
	mutex_lock(&dpm_list_mtx);
	transition_started = true;
	while (!list_empty(&dpm_list)) {
		struct device *dev = to_device(dpm_list.next);

		get_device(dev);
		power(dev)->status = DPM_PREPARING;
		mutex_unlock(&dpm_list_mtx);

		error = device_prepare(dev);

		mutex_lock(&dpm_list_mtx);
		if (error) {
			power(dev)->status = DPM_ON;
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
		power(dev)->status = DPM_SUSPENDING;
		if (!list_empty(&power(dev)->entry))
			list_move_tail(&power(dev)->entry, &list);
		put_device(dev);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	pm_phase_end(PH_PREPARE);
	return error;
}

static int dpm_suspend_start(enum pm_event state)
{
	int error = dpm_prepare(state);

	if (!error)
		error = dpm_suspend(state);
	return error;
}

int dpm_suspend_resume(void)
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
