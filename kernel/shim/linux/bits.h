/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_BITS_H
#define _DPMSHIM_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif
