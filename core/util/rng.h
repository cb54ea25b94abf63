/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * splitmix64 (Steele, Lea, Flood): the generator of the schedule
 * strategies (core/sched/strategy.h), the schedule search (dpmrepro
 * --schedules) and the scenario generator (core/scenario/generate.h).
 */
#ifndef DPM_UTIL_RNG_H
#define DPM_UTIL_RNG_H

#include <stdint.h>

static inline uint64_t dpm_rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform-enough in [0, n) (0 when n is 0). */
static inline uint64_t dpm_rng_below(uint64_t *s, uint64_t n)
{
	return n ? dpm_rng_next(s) % n : 0;
}

#endif
