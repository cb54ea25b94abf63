/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: the part of kobjects a device's lifetime needs: a
 * name, a parent and the reference count get_device()/put_device() move.
 * sysfs, uevents and ksets are not modelled (kernel/rt/core.c).
 */
#ifndef _DPMSHIM_LINUX_KOBJECT_H
#define _DPMSHIM_LINUX_KOBJECT_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/kref.h>
#include <linux/spinlock.h>

struct kobject {
	const char		*name;
	struct list_head	entry;
	struct kobject		*parent;
	struct kref		kref;
	unsigned int		state_initialized:1;
	unsigned int		state_in_sysfs:1;
};

struct kset {
	struct list_head	list;
	spinlock_t		list_lock;
	struct kobject		kobj;
};

struct attribute_group;
struct module;
struct module_kobject;

static inline const char *kobject_name(const struct kobject *kobj)
{
	return kobj->name;
}

static inline struct kset *kset_get(struct kset *k)
{
	return k;
}

static inline void kset_put(struct kset *k)
{
}

#endif
