// SPDX-License-Identifier: GPL-2.0-only
/* The quarantine of freed devices (quarantine.h). */
#include "quarantine.h"

#include <stdint.h>
#include <stdlib.h>

#include "nocov.h"
#include "xalloc.h"

void quarantine_init(struct quarantine *q, size_t size, int n)
{
	size_t slots = 8;

	if (n < 1)
		n = 1;
	while (slots < 4 * (size_t)n)
		slots *= 2;
	q->size = size ? size : 1;
	q->shift = 0;
	while (((size_t)1 << q->shift) < q->size)
		q->shift++;
	q->n = n;
	q->obj = dpm_xcalloc((size_t)n, sizeof(*q->obj));
	q->index = dpm_xcalloc(slots, sizeof(*q->index));
	for (int k = 0; k < QUARANTINE_SCAN; k++)
		q->first[k] = NULL;
	q->mask = slots - 1;
	q->count = 0;
}

DPM_NO_COVERAGE
static size_t slot(const struct quarantine *q, uintptr_t k)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 24) & q->mask;
}

/* Asked at every lock, completion and reference operation once a device
 * is freed: bookkeeping, kept out of the fuzzer's coverage (a loop over
 * every device here fed libFuzzer thousands of comparisons per run: a
 * third of the kernel targets' time). */
DPM_NO_COVERAGE
bool quarantine_lookup(const struct quarantine *q, const void *p, int *idx)
{
	uintptr_t o = (uintptr_t)p;
	int n = __atomic_load_n(&q->count, __ATOMIC_RELAXED);

	if (!n)
		return false;
	if (n <= QUARANTINE_SCAN) {
		size_t size = q->size;

		for (int k = 0; k < n; k++) {
			uintptr_t d = (uintptr_t)__atomic_load_n(&q->first[k],
								 __ATOMIC_RELAXED);

			if (o - d >= size || !d)
				continue;
			/* A hit is a use after free: rare enough to look
			 * the index up by a scan. */
			for (int i = 0; i < q->n; i++)
				if ((uintptr_t)__atomic_load_n(&q->obj[i],
							       __ATOMIC_RELAXED) == d) {
					if (idx)
						*idx = i;
					return true;
				}
		}
		return false;
	}
	for (size_t i = slot(q, o >> q->shift);; i = (i + 1) & q->mask) {
		int e = __atomic_load_n(&q->index[i], __ATOMIC_RELAXED);

		if (!e)
			return false;
		uintptr_t d = (uintptr_t)__atomic_load_n(&q->obj[e - 1],
							 __ATOMIC_RELAXED);

		if (d && o >= d && o < d + q->size) {
			if (idx)
				*idx = e - 1;
			return true;
		}
	}
}

DPM_NO_COVERAGE
void quarantine_add(struct quarantine *q, int idx, void *obj)
{
	uintptr_t k = (uintptr_t)obj >> q->shift;

	if (idx < 0 || idx >= q->n)
		abort();
	__atomic_store_n(&q->obj[idx], obj, __ATOMIC_RELAXED);
	for (uintptr_t j = k; j <= k + 1; j++)
		for (size_t i = slot(q, j);; i = (i + 1) & q->mask) {
			int none = 0;

			if (__atomic_compare_exchange_n(&q->index[i], &none, idx + 1, false,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				break;
		}
	int pos = __atomic_fetch_add(&q->count, 1, __ATOMIC_RELAXED);

	if (pos < QUARANTINE_SCAN)
		__atomic_store_n(&q->first[pos], obj, __ATOMIC_RELAXED);
}

void *quarantine_at(const struct quarantine *q, int idx)
{
	return q->obj && idx >= 0 && idx < q->n ?
	       __atomic_load_n(&q->obj[idx], __ATOMIC_RELAXED) : NULL;
}

int quarantine_count(const struct quarantine *q)
{
	return __atomic_load_n(&q->count, __ATOMIC_RELAXED);
}

void quarantine_release(struct quarantine *q)
{
	free(q->obj);
	free(q->index);
	*q = (struct quarantine){ 0 };
}
