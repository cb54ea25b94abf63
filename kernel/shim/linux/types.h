/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: the base types.  The shim headers give main.c the
 * kernel's names and types, written for dpmfuzz; they are compiled with
 * -nostdinc, so nothing here may come from libc.
 */
#ifndef _DPMSHIM_LINUX_TYPES_H
#define _DPMSHIM_LINUX_TYPES_H

#include <linux/compiler.h>
#include <linux/version.h>

typedef _Bool bool;
#define true	1
#define false	0
#define NULL	((void *)0)

typedef unsigned char		u8;
typedef unsigned short		u16;
typedef unsigned int		u32;
typedef unsigned long long	u64;
typedef signed char		s8;
typedef short			s16;
typedef int			s32;
typedef long long		s64;

typedef __SIZE_TYPE__		size_t;
typedef __PTRDIFF_TYPE__	ptrdiff_t;
typedef long			ssize_t;
typedef unsigned long		uintptr_t;
typedef unsigned short		umode_t;
typedef u32			dev_t;
typedef int			pid_t;
typedef u64			phys_addr_t;
typedef unsigned int		gfp_t;

typedef struct { unsigned int val; } kuid_t;
typedef struct { unsigned int val; } kgid_t;

typedef struct {
	int counter;
} atomic_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#endif
