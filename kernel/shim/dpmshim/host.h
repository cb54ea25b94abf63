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

#endif
