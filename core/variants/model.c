// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a run asks of a variant (struct variant_ops), for the hand-written
 * models: they run on this folder's driver core, which calls back into
 * the variant through its struct model_ops.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../device/device.h"
#include "../scenario/scenario.h"
#include "model.h"
#include "variant.h"

static const struct scenario *scn;

static void model_setup(const struct scenario *s)
{
	int nlinks = 0;

	scn = s;
	dpm_model->reset();
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *sd = &s->dev[i];
		struct device *dev = device_create_model(i, sd->name);

		dev->parent = sd->parent >= 0 ? device_by_id(sd->parent) : NULL;
		dev->beh = sd->beh;
		dev->pci = sd->pci;
		device_initialize(dev);
		if (sd->async || sd->pci)
			dpm_model->device_enable_async_suspend(dev, true);
		device_add(dev);
		nlinks += sd->nsup;
	}
	int sup[nlinks ? nlinks : 1], con[nlinks ? nlinks : 1];

	nlinks = 0;
	for (int i = 0; i < s->ndev; i++)
		for (int k = 0; k < s->dev[i].nsup; k++) {
			sup[nlinks] = s->dev[i].sup[k];
			con[nlinks++] = i;
		}
	device_links_setup(nlinks, sup, con);
	/* From here on devices may be freed by other tasks. */
	device_quarantine(true);
}

static int model_transition(int cycle)
{
	(void)cycle;
	return dpm_model->suspend_resume();
}

static void model_unregister(int id, bool unfrozen)
{
	struct device *dev = device_get_by_id(id);

	(void)unfrozen;		/* no model has VF_UNFROZEN_REMOVAL */
	if (dev) {
		pr_info("hotplug: unregistering '%s' and its children",
			dev_name(dev));
		device_unregister_subtree(dev);
		put_device(dev);
	}
}

static ssize_t model_async_store(int id, const char *buf, size_t n)
{
	struct device *dev = device_get_by_id(id);
	ssize_t r;

	if (!dev)
		return -ENODEV;
	if (__atomic_load_n(&dev->removing, __ATOMIC_ACQUIRE)) {
		r = -ENODEV;	/* its sysfs directory is gone */
	} else {
		r = dpm_model->async_store(dev, buf, n);
		pr_info("echo > %s/power/async: %zd", dev_name(dev), r);
	}
	put_device(dev);
	return r;
}

/* Every device's references at the end: the registering code's, one per
 * registered child, one per link not yet released. */
static void publish_refs(void)
{
	for (int i = 0; i < device_registry_size(); i++) {
		struct device *dev = device_by_id(i);
		struct dpm_event ev = { EV_REFS, i, -1, 0, -1, 0, NULL };

		if (dev) {
			ev.a = __atomic_load_n(&dev->refcount, __ATOMIC_RELAXED);
			ev.b = (dev->creator_ref ? 1 : 0) +
			       dev->registered_children + device_link_refs(dev);
		}
		dpm_publish(&ev);
	}
}

static void model_teardown(void)
{
	publish_refs();
	device_quarantine(false);
	/* Tear down what is left, the last registered first. */
	for (int i = device_registry_size() - 1; i >= 0; i--) {
		struct device *dev = device_get_by_id(i);

		if (!dev)
			continue;
		if (!dev->parent)
			device_unregister_subtree(dev);
		put_device(dev);
	}
	dpm_emit(EV_TEARDOWN_DONE, -1, -1, 0);
}

static void model_abandon(void)
{
	device_registry_free_all();
	scn = NULL;
}

static const char *model_describe(const void *obj, char *buf, size_t n,
				  int *why)
{
	*why = -1;
	for (int i = 0; i < device_registry_size(); i++) {
		struct device *d = device_by_id(i);
		const char *r;

		if (!d)
			continue;
		if (obj == &d->removed) {
			snprintf(buf, n, "the end of the removal of '%s'",
				 dev_name(d));
			return buf;
		}
		if (obj == &d->sem) {
			snprintf(buf, n, "the device lock (sem) of '%s'",
				 dev_name(d));
			return buf;
		}
		if (dpm_model->describe &&
		    (r = dpm_model->describe(d, obj, buf, n, why)))
			return r;
	}
	if (obj == &device_noirq_over)
		return "the end of the late/noirq window (hotplug cannot run then)";
	return NULL;
}

const struct variant_ops model_variant_ops = {
	.setup = model_setup,
	.transition = model_transition,
	.unregister = model_unregister,
	.async_store = model_async_store,
	.teardown = model_teardown,
	.abandon = model_abandon,
	.describe = model_describe,
};
