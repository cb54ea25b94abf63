/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpm_list and the other PM lists hold devices by an entry in the
 * variant's per-device state.  Every model variant's state starts with
 * that entry (struct list_head entry, its power.entry), so a list entry
 * leads back to its device the same way in all of them.
 */
#ifndef DPM_VARIANTS_DPM_LIST_H
#define DPM_VARIANTS_DPM_LIST_H

#include "../device/device.h"

static inline struct list_head *dpm_entry(struct device *dev)
{
	return (struct list_head *)dev->pm_state;
}

static inline struct device *to_device(struct list_head *entry)
{
	return device_of_pm_state(entry);
}

/* list_for_each_entry(dev, head, power.entry) and its reverse. */
#define list_for_each_dev(dev, head)                                       \
	for (dev = to_device(list_next(head)); dpm_entry(dev) != (head);    \
	     dev = to_device(list_next(dpm_entry(dev))))
#define list_for_each_dev_reverse(dev, head)                               \
	for (dev = to_device(list_prev(head)); dpm_entry(dev) != (head);    \
	     dev = to_device(list_prev(dpm_entry(dev))))

#endif
