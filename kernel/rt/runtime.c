// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runtime PM, as far as main.c reads and changes it, following
 * drivers/base/power/runtime.c's counters and status (written for
 * dpmfuzz):
 *   - usage_count, child_count, disable_depth, runtime_status,
 *     last_status, runtime_error, ignore_children, links_count;
 *   - pm_runtime_set_active()/_suspended() with the parent's child count
 *     and runtime.c's error cases (-EAGAIN while enabled, -EBUSY for an
 *     active child under an enabled suspended parent), taking and
 *     dropping suppliers through DL_FLAG_PM_RUNTIME links (rpm_active);
 *   - enable/disable with their depth and warnings, the barrier,
 *     get_noresume/put, need_not_resume, and 6.12's block/unblock.
 * Every device is a runtime-PM "no callbacks" device: a runtime resume
 * succeeds without calling anything (it wakes the parent as runtime.c
 * does).  Runtime suspend never happens by itself: idle notifications
 * and asynchronous requests are not carried out (pm_wq is frozen through
 * a transition), so a device's runtime status changes only where main.c
 * or the driver core changes it.  A resume request queued as a cycle
 * starts (DPMK_DEV_RPM_RESUME_PENDING: an interrupt's pm_request_resume()
 * just before the freezer ran) is carried out by pm_runtime_barrier() and
 * by a disable that checks for one, and cancelled by the first disable,
 * as runtime.c does.
 */
#include "rt.h"

void pm_runtime_init(struct device *dev)
{
	dev->power.runtime_status = RPM_SUSPENDED;
	dev->power.last_status = RPM_INVALID;
	dev->power.idle_notification = false;
	dev->power.disable_depth = 1;
	atomic_set(&dev->power.usage_count, 0);
	dev->power.runtime_error = 0;
	atomic_set(&dev->power.child_count, 0);
	pm_suspend_ignore_children(dev, false);
	dev->power.runtime_auto = true;
	dev->power.request_pending = false;
	dev->power.request = RPM_REQ_NONE;
	dev->power.deferred_resume = false;
	dev->power.needs_force_resume = false;
}

void pm_runtime_no_callbacks(struct device *dev)
{
	spin_lock_irq(&dev->power.lock);
	dev->power.no_callbacks = true;
	spin_unlock_irq(&dev->power.lock);
}

void pm_runtime_enable(struct device *dev)
{
	unsigned long flags;

	spin_lock_irqsave(&dev->power.lock, flags);
	if (!dev->power.disable_depth) {
		dev_warn(dev, "runtime PM enabled more often than disabled (%s)\n", __func__);
		goto out;
	}
	if (--dev->power.disable_depth > 0)
		goto out;
	if (dev->power.last_status == RPM_BLOCKED)
		dev_warn(dev, "runtime PM enabled while prepare blocked it\n");
	dev->power.last_status = RPM_INVALID;
	if (dev->power.runtime_status == RPM_SUSPENDED &&
	    !dev->power.ignore_children &&
	    atomic_read(&dev->power.child_count) > 0)
		dev_warn(dev, "runtime PM enabled on a suspended device whose children are active\n");
out:
	spin_unlock_irqrestore(&dev->power.lock, flags);
	dpmk_rpm_enabled_hook(dev);
}

static int rpm_resume(struct device *dev);

/* A queued resume request, carried out now; dev's lock held. */
static bool rpm_resume_pending(struct device *dev)
{
	if (!dev->power.request_pending || dev->power.request != RPM_REQ_RESUME)
		return false;
	to_dpmk(dev)->request_early = false;
	atomic_inc(&dev->power.usage_count);
	rpm_resume(dev);
	atomic_add_unless(&dev->power.usage_count, -1, 0);
	return true;
}

/* runtime.c's __pm_runtime_barrier(): the queued request is cancelled
 * (no work ever runs, so none to wait for); dev's lock held. */
static void rpm_cancel_request(struct device *dev)
{
	dev->power.request = RPM_REQ_NONE;
	dev->power.request_pending = false;
	to_dpmk(dev)->request_early = false;
}

/* Queue a resume request for a runtime-suspended device whose runtime PM
 * is on (pm_request_resume()); dev's lock held. */
static void rpm_queue_resume(struct device *dev)
{
	if (dev->power.disable_depth || dev->power.runtime_status != RPM_SUSPENDED)
		return;
	dev->power.request = RPM_REQ_RESUME;
	dev->power.request_pending = true;
}

void __pm_runtime_disable(struct device *dev, bool check_resume)
{
	spin_lock_irq(&dev->power.lock);
	if (dev->power.disable_depth > 0) {
		dev->power.disable_depth++;
		goto out;
	}
	if (check_resume)
		rpm_resume_pending(dev);
	if (dev->power.disable_depth++ == 0) {
		rpm_cancel_request(dev);
		dev->power.last_status = dev->power.runtime_status;
	}
out:
	spin_unlock_irq(&dev->power.lock);
	dpmk_rpm_disabled_hook(dev);
}

int pm_runtime_barrier(struct device *dev)
{
	int retval;

	pm_runtime_get_noresume(dev);
	spin_lock_irq(&dev->power.lock);
	retval = rpm_resume_pending(dev);
	rpm_cancel_request(dev);
	spin_unlock_irq(&dev->power.lock);
	pm_runtime_put_noidle(dev);
	return retval;
}

/* Some device has DPMK_DEV_RPM_RESUME_RACING: pm_wakeup_pending() need
 * not look for the device in hand otherwise. */
static bool racing_requests;

void dpmk_queue_resume_requests(void)
{
	bool racing = false;

	for (int i = 0; i < dpmk_run.s->ndev; i++) {
		struct dpmk_dev *d;
		struct device *dev;

		racing |= dpmk_run.s->dev[i].flags & DPMK_DEV_RPM_RESUME_RACING;
		/* Only those asked for: a reference taken and dropped is a
		 * step other tasks may interleave with, and a scenario's
		 * schedule bytes must keep meaning what they meant. */
		if (!(dpmk_run.s->dev[i].flags & DPMK_DEV_RPM_RESUME_PENDING))
			continue;
		d = dpmk_dev_get(i);
		if (!d)
			continue;
		dev = &d->dev;
		spin_lock_irq(&dev->power.lock);
		rpm_queue_resume(dev);
		d->request_early = dev->power.request_pending;
		spin_unlock_irq(&dev->power.lock);
		put_device(dev);
	}
	__atomic_store_n(&racing_requests, racing, __ATOMIC_RELAXED);
}

/* DPMK_DEV_RPM_RESUME_RACING: an interrupt's pm_request_resume() as main.c
 * asks pm_wakeup_pending() in the device's suspend step, between its
 * pm_runtime_barrier() and its direct_complete test. */
void dpmk_queue_racing_request(void)
{
	struct dpmk_dev *d;
	int h;

	if (!__atomic_load_n(&racing_requests, __ATOMIC_RELAXED) ||
	    dpmk_phase_now() != PH_SUSPEND)
		return;
	h = dpmk_in_hand_now();
	if (h < 0 || !(dpmk_run.s->dev[h].flags & DPMK_DEV_RPM_RESUME_RACING))
		return;
	d = dpmk_dev_get(h);
	if (!d)
		return;
	spin_lock_irq(&d->dev.power.lock);
	rpm_queue_resume(&d->dev);
	spin_unlock_irq(&d->dev.power.lock);
	put_device(&d->dev);
}

bool pm_runtime_block_if_disabled(struct device *dev)
{
	bool blocked;

	spin_lock_irq(&dev->power.lock);
	blocked = dev->power.disable_depth && dev->power.last_status == RPM_INVALID;
	if (blocked)
		dev->power.last_status = RPM_BLOCKED;
	spin_unlock_irq(&dev->power.lock);
	return blocked;
}

void pm_runtime_unblock(struct device *dev)
{
	spin_lock_irq(&dev->power.lock);
	if (dev->power.last_status == RPM_BLOCKED)
		dev->power.last_status = RPM_INVALID;
	spin_unlock_irq(&dev->power.lock);
}

/* What a callback's start tells the oracle of dev_pm_info (EV_FACT_*),
 * read under power.lock, which the runtime's writers hold. */
long long dpmk_dev_facts(struct device *dev)
{
	long long f = EV_FACT_TOLD | EV_FACT_RPM_TOLD | EV_FACT_PREP_TOLD |
		      EV_FACT_DC_TOLD | EV_FACT_MR_TOLD;

	spin_lock_irq(&dev->power.lock);
	if (dev->power.wakeup_path)
		f |= EV_FACT_WAKEUP_PATH;
	if (dev->power.disable_depth > 0)
		f |= EV_FACT_RPM_DISABLED;
	if (dev->power.runtime_status == RPM_SUSPENDED)
		f |= EV_FACT_RPM_SUSPENDED;
	if (dev->power.is_prepared)
		f |= EV_FACT_PREPARED;
	if (dev->power.direct_complete)
		f |= EV_FACT_DIRECT_COMPLETE;
	if (dev->power.must_resume)
		f |= EV_FACT_MUST_RESUME;
	if (dev->power.request_pending && dev->power.request == RPM_REQ_RESUME &&
	    to_dpmk(dev)->request_early)
		f |= EV_FACT_RPM_RESUME_QUEUED;
	spin_unlock_irq(&dev->power.lock);
	/* The parent's runtime PM (RUNTIME-PM: enabled again before its
	 * children's early resume), under the parent's lock, which its
	 * writers hold.  Not a parent already freed (a deleted device's
	 * callback may still be asked for its facts; REMOVED judges it). */
	if (dev->parent && !dpmk_is_quarantined(dev->parent, NULL)) {
		struct device *p = dev->parent;
		long long depth;

		spin_lock_irq(&p->power.lock);
		depth = p->power.disable_depth;
		spin_unlock_irq(&p->power.lock);
		f |= EV_FACT_PARENT_TOLD | depth << EV_FACT_PARENT_DEPTH_SHIFT;
	}
	return f;
}

bool pm_runtime_blocked(struct device *dev)
{
	bool ret;

	spin_lock_irq(&dev->power.lock);
	ret = dev->power.last_status == RPM_BLOCKED;
	spin_unlock_irq(&dev->power.lock);
	return ret;
}

bool pm_runtime_need_not_resume(struct device *dev)
{
	return atomic_read(&dev->power.usage_count) <= 1 &&
		(atomic_read(&dev->power.child_count) == 0 ||
		 dev->power.ignore_children);
}

/* Drop a usage count; the count left, or -EINVAL on underflow. */
static int rpm_drop_usage_count(struct device *dev)
{
	int ret = atomic_sub_return(1, &dev->power.usage_count);

	if (ret >= 0)
		return ret;
	atomic_inc(&dev->power.usage_count);
	dev_warn(dev, "runtime PM usage count would go below zero\n");
	return -EINVAL;
}

int __pm_runtime_idle(struct device *dev, int rpmflags)
{
	if (rpmflags & RPM_GET_PUT) {
		int ret = rpm_drop_usage_count(dev);

		if (ret < 0)
			return ret;
		if (ret > 0)
			return 0;
	}
	/* The idle notification (and the runtime suspend it may lead to)
	 * is not carried out. */
	return 0;
}

int __pm_runtime_suspend(struct device *dev, int rpmflags)
{
	if (rpmflags & RPM_GET_PUT) {
		int ret = rpm_drop_usage_count(dev);

		if (ret < 0)
			return ret;
		if (ret > 0)
			return 0;
	}
	return -EAGAIN;		/* never carried out */
}

static void rpm_set_status(struct device *dev, enum rpm_status status)
{
	/* Read without power.lock by the harness's skip reports (events.c),
	 * as main.c reads it: the harness's own accesses are atomic. */
	__atomic_store_n(&dev->power.runtime_status, status, __ATOMIC_RELAXED);
}

/* runtime.c's rpm_resume() for a no-callbacks device; dev's lock held. */
static int rpm_resume(struct device *dev)
{
	struct device *parent = NULL;
	int retval;

repeat:
	retval = 0;
	if (dev->power.runtime_error)
		retval = -EINVAL;
	else if (dev->power.disable_depth > 0)
		retval = dev->power.runtime_status == RPM_ACTIVE &&
			 dev->power.last_status == RPM_ACTIVE ? 1 : -EACCES;
	if (retval)
		goto out;
	dev->power.request = RPM_REQ_NONE;
	if (dev->power.runtime_status == RPM_ACTIVE) {
		retval = 1;
		goto out;
	}
	/* No callbacks: the parent need not wake if it cannot be suspended
	 * under an active child anyway. */
	if (dev->power.no_callbacks && !parent && dev->parent) {
		struct device *p = dev->parent;

		spin_lock_nested(&p->power.lock, SINGLE_DEPTH_NESTING);
		if (p->power.disable_depth > 0 || p->power.ignore_children ||
		    p->power.runtime_status == RPM_ACTIVE) {
			atomic_inc(&p->power.child_count);
			spin_unlock(&p->power.lock);
			retval = 1;
			goto no_callback;
		}
		spin_unlock(&p->power.lock);
	}
	if (!parent && dev->parent) {
		parent = dev->parent;
		spin_unlock(&dev->power.lock);
		pm_runtime_get_noresume(parent);
		spin_lock(&parent->power.lock);
		if (!parent->power.disable_depth &&
		    !parent->power.ignore_children) {
			rpm_resume(parent);
			if (parent->power.runtime_status != RPM_ACTIVE)
				retval = -EBUSY;
		}
		spin_unlock(&parent->power.lock);
		spin_lock(&dev->power.lock);
		if (retval)
			goto out;
		goto repeat;
	}
no_callback:
	rpm_set_status(dev, RPM_ACTIVE);
	if (parent)
		atomic_inc(&parent->power.child_count);
out:
	if (parent) {
		spin_unlock(&dev->power.lock);
		__pm_runtime_idle(parent, RPM_GET_PUT | RPM_ASYNC);
		spin_lock(&dev->power.lock);
	}
	return retval;
}

int __pm_runtime_resume(struct device *dev, int rpmflags)
{
	unsigned long flags;
	int retval;

	if (rpmflags & RPM_GET_PUT)
		atomic_inc(&dev->power.usage_count);
	spin_lock_irqsave(&dev->power.lock, flags);
	retval = rpm_resume(dev);
	spin_unlock_irqrestore(&dev->power.lock, flags);
	return retval;
}

/* Take every supplier a DL_FLAG_PM_RUNTIME link names (links read-locked). */
static int rpm_get_suppliers(struct device *dev)
{
	struct device_link *link;

	list_for_each_entry_rcu(link, &dev->links.suppliers, c_node,
				device_links_read_lock_held()) {
		int retval;

		if (!device_link_test(link, DL_FLAG_PM_RUNTIME))
			continue;
		retval = pm_runtime_get_sync(link->supplier);
		/* A supplier with runtime PM disabled does not count. */
		if (retval < 0 && retval != -EACCES) {
			pm_runtime_put_noidle(link->supplier);
			return retval;
		}
		atomic_inc(&link->rpm_active);
	}
	return 0;
}

void pm_runtime_release_supplier(struct device_link *link)
{
	struct device *supplier = link->supplier;

	/* Give back every usage count the link took, but its first. */
	while (atomic_add_unless(&link->rpm_active, -1, 1) &&
	       atomic_read(&supplier->power.usage_count) > 0)
		pm_runtime_put_noidle(supplier);
}

static void rpm_put_suppliers(struct device *dev)
{
	struct device_link *link;

	list_for_each_entry_rcu(link, &dev->links.suppliers, c_node,
				device_links_read_lock_held())
		pm_runtime_release_supplier(link);
}

int __pm_runtime_set_status(struct device *dev, unsigned int status)
{
	struct device *parent = dev->parent;
	unsigned long flags;
	int error = 0;

	if (status != RPM_ACTIVE && status != RPM_SUSPENDED)
		return -EINVAL;
	/* What the oracle's RUNTIME-PM asks of a smart-suspend device main.c
	 * resumes (events.c, dpmk_complete_all()). */
	if (status == RPM_ACTIVE && dpmk_phase_now() == PH_RESUME_NOIRQ)
		__atomic_store_n(&to_dpmk(dev)->set_active_inst,
				 __atomic_load_n(&dpmk_run.phase_inst, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);

	/* Only while runtime PM is disabled (or failed): keep it so. */
	spin_lock_irqsave(&dev->power.lock, flags);
	if (dev->power.runtime_error || dev->power.disable_depth)
		dev->power.disable_depth++;
	else
		error = -EAGAIN;
	spin_unlock_irqrestore(&dev->power.lock, flags);
	if (error)
		return error;

	if (status == RPM_ACTIVE) {
		int idx = device_links_read_lock();

		if (rpm_get_suppliers(dev))
			status = RPM_SUSPENDED;
		device_links_read_unlock(idx);
	}

	spin_lock_irqsave(&dev->power.lock, flags);
	if (dev->power.runtime_status == status || !parent)
		goto out_set;
	if (status == RPM_SUSPENDED) {
		atomic_add_unless(&parent->power.child_count, -1, 0);
	} else {
		spin_lock_nested(&parent->power.lock, SINGLE_DEPTH_NESTING);
		/* An active child under a parent that runtime PM may suspend
		 * (enabled, not ignoring children, not active) is refused. */
		if (!parent->power.disable_depth &&
		    !parent->power.ignore_children &&
		    parent->power.runtime_status != RPM_ACTIVE) {
			dev_err(dev, "cannot mark %s active: its parent %s is runtime-suspended\n",
				dev_name(dev), dev_name(parent));
			error = -EBUSY;
		} else if (dev->power.runtime_status == RPM_SUSPENDED) {
			atomic_inc(&parent->power.child_count);
		}
		spin_unlock(&parent->power.lock);
		if (error) {
			status = RPM_SUSPENDED;
			goto out;
		}
	}
out_set:
	rpm_set_status(dev, status);
	if (!error)
		dev->power.runtime_error = 0;
out:
	spin_unlock_irqrestore(&dev->power.lock, flags);

	if (status == RPM_SUSPENDED) {
		int idx = device_links_read_lock();

		rpm_put_suppliers(dev);
		device_links_read_unlock(idx);
	}
	pm_runtime_enable(dev);
	return error;
}

void pm_runtime_new_link(struct device *dev)
{
	spin_lock_irq(&dev->power.lock);
	dev->power.links_count++;
	spin_unlock_irq(&dev->power.lock);
}

void pm_runtime_drop_link(struct device_link *link)
{
	struct device *consumer = link->consumer;

	if (!device_link_test(link, DL_FLAG_PM_RUNTIME))
		return;
	spin_lock_irq(&consumer->power.lock);
	if (consumer->power.links_count)
		consumer->power.links_count--;
	spin_unlock_irq(&consumer->power.lock);
	pm_runtime_release_supplier(link);
}

/* After unbinding, or on removal: a disabled active device is marked
 * suspended, as runtime.c's pm_runtime_reinit() does. */
void pm_runtime_reinit(struct device *dev)
{
	bool active;

	spin_lock_irq(&dev->power.lock);
	if (!dev->power.disable_depth) {
		spin_unlock_irq(&dev->power.lock);
		return;
	}
	active = dev->power.runtime_status == RPM_ACTIVE;
	dev->power.needs_force_resume = false;
	spin_unlock_irq(&dev->power.lock);
	if (active)
		pm_runtime_set_suspended(dev);
}

void pm_runtime_remove(struct device *dev)
{
	__pm_runtime_disable(dev, false);
	pm_runtime_reinit(dev);
}
