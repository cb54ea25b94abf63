/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: pm-trace.  pm_trace_is_enabled() is the
 * scenario's pm_trace switch (it makes main.c resume synchronously); the
 * kernel's RTC hash tracing is not modelled, but TRACE_DEVICE() marks
 * where main.c takes a device in hand in a suspend or resume phase, which
 * the runtime reports as EV_HANDLED (kernel/rt/events.c).
 */
#ifndef _DPMSHIM_LINUX_PM_TRACE_H
#define _DPMSHIM_LINUX_PM_TRACE_H

#include <linux/types.h>

struct device;

extern int pm_trace_enabled;

static inline int pm_trace_is_enabled(void)
{
	return pm_trace_enabled;
}

void dpmk_trace_device(struct device *dev);
#define TRACE_DEVICE(dev)	dpmk_trace_device(dev)
#define TRACE_RESUME(user)	do { (void)(user); } while (0)
#define TRACE_SUSPEND(user)	do { (void)(user); } while (0)

#endif
