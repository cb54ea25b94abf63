// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device links, after drivers/base/core.c (written for dpmfuzz).
 *
 * device_link_add() checks the flags as core.c does (STATELESS excludes
 * the managed-only flags, AUTOPROBE_CONSUMER excludes the AUTOREMOVE
 * ones, SYNC_STATE_ONLY alone), takes the supplier for runtime PM with
 * PM_RUNTIME|RPM_ACTIVE, refuses a supplier not on dpm_list and a link
 * that would close a dependency cycle (SYNC_STATE_ONLY links may, and
 * only while the consumer has no driver), merges with an existing link
 * for the same pair, sets the initial state from both ends' driver
 * states (a stateless link has none), and moves the consumer, its
 * children and its consumers to the end of dpm_list (main.c's
 * device_pm_move_last()), SYNC_STATE_ONLY links excepted.  A link holds
 * a reference to each end.
 *
 * Driver binding and unbinding move managed links through their states
 * (device_links_driver_bound(), device_links_busy(),
 * device_links_unbind_consumers(): a supplier's bound consumers are
 * unbound before it, device_links_driver_cleanup()).  device_del()
 * purges a device's links.
 *
 * A deleted link leaves both lists at once (readers standing on it keep
 * going) and is released by a worker task after every reader of the
 * links' SRCU has left (device_links_read_lock(), which main.c takes
 * around its walks of the link lists): only then are its references to
 * the two devices dropped and its memory freed.  The SRCU is two
 * counters and an epoch, as classic SRCU: a grace period flips the epoch
 * and waits for the old counter to drain.
 */
#include "rt.h"

struct dpmk_dlink {
	struct device_link	link;
	struct list_head	all;	/* every link not freed (abandon) */
	int			ordered;	/* last published (EV_LINK) */
	bool			deleted;
};

/*
 * EV_LINK: whether the PM core must order the link's ends (the kernel's
 * device links documentation: a link that exists, is not DORMANT and is
 * not SYNC_STATE_ONLY, which only serves sync_state()), published when
 * that changes, so the oracle judges the links that are there, not the
 * scenario's wishes (device_link_add() refuses some).
 */
static void link_publish(struct device_link *link)
{
	struct dpmk_dlink *l = container_of(link, struct dpmk_dlink, link);
	int ordered = !l->deleted && !device_link_test(link, DL_FLAG_SYNC_STATE_ONLY) &&
		      READ_ONCE(link->status) != DL_STATE_DORMANT;
	struct dpm_event ev = { EV_LINK, to_dpmk(link->consumer)->idx, -1, 0,
				to_dpmk(link->supplier)->idx, ordered, NULL };

	if (ordered == l->ordered)
		return;
	l->ordered = ordered;
	dpm_publish(&ev);
}

static void link_set_status(struct device_link *link, enum device_link_state st)
{
	/* DPMK_FIX_SSO_DORMANT (KV-1): a SYNC_STATE_ONLY link stays DORMANT,
	 * so main.c's waits pass over it as over any dormant link. */
	if (dpmk_run.s->fixes & DPMK_FIX_SSO_DORMANT && st != DL_STATE_NONE &&
	    device_link_test(link, DL_FLAG_SYNC_STATE_ONLY))
		st = DL_STATE_DORMANT;
	WRITE_ONCE(link->status, st);
	link_publish(link);
}

static struct mutex device_links_lock;
static DEFINE_SPINLOCK(all_links_lock);
static LIST_HEAD(all_links);
static bool *scenario_link_added;

static int srcu_epoch;
static int srcu_count[2];
static int srcu_waiting;
static struct completion srcu_gp;
static struct mutex srcu_sync_mutex;

void dpmk_links_reset(void)
{
	mutex_init(&device_links_lock);
	mutex_init(&srcu_sync_mutex);
	init_completion(&srcu_gp);
	srcu_epoch = 0;
	srcu_count[0] = srcu_count[1] = 0;
	srcu_waiting = 0;
	/* Links of an earlier run were all released, or freed by abandon. */
	INIT_LIST_HEAD(&all_links);
	free(scenario_link_added);
	scenario_link_added = calloc(dpmk_run.s->nlinks + 1, sizeof(bool));
	if (!scenario_link_added)
		dpmk_host_bug("links: out of memory");
}

void dpmk_links_abandon(void)
{
	while (!list_empty(&all_links)) {
		struct dpmk_dlink *l = list_first_entry(&all_links, struct dpmk_dlink, all);

		list_del(&l->all);
		free(l);
	}
	free(scenario_link_added);
	scenario_link_added = NULL;
}

/* ---- the links' SRCU ---- */

int device_links_read_lock(void)
{
	for (;;) {
		int idx = __atomic_load_n(&srcu_epoch, __ATOMIC_RELAXED);

		DPMK_QUIET_BEGIN();
		__atomic_fetch_add(&srcu_count[idx], 1, __ATOMIC_RELAXED);
		DPMK_QUIET_END();
		DPMK_COUNTED(&srcu_count[idx], 0);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&srcu_epoch, __ATOMIC_RELAXED) == idx)
			return idx;
		/* A grace period began meanwhile: enter the new epoch. */
		device_links_read_unlock(idx);
	}
}

void device_links_read_unlock(int idx)
{
	int left;

	/* Readers' counts commute (which one leaves last only decides who
	 * reads srcu_waiting). */
	DPMK_QUIET_BEGIN();
	left = __atomic_sub_fetch(&srcu_count[idx], 1, __ATOMIC_RELEASE);
	DPMK_QUIET_END();
	DPMK_COUNTED(&srcu_count[idx], 0);
	if (left)
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&srcu_waiting, __ATOMIC_RELAXED))
		(complete_all)(&srcu_gp);
}

int device_links_read_lock_held(void)
{
	return 1;
}

static void synchronize_links_srcu(void)
{
	int old;

	mutex_lock(&srcu_sync_mutex);
	old = __atomic_load_n(&srcu_epoch, __ATOMIC_RELAXED);
	__atomic_store_n(&srcu_epoch, old ^ 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (__atomic_load_n(&srcu_count[old], __ATOMIC_ACQUIRE)) {
		reinit_completion(&srcu_gp);
		__atomic_store_n(&srcu_waiting, 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&srcu_count[old], __ATOMIC_ACQUIRE))
			wait_for_completion(&srcu_gp);
		__atomic_store_n(&srcu_waiting, 0, __ATOMIC_RELAXED);
	}
	mutex_unlock(&srcu_sync_mutex);
}

static void device_links_write_lock(void)
{
	mutex_lock(&device_links_lock);
}

static void device_links_write_unlock(void)
{
	mutex_unlock(&device_links_lock);
}

/* ---- release ---- */

static void link_release_fn(void *arg)
{
	struct dpmk_dlink *l = arg;
	struct device_link *link = &l->link;

	synchronize_links_srcu();
	pm_runtime_release_supplier(link);
	__atomic_fetch_sub(&to_dpmk(link->consumer)->link_refs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&to_dpmk(link->supplier)->link_refs, 1, __ATOMIC_RELAXED);
	put_device(link->consumer);
	put_device(link->supplier);
	spin_lock(&all_links_lock);
	list_del(&l->all);
	spin_unlock(&all_links_lock);
	dpmk_fp_forget(l);
	free(l);
}

static void __device_link_del(struct device_link *link)
{
	struct dpmk_dlink *l = container_of(link, struct dpmk_dlink, link);
	char name[96];

	dev_dbg(link->consumer, "link to supplier %s deleted\n",
		dev_name(link->supplier));
	l->deleted = true;
	link_publish(link);
	pm_runtime_drop_link(link);
	list_del_rcu(&link->s_node);
	list_del_rcu(&link->c_node);
	dpmk_snprintf(name, sizeof(name), "devlink-release/%s--%s",
		      dev_name(link->supplier), dev_name(link->consumer));
	dpmk_worker_start(link_release_fn, l, name);
}

static void link_kref_put(struct device_link *link)
{
	if (!kref_put_return(&link->kref))
		__device_link_del(link);
}

static void device_link_drop_managed(struct device_link *link)
{
	link->flags &= ~DL_FLAG_MANAGED;
	link_set_status(link, DL_STATE_NONE);
	link_kref_put(link);
}

/* A link that exists only for the supplier's sync_state(): managed,
 * SYNC_STATE_ONLY, no other flag but the inferred and cycle marks.  7.x's
 * main.c does not wait across such a link (core.c's helper of that name). */
bool device_link_flag_is_sync_state_only(u32 flags)
{
	return (flags & ~(DL_FLAG_INFERRED | DL_FLAG_CYCLE)) ==
	       (DL_FLAG_SYNC_STATE_ONLY | DL_FLAG_MANAGED);
}

void device_link_del(struct device_link *link)
{
	device_links_write_lock();
	if (device_link_test(link, DL_FLAG_STATELESS))
		link_kref_put(link);
	else if (!device_is_registered(link->consumer))
		__device_link_del(link);
	else
		dev_warn(link->consumer, "a managed link is not dropped while its consumer is registered\n");
	device_links_write_unlock();
}

void device_links_purge(struct device *dev)
{
	struct device_link *link, *ln;

	device_links_write_lock();
	list_for_each_entry_safe_reverse(link, ln, &dev->links.suppliers, c_node)
		__device_link_del(link);
	list_for_each_entry_safe_reverse(link, ln, &dev->links.consumers, s_node)
		__device_link_del(link);
	device_links_write_unlock();
}

int dpmk_link_refs(struct device *dev)
{
	return __atomic_load_n(&to_dpmk(dev)->link_refs, __ATOMIC_RELAXED);
}

/* ---- adding ---- */

#define DL_MANAGED_LINK_FLAGS (DL_FLAG_AUTOREMOVE_CONSUMER | \
			       DL_FLAG_AUTOREMOVE_SUPPLIER | \
			       DL_FLAG_AUTOPROBE_CONSUMER | \
			       DL_FLAG_SYNC_STATE_ONLY | \
			       DL_FLAG_INFERRED | DL_FLAG_CYCLE)
#define DL_ADD_VALID_FLAGS (DL_MANAGED_LINK_FLAGS | DL_FLAG_STATELESS | \
			    DL_FLAG_PM_RUNTIME | DL_FLAG_RPM_ACTIVE)
#define DL_MARKER_FLAGS (DL_FLAG_INFERRED | DL_FLAG_CYCLE | DL_FLAG_MANAGED)

static bool flag_is_sync_state_only(u32 flags)
{
	return (flags & ~DL_MARKER_FLAGS) == DL_FLAG_SYNC_STATE_ONLY;
}

static bool device_is_ancestor(struct device *dev, struct device *target)
{
	while (target->parent) {
		target = target->parent;
		if (dev == target)
			return true;
	}
	return false;
}

/* Whether target depends on dev: a descendant, or a consumer (through
 * links that are not SYNC_STATE_ONLY), transitively. */
static int device_is_dependent(struct device *dev, void *target)
{
	struct device_link *link;
	int ret;

	if (dev == target || device_is_ancestor(dev, target))
		return 1;
	ret = device_for_each_child(dev, target, device_is_dependent);
	if (ret)
		return ret;
	list_for_each_entry(link, &dev->links.consumers, s_node) {
		if (flag_is_sync_state_only(link->flags))
			continue;
		if (link->consumer == target)
			return 1;
		ret = device_is_dependent(link->consumer, target);
		if (ret)
			break;
	}
	return ret;
}

static void device_link_init_status(struct device_link *link,
				    struct device *consumer,
				    struct device *supplier)
{
	enum device_link_state st = DL_STATE_DORMANT;

	switch (supplier->links.status) {
	case DL_DEV_PROBING:
		if (consumer->links.status == DL_DEV_PROBING)
			st = DL_STATE_CONSUMER_PROBE;
		break;
	case DL_DEV_DRIVER_BOUND:
		if (consumer->links.status == DL_DEV_PROBING)
			st = DL_STATE_CONSUMER_PROBE;
		else if (consumer->links.status == DL_DEV_DRIVER_BOUND)
			st = DL_STATE_ACTIVE;
		else
			st = DL_STATE_AVAILABLE;
		break;
	case DL_DEV_UNBINDING:
		st = DL_STATE_SUPPLIER_UNBIND;
		break;
	default:
		break;
	}
	link_set_status(link, st);
}

/* The consumer after its supplier on dpm_list, and everything after it
 * that depends on it. */
static int device_reorder_to_tail(struct device *dev, void *unused)
{
	struct device_link *link;

	if (device_pm_initialized(dev))
		device_pm_move_last(dev);
	device_for_each_child(dev, NULL, device_reorder_to_tail);
	list_for_each_entry(link, &dev->links.consumers, s_node) {
		if (flag_is_sync_state_only(link->flags))
			continue;
		device_reorder_to_tail(link->consumer, NULL);
	}
	return 0;
}

/* An existing link for the pair takes the new flags, as core.c merges
 * them; true if the consumer must be moved to the end of dpm_list. */
static bool link_merge(struct device_link *link, struct device *consumer,
		       u32 flags, bool *done)
{
	*done = true;
	if (flags & DL_FLAG_PM_RUNTIME) {
		if (!device_link_test(link, DL_FLAG_PM_RUNTIME)) {
			pm_runtime_new_link(consumer);
			link->flags |= DL_FLAG_PM_RUNTIME;
		}
		if (flags & DL_FLAG_RPM_ACTIVE)
			atomic_inc(&link->rpm_active);
	}
	if (flags & DL_FLAG_STATELESS) {
		kref_get_return(&link->kref);
		if (device_link_test(link, DL_FLAG_SYNC_STATE_ONLY) &&
		    !device_link_test(link, DL_FLAG_STATELESS)) {
			link->flags |= DL_FLAG_STATELESS;
			return true;
		}
		link->flags |= DL_FLAG_STATELESS;
		return false;
	}
	if (flags & DL_FLAG_AUTOREMOVE_SUPPLIER) {
		if (device_link_test(link, DL_FLAG_AUTOREMOVE_CONSUMER)) {
			link->flags &= ~DL_FLAG_AUTOREMOVE_CONSUMER;
			link->flags |= DL_FLAG_AUTOREMOVE_SUPPLIER;
		}
	} else if (!(flags & DL_FLAG_AUTOREMOVE_CONSUMER)) {
		link->flags &= ~(DL_FLAG_AUTOREMOVE_CONSUMER |
				 DL_FLAG_AUTOREMOVE_SUPPLIER);
	}
	if (!device_link_test(link, DL_FLAG_MANAGED)) {
		kref_get_return(&link->kref);
		link->flags |= DL_FLAG_MANAGED;
		device_link_init_status(link, consumer, link->supplier);
	}
	if (device_link_test(link, DL_FLAG_SYNC_STATE_ONLY) &&
	    !(flags & DL_FLAG_SYNC_STATE_ONLY)) {
		link->flags &= ~DL_FLAG_SYNC_STATE_ONLY;
		return true;
	}
	return false;
}

struct device_link *device_link_add(struct device *consumer,
				    struct device *supplier, u32 flags)
{
	struct device_link *link = NULL;
	struct dpmk_dlink *l;
	bool done;

	if (!consumer || !supplier || consumer == supplier ||
	    flags & ~DL_ADD_VALID_FLAGS ||
	    (flags & DL_FLAG_STATELESS && flags & DL_MANAGED_LINK_FLAGS) ||
	    (flags & DL_FLAG_AUTOPROBE_CONSUMER &&
	     flags & (DL_FLAG_AUTOREMOVE_CONSUMER | DL_FLAG_AUTOREMOVE_SUPPLIER)))
		return NULL;
	if (flags & DL_FLAG_PM_RUNTIME && flags & DL_FLAG_RPM_ACTIVE) {
		if (pm_runtime_get_sync(supplier) < 0) {
			pm_runtime_put_noidle(supplier);
			return NULL;
		}
	}
	if (!(flags & DL_FLAG_STATELESS))
		flags |= DL_FLAG_MANAGED;
	if (flags & DL_FLAG_SYNC_STATE_ONLY && !flag_is_sync_state_only(flags))
		return NULL;

	device_links_write_lock();
	device_pm_lock();
	/* A supplier not on dpm_list, or a cycle (SYNC_STATE_ONLY links
	 * only affect sync_state(), so they may close one). */
	if (!device_pm_initialized(supplier) ||
	    (!(flags & DL_FLAG_SYNC_STATE_ONLY) &&
	     device_is_dependent(consumer, supplier)))
		goto out;
	/* SYNC_STATE_ONLY links only matter before the consumer probes. */
	if (flags & DL_FLAG_SYNC_STATE_ONLY &&
	    consumer->links.status != DL_DEV_NO_DRIVER &&
	    consumer->links.status != DL_DEV_PROBING)
		goto out;
	if (flags & DL_FLAG_AUTOREMOVE_SUPPLIER)
		flags &= ~DL_FLAG_AUTOREMOVE_CONSUMER;

	list_for_each_entry(link, &supplier->links.consumers, s_node) {
		if (link->consumer != consumer)
			continue;
		bool reorder = link_merge(link, consumer, flags, &done);

		link_publish(link);
		if (reorder)
			goto reorder;
		goto out;
	}

	l = calloc(1, sizeof(*l));
	if (!l) {
		link = NULL;
		goto out;
	}
	/* The search keys a link by its ends (footprint.c). */
	dpmk_fp_note_obj(l, sizeof(*l), to_dpmk(supplier)->idx, to_dpmk(consumer)->idx);
	link = &l->link;
	atomic_set(&link->rpm_active, 1);
	link->supplier = get_device(supplier);
	link->consumer = get_device(consumer);
	__atomic_fetch_add(&to_dpmk(supplier)->link_refs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&to_dpmk(consumer)->link_refs, 1, __ATOMIC_RELAXED);
	INIT_LIST_HEAD(&link->s_node);
	INIT_LIST_HEAD(&link->c_node);
	link->flags = flags;
	kref_init(&link->kref);
	spin_lock(&all_links_lock);
	list_add_tail(&l->all, &all_links);
	spin_unlock(&all_links_lock);
	if (flags & DL_FLAG_PM_RUNTIME) {
		if (flags & DL_FLAG_RPM_ACTIVE)
			atomic_inc(&link->rpm_active);
		pm_runtime_new_link(consumer);
	}
	if (flags & DL_FLAG_STATELESS)
		link_set_status(link, DL_STATE_NONE);
	else
		device_link_init_status(link, consumer, supplier);
	if (link->status == DL_STATE_CONSUMER_PROBE && flags & DL_FLAG_PM_RUNTIME)
		pm_runtime_resume(supplier);
	list_add_tail_rcu(&link->s_node, &supplier->links.consumers);
	list_add_tail_rcu(&link->c_node, &consumer->links.suppliers);
	link_publish(link);
	if (flags & DL_FLAG_SYNC_STATE_ONLY) {
		dev_dbg(consumer, "sync-state-only link from supplier %s\n",
			dev_name(supplier));
		goto out;
	}
reorder:
	device_reorder_to_tail(consumer, NULL);
	dev_dbg(consumer, "link from supplier %s, moved to the end of dpm_list\n", dev_name(supplier));
out:
	device_pm_unlock();
	device_links_write_unlock();
	if (flags & DL_FLAG_PM_RUNTIME && flags & DL_FLAG_RPM_ACTIVE && !link)
		pm_runtime_put(supplier);
	return link;
}

/* The scenario's links whose both ends are registered, not added yet;
 * idx >= 0: only those with device idx as an end. */
void dpmk_links_add_for(int idx)
{
	const struct dpmk_scenario *s = dpmk_run.s;

	for (int i = 0; i < s->nlinks; i++) {
		const struct dpmk_link *sl = &s->link[i];
		struct dpmk_dev *sup, *con;
		struct device_link *link;
		u32 flags = 0;

		if (scenario_link_added[i] ||
		    (idx >= 0 && sl->supplier != idx && sl->consumer != idx))
			continue;
		sup = dpmk_dev_get(sl->supplier);
		con = dpmk_dev_get(sl->consumer);
		if (sup && con && sup->added && con->added &&
		    !__atomic_load_n(&sup->dead, __ATOMIC_ACQUIRE) &&
		    !__atomic_load_n(&con->dead, __ATOMIC_ACQUIRE) &&
		    !sup->probe_deferred && !con->probe_deferred) {
			scenario_link_added[i] = true;
			if (sl->flags & DPMK_LINK_STATELESS)
				flags |= DL_FLAG_STATELESS;
			if (sl->flags & DPMK_LINK_AUTOREMOVE_CONSUMER)
				flags |= DL_FLAG_AUTOREMOVE_CONSUMER;
			if (sl->flags & DPMK_LINK_PM_RUNTIME)
				flags |= DL_FLAG_PM_RUNTIME;
			if (sl->flags & DPMK_LINK_RPM_ACTIVE)
				flags |= DL_FLAG_RPM_ACTIVE;
			if (sl->flags & DPMK_LINK_AUTOREMOVE_SUPPLIER)
				flags |= DL_FLAG_AUTOREMOVE_SUPPLIER;
			if (sl->flags & DPMK_LINK_AUTOPROBE_CONSUMER)
				flags |= DL_FLAG_AUTOPROBE_CONSUMER;
			if (sl->flags & DPMK_LINK_SYNC_STATE_ONLY)
				flags |= DL_FLAG_SYNC_STATE_ONLY;
			if (flags & DL_FLAG_SYNC_STATE_ONLY &&
			    LINUX_VERSION_CODE < 0x050700) {
				/* SYNC_STATE_ONLY links came with 5.7
				 * (fw_devlink's proxies for a parent's child
				 * nodes): a tree from before has none to make,
				 * and its main.c none to wait for. */
				dpmk_log("no sync-state-only link '%s' -> '%s': none before 5.7",
					 sup->name, con->name);
			} else if (!(link = device_link_add(&con->dev, &sup->dev, flags))) {
				dpmk_log("device_link_add('%s' -> '%s', %#x) refused",
					 sup->name, con->name, flags);
			} else if (sl->flags & DPMK_LINK_DORMANT &&
				   device_link_test(link, DL_FLAG_MANAGED)) {
				/* As if the supplier's driver had not probed
				 * when the link was made. */
				link_set_status(link, DL_STATE_DORMANT);
			}
		}
		if (sup)
			put_device(&sup->dev);
		if (con)
			put_device(&con->dev);
	}
}

/* ---- driver binding and unbinding ---- */

void device_links_driver_bound(struct device *dev)
{
	struct device_link *link, *ln;

	device_links_write_lock();
	list_for_each_entry(link, &dev->links.consumers, s_node) {
		if (!device_link_test(link, DL_FLAG_MANAGED))
			continue;
		if (link->status == DL_STATE_CONSUMER_PROBE ||
		    link->status == DL_STATE_ACTIVE)
			continue;
		link_set_status(link, DL_STATE_AVAILABLE);
	}
	list_for_each_entry_safe(link, ln, &dev->links.suppliers, c_node) {
		if (!device_link_test(link, DL_FLAG_MANAGED))
			continue;
		if (device_link_test(link, DL_FLAG_SYNC_STATE_ONLY))
			device_link_drop_managed(link);
		else
			link_set_status(link, DL_STATE_ACTIVE);
	}
	dev->links.status = DL_DEV_DRIVER_BOUND;
	device_links_write_unlock();
}

/* Whether bound consumers keep the driver from unbinding; marks the
 * others' links as unbinding. */
bool device_links_busy(struct device *dev)
{
	struct device_link *link;
	bool ret = false;

	device_links_write_lock();
	list_for_each_entry(link, &dev->links.consumers, s_node) {
		if (!device_link_test(link, DL_FLAG_MANAGED))
			continue;
		if (link->status == DL_STATE_CONSUMER_PROBE ||
		    link->status == DL_STATE_ACTIVE) {
			ret = true;
			break;
		}
		link_set_status(link, DL_STATE_SUPPLIER_UNBIND);
	}
	dev->links.status = DL_DEV_UNBINDING;
	device_links_write_unlock();
	return ret;
}

void device_links_unbind_consumers(struct device *dev)
{
	struct device_link *link;

start:
	device_links_write_lock();
	list_for_each_entry(link, &dev->links.consumers, s_node) {
		enum device_link_state status;

		if (!device_link_test(link, DL_FLAG_MANAGED) ||
		    device_link_test(link, DL_FLAG_SYNC_STATE_ONLY))
			continue;
		status = link->status;
		link_set_status(link, DL_STATE_SUPPLIER_UNBIND);
		if (status == DL_STATE_ACTIVE) {
			struct device *consumer = get_device(link->consumer);

			device_links_write_unlock();
			dev_dbg(consumer, "unbinding: its supplier %s goes\n",
				dev_name(dev));
			device_release_driver(consumer);
			put_device(consumer);
			goto start;
		}
	}
	device_links_write_unlock();
}

static void device_links_no_driver_locked(struct device *dev)
{
	struct device_link *link, *ln;

	list_for_each_entry_safe_reverse(link, ln, &dev->links.suppliers, c_node) {
		if (!device_link_test(link, DL_FLAG_MANAGED))
			continue;
		if (device_link_test(link, DL_FLAG_AUTOREMOVE_CONSUMER)) {
			device_link_drop_managed(link);
			continue;
		}
		if (link->status != DL_STATE_CONSUMER_PROBE &&
		    link->status != DL_STATE_ACTIVE)
			continue;
		if (link->supplier->links.status == DL_DEV_DRIVER_BOUND)
			link_set_status(link, DL_STATE_AVAILABLE);
		else
			link_set_status(link, DL_STATE_DORMANT);
	}
	dev->links.status = DL_DEV_NO_DRIVER;
}

void device_links_driver_cleanup(struct device *dev)
{
	struct device_link *link, *ln;

	device_links_write_lock();
	list_for_each_entry_safe(link, ln, &dev->links.consumers, s_node) {
		if (!device_link_test(link, DL_FLAG_MANAGED))
			continue;
		if (link->status == DL_STATE_SUPPLIER_UNBIND &&
		    device_link_test(link, DL_FLAG_AUTOREMOVE_SUPPLIER))
			device_link_drop_managed(link);
		link_set_status(link, DL_STATE_DORMANT);
	}
	list_del_init(&dev->links.defer_sync);
	device_links_no_driver_locked(dev);
	device_links_write_unlock();
}

const char *dpmk_links_describe(const void *obj)
{
	if (obj == &device_links_lock)
		return "the device links' write lock (device_links_lock)";
	if (obj == &srcu_sync_mutex)
		return "the device links' SRCU grace-period lock";
	if (obj == &srcu_gp)
		return "the end of an SRCU grace period of the device links (a reader has not left)";
	return NULL;
}
