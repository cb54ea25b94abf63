/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: mutexes are dpmfuzz's own (core/kapi), linked by
 * name.  The shim sees an opaque object of kapi's size whose all-zero
 * state is an unlocked mutex (kernel/host.c checks both when it is
 * built), so DEFINE_MUTEX() needs no initialiser code.
 */
#ifndef _DPMSHIM_LINUX_MUTEX_H
#define _DPMSHIM_LINUX_MUTEX_H

#include <linux/types.h>
#include <linux/lockdep.h>
#include <linux/cleanup.h>
#include <dpmshim/host.h>

struct mutex {
	unsigned long long __opaque[DPMK_SIZEOF_MUTEX / sizeof(unsigned long long)];
};

#define DEFINE_MUTEX(name)	struct mutex name = { { 0 } }

void mutex_init(struct mutex *lock);
void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
bool mutex_is_locked(struct mutex *lock);
#ifdef DPMK_IN_MAIN_C
/* LOCKS: as main.c lets go of dpm_list_mtx, the runtime checks what the
 * lock guards (kernel/rt/events.c). */
void dpmk_main_mutex_unlock(struct mutex *lock);
#define mutex_unlock(lock)	dpmk_main_mutex_unlock(lock)
#endif
#define mutex_lock_nested(lock, subclass)	mutex_lock(lock)
#define mutex_destroy(lock)			do { (void)(lock); } while (0)

/* guard(mutex)(&lock) (linux/cleanup.h): held to the end of the scope. */
typedef struct mutex *class_mutex_t;

static inline class_mutex_t class_mutex_constructor(struct mutex *lock)
{
	mutex_lock(lock);
	return lock;
}

static inline void class_mutex_destructor(class_mutex_t *lock)
{
	mutex_unlock(*lock);
}

#endif
