/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: time is the engine's (virtual on det), via kapi. */
#ifndef _DPMSHIM_LINUX_KTIME_H
#define _DPMSHIM_LINUX_KTIME_H

#include <linux/types.h>

#define NSEC_PER_USEC	1000L
#define USEC_PER_MSEC	1000L
#define MSEC_PER_SEC	1000L
#define NSEC_PER_MSEC	1000000L

typedef s64 ktime_t;

ktime_t ktime_get(void);

static inline ktime_t ktime_sub(ktime_t a, ktime_t b)
{
	return a - b;
}

static inline s64 ktime_to_ns(ktime_t kt)
{
	return kt;
}

static inline s64 ktime_to_us(ktime_t kt)
{
	return kt / NSEC_PER_USEC;
}

static inline s64 ktime_us_delta(ktime_t later, ktime_t earlier)
{
	return ktime_to_us(ktime_sub(later, earlier));
}

/* asm-generic/div64.h: n becomes the quotient, the remainder is returned. */
#define do_div(n, base) ({					\
	u32 __base = (base);					\
	u32 __rem = (u32)((u64)(n) % __base);			\
	(n) = (u64)(n) / __base;				\
	__rem;							\
})

#endif
