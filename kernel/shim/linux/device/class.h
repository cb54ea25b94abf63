/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_DEVICE_CLASS_H
#define _DPMSHIM_LINUX_DEVICE_CLASS_H

#include <linux/pm.h>

struct device;

struct class {
	const char		*name;
	void (*dev_release)(struct device *dev);
	const struct dev_pm_ops	*pm;
};

#endif
