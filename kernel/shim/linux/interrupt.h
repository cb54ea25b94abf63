/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: device interrupts are not modelled (kernel/rt/misc.c). */
#ifndef _DPMSHIM_LINUX_INTERRUPT_H
#define _DPMSHIM_LINUX_INTERRUPT_H

void suspend_device_irqs(void);
void resume_device_irqs(void);

#endif
