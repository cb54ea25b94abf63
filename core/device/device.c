// SPDX-License-Identifier: GPL-2.0-only
/* The driver core, as far as the PM core can tell. */
#include "device.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"
#include "../variants/variant.h"

int pm_async_enabled = 1;
int pm_trace_enabled;

static const char *const phase_names[NR_PHASES] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

const char *pm_phase_name(enum pm_phase p)
{
	return (unsigned)p < NR_PHASES ? phase_names[p] : "?";
}

bool pm_phase_is_suspend(enum pm_phase p)
{
	return p <= PH_SUSPEND_NOIRQ;
}

struct completion device_noirq_over;

static void noirq_hook(bool open)
{
	if (open)
		reinit_completion(&device_noirq_over);
	else
		complete_all(&device_noirq_over);
}

void device_noirq_reset(void)
{
	init_completion(&device_noirq_over);
	device_noirq_over.done = UINT_MAX;	/* open */
	check_noirq_hook = noirq_hook;
}

static struct device **registry;
static int nregistry;

void device_registry_reset(int n)
{
	free(registry);
	registry = calloc(n ? n : 1, sizeof(*registry));
	if (!registry)
		kapi_bug("registry: out of memory");
	nregistry = n;
}

struct device *device_by_id(int id)
{
	return id >= 0 && id < nregistry ? registry[id] : NULL;
}

int device_registry_size(void)
{
	return nregistry;
}

static struct device **quarantine;
static int nquarantine, quarantine_cap;
static bool quarantining;

static void quarantine_check(const void *obj, const char *op)
{
	const char *o = obj;

	for (int i = 0; i < nquarantine; i++) {
		const char *d = (const char *)quarantine[i];

		if (o >= d && o < d + sizeof(struct device))
			check_fail(INV_REMOVED,
				   "%s() on memory of '%s', freed when its last reference was dropped",
				   op, quarantine[i]->name);
	}
}

void device_quarantine(bool on)
{
	if (!on) {
		for (int i = 0; i < nquarantine; i++)
			free(quarantine[i]);
		nquarantine = 0;
	}
	quarantining = on;
	kapi_obj_check = on ? quarantine_check : NULL;
}

void device_registry_free_all(void)
{
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
	struct device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		kapi_bug("device: out of memory");
	dev->id = id;
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->beh.remove_phase = -1;
	registry[id] = dev;
	async_label = device_async_label;
	return dev;
}

void device_initialize(struct device *dev)
{
	INIT_LIST_HEAD(&dev->klist_children);
	INIT_LIST_HEAD(&dev->knode_parent.n);
	dev->refcount = 1;
	dev->creator_ref = true;
	init_completion(&dev->removed);
	sema_init(&dev->sem, 1);
	INIT_LIST_HEAD(&dev->power.entry);
	pm_variant->device_pm_init(dev);
}

struct device *get_device(struct device *dev)
{
	if (dev) {
		KAPI_CHECK(dev, "get_device");
		eng_lock();
		if (dev->refcount <= 0)
			kapi_bug("get_device on a dead device");
		dev->refcount++;
		eng_unlock();
	}
	return dev;
}

static void device_release(struct device *dev)
{
	pr_debug("device '%s' freed: last reference dropped", dev_name(dev));
	check_device_freed(dev->id);
	registry[dev->id] = NULL;
	if (!quarantining) {
		free(dev);
		return;
	}
	dev->freed = true;
	if (nquarantine == quarantine_cap) {
		quarantine_cap = quarantine_cap ? 2 * quarantine_cap : 16;
		quarantine = realloc(quarantine,
				     quarantine_cap * sizeof(*quarantine));
		if (!quarantine)
			kapi_bug("quarantine: out of memory");
	}
	quarantine[nquarantine++] = dev;
}

void put_device(struct device *dev)
{
	if (!dev)
		return;
	eng_sched_point();
	KAPI_CHECK(dev, "put_device");
	eng_lock();
	bool last = --dev->refcount == 0;

	eng_unlock();
	if (last)
		device_release(dev);
}

void device_add(struct device *dev)
{
	struct device *parent = get_device(dev->parent);

	if (parent) {
		list_add_tail(&dev->knode_parent.n, &parent->klist_children);
		parent->registered_children++;
	}
	dev->driver = true;
	pm_variant->device_pm_add(dev);
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
		if (completion_done(&device_noirq_over))
			break;
		up(&dev->sem);
	}
	dev->driver = false;
	check_device_gone(dev->id);
	up(&dev->sem);
	pm_variant->device_pm_remove(dev);
	if (parent) {
		eng_lock();
		if (dev->knode_parent.refs)
			dev->knode_parent.dead = true;
		else
			list_del_init(&dev->knode_parent.n);
		parent->registered_children--;
		eng_unlock();
	}
	complete_all(&dev->removed);
	put_device(parent);
}

void device_unregister(struct device *dev)
{
	device_del(dev);
	eng_lock();
	dev->creator_ref = false;
	eng_unlock();
	put_device(dev);
}

static bool claim_removal(struct device *dev)
{
	eng_lock();
	bool mine = !dev->removing;

	dev->removing = true;
	eng_unlock();
	return mine;
}

bool device_unregister_subtree(struct device *dev)
{
	if (!claim_removal(dev))
		return false;
	/* Children first, the last registered first, as bus code tears down
	 * a hierarchy (usb_disconnect, for one). */
	for (;;) {
		struct device *child = NULL;
		struct klist_node *k;

		list_for_each_entry_reverse(k, &dev->klist_children, n) {
			if (!k->dead) {
				child = container_of(k, struct device,
						     knode_parent);
				break;
			}
		}
		if (!child)
			break;
		get_device(child);
		if (!device_unregister_subtree(child)) {
			/* Somebody else is removing it: wait until it is
			 * done, as the bus's own locking would make us. */
			wait_for_completion(&child->removed);
		}
		put_device(child);
	}
	device_unregister(dev);
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

	eng_lock();
	for (pos = pos->next; pos != &dev->klist_children; pos = pos->next) {
		struct klist_node *c = container_of(pos, struct klist_node, n);

		if (!c->dead) {
			k = c;
			k->refs++;
			break;
		}
	}
	eng_unlock();
	if (k)
		get_device(knode_dev(k));
	return k;
}

static void klist_unpin(struct klist_node *k)
{
	struct device *d = knode_dev(k);

	eng_lock();
	if (--k->refs == 0 && k->dead)
		list_del_init(&k->n);
	eng_unlock();
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
	check_callback_start(dev->id, phase);
	if (dev->beh.dur_us[phase])
		dpm_eng->delay((uint64_t)dev->beh.dur_us[phase] * NSEC_PER_USEC);
	if (dev->beh.remove_phase == (int)phase) {
		struct device *victim = device_by_id(dev->beh.remove_target);

		dev->beh.remove_phase = -1;
		if (victim && !victim->removing) {
			pr_info("%s: callback unregisters '%s'", dev_name(dev),
				dev_name(victim));
			get_device(victim);
			device_unregister_subtree(victim);
			put_device(victim);
		}
	}
	int error = dev->beh.err[phase];

	check_callback_end(dev->id, phase, error);
	eng_sched_point();
	return error;
}
