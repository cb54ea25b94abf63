/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DPMSHIM_LINUX_KERNEL_H
#define _DPMSHIM_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/printk.h>

/* Sleeping is allowed wherever main.c says it may: nothing to check. */
#define might_sleep()		do { } while (0)
#define might_sleep_if(c)	do { (void)(c); } while (0)

__printf(1, 2) void panic(const char *fmt, ...) __attribute__((noreturn));

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))

#endif
