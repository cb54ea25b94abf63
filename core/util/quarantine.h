/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Freed devices kept until the run ends, so that a use of one is seen
 * (EV_USE_AFTER_FREE): the models' devices (core/device/device.c) and a
 * kernel tree's (kernel/rt/core.c, through kernel/host.c) both keep
 * theirs here.  Each object has an index (its device's) below the
 * quarantine's n, and every object is size bytes.
 *
 * A lookup by address costs the same with a million freed objects as
 * with one (a scan of every object made a 100,000-device teardown
 * quadratic): an object's memory [d, d + size) meets at most two blocks
 * of B bytes, B the power of two at or above size, d / B and d / B + 1
 * (a shift, not a division: the lookup runs at every lock and reference
 * operation), and the object (its index + 1) is entered under both; a
 * lookup probes from the slot of its address's block.  Up to
 * QUARANTINE_SCAN objects a lookup scans them instead, in the order they
 * came (most runs free a few devices, and a scan of a few is cheaper than
 * a hash and a probe).  Open addressing with entries never removed in a run, so a
 * probe ends at the first empty entry; four entries per object, at most
 * half full.  Relaxed atomics and a compare-and-swap, which order nothing
 * for ThreadSanitizer: the bookkeeping must not hide the code's races.
 */
#ifndef DPM_UTIL_QUARANTINE_H
#define DPM_UTIL_QUARANTINE_H

#include <stdbool.h>
#include <stddef.h>

#define QUARANTINE_SCAN 8

struct quarantine {
	size_t size;		/* every object's */
	unsigned int shift;	/* log2 of the block, B >= size */
	int n;			/* indices 0 .. n - 1 */
	void **obj;		/* by index; NULL: not freed */
	int *index;		/* by slot: an object's index + 1, 0: empty */
	/* The first QUARANTINE_SCAN objects, in the order they came (NULL:
	 * not yet). */
	void *first[QUARANTINE_SCAN];
	size_t mask;
	int count;		/* objects in it */
};

/* Empty, for n objects of size bytes (what it held before is forgotten:
 * quarantine_release() first). */
void quarantine_init(struct quarantine *q, size_t size, int n);
/* Object idx, freed, at obj.  Any task, at any time of the run. */
void quarantine_add(struct quarantine *q, int idx, void *obj);
bool quarantine_lookup(const struct quarantine *q, const void *p, int *idx);

/* Whether p lies in a freed object; its index in *idx (idx may be NULL).
 * By address only: the memory itself may be poisoned.  Inline up to the
 * common answer: nothing freed yet. */
static inline bool quarantine_find(const struct quarantine *q, const void *p,
				   int *idx)
{
	return __atomic_load_n(&q->count, __ATOMIC_RELAXED) &&
	       quarantine_lookup(q, p, idx);
}
/* The freed object idx, or NULL. */
void *quarantine_at(const struct quarantine *q, int idx);
/* How many objects it holds. */
int quarantine_count(const struct quarantine *q);
/* Its own memory freed (the objects are the caller's), and empty. */
void quarantine_release(struct quarantine *q);

#endif
