/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory for the suite's own bookkeeping: one out-of-memory path (a
 * one-line message and abort(): a run cannot go on without it, and the
 * fuzzers must see a crash, not a silent misreading) and one growable
 * array.
 */
#ifndef DPM_UTIL_XALLOC_H
#define DPM_UTIL_XALLOC_H

#include <stddef.h>

/* realloc(p, n * size) that never returns NULL; n * size must not
 * overflow.  n == 0 gives a valid (one element) block. */
void *dpm_xrealloc(void *p, size_t n, size_t size);
/* A copy of n elements of size bytes at src (which may be NULL when n
 * is 0: no memcpy() from NULL). */
void *dpm_xmemdup(const void *src, size_t n, size_t size);
/* calloc() that never returns NULL. */
void *dpm_xcalloc(size_t n, size_t size);
void dpm_out_of_memory(void) __attribute__((noreturn));

/* Make room for one more element in the array arr of n elements and
 * capacity cap (all lvalues), doubling the capacity as needed. */
#define DPM_ARRAY_RESERVE(arr, n, cap)                                    \
	do {                                                              \
		if ((n) >= (cap)) {                                       \
			(cap) = (cap) ? 2 * (cap) : 16;                    \
			(arr) = dpm_xrealloc((arr), (size_t)(cap),         \
					     sizeof(*(arr)));             \
		}                                                         \
	} while (0)

/* Append v to that array. */
#define DPM_ARRAY_PUSH(arr, n, cap, v)                                    \
	do {                                                              \
		DPM_ARRAY_RESERVE(arr, n, cap);                            \
		(arr)[(n)++] = (v);                                       \
	} while (0)

#endif
