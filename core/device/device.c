// SPDX-License-Identifier: GPL-2.0-only
/* The driver core, as far as the PM core can tell. */
#include "device.h"
#include "../util/nocov.h"
#include "../util/quarantine.h"
#include "../util/str.h"
#include "../util/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct model_ops *dpm_model;
int pm_async_enabled = 1;
int pm_trace_enabled;

struct completion device_noirq_over;

void device_registry_reset(int n);

/* Where the window without hotplug opens and closes, for this model. */
static enum pm_phase quiet_from(void)
{
	return dpm_model->late_early_quiet ? PH_SUSPEND_LATE : PH_SUSPEND_NOIRQ;
}

static enum pm_phase quiet_until(void)
{
	return dpm_model->late_early_quiet ? PH_RESUME_EARLY : PH_RESUME_NOIRQ;
}

void pm_phase_begin(enum pm_phase p)
{
	dpm_emit(EV_PHASE_BEGIN, -1, p, 0);
	if (p == quiet_from())
		reinit_completion(&device_noirq_over);
}

void pm_phase_end(enum pm_phase p)
{
	dpm_emit(EV_PHASE_END, -1, p, 0);
	if (p == quiet_until())
		complete_all(&device_noirq_over);
}

void device_layer_reset(int n)
{
	device_registry_reset(n);
	init_completion(&device_noirq_over);
	device_noirq_over.done = UINT_MAX;	/* open */
}

static struct device **registry;
static int nregistry;
static struct eng_lock registry_lock = ENG_LOCK_INIT;

struct device *device_get_by_id(int id)
{
	struct device *dev = NULL;

	if (id < 0 || id >= nregistry)
		return NULL;
	eng_lock(&registry_lock);
	KAPI_ACCESS_IDX(&registry, id, KACC_READ);
	struct device *d = __atomic_load_n(&registry[id], __ATOMIC_ACQUIRE);

	if (d) {
		/* kref_get_unless_zero(): a device on its way out stays so. */
		int c = __atomic_load_n(&d->refcount, __ATOMIC_RELAXED);

		while (c > 0 && !__atomic_compare_exchange_n(&d->refcount, &c, c + 1,
							   false, __ATOMIC_RELAXED,
							   __ATOMIC_RELAXED))
			;
		KAPI_ACCESS(&d->refcount, c > 0 ? KACC_ADD : KACC_READ);
		if (c > 0)
			dev = d;
	}
	eng_unlock(&registry_lock);
	return dev;
}

void device_registry_reset(int n)
{
	free(registry);
	registry = dpm_xcalloc((size_t)n, sizeof(*registry));
	nregistry = n;
}

struct device *device_by_id(int id)
{
	return id >= 0 && id < nregistry ?
	       __atomic_load_n(&registry[id], __ATOMIC_ACQUIRE) : NULL;
}

int device_registry_size(void)
{
	return nregistry;
}

/* Freed devices, kept until the run ends (core/util/quarantine.h). */
static struct quarantine quarantine;
static bool quarantining;

static size_t device_size(void)
{
	return sizeof(struct device) + dpm_model->dev_state_size;
}

/* The suite's own bookkeeping: out of the fuzzer's coverage. */
DPM_NO_COVERAGE
static void quarantine_check(const void *obj, const char *op)
{
	int id;

	if (quarantine_find(&quarantine, obj, &id)) {
		struct dpm_event ev = { EV_USE_AFTER_FREE, id, -1, 0,
					0, 0, op };

		dpm_publish(&ev);
	}
}

void device_quarantine(bool on)
{
	if (on && !quarantining) {
		quarantine_init(&quarantine, device_size(), nregistry);
	} else if (!on && quarantining) {
		for (int i = 0; i < quarantine.n; i++)
			free(quarantine_at(&quarantine, i));
		quarantine_release(&quarantine);
	}
	quarantining = on;
	__atomic_store_n(&kapi_obj_check, on ? quarantine_check : NULL,
			 __ATOMIC_RELEASE);
}

void device_registry_free_all(void)
{
	device_links_reset();
	for (int i = 0; i < nregistry; i++) {
		free(registry[i]);
		registry[i] = NULL;
	}
	device_quarantine(false);
}

static const char *device_async_label(void *data)
{
	return dev_name(data);
}

struct device *device_create_model(int id, const char *name)
{
	struct device *dev = dpm_xcalloc(1, device_size());

	dev->id = id;
	dpm_strlcpy(dev->name, name, sizeof(dev->name));
	dev->beh.remove_phase = -1;
	__atomic_store_n(&registry[id], dev, __ATOMIC_RELEASE);
	async_label = device_async_label;
	return dev;
}

void device_initialize(struct device *dev)
{
	INIT_LIST_HEAD(&dev->klist_children);
	pthread_mutex_init(&dev->klist_lock.m, NULL);
	INIT_LIST_HEAD(&dev->knode_parent.n);
	dev->refcount = 1;
	dev->creator_ref = true;
	init_completion(&dev->removed);
	sema_init(&dev->sem, 1);
	dpm_model->device_pm_init(dev);
}

struct device *get_device(struct device *dev)
{
	if (dev) {
		KAPI_CHECK(dev, "get_device");
		KAPI_ACCESS(&dev->refcount, KACC_ADD);
		/* A kref: atomic, as in the kernel. */
		if (__atomic_fetch_add(&dev->refcount, 1, __ATOMIC_RELAXED) <= 0)
			kapi_bug("get_device on a dead device");
	}
	return dev;
}

static void device_release(struct device *dev)
{
	pr_debug("device '%s' freed: last reference dropped", dev_name(dev));
	dpm_emit(EV_FREED, dev->id, -1, 0);
	eng_lock(&registry_lock);
	KAPI_ACCESS_IDX(&registry, dev->id, KACC_WRITE);
	__atomic_store_n(&registry[dev->id], NULL, __ATOMIC_RELEASE);
	eng_unlock(&registry_lock);
	if (!quarantining) {
		free(dev);
		return;
	}
	dev->freed = true;
	quarantine_add(&quarantine, dev->id, dev);
}

void put_device(struct device *dev)
{
	if (!dev)
		return;
	eng_sched_point();
	KAPI_CHECK(dev, "put_device");
	bool last = __atomic_sub_fetch(&dev->refcount, 1, __ATOMIC_ACQ_REL) == 0;

	KAPI_ACCESS(&dev->refcount, last ? KACC_WRITE : KACC_ADD);
	if (last)
		device_release(dev);
}

/* ---- device links ---- */

static struct device_link *links;
static int nlinks;
/* Link indices by device id, suppliers then consumers (CSR). */
static int *sup_start, *sup_idx, *con_start, *con_idx;
static int nlink_ids;
static struct eng_lock links_lock = ENG_LOCK_INIT;
static int srcu_readers;
static int links_unreleased;	/* purged, references not dropped yet */

void device_links_reset(void)
{
	free(links);
	free(sup_start);
	free(sup_idx);
	free(con_start);
	free(con_idx);
	links = NULL;
	sup_start = sup_idx = con_start = con_idx = NULL;
	nlinks = nlink_ids = 0;
	srcu_readers = 0;
	links_unreleased = 0;
}

static int *csr(int n, const int *key, int nids, int **start)
{
	int *st = dpm_xcalloc((size_t)nids + 1, sizeof(int));
	int *idx = dpm_xcalloc((size_t)n + 1, sizeof(int));
	int *fill = dpm_xcalloc((size_t)nids + 1, sizeof(int));

	for (int i = 0; i < n; i++)
		st[key[i] + 1]++;
	for (int i = 0; i < nids; i++)
		st[i + 1] += st[i];
	for (int i = 0; i < n; i++)
		idx[st[key[i]] + fill[key[i]]++] = i;
	free(fill);
	*start = st;
	return idx;
}

void device_links_setup(int n, const int *sup, const int *con)
{
	device_links_reset();
	nlink_ids = nregistry;
	links = dpm_xcalloc((size_t)n + 1, sizeof(*links));
	for (int i = 0; i < n; i++) {
		links[i].supplier = get_device(device_by_id(sup[i]));
		links[i].consumer = get_device(device_by_id(con[i]));
		pr_debug("device link: '%s' supplies '%s'",
			 dev_name(links[i].supplier), dev_name(links[i].consumer));
	}
	nlinks = n;
	sup_idx = csr(n, con, nlink_ids, &sup_start);
	con_idx = csr(n, sup, nlink_ids, &con_start);
}

static struct device_link *nth_link(int *start, int *idx, int id, int i)
{
	if (!start || id < 0 || id >= nlink_ids ||
	    i >= start[id + 1] - start[id])
		return NULL;
	return &links[idx[start[id] + i]];
}

struct device_link *device_supplier_link(struct device *dev, int i)
{
	return nth_link(sup_start, sup_idx, dev->id, i);
}

struct device_link *device_consumer_link(struct device *dev, int i)
{
	return nth_link(con_start, con_idx, dev->id, i);
}

bool device_link_dead(struct device_link *l)
{
	KAPI_ACCESS_IDX(&links, l - links, KACC_READ);
	return __atomic_load_n(&l->dead, __ATOMIC_ACQUIRE);
}

int device_link_refs(struct device *dev)
{
	int n = 0;

	for (int i = 0; i < nlinks; i++)
		if (!links[i].released &&
		    (links[i].supplier == dev || links[i].consumer == dev))
			n++;
	return n;
}

/* Drop the references of purged links nobody can be reading. */
static void links_release_unread(void)
{
	for (;;) {
		struct device_link *l = NULL;

		eng_lock(&links_lock);
		/* Only with purged links left does the count of readers matter. */
		KAPI_ACCESS(&links_unreleased,
			    links_unreleased ? KACC_WRITE : KACC_READ);
		if (links_unreleased)
			KAPI_ACCESS(&srcu_readers, KACC_READ);
		if (!srcu_readers && links_unreleased)
			for (int i = 0; i < nlinks && !l; i++)
				if (links[i].dead && !links[i].released)
					l = &links[i];
		if (l) {
			l->released = true;
			links_unreleased--;
		}
		eng_unlock(&links_lock);
		if (!l)
			return;
		put_device(l->supplier);
		put_device(l->consumer);
	}
}

int device_links_read_lock(void)
{
	eng_lock(&links_lock);
	KAPI_ACCESS(&srcu_readers, KACC_ADD);
	srcu_readers++;
	eng_unlock(&links_lock);
	return 0;
}

void device_links_read_unlock(int idx)
{
	(void)idx;
	eng_lock(&links_lock);
	KAPI_ACCESS(&srcu_readers, KACC_ADD);
	srcu_readers--;
	eng_unlock(&links_lock);
	links_release_unread();
}

static void device_links_purge(struct device *dev)
{
	if (!nlinks)
		return;
	eng_lock(&links_lock);
	KAPI_ACCESS(&links_unreleased, KACC_WRITE);
	for (int i = 0; i < nlinks; i++)
		if (!links[i].dead &&
		    (links[i].supplier == dev || links[i].consumer == dev)) {
			KAPI_ACCESS_IDX(&links, i, KACC_WRITE);
			__atomic_store_n(&links[i].dead, true, __ATOMIC_RELEASE);
			links_unreleased++;
		}
	eng_unlock(&links_lock);
	links_release_unread();
}

void device_add(struct device *dev)
{
	struct device *parent = get_device(dev->parent);

	if (parent) {
		eng_lock(&parent->klist_lock);
		KAPI_ACCESS(&parent->klist_children, KACC_WRITE);
		list_add_tail(&dev->knode_parent.n, &parent->klist_children);
		parent->registered_children++;
		eng_unlock(&parent->klist_lock);
	}
	dev->driver = true;
	dpm_model->device_pm_add(dev);
}

void device_del(struct device *dev)
{
	struct device *parent = dev->parent;

	/* Unbind the driver under the device lock, outside the noirq window:
	 * from here on no driver callback may run, and the oracle exempts
	 * the device. */
	for (;;) {
		wait_for_completion(&device_noirq_over);
		down(&dev->sem);
		/* Checked and done under the window's own lock, so the PM
		 * thread opening the window next is ordered after it. */
		eng_lock(&device_noirq_over.wait.lk);
		KAPI_ACCESS(&device_noirq_over, KACC_READ);
		if (device_noirq_over.done) {
			dev->driver = false;
			dpm_emit(EV_GONE, dev->id, -1, 0);
			eng_unlock(&device_noirq_over.wait.lk);
			break;
		}
		eng_unlock(&device_noirq_over.wait.lk);
		up(&dev->sem);
	}
	up(&dev->sem);
	dpm_model->device_pm_remove(dev);
	device_links_purge(dev);
	if (parent) {
		eng_lock(&parent->klist_lock);
		KAPI_ACCESS(&parent->klist_children, KACC_WRITE);
		if (dev->knode_parent.refs)
			dev->knode_parent.dead = true;
		else
			list_del_init(&dev->knode_parent.n);
		parent->registered_children--;
		eng_unlock(&parent->klist_lock);
	}
	complete_all(&dev->removed);
	put_device(parent);
}

void device_unregister(struct device *dev)
{
	device_del(dev);
	__atomic_store_n(&dev->creator_ref, false, __ATOMIC_RELAXED);
	put_device(dev);
}

static bool claim_removal(struct device *dev)
{
	KAPI_ACCESS(&dev->removing, KACC_WRITE);
	return !__atomic_exchange_n(&dev->removing, true, __ATOMIC_ACQ_REL);
}

/* The last registered child of dev still linked, with a reference. */
static struct device *last_live_child(struct device *dev)
{
	struct device *child = NULL;
	struct klist_node *k;

	eng_lock(&dev->klist_lock);
	KAPI_ACCESS(&dev->klist_children, KACC_READ);
	list_for_each_entry_reverse(k, &dev->klist_children, n) {
		if (!k->dead) {
			child = container_of(k, struct device, knode_parent);
			break;
		}
	}
	if (child)
		get_device(child);
	eng_unlock(&dev->klist_lock);
	return child;
}

/* Levels of a subtree removal kept on the task's own stack. */
#define UNREG_INLINE 64

bool device_unregister_subtree(struct device *root)
{
	/* Devices claimed and not unregistered yet, each below the one
	 * before: on the task's stack up to UNREG_INLINE levels, then on
	 * the heap, so a chain of any depth is fine.  A run a violation
	 * stops abandons the task where it is: memory it allocated would
	 * leak (LeakSanitizer made dpmrepro fail on a campaign's crash
	 * file where a hotplug task was removing a subtree). */
	struct device *inline_stack[UNREG_INLINE];
	struct device **stack = inline_stack;
	int depth = 0;

	if (!claim_removal(root))
		return false;
	stack[depth++] = root;
	/* Children first, the last registered first, as bus code tears down
	 * a hierarchy (usb_disconnect, for one). */
	while (depth) {
		struct device *dev = stack[depth - 1];
		struct device *child = last_live_child(dev);

		if (child && claim_removal(child)) {
			if (depth % UNREG_INLINE == 0 && depth) {
				struct device **grown = dpm_xrealloc(
					stack == inline_stack ? NULL : stack,
					(size_t)depth + UNREG_INLINE, sizeof(*stack));

				if (stack == inline_stack)
					memcpy(grown, inline_stack, sizeof(inline_stack));
				stack = grown;
			}
			stack[depth++] = child;
			continue;
		}
		if (child) {
			/* Somebody else is removing it: wait until it is
			 * done, as the bus's own locking would make us. */
			wait_for_completion(&child->removed);
			put_device(child);
			continue;
		}
		depth--;
		device_unregister(dev);
		if (dev != root)
			put_device(dev);	/* the reference taken above */
	}
	if (stack != inline_stack)
		free(stack);
	return true;
}

static struct device *knode_dev(struct klist_node *k)
{
	return container_of(k, struct device, knode_parent);
}

/* The first live node after pos, pinned; NULL at the end. */
static struct klist_node *klist_next_live(struct device *dev,
					  struct list_head *pos)
{
	struct klist_node *k = NULL;

	eng_lock(&dev->klist_lock);
	KAPI_ACCESS(&dev->klist_children, KACC_WRITE);
	for (pos = pos->next; pos != &dev->klist_children; pos = pos->next) {
		struct klist_node *c = container_of(pos, struct klist_node, n);

		if (!c->dead) {
			k = c;
			k->refs++;
			/* Under the lock, as the kernel's node holds its
			 * device: once unlocked, device_del() may kill the
			 * node and drop the last reference. */
			get_device(knode_dev(k));
			break;
		}
	}
	eng_unlock(&dev->klist_lock);
	return k;
}

static void klist_unpin(struct klist_node *k)
{
	struct device *d = knode_dev(k);

	eng_lock(&d->parent->klist_lock);
	KAPI_ACCESS(&d->parent->klist_children, KACC_WRITE);
	if (--k->refs == 0 && k->dead)
		list_del_init(&k->n);
	eng_unlock(&d->parent->klist_lock);
	put_device(d);
}

/*
 * Like the kernel's klist walk: the node under the iterator holds a
 * reference to its device and stays linked even if the device is deleted
 * meanwhile; deleted nodes are skipped.
 */
int device_for_each_child(struct device *dev, void *data,
			  int (*fn)(struct device *dev, void *data))
{
	struct klist_node *cur = NULL;
	int ret = 0;

	for (;;) {
		struct klist_node *next =
			klist_next_live(dev, cur ? &cur->n : &dev->klist_children);

		if (cur)
			klist_unpin(cur);
		cur = next;
		if (!cur)
			break;
		ret = fn(knode_dev(cur), data);
		if (ret) {
			klist_unpin(cur);
			break;
		}
	}
	return ret;
}

int dpm_run_callback(struct device *dev, enum pm_phase phase)
{
	/* The bus finds no driver to call once the device is unbound. */
	if (!dev->driver)
		return 0;
	eng_sched_point();
	dpm_emit(EV_CB_START, dev->id, phase, 0);
	if (dev->beh.dur_us[phase])
		dpm_eng->delay((uint64_t)dev->beh.dur_us[phase] * NSEC_PER_USEC);
	if (dev->beh.remove_phase == (int)phase) {
		struct device *victim = device_get_by_id(dev->beh.remove_target);

		dev->beh.remove_phase = -1;
		if (victim) {
			pr_info("%s: callback unregisters '%s'", dev_name(dev),
				dev_name(victim));
			device_unregister_subtree(victim);
			put_device(victim);
		}
	}
	int error = dev->beh.err[phase];
	int t = dev->beh.pm_wait_for - 1;

	if (dpm_model->device_pm_wait_for_dev &&
	    pm_wait_applies(dev->id, t, phase)) {
		/* The driver knows the other device and holds a reference. */
		struct device *other = device_get_by_id(t);

		if (other) {
			int e = dpm_model->device_pm_wait_for_dev(dev, other);

			put_device(other);
			if (e && !error)
				error = e;
		}
	}
	dpm_emit(EV_CB_END, dev->id, phase, error);
	eng_sched_point();
	return error;
}
