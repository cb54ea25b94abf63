/* SPDX-License-Identifier: GPL-2.0-only */
/* Marsaglia's xorshift64: the seeded generator of the schedule search,
 * the tests and the benchmarks (never 0 given a non-zero seed). */
#ifndef DPM_RUN_XORSHIFT_H
#define DPM_RUN_XORSHIFT_H

#include <stdint.h>

static inline uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
