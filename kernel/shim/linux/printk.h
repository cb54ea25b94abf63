/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: printk.  Every message goes to dpmfuzz's run log
 * (kernel/rt/printk.c), debug ones included, and only when the host keeps
 * a log, so fuzzing does not pay for formatting.
 */
#ifndef _DPMSHIM_LINUX_PRINTK_H
#define _DPMSHIM_LINUX_PRINTK_H

#include <linux/types.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/* Non-zero while the host keeps a run log (tested before formatting). */
extern int dpmk_log_on;

int _printk(const char *fmt, ...);
/* Takes a message's arguments and does nothing: without a run log they
 * are still evaluated, as the kernel's printk evaluates them (a message
 * that reads through a NULL or freed pointer fails as it would there). */
void _printk_args(int unused, ...);
#define printk(fmt, ...)						\
	({								\
		int __r = 0;						\
									\
		if (dpmk_log_on)					\
			__r = _printk(fmt, ##__VA_ARGS__);		\
		else							\
			_printk_args(0, ##__VA_ARGS__);			\
		__r;							\
	})
#define no_printk(fmt, ...)	({ if (0) _printk(fmt, ##__VA_ARGS__); 0; })

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
/* As with dynamic debug switched on for the PM core: printed. */
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)

void dump_stack(void);

#define WARN(cond, fmt, ...) \
	({ int __c = !!(cond); if (__c) printk(KERN_WARNING fmt, ##__VA_ARGS__); __c; })
#define WARN_ON(cond) \
	({ int __c = !!(cond); if (__c) printk(KERN_WARNING "WARNING at %s:%d\n", __FILE__, __LINE__); __c; })

#endif
