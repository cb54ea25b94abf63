/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: the power tracepoints main.c fires.  They are the
 * events' source (kernel/rt/events.c): suspend_resume gives the phases,
 * device_pm_callback_start with an empty info the prepare and complete
 * steps of each device.
 */
#ifndef _DPMSHIM_TRACE_EVENTS_POWER_H
#define _DPMSHIM_TRACE_EVENTS_POWER_H

#include <linux/types.h>

struct device;

#define TPS(x)	x

void trace_suspend_resume(const char *action, int val, bool start);
void trace_device_pm_callback_start(struct device *dev, const char *pm_ops,
				    int event);
void trace_device_pm_callback_end(struct device *dev, int error);

#endif
