/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: dev_*() messages, to the run log like printk. */
#ifndef _DPMSHIM_LINUX_DEV_PRINTK_H
#define _DPMSHIM_LINUX_DEV_PRINTK_H

#include <linux/printk.h>

#ifndef dev_fmt
#define dev_fmt(fmt) fmt
#endif

struct device;

void _dev_printk(const char *level, const struct device *dev,
		 const char *fmt, ...);

/* The device's name is read, and the arguments evaluated, with or
 * without a run log (linux/printk.h, _printk_args()). */
void _dev_printk_args(const struct device *dev, ...);
#define dev_printk(level, dev, fmt, ...) \
	do { if (dpmk_log_on) _dev_printk(level, dev, fmt, ##__VA_ARGS__); \
	     else _dev_printk_args(dev, ##__VA_ARGS__); } while (0)
#define dev_emerg(dev, fmt, ...) dev_printk(KERN_EMERG, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_crit(dev, fmt, ...)	 dev_printk(KERN_CRIT, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_err(dev, fmt, ...)	 dev_printk(KERN_ERR, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)	 dev_printk(KERN_WARNING, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) dev_printk(KERN_NOTICE, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)	 dev_printk(KERN_INFO, dev, dev_fmt(fmt), ##__VA_ARGS__)
/* The PM core's debug lines are wanted in dpmrepro's traces: printed. */
#define dev_dbg(dev, fmt, ...)	 dev_printk(KERN_DEBUG, dev, dev_fmt(fmt), ##__VA_ARGS__)

#endif
