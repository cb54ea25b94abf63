/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: include/linux/device.h.  The shim owns struct
 * device: the fields main.c, its base.h and power.h, and the runtime
 * (kernel/rt) use, with the kernel's names and types, for 6.1 and 6.12
 * alike.  A scenario device is a struct device inside the runtime's
 * container (struct dpmk_dev, kernel/rt/rt.h), as a driver's device is
 * inside its own structure.
 */
#ifndef _DPMSHIM_LINUX_DEVICE_H
#define _DPMSHIM_LINUX_DEVICE_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/rculist.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/kobject.h>
#include <linux/klist.h>
#include <linux/lockdep.h>
#include <linux/pm.h>
#include <linux/dev_printk.h>
#include <linux/device/bus.h>
#include <linux/device/class.h>
#include <linux/device/driver.h>

struct device_private;
struct devres_node;

/* Managed resources' callbacks (linux/device/devres.h): 7.x's base.h
 * declares its devres helpers with them; nothing here uses devres. */
typedef void (*dr_release_t)(struct device *dev, void *res);
typedef int (*dr_match_t)(struct device *dev, void *res, void *match_data);
struct va_format;
struct fwnode_handle;

struct device_type {
	const char		*name;
	void (*release)(struct device *dev);
	const struct dev_pm_ops	*pm;
};

enum device_link_state {
	DL_STATE_NONE = -1,
	DL_STATE_DORMANT = 0,
	DL_STATE_AVAILABLE,
	DL_STATE_CONSUMER_PROBE,
	DL_STATE_ACTIVE,
	DL_STATE_SUPPLIER_UNBIND,
};

#define DL_FLAG_STATELESS		BIT(0)
#define DL_FLAG_AUTOREMOVE_CONSUMER	BIT(1)
#define DL_FLAG_PM_RUNTIME		BIT(2)
#define DL_FLAG_RPM_ACTIVE		BIT(3)
#define DL_FLAG_AUTOREMOVE_SUPPLIER	BIT(4)
#define DL_FLAG_AUTOPROBE_CONSUMER	BIT(5)
#define DL_FLAG_MANAGED			BIT(6)
#define DL_FLAG_SYNC_STATE_ONLY		BIT(7)
#define DL_FLAG_INFERRED		BIT(8)
#define DL_FLAG_CYCLE			BIT(9)

enum dl_dev_state {
	DL_DEV_NO_DRIVER = 0,
	DL_DEV_PROBING,
	DL_DEV_DRIVER_BOUND,
	DL_DEV_UNBINDING,
};

struct dev_links_info {
	struct list_head	suppliers;
	struct list_head	consumers;
	struct list_head	defer_sync;
	enum dl_dev_state	status;
};

struct device {
	struct kobject		kobj;
	struct device		*parent;
	struct device_private	*p;
	const char		*init_name;
	const struct device_type *type;
	const struct bus_type	*bus;
	struct device_driver	*driver;
	void			*platform_data;
	void			*driver_data;
	struct mutex		mutex;		/* device_lock() */
	struct dev_links_info	links;
	struct dev_pm_info	power;
	struct dev_pm_domain	*pm_domain;
	struct fwnode_handle	*fwnode;
	dev_t			devt;
	u32			id;
	const struct class	*class;
	void (*release)(struct device *dev);
	bool			offline_disabled:1;
	bool			offline:1;
	bool			of_node_reused:1;
	bool			state_synced:1;
	bool			can_match:1;
};

/*
 * A device link: one per supplier/consumer pair, on the supplier's
 * consumers list (s_node) and the consumer's suppliers list (c_node).
 */
struct device_link {
	struct device		*supplier;
	struct list_head	s_node;
	struct device		*consumer;
	struct list_head	c_node;
	enum device_link_state	status;
	u32			flags;
	atomic_t		rpm_active;
	struct kref		kref;
	bool			supplier_preactivated;
};

static inline const char *dev_name(const struct device *dev)
{
	if (dev->init_name)
		return dev->init_name;
	return kobject_name(&dev->kobj);
}

static inline const char *dev_bus_name(const struct device *dev)
{
	return dev->bus ? dev->bus->name : (dev->class ? dev->class->name : "");
}

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

static inline bool device_pm_not_required(struct device *dev)
{
	return dev->power.no_pm;
}

static inline void device_set_pm_not_required(struct device *dev)
{
	dev->power.no_pm = true;
	dev->power.no_callbacks = true;
}

static inline void dev_pm_syscore_device(struct device *dev, bool val)
{
	dev->power.syscore = val;
}

static inline void dev_pm_set_driver_flags(struct device *dev, u32 flags)
{
	dev->power.driver_flags = flags;
}

static inline bool dev_pm_test_driver_flags(struct device *dev, u32 flags)
{
	return !!(dev->power.driver_flags & flags);
}

static inline bool dev_pm_smart_suspend(struct device *dev)
{
	return dev->power.smart_suspend;
}

static inline void device_lock(struct device *dev)
{
	mutex_lock(&dev->mutex);
}

static inline void device_unlock(struct device *dev)
{
	mutex_unlock(&dev->mutex);
}

static inline bool device_link_test(const struct device_link *link, u32 flags)
{
	return !!(link->flags & flags);
}

static inline void device_enable_async_suspend(struct device *dev)
{
	if (!dev->power.is_prepared)
		dev->power.async_suspend = true;
}

static inline void device_disable_async_suspend(struct device *dev)
{
	if (!dev->power.is_prepared)
		dev->power.async_suspend = false;
}

static inline bool device_async_suspend_enabled(struct device *dev)
{
	return !!dev->power.async_suspend;
}

/* The driver core (kernel/rt/core.c, kernel/rt/links.c). */
void device_initialize(struct device *dev);
int device_add(struct device *dev);
void device_del(struct device *dev);
int device_register(struct device *dev);
void device_unregister(struct device *dev);
struct device *get_device(struct device *dev);
void put_device(struct device *dev);
bool device_is_registered(struct device *dev);
int device_for_each_child(struct device *dev, void *data,
			  int (*fn)(struct device *dev, void *data));
int device_for_each_child_reverse(struct device *dev, void *data,
				  int (*fn)(struct device *dev, void *data));
/* A child still registered, with a reference the caller drops; NULL if
 * none (7.x's main.c asks whether a device is a leaf). */
struct device *device_find_any_child(struct device *parent);
struct device_link *device_link_add(struct device *consumer,
				    struct device *supplier, u32 flags);
void device_link_del(struct device_link *link);
bool device_link_flag_is_sync_state_only(u32 flags);
int device_attach(struct device *dev);
void device_release_driver(struct device *dev);

#include <linux/pm_wakeup.h>

#endif
