/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: spinlocks.  On the threads engine a spinlock is a
 * real test-and-set lock (acquire/release atomics, which ThreadSanitizer
 * follows as it follows the kernel's); on the det engine one task runs
 * at a time and nothing here blocks or yields under a spinlock, so the
 * lock costs nothing.  Interrupts are not modelled: the _irq and
 * _irqsave forms are the plain lock.
 */
#ifndef _DPMSHIM_LINUX_SPINLOCK_H
#define _DPMSHIM_LINUX_SPINLOCK_H

#include <linux/types.h>

typedef struct spinlock {
	int locked;
} spinlock_t;

typedef spinlock_t raw_spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	{ 0 }
#define DEFINE_SPINLOCK(name)		spinlock_t name = { 0 }

/* Set at setup: the tasks are real threads (dpmk_host_concurrent()). */
extern int dpmk_spin_real;
/* Devices freed in this run; a lock in one of them is a use after free
 * (kernel/rt/core.c reports it). */
extern int dpmk_freed_devices;
void dpmk_spin_check(const spinlock_t *l);

static inline void spin_lock_init(spinlock_t *l)
{
	l->locked = 0;
}

static inline void spin_lock(spinlock_t *l)
{
	if (__atomic_load_n(&dpmk_freed_devices, __ATOMIC_RELAXED))
		dpmk_spin_check(l);
	if (!dpmk_spin_real)
		return;
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			barrier();
}

static inline void spin_unlock(spinlock_t *l)
{
	if (dpmk_spin_real)
		__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock_nested(l, subclass)	spin_lock(l)
#define spin_lock_irq(l)		spin_lock(l)
#define spin_unlock_irq(l)		spin_unlock(l)
#define spin_lock_irqsave(l, flags)	do { (flags) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(flags); spin_unlock(l); } while (0)
#define raw_spin_lock_irqsave(l, f)	spin_lock_irqsave(l, f)
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)

#endif
