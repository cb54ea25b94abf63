/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: dedicated wake-up IRQs are not modelled (power.h
 * declares the arm/disarm calls main.c makes; kernel/rt/misc.c). */
#ifndef _DPMSHIM_LINUX_PM_WAKEIRQ_H
#define _DPMSHIM_LINUX_PM_WAKEIRQ_H

#include <linux/types.h>

#endif
