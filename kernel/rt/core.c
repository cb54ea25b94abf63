// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver core around main.c, after drivers/base/core.c and dd.c
 * (written for dpmfuzz):
 *   - device_initialize(): the reference count, the device lock, the link
 *     lists, device_pm_init() (power.h: main.c's device_pm_sleep_init()
 *     and our pm_runtime_init()).
 *   - device_add(): holds a reference to the device while it works,
 *     creates the private part, takes a reference to the parent, calls
 *     main.c's device_pm_add(), binds the driver (or defers that while
 *     probing is blocked), and links the device into the parent's child
 *     klist (whose node holds a reference to the child).
 *   - device_del(): kill_device() under the device lock, off the parent's
 *     child klist, the driver unbound (bus_remove_device()), main.c's
 *     device_pm_remove(), the links purged, the parent's reference
 *     dropped: core.c's order.
 *   - put_device(): the last reference runs the release (the device's
 *     own, else its type's, else its class's, as device_release() looks
 *     for them), then the private part goes.
 *   - device_for_each_child() on the klist, surviving removals.
 * sysfs, uevents, buses' device lists and the probe machinery are not
 * modelled; a device with a driver is bound when it is added (or when
 * probing is unblocked, for one added during a transition).
 */
#include "rt.h"

static DEFINE_SPINLOCK(registry_lock);

/*
 * Devices whose last reference was dropped during a run are kept, by
 * index, until the run ends, with their private parts: an operation on
 * one is reported (EV_USE_AFTER_FREE) in every build, and under ASan the
 * memory is poisoned, so main.c's plain accesses to it are caught too.
 * The devices are in the project's quarantine (core/util/quarantine.h,
 * through dpmk_host_quarantine_*()), their private parts here.
 */
static struct device_private **quarantine_p;
/* The quarantine's count on the kernel side: main.c's every spin_lock()
 * asks it inline (kernel/shim/linux/spinlock.h), before any call into the
 * host. */
int dpmk_freed_devices;
static bool quarantining;
static bool probing_blocked;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPMK_ASAN 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#define DPMK_ASAN 1
#endif
#ifdef DPMK_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#else
#define __asan_poison_memory_region(a, s)	do { } while (0)
#define __asan_unpoison_memory_region(a, s)	do { } while (0)
#endif

/* ---- the run's devices, references ---- */

int dpmk_index(const struct device *dev)
{
	return to_dpmk_const(dev)->idx;
}

/* A reference to a live device by index (kref_get_unless_zero). */
struct dpmk_dev *dpmk_dev_get(int idx)
{
	struct dpmk_dev *d = NULL;

	if (idx < 0 || idx >= dpmk_run.ndev)
		return NULL;
	spin_lock(&registry_lock);
	if (dpmk_run.dev[idx] &&
	    kref_get_unless_zero(&dpmk_run.dev[idx]->dev.kobj.kref))
		d = dpmk_run.dev[idx];
	spin_unlock(&registry_lock);
	return d;
}

/* The registry's entry for idx, without a reference (NULL: none). */
struct dpmk_dev *dpmk_dev_peek(int idx)
{
	struct dpmk_dev *d;

	spin_lock(&registry_lock);
	d = dpmk_run.dev[idx];
	spin_unlock(&registry_lock);
	return d;
}

/* A device other tasks may find from now on (callbacks add late ones). */
void dpmk_dev_publish(struct dpmk_dev *d)
{
	spin_lock(&registry_lock);
	dpmk_run.dev[d->idx] = d;
	spin_unlock(&registry_lock);
}

/* Whether obj lies in a freed device; its index in *idx.  By address
 * only: the memory itself may be poisoned.  Asked at every lock,
 * completion and reference operation: nothing to look up until a device
 * is freed. */
DPM_NO_COVERAGE
bool dpmk_is_quarantined(const void *obj, int *idx)
{
	int i;

	if (!__atomic_load_n(&dpmk_freed_devices, __ATOMIC_RELAXED))
		return false;
	i = dpmk_host_quarantine_find(obj);
	if (i < 0)
		return false;
	if (idx)
		*idx = i;
	return true;
}

/* A use of a freed device's memory, with the device whose step main.c
 * was running on this task (a: its index + 1, 0 for none; b: the phase). */
static void uaf(int idx, const char *op)
{
	int h = dpmk_in_hand_now();

	dpmk_emit(EV_USE_AFTER_FREE, idx, -1, 0, h + 1, h < 0 ? -1 : dpmk_phase_now(), op);
}

/* kapi's hook: a primitive is about to touch obj. */
static void quarantine_check(const void *obj, const char *op)
{
	int idx;

	if (dpmk_is_quarantined(obj, &idx))
		uaf(idx, op);
}

/* spin_lock() on memory of a freed device (kernel/shim/linux/spinlock.h). */
void dpmk_spin_check(const spinlock_t *l)
{
	int idx;

	if (dpmk_is_quarantined(l, &idx))
		uaf(idx, "spin_lock");
}

struct device *get_device(struct device *dev)
{
	int idx;

	if (!dev)
		return NULL;
	if (dpmk_is_quarantined(dev, &idx)) {
		uaf(idx, "get_device");
		return dev;
	}
	int n;

	DPMK_QUIET_BEGIN();
	n = kref_get_return(&dev->kobj.kref);
	DPMK_QUIET_END();
	DPMK_COUNTED(&dev->kobj.kref.refcount.counter, 0);
	if (n <= 1)
		dpmk_host_bug("get_device() on a device whose last reference is gone");
	return dev;
}

static void device_release(struct device *dev)
{
	struct device_private *p = dev->p;
	int idx = to_dpmk(dev)->idx;
	struct device *held = to_dpmk(dev)->holds_parent ? dev->parent : NULL;

	if (dev->release)
		dev->release(dev);
	else if (dev->type && dev->type->release)
		dev->type->release(dev);
	else if (dev->class && dev->class->dev_release)
		dev->class->dev_release(dev);
	else
		dpmk_host_bug("a device without a release function");
	/* The private part goes after the release, as in core.c. */
	if (quarantining) {
		DPMK_QUIET_BEGIN();
		quarantine_p[idx] = p;
		DPMK_QUIET_END();
	} else {
		dpmk_fp_note(idx, 1, NULL);
		free(p);
	}
	put_device(held);
}

void put_device(struct device *dev)
{
	int idx, left;

	if (!dev)
		return;
	dpmk_host_sched_point();
	if (dpmk_is_quarantined(dev, &idx)) {
		uaf(idx, "put_device");
		return;
	}
	DPMK_QUIET_BEGIN();
	left = kref_put_return(&dev->kobj.kref);
	DPMK_QUIET_END();
	/* References commute, but for the last one. */
	DPMK_COUNTED(&dev->kobj.kref.refcount.counter, left == 0);
	if (left < 0)
		dpmk_host_bug("put_device(): reference count underflow");
	if (left == 0)
		device_release(dev);
}

/* ---- runtime worker tasks (releases' work, link releases) ---- */

struct worker {
	void (*fn)(void *);
	void *arg;
	struct worker *next;
};

/* Workers started and not yet running: a run the engine abandons (a
 * violation stops it) never runs them, and tree_abandon() frees them. */
static struct worker *workers_pending;
static DEFINE_SPINLOCK(workers_lock);

static void worker_main(void *arg)
{
	struct worker *me = arg;
	/* Set before the spawn and never changed; next is the list's, read
	 * and written under workers_lock only. */
	void (*fn)(void *) = me->fn;
	void *fn_arg = me->arg;

	spin_lock(&workers_lock);
	DPMK_QUIET_BEGIN();
	for (struct worker **pp = &workers_pending; *pp; pp = &(*pp)->next) {
		if (*pp == me) {
			*pp = me->next;
			break;
		}
	}
	DPMK_QUIET_END();
	spin_unlock(&workers_lock);
	free(me);
	fn(fn_arg);
	if (__atomic_sub_fetch(&dpmk_run.workers, 1, __ATOMIC_ACQ_REL) == 0)
		(complete_all)(&dpmk_run.workers_done);
}

void dpmk_worker_start(void (*fn)(void *), void *arg, const char *name)
{
	struct worker *w = malloc(sizeof(*w));

	if (!w)
		dpmk_host_bug("worker: out of memory");
	/* Handed to the new task only, which its creation orders after
	 * these writes: nothing shared for the search. */
	DPMK_QUIET_BEGIN();
	w->fn = fn;
	w->arg = arg;
	DPMK_QUIET_END();
	spin_lock(&workers_lock);
	DPMK_QUIET_BEGIN();
	w->next = workers_pending;
	workers_pending = w;
	DPMK_QUIET_END();
	spin_unlock(&workers_lock);
	if (__atomic_fetch_add(&dpmk_run.workers, 1, __ATOMIC_ACQ_REL) == 0)
		reinit_completion(&dpmk_run.workers_done);
	dpmk_host_spawn(worker_main, w, name);
}

void dpmk_workers_wait(void)
{
	wait_for_completion(&dpmk_run.workers_done);
}

/* The run was abandoned: the workers it never ran. */
void dpmk_workers_abandon(void)
{
	while (workers_pending) {
		struct worker *w = workers_pending;

		workers_pending = w->next;
		free(w);
	}
}

/*
 * The release every scenario device has (its own, its type's or its
 * class's, by level): tell the bus, start what the release does, free.
 * A release runs wherever the last put_device() happens, main.c's async
 * jobs and walks included, so it only starts work: unregistering another
 * device is left to a worker task, as drivers defer such work to a
 * workqueue (the kernel's device link release does the same).
 */
static void release_unregister_fn(void *arg)
{
	struct dpmk_dev *t = dpmk_dev_get((int)(long)arg);

	if (t) {
		dpmk_log("release worker: unregistering '%s'", t->name);
		dpmk_unregister_subtree(t, false);
		put_device(&t->dev);
	}
}

/* LOCKS (docs/oracle.md): main.c changes and tests its lists only
 * holding dpm_list_mtx (must_hold 1), and calls back and waits only
 * without it (must_hold 0); a breach is told to the oracle.  Called from
 * main.c's own code through the shim's list, completion and async
 * headers (DPMK_IN_MAIN_C), and before each callback. */
void dpmk_main_lock_rule(int idx, const char *what, int must_hold)
{
	int mine;

	if (!dpmk_run.list_mtx)
		return;
	mine = dpmk_host_mutex_mine(dpmk_run.list_mtx) != 0;
	if (mine == (must_hold != 0))
		return;
	dpmk_log("main.c %s %s dpm_list_mtx", what, mine ? "holding" : "without holding");
	dpmk_emit(EV_LOCKING, idx, dpmk_phase_now(), 0, mine, 0, what);
}

/* REMOVED: an entry main.c moves is on a list; one device_pm_remove()
 * took off (list_del_init(): it points to itself) or list_del() poisoned
 * is a removed device main.c would put back on its lists. */
void dpmk_main_moves(const void *entry)
{
	const struct list_head *e = entry;
	struct list_head *next = READ_ONCE(e->next);
	int idx = -1;

	if (next != e && next != LIST_POISON1)
		return;
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_dev_peek(i);

		if (d && &d->dev.power.entry == e)
			idx = i;
	}
	dpmk_log("main.c moves a list entry that is on no list");
	dpmk_emit(EV_RELINKED, idx, dpmk_phase_now(), 0, 0, 0, NULL);
}

void dpmk_dev_release(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);
	int target = d->sd->release_unregisters;
	int idx = d->idx;

	/* Dropped while the task holds dpm_list_mtx: a release that
	 * unregisters a device (which takes the lock) would deadlock there
	 * (2aa36604e824); the harness's releases leave that to a worker, so
	 * the oracle is told instead (REFS). */
	bool under_list_mtx = dpmk_run.list_mtx && dpmk_host_mutex_mine(dpmk_run.list_mtx);

	dpmk_log("'%s' released: last reference dropped%s", d->name,
		 under_list_mtx ? " while holding dpm_list_mtx" : "");
	dpmk_emit(EV_FREED, idx, -1, 0, under_list_mtx, 0, NULL);
	/* A wakeup source device_pm_remove() did not detach (no PM). */
	dpmk_fp_note(idx, 2, NULL);
	free(d->dev.power.wakeup);
	d->dev.power.wakeup = NULL;
	spin_lock(&registry_lock);
	dpmk_run.dev[idx] = NULL;
	spin_unlock(&registry_lock);
	if (target >= 0 && !dpmk_run.teardown) {
		char name[48];

		dpmk_snprintf(name, sizeof(name), "release/%s", d->name);
		dpmk_worker_start(release_unregister_fn, (void *)(long)target, name);
	}
	if (!quarantining) {
		dpmk_fp_note(idx, 0, NULL);
		free(d);
		return;
	}
	__asan_poison_memory_region(d, sizeof(*d));
	DPMK_QUIET_BEGIN();
	dpmk_host_quarantine_add(idx, d);
	__atomic_fetch_add(&dpmk_freed_devices, 1, __ATOMIC_RELAXED);
	DPMK_QUIET_END();
}

void dpmk_quarantine_free(void)
{
	dpmk_fp_reset(0);
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_host_quarantine_at(i);

		if (d) {
			__asan_unpoison_memory_region(d, sizeof(*d));
			free(d);
		}
		if (quarantine_p)
			free(quarantine_p[i]);
	}
	dpmk_host_quarantine_release();
	free(quarantine_p);
	quarantine_p = NULL;
	__atomic_store_n(&dpmk_freed_devices, 0, __ATOMIC_RELAXED);
	quarantining = false;
	__atomic_store_n(&kapi_obj_check, NULL, __ATOMIC_RELEASE);
}

void dpmk_core_reset(void)
{
	int n = dpmk_run.ndev ? dpmk_run.ndev : 1;

	dpmk_fp_reset(n);
	dpmk_host_quarantine_init(sizeof(struct dpmk_dev), n);
	quarantine_p = calloc(n, sizeof(*quarantine_p));
	if (!quarantine_p)
		dpmk_host_bug("quarantine: out of memory");
	__atomic_store_n(&dpmk_freed_devices, 0, __ATOMIC_RELAXED);
	quarantining = true;
	probing_blocked = false;
	__atomic_store_n(&kapi_obj_check, quarantine_check, __ATOMIC_RELEASE);
}

/* ---- registration ---- */

static void klist_children_get(struct klist_node *n)
{
	get_device(container_of(n, struct device_private, knode_parent)->device);
}

static void klist_children_put(struct klist_node *n)
{
	put_device(container_of(n, struct device_private, knode_parent)->device);
}

void device_initialize(struct device *dev)
{
	kref_init(&dev->kobj.kref);
	dev->kobj.state_initialized = 1;
	INIT_LIST_HEAD(&dev->kobj.entry);
	mutex_init(&dev->mutex);
	INIT_LIST_HEAD(&dev->links.consumers);
	INIT_LIST_HEAD(&dev->links.suppliers);
	INIT_LIST_HEAD(&dev->links.defer_sync);
	dev->links.status = DL_DEV_NO_DRIVER;
	device_pm_init(dev);
	/* KV-7's stand-in: what main.c's complete() let one waiter through,
	 * every waiter passes, as after complete_all(). */
	if (dpmk_run.s && dpmk_run.s->fixes & DPMK_FIX_INIT_COMPLETE_ALL)
		(complete_all)(&dev->power.completion);
}

static int device_private_init(struct device *dev)
{
	dev->p = calloc(1, sizeof(*dev->p));
	if (!dev->p)
		return -ENOMEM;
	dpmk_fp_note(to_dpmk(dev)->idx, 1, dev->p);
	dev->p->device = dev;
	klist_init(&dev->p->klist_children, klist_children_get,
		   klist_children_put);
	return 0;
}

bool device_is_registered(struct device *dev)
{
	return dev->kobj.state_in_sysfs;
}

/* Probe: bind the device's driver, as really_probe() and driver_bound()
 * leave it (the driver sets its DPM flags in its probe). */
void dpmk_driver_bind(struct dpmk_dev *d)
{
	struct device *dev = &d->dev;

	if (d->sd->flags & DPMK_DEV_NO_DRIVER)
		return;
	device_lock(dev);
	if (__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE) || dev->driver) {
		device_unlock(dev);
		return;
	}
	WRITE_ONCE(dev->driver, &d->drv);
	d->bound = true;
	d->probe_deferred = false;
	dev_pm_set_driver_flags(dev, d->sd->dpm_flags);
	dev_dbg(dev, "bound to driver %s\n", d->drv.name);
	device_links_driver_bound(dev);
	device_pm_check_callbacks(dev);
	device_unlock(dev);
}

int device_add(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);
	struct device *parent;
	int error;

	dev = get_device(dev);
	if (!dev->p) {
		error = device_private_init(dev);
		if (error) {
			put_device(dev);
			return error;
		}
	}
	pr_debug("%s: registering '%s'\n", __func__, dev_name(dev));
	parent = get_device(dev->parent);
	dev->kobj.parent = parent ? &parent->kobj : NULL;
	dev->kobj.state_in_sysfs = 1;
	d->sysfs_gone = false;
	dpmk_device_pm_add(dev);		/* main.c's device_pm_add() */
	d->added = true;
	/* bus_probe_device(): probing may be blocked during a transition
	 * (dpm_prepare() to dpm_complete()); the driver binds when it is
	 * unblocked. */
	if (__atomic_load_n(&probing_blocked, __ATOMIC_ACQUIRE))
		d->probe_deferred = true;
	else
		dpmk_driver_bind(d);
	if (parent)
		klist_add_tail(&dev->p->knode_parent, &parent->p->klist_children);
	put_device(dev);
	return 0;
}

int device_register(struct device *dev)
{
	device_initialize(dev);
	return device_add(dev);
}

/* ---- probing, blocked around a transition ---- */

void device_block_probing(void)
{
	__atomic_store_n(&probing_blocked, true, __ATOMIC_RELEASE);
	wait_for_device_probe();	/* dd.c: syncs with probes in flight */
}

void device_unblock_probing(void)
{
	__atomic_store_n(&probing_blocked, false, __ATOMIC_RELEASE);
	/* The deferred probes, run here rather than from a work item. */
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_dev_get(i);

		if (!d)
			continue;
		if (d->probe_deferred && !__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE)) {
			d->probe_deferred = false;
			dpmk_driver_bind(d);
			dpmk_links_add_for(i);
		}
		put_device(&d->dev);
	}
}

/*
 * dd.c waits for the probes in flight, then for every async job
 * (async_synchronize_full()).  Probes run synchronously here, so none is
 * ever in flight; what stays is LOCKS: main.c must not wait so while it
 * holds dpm_list_mtx, which a probe registering a child takes in
 * device_pm_add().
 */
void wait_for_device_probe(void)
{
	dpmk_main_lock_rule(-1, "waits for probes and async jobs (wait_for_device_probe())", 0);
}

/* ---- unbinding (dd.c's __device_release_driver()) ---- */

void device_release_driver(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);
	struct device_driver *drv;

	device_lock(dev);
	drv = dev->driver;
	if (!drv) {
		device_unlock(dev);
		return;
	}
	pm_runtime_get_sync(dev);
	/* Consumers bound through managed links go first. */
	while (device_links_busy(dev)) {
		device_unlock(dev);
		device_links_unbind_consumers(dev);
		device_lock(dev);
		if (dev->driver != drv) {
			pm_runtime_put(dev);
			device_unlock(dev);
			return;
		}
	}
	pm_runtime_put(dev);
	dev_dbg(dev, "driver %s unbound\n", drv->name);
	WRITE_ONCE(dev->driver, NULL);
	d->bound = false;
	dev_set_drvdata(dev, NULL);
	pm_runtime_reinit(dev);
	dev_pm_set_driver_flags(dev, 0);
	device_links_driver_cleanup(dev);
	device_pm_check_callbacks(dev);
	if (!__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE))
		dpmk_emit(EV_UNBOUND, d->idx, dpmk_phase_now(), 0, 0, 0, NULL);
	device_unlock(dev);
}

/*
 * The KV-5 stand-in (DPMK_FIX_HOLD_PARENT) is for the suspend side,
 * which does not pin the parent: a removal in a resume phase drops the
 * parent's reference as the kernel does, so a tree without the resume
 * side's own pinning (0552e05fdfea, Jan 2020) still shows that bug,
 * unless its own stand-in is on (DPMK_FIX_HOLD_PARENT_RESUME).
 */
static bool resume_side(void)
{
	int p = dpmk_phase_now();

	return p >= 0 && !pm_phase_is_suspend(p);
}

/* ---- removal ---- */

void device_del(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);
	struct device *parent = dev->parent;

	/* Removals wait while only the PM task may run device code, but
	 * for one by a task that is not frozen. */
	if (!d->unfrozen_removal)
		dpmk_phase_window_wait();

	/* kill_device(): from here on the device is leaving; its drivers do
	 * no more PM work for it (kernel/rt/callbacks.c) and the oracle
	 * exempts it from every ordering rule. */
	device_lock(dev);
	dev->p->dead = 1;
	spin_lock(&d->ev_lock);
	__atomic_store_n(&d->dead, true, __ATOMIC_RELEASE);
	dpmk_emit(EV_GONE, d->idx, dpmk_phase_now(), 0, 0, 0, NULL);
	spin_unlock(&d->ev_lock);
	device_unlock(dev);

	/* dpm_sysfs_remove(): power/async writes in flight finish first. */
	mutex_lock(&d->sysfs_active);
	d->sysfs_gone = true;
	mutex_unlock(&d->sysfs_active);

	if (parent)
		klist_del(&dev->p->knode_parent);
	device_release_driver(dev);		/* bus_remove_device() */
	dpmk_device_pm_remove(dev);		/* main.c's device_pm_remove() */
	dpmk_tell_removed_rpm(d);
	device_links_purge(dev);
	dev->kobj.state_in_sysfs = 0;
	dpmk_log("'%s' deleted", d->name);
	if (parent && dpmk_run.s->fixes & (resume_side() ? DPMK_FIX_HOLD_PARENT_RESUME :
							     DPMK_FIX_HOLD_PARENT))
		d->holds_parent = true;	/* dropped by its release */
	else
		put_device(parent);
	(complete_all)(&d->removed);
}

void device_unregister(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);

	device_del(dev);
	d->creator_ref = false;
	put_device(dev);
}

/*
 * Unregister the subtree at d, children first, the last registered
 * first, as bus code tears down a hierarchy.  A device is removed once:
 * the first remover claims it; a second one (a hotplug task racing a
 * driver's callback) waits for that removal to end, as a bus's own
 * locking would make it.  unfrozen: the remover is a task that is not
 * frozen during a transition.
 */
void dpmk_unregister_subtree(struct dpmk_dev *d, bool unfrozen)
{
	if (__atomic_exchange_n(&d->removal_claimed, 1, __ATOMIC_ACQ_REL)) {
		wait_for_completion(&d->removed);
		return;
	}
	/* A child registered from here on removes itself (tree.c). */
	__atomic_store_n(&d->closing, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		struct klist_iter it;
		struct klist_node *n;
		struct dpmk_dev *child = NULL;

		klist_iter_init(&d->dev.p->klist_children, &it);
		n = klist_prev(&it);
		if (n) {
			child = to_dpmk(container_of(n, struct device_private,
						     knode_parent)->device);
			get_device(&child->dev);
		}
		klist_iter_exit(&it);
		if (!child)
			break;
		dpmk_unregister_subtree(child, unfrozen);
		put_device(&child->dev);
	}
	d->unfrozen_removal = unfrozen;
	device_unregister(&d->dev);
}

/* ---- the child walk ---- */

static struct device *next_device(struct klist_iter *i, bool forward)
{
	struct klist_node *n = forward ? klist_next(i) : klist_prev(i);

	return n ? container_of(n, struct device_private, knode_parent)->device :
		   NULL;
}

static int for_each_child(struct device *parent, void *data,
			  int (*fn)(struct device *dev, void *data), bool forward)
{
	struct klist_iter i;
	struct device *child;
	int error = 0;

	if (!parent || !parent->p)
		return 0;
	klist_iter_init(&parent->p->klist_children, &i);
	while (!error && (child = next_device(&i, forward)))
		error = fn(child, data);
	klist_iter_exit(&i);
	return error;
}

int device_for_each_child(struct device *parent, void *data,
			  int (*fn)(struct device *dev, void *data))
{
	return for_each_child(parent, data, fn, true);
}

static int found_child(struct device *dev, void *data)
{
	*(struct device **)data = get_device(dev);
	return 1;
}

struct device *device_find_any_child(struct device *parent)
{
	struct device *child = NULL;

	for_each_child(parent, &child, found_child, true);
	return child;
}

int device_for_each_child_reverse(struct device *parent, void *data,
				  int (*fn)(struct device *dev, void *data))
{
	return for_each_child(parent, data, fn, false);
}

struct dev_at {
	uintptr_t dev;
	int idx;
};

static int dev_at_cmp(const void *a, const void *b)
{
	uintptr_t x = ((const struct dev_at *)a)->dev, y = ((const struct dev_at *)b)->dev;

	return x < y ? -1 : x > y;
}

/* For every device of the registry, how many registered children it has
 * (each holds a reference: device_add() took it); by a sort of the
 * devices' addresses, not a scan of every device per device (a
 * 100,000-device teardown took minutes), and without reading a parent
 * that may be freed.  The caller frees the array; NULL: no memory. */
DPM_NO_COVERAGE
int *dpmk_children_counts(void)
{
	int n = dpmk_run.ndev;
	struct dev_at *at = calloc((size_t)n + 1, sizeof(*at));
	int *kids = calloc((size_t)n + 1, sizeof(*kids));
	int na = 0;

	if (!at || !kids) {
		free(at);
		free(kids);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (dpmk_run.dev[i])
			at[na++] = (struct dev_at){ (uintptr_t)&dpmk_run.dev[i]->dev, i };
	qsort(at, (size_t)na, sizeof(*at), dev_at_cmp);
	for (int i = 0; i < n; i++) {
		struct dpmk_dev *c = dpmk_run.dev[i];

		if (!c || !c->dev.parent || !c->added ||
		    __atomic_load_n(&c->dead, __ATOMIC_ACQUIRE))
			continue;
		struct dev_at key = { (uintptr_t)c->dev.parent, 0 };
		const struct dev_at *p = bsearch(&key, at, (size_t)na, sizeof(*at), dev_at_cmp);

		if (p && p->idx != i)
			kids[p->idx]++;
	}
	free(at);
	return kids;
}

/* References a device should hold at the end of a run (EV_REFS), with
 * its registered children's count; the harness's bookkeeping, out of
 * the fuzzer's coverage. */
DPM_NO_COVERAGE
int dpmk_refs_expected(struct dpmk_dev *d, int children)
{
	int want = (d->creator_ref ? 1 : 0) + children;

	/* Its node on the parent's child klist holds one until it leaves. */
	if (d->dev.parent && d->dev.p && klist_node_attached(&d->dev.p->knode_parent))
		want++;
	return want + dpmk_link_refs(&d->dev);
}

