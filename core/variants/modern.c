// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modern algorithm: drivers/base/power/main.c of Linux 6.12 (Debian's
 * linux-source-6.12 is the reference), written anew.  Function names are
 * the kernel's, so this file reads beside that main.c; docs/model.md maps
 * them and lists what is simplified.
 *
 * What is in: all eight phases and the five lists a device moves
 * through; async processing in the six middle phases, with the async
 * devices started up front on resume; rollback on errors in each phase;
 * device links (suppliers waited for like parents, consumers like
 * children); direct_complete; async_schedule_dev_nocall() with the walk
 * running a job itself when it cannot be queued; async_error as the
 * kernel reads and writes it; device_pm_wait_for_dev(); devices
 * unregistered during a transition.
 *
 * Each kernel fix that matters to ordering or liveness is a knob, off by
 * default: with a knob off, the code is as it was before that fix.
 *
 * Two variants share this model: modern (6.12) and modern-6.16, which is
 * modern with the async-early knob always on (6.16's scheme); its two
 * fixes are listed there, and modern still accepts all three.
 */
#include <stdio.h>
#include <string.h>

#include "../device/device.h"
#include "model.h"
#include "dpm_list.h"
#include "variant.h"

enum {
	FIX_NOCALL,
	FIX_RESUME_DELETED,
	FIX_ASYNC_ERROR_ONCE,
	FIX_DC_IS_SUSPENDED,
	FIX_ASYNC_EARLY,
	FIX_COMPLETE_ON_ERROR,
	FIX_RESUME_CHILDREN_LOCK,
	NR_MODERN_FIX
};

static const struct knob modern_knobs[NR_MODERN_FIX] = {
	[FIX_NOCALL] = {
		"nocall", "7839d0078e0d",
		"a job that cannot be queued is run by the walk after it drops dpm_list_mtx, never inline under it",
		.bug = "LIVENESS", .needs = "", .detector = "fuzz",
	},
	[FIX_RESUME_DELETED] = {
		"resume-deleted", "0552e05fdfea",
		"pin the parent while waiting for it and skip a device deleted meanwhile (dpm_wait_for_superior)",
		.bug = "REMOVED", .needs = "", .detector = "fuzz",
	},
	[FIX_ASYNC_ERROR_ONCE] = DPM_KNOB_ASYNC_ERROR_ONCE,
	[FIX_DC_IS_SUSPENDED] = {
		"dc-is-suspended", "d46c4c839c20",
		"device_resume() clears power.is_suspended before the direct_complete branch, so it does not leak into the next cycle",
		.bug = "RESUME-AFTER-PARENT", .needs = "", .detector = "fuzz",
	},
	[FIX_ASYNC_EARLY] = {
		"async-early", "443046d1ad66+aa7a9275ab81+0cbef962ce1f",
		"6.16's scheme: async leaves start first on suspend and roots on resume, and a finished device starts its parent/children (a feature, not a fix)",
		.feature = true,
	},
	[FIX_COMPLETE_ON_ERROR] = {
		"complete-on-error", "ebd6884167ea",
		"async-early: on a suspend error, complete every device the walk will not reach, so nobody waits for them",
		.bug = "LIVENESS", .needs = "async-early", .detector = "fuzz",
	},
	[FIX_RESUME_CHILDREN_LOCK] = {
		"resume-children-lock", "8887abccf8aa",
		"async-early: a resume job starts children only under dpm_list_mtx, after the walk has reset their state",
		.bug = "ONCE", .needs = "async-early", .detector = "fuzz",
	},
};

enum pm_event { PMSG_SUSPEND, PMSG_RESUME };

/* The fields of the kernel's dev_pm_info this model uses: its per-device
 * state (dev->pm_state). */
struct modern_pm_info {
	struct list_head entry;		/* on a PM list (first: dpm_list.h) */
	unsigned int async_suspend : 1;
	bool in_dpm_list;
	struct completion completion;
	bool is_prepared;
	bool is_suspended;
	bool is_late_suspended;
	bool is_noirq_suspended;
	bool direct_complete;
	bool async_in_progress;
};

/* dev->power of the kernel. */
static inline struct modern_pm_info *power(struct device *dev)
{
	return (struct modern_pm_info *)dev->pm_state;
}

#include "dpm_wait.h"

static LIST_HEAD(dpm_list);
static LIST_HEAD(dpm_prepared_list);
static LIST_HEAD(dpm_suspended_list);
static LIST_HEAD(dpm_late_early_list);
static LIST_HEAD(dpm_noirq_list);
static DEFINE_MUTEX(dpm_list_mtx);
static DEFINE_MUTEX(async_wip_mtx);
static enum pm_event pm_transition;
static int async_error;

static void modern_reset(void)
{
	INIT_LIST_HEAD(&dpm_list);
	INIT_LIST_HEAD(&dpm_prepared_list);
	INIT_LIST_HEAD(&dpm_suspended_list);
	INIT_LIST_HEAD(&dpm_late_early_list);
	INIT_LIST_HEAD(&dpm_noirq_list);
	mutex_init(&dpm_list_mtx);
	mutex_init(&async_wip_mtx);
	pm_transition = PMSG_SUSPEND;
	async_error = 0;
}

/* async_error: shared by the walk and the async jobs without a lock.
 * The accessors are scheduling points, so the det engine interleaves
 * there. */
static int read_async_error(void)
{
	eng_sched_point();
	KAPI_ACCESS(&async_error, KACC_READ);
	return fix_on(FIX_ASYNC_ERROR_ONCE) ?
	       __atomic_load_n(&async_error, __ATOMIC_RELAXED) : async_error;
}

static void write_async_error(int error)
{
	KAPI_ACCESS(&async_error, KACC_WRITE);
	if (fix_on(FIX_ASYNC_ERROR_ONCE))
		__atomic_store_n(&async_error, error, __ATOMIC_RELAXED);
	else
		async_error = error;
	if (error)
		pr_debug("writes async_error = %d", error);
	eng_sched_point();
}

static const char *const phase_info[NR_PHASES] = {
	[PH_SUSPEND_LATE] = " late", [PH_SUSPEND_NOIRQ] = " noirq",
	[PH_RESUME_NOIRQ] = " noirq", [PH_RESUME_EARLY] = " early",
};

static void pm_dev_err(struct device *dev, enum pm_phase ph, bool async,
		       int error)
{
	pr_info("PM: %s: failed to %s%s%s: error %d", dev_name(dev),
		pm_phase_is_suspend(ph) ? "suspend" : "resume",
		async ? " async" : "", phase_info[ph] ? phase_info[ph] : "",
		error);
}

static void dpm_show_time(ktime_t starttime, enum pm_phase ph, int error)
{
	ktime_t delta = ktime_sub(ktime_get(), starttime);
	unsigned long long usecs = (unsigned long long)ktime_to_ns(delta) /
				   NSEC_PER_USEC;

	pr_info("PM: %s of devices %s after %llu.%03llu msecs",
		pm_phase_name(ph), error ? "aborted" : "complete",
		usecs / USEC_PER_MSEC, usecs % USEC_PER_MSEC);
}

/* ---- driver-core hooks ---- */

static void modern_device_pm_init(struct device *dev)
{
	power(dev)->is_prepared = false;
	power(dev)->is_suspended = false;
	power(dev)->is_late_suspended = false;
	power(dev)->is_noirq_suspended = false;
	init_completion(&power(dev)->completion);
	complete_all(&power(dev)->completion);
}

static void modern_device_pm_add(struct device *dev)
{
	mutex_lock(&dpm_list_mtx);
	if (dev->parent && power(dev->parent)->is_prepared)
		pr_info("%s: parent %s should not be sleeping", dev_name(dev),
			dev_name(dev->parent));
	list_add_tail(&power(dev)->entry, &dpm_list);
	KAPI_ACCESS(&power(dev)->in_dpm_list, KACC_WRITE);
	__atomic_store_n(&power(dev)->in_dpm_list, true, __ATOMIC_RELAXED);
	mutex_unlock(&dpm_list_mtx);
}

static void modern_device_pm_remove(struct device *dev)
{
	complete_all(&power(dev)->completion);
	mutex_lock(&dpm_list_mtx);
	list_del_init(&power(dev)->entry);
	KAPI_ACCESS(&power(dev)->in_dpm_list, KACC_WRITE);
	__atomic_store_n(&power(dev)->in_dpm_list, false, __ATOMIC_RELAXED);
	mutex_unlock(&dpm_list_mtx);
}

/* include/linux/device.h: the flag changes only outside a transition. */
static void modern_device_enable_async_suspend(struct device *dev, bool enable)
{
	if (!power(dev)->is_prepared)
		power(dev)->async_suspend = enable;
}

/* sysfs_streq(): equal but for one trailing newline. */
static bool sysfs_streq(const char *buf, size_t n, const char *word)
{
	size_t wl = strlen(word);

	if (n && buf[n - 1] == '\n')
		n--;
	return n == wl && !memcmp(buf, word, wl);
}

static ssize_t modern_async_store(struct device *dev, const char *buf,
				  size_t n)
{
	if (sysfs_streq(buf, n, "enabled"))
		modern_device_enable_async_suspend(dev, true);
	else if (sysfs_streq(buf, n, "disabled"))
		modern_device_enable_async_suspend(dev, false);
	else
		return -EINVAL;
	return (ssize_t)n;
}

/* ---- waiting for other devices ---- */

static bool device_pm_initialized(struct device *dev)
{
	KAPI_ACCESS(&power(dev)->in_dpm_list, KACC_READ);
	return __atomic_load_n(&power(dev)->in_dpm_list, __ATOMIC_RELAXED);
}




static void dpm_wait_for_suppliers(struct device *dev, bool async)
{
	struct device_link *link;
	int idx = device_links_read_lock();

	for (int i = 0; (link = device_supplier_link(dev, i)); i++)
		if (!device_link_dead(link))
			dpm_wait(link->supplier, async);
	device_links_read_unlock(idx);
}

static bool dpm_wait_for_superior(struct device *dev, bool async)
{
	struct device *parent;

	if (!fix_on(FIX_RESUME_DELETED)) {
		dpm_wait(dev->parent, async);
		dpm_wait_for_suppliers(dev, async);
		return true;
	}
	mutex_lock(&dpm_list_mtx);
	if (!device_pm_initialized(dev)) {
		mutex_unlock(&dpm_list_mtx);
		return false;
	}
	parent = get_device(dev->parent);
	mutex_unlock(&dpm_list_mtx);
	dpm_wait(parent, async);
	put_device(parent);
	dpm_wait_for_suppliers(dev, async);
	return device_pm_initialized(dev);
}

static void dpm_wait_for_consumers(struct device *dev, bool async)
{
	struct device_link *link;
	int idx = device_links_read_lock();

	for (int i = 0; (link = device_consumer_link(dev, i)); i++)
		if (!device_link_dead(link))
			dpm_wait(link->consumer, async);
	device_links_read_unlock(idx);
}

static void dpm_wait_for_subordinate(struct device *dev, bool async)
{
	dpm_wait_for_children(dev, async);
	dpm_wait_for_consumers(dev, async);
}

static int modern_device_pm_wait_for_dev(struct device *sub, struct device *dev)
{
	dpm_wait(dev, power(sub)->async_suspend);
	return read_async_error();
}

/* ---- starting async work ---- */

static bool is_async(struct device *dev)
{
	return power(dev)->async_suspend && pm_async_enabled &&
	       !pm_trace_is_enabled();
}

/*
 * Start dev's processing as an async job, or return false so the caller
 * runs it.  The walks call this holding dpm_list_mtx.  Before the fix a
 * job that found no memory ran right here, inline, still under the
 * mutex.
 */
static bool dpm_async_fn(struct device *dev, async_func_t func)
{
	reinit_completion(&power(dev)->completion);
	if (is_async(dev)) {
		power(dev)->async_in_progress = true;
		get_device(dev);
		if (!fix_on(FIX_NOCALL)) {
			async_schedule(func, dev);
			return true;
		}
		if (async_schedule_dev_nocall(func, dev))
			return true;
		put_device(dev);
	}
	/* Not queued, so func is not running: no race on the flag. */
	power(dev)->async_in_progress = false;
	return false;
}

/* ---- async-early (6.16): start devices as soon as they may run ---- */

static void async_suspend(void *data, async_cookie_t cookie);
static void async_suspend_late(void *data, async_cookie_t cookie);
static void async_suspend_noirq(void *data, async_cookie_t cookie);
static void async_resume_noirq(void *data, async_cookie_t cookie);
static void async_resume_early(void *data, async_cookie_t cookie);
static void async_resume(void *data, async_cookie_t cookie);

static bool async_early(void)
{
	return fix_on(FIX_ASYNC_EARLY);
}

/* power.work_in_progress: somebody has taken charge of the device in
 * this phase.  async_wip_mtx held. */
static bool __dpm_async(struct device *dev, async_func_t func)
{
	KAPI_ACCESS(&power(dev)->async_in_progress, KACC_WRITE);
	if (power(dev)->async_in_progress)
		return true;
	if (!is_async(dev))
		return false;
	power(dev)->async_in_progress = true;
	get_device(dev);
	if (async_schedule_dev_nocall(func, dev))
		return true;
	put_device(dev);
	return false;
}

/* The walk's try: false means the walk runs it now (the flag stays set,
 * so no job starts it meanwhile). */
static bool dpm_async_fn_early(struct device *dev, async_func_t func)
{
	bool ret;

	mutex_lock(&async_wip_mtx);
	ret = __dpm_async(dev, func);
	mutex_unlock(&async_wip_mtx);
	return ret;
}

/* A job's or the first walk's try: if it cannot start the device, it
 * leaves it to the walk. */
static void dpm_async_with_cleanup(struct device *dev, async_func_t func)
{
	mutex_lock(&async_wip_mtx);
	if (!__dpm_async(dev, func)) {
		KAPI_ACCESS(&power(dev)->async_in_progress, KACC_WRITE);
		power(dev)->async_in_progress = false;
	}
	mutex_unlock(&async_wip_mtx);
}

static int dpm_async_with_cleanup_fn(struct device *dev, void *func)
{
	dpm_async_with_cleanup(dev, *(async_func_t *)func);
	return 0;
}

static void dpm_clear_async_state(struct device *dev)
{
	reinit_completion(&power(dev)->completion);
	KAPI_ACCESS(&power(dev)->async_in_progress, KACC_WRITE);
	power(dev)->async_in_progress = false;
}

static int any_child(struct device *dev, void *data)
{
	(void)dev;
	(void)data;
	return 1;
}

static bool live_link(struct device_link *l)
{
	return l && !device_link_dead(l);
}

static bool dpm_leaf_device(struct device *dev)
{
	struct device_link *l;

	if (device_for_each_child(dev, NULL, any_child))
		return false;
	for (int i = 0; (l = device_consumer_link(dev, i)); i++)
		if (live_link(l))
			return false;
	return true;
}

static bool dpm_root_device(struct device *dev)
{
	struct device_link *l;

	if (dev->parent)
		return false;
	for (int i = 0; (l = device_supplier_link(dev, i)); i++)
		if (live_link(l))
			return false;
	return true;
}

/* A device done suspending starts its parent and suppliers. */
static void dpm_async_suspend_superior(struct device *dev, async_func_t func)
{
	struct device_link *link;
	int idx;

	mutex_lock(&dpm_list_mtx);
	if (!device_pm_initialized(dev)) {
		/* Deleted: its parent may be gone already. */
		mutex_unlock(&dpm_list_mtx);
		return;
	}
	if (dev->parent)
		dpm_async_with_cleanup(dev->parent, func);
	mutex_unlock(&dpm_list_mtx);
	idx = device_links_read_lock();
	for (int i = 0; (link = device_supplier_link(dev, i)); i++)
		if (live_link(link))
			dpm_async_with_cleanup(link->supplier, func);
	device_links_read_unlock(idx);
}

/* A device done resuming starts its children and consumers. */
static void dpm_async_resume_subordinate(struct device *dev, async_func_t func)
{
	struct device_link *link;
	int idx;

	if (fix_on(FIX_RESUME_CHILDREN_LOCK))
		mutex_lock(&dpm_list_mtx);
	device_for_each_child(dev, &func, dpm_async_with_cleanup_fn);
	if (fix_on(FIX_RESUME_CHILDREN_LOCK))
		mutex_unlock(&dpm_list_mtx);
	idx = device_links_read_lock();
	for (int i = 0; (link = device_consumer_link(dev, i)); i++)
		if (live_link(link))
			dpm_async_with_cleanup(link->consumer, func);
	device_links_read_unlock(idx);
}

/* On a suspend error: complete the devices nobody will handle. */
static void dpm_async_suspend_complete_all(struct list_head *list)
{
	struct device *dev;

	mutex_lock(&async_wip_mtx);
	list_for_each_dev_reverse(dev, list) {
		KAPI_ACCESS(&power(dev)->async_in_progress, KACC_READ);
		if (!power(dev)->async_in_progress)
			complete_all(&power(dev)->completion);
	}
	mutex_unlock(&async_wip_mtx);
}

/* After a suspend-side device function: start the superiors, unless it
 * or somebody failed. */
static void suspend_done(struct device *dev, int error, async_func_t func)
{
	if (async_early() && !error && !read_async_error())
		dpm_async_suspend_superior(dev, func);
}

static void resume_done(struct device *dev, async_func_t func)
{
	if (async_early())
		dpm_async_resume_subordinate(dev, func);
}

/* ---- resume ---- */

/* resume_noirq and resume_early: undo what the matching suspend phase
 * did (its flag), after the superiors. */
static void device_resume_deep(struct device *dev, bool async,
			       enum pm_phase ph, bool *suspended,
			       async_func_t func)
{
	int error = 0;

	dpm_emit(EV_HANDLED, dev->id, ph, 0);
	if (power(dev)->direct_complete || !*suspended)
		goto Out;
	if (!dpm_wait_for_superior(dev, async))
		goto Out;
	error = dpm_run_callback(dev, ph);
	*suspended = false;
Out:
	complete_all(&power(dev)->completion);
	if (error) {
		write_async_error(error);
		pm_dev_err(dev, ph, async, error);
	}
	resume_done(dev, func);
}

static void device_resume_noirq(struct device *dev, bool async)
{
	device_resume_deep(dev, async, PH_RESUME_NOIRQ,
			   &power(dev)->is_noirq_suspended, async_resume_noirq);
}

static void device_resume_early(struct device *dev, bool async)
{
	device_resume_deep(dev, async, PH_RESUME_EARLY,
			   &power(dev)->is_late_suspended, async_resume_early);
}

static void device_resume(struct device *dev, bool async)
{
	int error = 0;

	dpm_emit(EV_HANDLED, dev->id, PH_RESUME, 0);
	if (!power(dev)->is_suspended)
		goto Complete;
	if (fix_on(FIX_DC_IS_SUSPENDED))
		power(dev)->is_suspended = false;
	if (power(dev)->direct_complete) {
		dpm_emit(EV_DIRECT_RESUME, dev->id, PH_RESUME, 0);
		goto Complete;
	}
	/* Before d46c4c839c20 only the callback path cleared it. */
	power(dev)->is_suspended = false;
	if (!dpm_wait_for_superior(dev, async))
		goto Complete;
	down(&dev->sem);
	/* New children may be registered below a resumed device. */
	power(dev)->is_prepared = false;
	error = dpm_run_callback(dev, PH_RESUME);
	up(&dev->sem);
Complete:
	complete_all(&power(dev)->completion);
	if (error) {
		write_async_error(error);
		pm_dev_err(dev, PH_RESUME, async, error);
	}
	resume_done(dev, async_resume);
}

/* The async jobs: the device step, then the reference dpm_async_fn()
 * took for the job. */
#define DPM_ASYNC_JOB(job, step)                                        \
	static void job(void *data, async_cookie_t cookie)              \
	{                                                               \
		(void)cookie;                                           \
		step(data, true);                                       \
		put_device(data);                                       \
	}

DPM_ASYNC_JOB(async_resume_noirq, device_resume_noirq)
DPM_ASYNC_JOB(async_resume_early, device_resume_early)
DPM_ASYNC_JOB(async_resume, device_resume)

/* async-early: reset every device and start the roots, then take the
 * list in order; dpm_list_mtx held. */
static void dpm_resume_list_early(struct list_head *from, struct list_head *to,
				  async_func_t func,
				  void (*resume_one)(struct device *dev, bool async))
{
	struct device *dev;

	list_for_each_dev(dev, from) {
		dpm_clear_async_state(dev);
		if (dpm_root_device(dev))
			dpm_async_with_cleanup(dev, func);
	}
	while (!list_empty(from)) {
		dev = to_device(from->next);
		list_move_tail(&power(dev)->entry, to);
		if (!dpm_async_fn_early(dev, func)) {
			get_device(dev);
			mutex_unlock(&dpm_list_mtx);
			resume_one(dev, false);
			put_device(dev);
			mutex_lock(&dpm_list_mtx);
		}
	}
}

/*
 * The resume walks (dpm_noirq_resume_devices, dpm_resume_early,
 * dpm_resume): start every async device up front, then take the list in
 * order, moving each device on and running the ones not started.
 */
static void dpm_resume_list(enum pm_phase ph, struct list_head *from,
			    struct list_head *to, async_func_t func,
			    void (*resume_one)(struct device *dev, bool async))
{
	struct device *dev;
	ktime_t starttime = ktime_get();

	pm_phase_begin(ph);
	write_async_error(0);
	pm_transition = PMSG_RESUME;
	mutex_lock(&dpm_list_mtx);
	if (async_early()) {
		dpm_resume_list_early(from, to, func, resume_one);
		goto Out;
	}
	list_for_each_dev(dev, from)
		dpm_async_fn(dev, func);
	while (!list_empty(from)) {
		dev = to_device(from->next);
		list_move_tail(&power(dev)->entry, to);
		if (!power(dev)->async_in_progress) {
			get_device(dev);
			mutex_unlock(&dpm_list_mtx);
			resume_one(dev, false);
			put_device(dev);
			mutex_lock(&dpm_list_mtx);
		}
	}
Out:
	mutex_unlock(&dpm_list_mtx);
	async_synchronize_full();
	pm_phase_end(ph);
	dpm_show_time(starttime, ph, 0);
}

static void dpm_resume_noirq(void)
{
	dpm_resume_list(PH_RESUME_NOIRQ, &dpm_noirq_list, &dpm_late_early_list,
			async_resume_noirq, device_resume_noirq);
}

static void dpm_resume_early(void)
{
	dpm_resume_list(PH_RESUME_EARLY, &dpm_late_early_list,
			&dpm_suspended_list, async_resume_early,
			device_resume_early);
}

static void dpm_resume(void)
{
	dpm_resume_list(PH_RESUME, &dpm_suspended_list, &dpm_prepared_list,
			async_resume, device_resume);
}


static void dpm_complete(void)
{
	LIST_HEAD(list);

	pm_phase_begin(PH_COMPLETE);
	mutex_lock(&dpm_list_mtx);
	while (!list_empty(&dpm_prepared_list)) {
		struct device *dev = to_device(dpm_prepared_list.prev);

		get_device(dev);
		power(dev)->is_prepared = false;
		list_move(&power(dev)->entry, &list);
		mutex_unlock(&dpm_list_mtx);
		device_complete(dev);
		put_device(dev);
		mutex_lock(&dpm_list_mtx);
	}
	list_splice(&list, &dpm_list);
	mutex_unlock(&dpm_list_mtx);
	pm_phase_end(PH_COMPLETE);
}

static void dpm_resume_end(void)
{
	dpm_resume();
	dpm_complete();
}

/* ---- suspend ---- */

static void dpm_clear_superiors_direct_complete(struct device *dev)
{
	struct device_link *link;
	int idx;

	/* Under the superior's power.lock in the kernel. */
	if (dev->parent) {
		KAPI_ACCESS(&power(dev->parent)->direct_complete, KACC_WRITE);
		__atomic_store_n(&power(dev->parent)->direct_complete, false,
				 __ATOMIC_RELAXED);
	}
	idx = device_links_read_lock();
	for (int i = 0; (link = device_supplier_link(dev, i)); i++) {
		KAPI_ACCESS(&power(link->supplier)->direct_complete, KACC_WRITE);
		__atomic_store_n(&power(link->supplier)->direct_complete, false,
				 __ATOMIC_RELAXED);
	}
	device_links_read_unlock(idx);
}

/* suspend_late and suspend_noirq: after the subordinates, unless an
 * error stopped the phase or the device stays runtime-suspended. */
static int device_suspend_deep(struct device *dev, bool async,
			       enum pm_phase ph, bool *suspended,
			       async_func_t func)
{
	int error = 0;

	dpm_emit(EV_HANDLED, dev->id, ph, 0);
	dpm_wait_for_subordinate(dev, async);
	if (read_async_error())
		goto Complete;
	if (power(dev)->direct_complete)
		goto Complete;
	error = dpm_run_callback(dev, ph);
	if (error) {
		write_async_error(error);
		pm_dev_err(dev, ph, async, error);
		goto Complete;
	}
	*suspended = true;
Complete:
	complete_all(&power(dev)->completion);
	suspend_done(dev, error, func);
	return error;
}

static int device_suspend_noirq(struct device *dev, bool async)
{
	return device_suspend_deep(dev, async, PH_SUSPEND_NOIRQ,
				   &power(dev)->is_noirq_suspended,
				   async_suspend_noirq);
}

static int device_suspend_late(struct device *dev, bool async)
{
	return device_suspend_deep(dev, async, PH_SUSPEND_LATE,
				   &power(dev)->is_late_suspended,
				   async_suspend_late);
}

static int device_suspend(struct device *dev, bool async)
{
	int error = 0;

	dpm_emit(EV_HANDLED, dev->id, PH_SUSPEND, 0);
	dpm_wait_for_subordinate(dev, async);
	if (read_async_error()) {
		power(dev)->direct_complete = false;
		goto Complete;
	}
	KAPI_ACCESS(&power(dev)->direct_complete, KACC_READ);
	if (__atomic_load_n(&power(dev)->direct_complete, __ATOMIC_RELAXED)) {
		/* pm_runtime_status_suspended(): the scenario's state. */
		if (dev->beh.rpm_suspended) {
			dpm_emit(EV_DIRECT_COMPLETE, dev->id, PH_SUSPEND, 0);
			power(dev)->is_suspended = true;
			goto Complete;
		}
		power(dev)->direct_complete = false;
	}
	down(&dev->sem);
	error = dpm_run_callback(dev, PH_SUSPEND);
	if (!error) {
		power(dev)->is_suspended = true;
		dpm_clear_superiors_direct_complete(dev);
	}
	up(&dev->sem);
Complete:
	if (error) {
		write_async_error(error);
		pm_dev_err(dev, PH_SUSPEND, async, error);
	}
	complete_all(&power(dev)->completion);
	suspend_done(dev, error, async_suspend);
	return error;
}

DPM_ASYNC_JOB(async_suspend_noirq, device_suspend_noirq)
DPM_ASYNC_JOB(async_suspend_late, device_suspend_late)
DPM_ASYNC_JOB(async_suspend, device_suspend)

/* async-early: reset every device and start the leaves (children
 * first), then take the list from its end; on an error, hand the rest
 * to the target list.  dpm_list_mtx held. */
static int dpm_suspend_list_early(struct list_head *from, struct list_head *to,
				  async_func_t func,
				  int (*suspend_one)(struct device *dev, bool async))
{
	struct device *dev;
	int error = 0;

	list_for_each_dev_reverse(dev, from) {
		dpm_clear_async_state(dev);
		if (dpm_leaf_device(dev))
			dpm_async_with_cleanup(dev, func);
	}
	while (!list_empty(from)) {
		dev = to_device(from->prev);
		list_move(&power(dev)->entry, to);
		if (dpm_async_fn_early(dev, func))
			continue;
		get_device(dev);
		mutex_unlock(&dpm_list_mtx);
		error = suspend_one(dev, false);
		put_device(dev);
		mutex_lock(&dpm_list_mtx);
		if (error || read_async_error()) {
			if (fix_on(FIX_COMPLETE_ON_ERROR))
				dpm_async_suspend_complete_all(from);
			list_splice_init(from, to);
			break;
		}
	}
	return error;
}

/*
 * The suspend walks (dpm_suspend, dpm_suspend_late,
 * dpm_noirq_suspend_devices): take the list from its end (children
 * first), moving each device on; start it async or run it; stop at the
 * first error the walk sees.  Returns the phase's error.
 */
static int dpm_suspend_list(enum pm_phase ph, struct list_head *from,
			    struct list_head *to, async_func_t func,
			    int (*suspend_one)(struct device *dev, bool async))
{
	ktime_t starttime = ktime_get();
	int error = 0;

	pm_phase_begin(ph);
	pm_transition = PMSG_SUSPEND;
	write_async_error(0);
	mutex_lock(&dpm_list_mtx);
	if (async_early()) {
		error = dpm_suspend_list_early(from, to, func, suspend_one);
		goto Out;
	}
	while (!list_empty(from)) {
		struct device *dev = to_device(from->prev);

		list_move(&power(dev)->entry, to);
		if (dpm_async_fn(dev, func))
			continue;
		get_device(dev);
		mutex_unlock(&dpm_list_mtx);
		error = suspend_one(dev, false);
		put_device(dev);
		mutex_lock(&dpm_list_mtx);
		if (error || read_async_error())
			break;
	}
Out:
	mutex_unlock(&dpm_list_mtx);
	async_synchronize_full();
	if (!error)
		error = read_async_error();
	pm_phase_end(ph);
	dpm_show_time(starttime, ph, error);
	return error;
}

static int dpm_suspend(void)
{
	return dpm_suspend_list(PH_SUSPEND, &dpm_prepared_list,
				&dpm_suspended_list, async_suspend,
				device_suspend);
}

static int dpm_suspend_late(void)
{
	int error = dpm_suspend_list(PH_SUSPEND_LATE, &dpm_suspended_list,
				     &dpm_late_early_list, async_suspend_late,
				     device_suspend_late);

	if (error)
		dpm_resume_early();
	return error;
}

static int dpm_suspend_noirq(void)
{
	int error = dpm_suspend_list(PH_SUSPEND_NOIRQ, &dpm_late_early_list,
				     &dpm_noirq_list, async_suspend_noirq,
				     device_suspend_noirq);

	if (error)
		dpm_resume_noirq();
	return error;
}

static int device_prepare(struct device *dev)
{
	int ret;

	down(&dev->sem);
	ret = dpm_run_callback(dev, PH_PREPARE);
	/* A runtime-suspended device's driver says it may stay so. */
	if (!ret && dev->driver && dev->beh.rpm_suspended)
		ret = 1;
	up(&dev->sem);
	if (ret < 0)
		return ret;
	__atomic_store_n(&power(dev)->direct_complete, ret > 0, __ATOMIC_RELAXED);
	return 0;
}

static int dpm_prepare(void)
{
	int error = 0;

	pm_phase_begin(PH_PREPARE);
	mutex_lock(&dpm_list_mtx);
	while (!list_empty(&dpm_list) && !error) {
		struct device *dev = to_device(dpm_list.next);

		get_device(dev);
		mutex_unlock(&dpm_list_mtx);
		error = device_prepare(dev);
		mutex_lock(&dpm_list_mtx);
		if (!error) {
			power(dev)->is_prepared = true;
			if (!list_empty(&power(dev)->entry))
				list_move_tail(&power(dev)->entry,
					       &dpm_prepared_list);
		} else if (error == -EAGAIN) {
			error = 0;
		} else {
			pr_info("%s: not prepared for power transition: code %d",
				dev_name(dev), error);
		}
		mutex_unlock(&dpm_list_mtx);
		put_device(dev);
		mutex_lock(&dpm_list_mtx);
	}
	mutex_unlock(&dpm_list_mtx);
	pm_phase_end(PH_PREPARE);
	return error;
}

static int dpm_suspend_start(void)
{
	int error = dpm_prepare();

	if (!error)
		error = dpm_suspend();
	return error;
}

/* kernel/power/suspend.c: suspend_devices_and_enter() and
 * suspend_enter(), the device part. */
static int modern_suspend_resume(void)
{
	int error = dpm_suspend_start();

	if (error) {
		pr_info("PM: Some devices failed to suspend, or early wake event detected");
		goto Resume_devices;
	}
	error = dpm_suspend_late();
	if (error) {
		pr_info("PM: late suspend of devices failed");
		goto Resume_devices;
	}
	error = dpm_suspend_noirq();
	if (error) {
		pr_info("PM: noirq suspend of devices failed");
		goto Devices_early_resume;
	}
	/* The system sleeps here. */
	dpm_resume_noirq();
Devices_early_resume:
	dpm_resume_early();
Resume_devices:
	dpm_resume_end();
	return error;
}

static const char *modern_describe(struct device *dev, const void *obj,
				   char *buf, size_t n, int *why)
{
	return dpm_describe_completion(dev, obj, buf, n, why);
}

static const struct model_ops modern_model = {
	.dev_state_size = sizeof(struct modern_pm_info),
	.late_early_quiet = true,
	.reset = modern_reset,
	.device_pm_init = modern_device_pm_init,
	.device_pm_add = modern_device_pm_add,
	.device_pm_remove = modern_device_pm_remove,
	.suspend_resume = modern_suspend_resume,
	.device_enable_async_suspend = modern_device_enable_async_suspend,
	.async_store = modern_async_store,
	.device_pm_wait_for_dev = modern_device_pm_wait_for_dev,
	.describe = modern_describe,
};

static const struct diff_config modern_diff[] = {
	{ .fixes = "all" },
	/* A4: async-early deadlocks under a small worker limit
	 * (docs/findings.md#modern-3); compared without one. */
	{ .fixes = "all,async-early", .no_worker_limit = true },
	{ 0 },
};

#define MODERN_FEATURES (VF_LINKS | VF_DIRECT_COMPLETE | VF_PM_WAIT | \
			 VF_LATE_EARLY | VF_SYSFS_STREQ)
#define KNOB(k) (1ULL << (k))

/* 6.12: the knobs of 6.16's scheme are modern-6.16's, still accepted
 * here (old command lines and scenario files run as before). */
const struct pm_variant variant_modern = {
	.name = "modern",
	.summary = "Linux 6.12's main.c, our model",
	.corpus = "modern",
	.features = MODERN_FEATURES,
	.knobs = modern_knobs,
	.nknobs = NR_MODERN_FIX,
	.moved = KNOB(FIX_ASYNC_EARLY) | KNOB(FIX_COMPLETE_ON_ERROR) |
		 KNOB(FIX_RESUME_CHILDREN_LOCK),
	.moved_to = "modern-6.16",
	.diff = modern_diff,
	.diff_with = "seed",
	.ops = &model_variant_ops,
	.model = &modern_model,
};

/* 6.16: the same model with async-early always on.  fuzz_diff runs the
 * scheme as modern's second configuration already. */
const struct pm_variant variant_modern_616 = {
	.name = "modern-6.16",
	.summary = "Linux 6.16's main.c scheme (async-early: leaves start first on suspend, roots on resume), our model over modern's walks",
	.corpus = "modern",
	.features = MODERN_FEATURES,
	.knobs = modern_knobs,
	.nknobs = NR_MODERN_FIX,
	.forced = KNOB(FIX_ASYNC_EARLY),
	.no_worker_limit = true,
	.ops = &model_variant_ops,
	.model = &modern_model,
};
