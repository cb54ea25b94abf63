/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: PM QoS is not modelled; power.h includes this for
 * struct device and the pointer to struct dev_pm_qos. */
#ifndef _DPMSHIM_LINUX_PM_QOS_H
#define _DPMSHIM_LINUX_PM_QOS_H

#include <linux/device.h>

#endif
