/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Glue: the shim's view of dpmfuzz (kernel/kabi.h, plain C types only)
 * and the few C library functions the runtime calls.  The runtime is
 * built -nostdinc like main.c, so libc's headers never meet the shim's;
 * these prototypes are the ones the C standard gives.
 */
#ifndef _DPMSHIM_HOST_H
#define _DPMSHIM_HOST_H

#include <linux/types.h>
#include "../../kabi.h"

void *calloc(size_t nmemb, size_t size);
void *malloc(size_t size);
void *realloc(void *p, size_t size);
void free(void *p);
void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size,
	      int (*cmp)(const void *, const void *));

/* kapi's use-after-free hook (core/kapi/kapi.h): set while a run is in
 * progress, called with every object a kapi primitive is about to touch. */
extern void (*kapi_obj_check)(const void *obj, const char *op);

/* LOCKS: what main.c does, told against dpm_list_mtx's rule (kernel/rt/
 * core.c); idx: the device's index or -1. */
void dpmk_main_lock_rule(int idx, const char *what, int must_hold);

/* Only main.c's own code is held to the rule (main.c is compiled with
 * DPMK_IN_MAIN_C): its list changes and tests, its waits. */
/* REMOVED: main.c moves only list entries that are on a list. */
void dpmk_main_moves(const void *entry);

#ifdef DPMK_IN_MAIN_C
#define DPMK_MAIN_MOVES(entry)	dpmk_main_moves(entry)
#define DPMK_MAIN_LOCKED(what)	dpmk_main_lock_rule(-1, what, 1)
#define DPMK_MAIN_UNLOCKED(what) dpmk_main_lock_rule(-1, what, 0)
#else
#define DPMK_MAIN_MOVES(entry)	((void)0)
#define DPMK_MAIN_LOCKED(what)	((void)0)
#define DPMK_MAIN_UNLOCKED(what) ((void)0)
#endif

#endif
