/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_SMP_H
#define _DPMSHIM_LINUX_SMP_H

void wake_up_all_idle_cpus(void);

#endif
