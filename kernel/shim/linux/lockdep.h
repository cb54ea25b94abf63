/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: no lock validator; the types exist for base.h. */
#ifndef _DPMSHIM_LINUX_LOCKDEP_H
#define _DPMSHIM_LINUX_LOCKDEP_H

struct lock_class_key {
	char unused;
};

#define lockdep_assert_held(l)		do { (void)(l); } while (0)
#define SINGLE_DEPTH_NESTING		1

#endif
