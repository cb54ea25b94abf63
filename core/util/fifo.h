/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A first-in first-out queue of pointers, amortised O(1): the engines'
 * tasks waiting to start (admission control, core/engine).  Not thread
 * safe: the caller holds its lock.
 */
#ifndef DPM_UTIL_FIFO_H
#define DPM_UTIL_FIFO_H

#include <stddef.h>
#include <string.h>

#include "xalloc.h"

struct dpm_fifo {
	void **item;
	size_t head, n, cap;	/* the queue is item[head .. head + n) */
};

static inline void dpm_fifo_push(struct dpm_fifo *f, void *p)
{
	/* Room at the end: slide the queue to the front first. */
	if (f->head + f->n == f->cap && f->head) {
		memmove(f->item, f->item + f->head, f->n * sizeof(*f->item));
		f->head = 0;
	}
	size_t end = f->head + f->n;

	DPM_ARRAY_PUSH(f->item, end, f->cap, p);
	f->n++;
}

/* The oldest item, or NULL when empty. */
static inline void *dpm_fifo_pop(struct dpm_fifo *f)
{
	if (!f->n)
		return NULL;
	void *p = f->item[f->head++];

	if (--f->n == 0)
		f->head = 0;
	return p;
}

/* Empty it, keeping its memory. */
static inline void dpm_fifo_clear(struct dpm_fifo *f)
{
	f->head = f->n = 0;
}

#endif
