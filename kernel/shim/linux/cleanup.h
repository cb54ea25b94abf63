/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: scope-based locking as main.c uses it from 6.x
 * on, guard(mutex)(&lock): the lock is taken here and released when the
 * enclosing scope ends, by the compiler's cleanup attribute (clang and
 * gcc).  Only the classes main.c names are defined (mutex.h).
 */
#ifndef _DPMSHIM_LINUX_CLEANUP_H
#define _DPMSHIM_LINUX_CLEANUP_H

#define __DPMK_PASTE(a, b)	a##b
#define __DPMK_GLUE(a, b)	__DPMK_PASTE(a, b)
#define __DPMK_UNIQUE(p)	__DPMK_GLUE(p, __COUNTER__)

/* guard(name)(args): a variable of class name whose constructor runs now
 * and whose destructor runs at the end of the scope. */
#define guard(name)							\
	class_##name##_t __attribute__((cleanup(class_##name##_destructor), unused)) \
	__DPMK_UNIQUE(__dpmk_guard_) = class_##name##_constructor

#endif
