/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: reference counts (kernel/rt/core.c uses them). */
#ifndef _DPMSHIM_LINUX_KREF_H
#define _DPMSHIM_LINUX_KREF_H

#include <linux/types.h>
#include <linux/atomic.h>

struct kref {
	atomic_t refcount;
};

static inline void kref_init(struct kref *kref)
{
	atomic_set(&kref->refcount, 1);
}

static inline unsigned int kref_read(const struct kref *kref)
{
	return atomic_read(&kref->refcount);
}

/*
 * The orderings of the kernel's refcount_t: taking a reference orders
 * nothing; dropping one is a release, and the last drop also acquires,
 * so whoever frees the object comes after every other holder's accesses.
 * (Stronger atomics here would order unrelated accesses of two holders
 * for ThreadSanitizer, and hide races the kernel has.)
 */
static inline int kref_get_return(struct kref *kref)
{
	return __atomic_add_fetch(&kref->refcount.counter, 1, __ATOMIC_RELAXED);
}

static inline bool kref_get_unless_zero(struct kref *kref)
{
	int c = __atomic_load_n(&kref->refcount.counter, __ATOMIC_RELAXED);

	do {
		if (!c)
			return false;
	} while (!__atomic_compare_exchange_n(&kref->refcount.counter, &c, c + 1,
					      false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

/* Drop a reference; what is left (0: the caller releases the object). */
static inline int kref_put_return(struct kref *kref)
{
	int left = __atomic_sub_fetch(&kref->refcount.counter, 1, __ATOMIC_RELEASE);

	if (!left)
		(void)__atomic_load_n(&kref->refcount.counter, __ATOMIC_ACQUIRE);
	return left;
}

#endif
