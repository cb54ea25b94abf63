/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no NMI watchdog; 7.x's main.c includes this header
 * for its DPM watchdog, which stays off (CONFIG_DPM_WATCHDOG). */
#ifndef _DPMSHIM_LINUX_NMI_H
#define _DPMSHIM_LINUX_NMI_H

#endif
