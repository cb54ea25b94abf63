/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: reference counts (kernel/rt/core.c uses them). */
#ifndef _DPMSHIM_LINUX_KREF_H
#define _DPMSHIM_LINUX_KREF_H

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

#endif
