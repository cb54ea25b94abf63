/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_DEVICE_DRIVER_H
#define _DPMSHIM_LINUX_DEVICE_DRIVER_H

#include <linux/pm.h>

struct device;
struct bus_type;

struct device_driver {
	const char		*name;
	const struct bus_type	*bus;
	int (*probe)(struct device *dev);
	void (*sync_state)(struct device *dev);
	int (*remove)(struct device *dev);
	/* legacy callbacks: main.c only looks at whether they exist */
	int (*suspend)(struct device *dev, pm_message_t state);
	int (*resume)(struct device *dev);
	const struct dev_pm_ops	*pm;
};

void wait_for_device_probe(void);

#endif
