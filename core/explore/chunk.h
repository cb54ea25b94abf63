/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One chunk of a bound's scenarios (space.h), each explored with every
 * schedule (explore.h): the unit of work dpmcheck's workers do and its
 * state file records.  Results add up across chunks.
 */
#ifndef DPM_EXPLORE_CHUNK_H
#define DPM_EXPLORE_CHUNK_H

#include <stdint.h>
#include <stdio.h>

#include "explore.h"
#include "space.h"

struct check_opts {
	const struct run_opts *run;	/* variant and knobs */
	struct explore_opts explore;
	/* Every sample-th scenario of the space (by its global index) is
	 * run with the naive search too, up to naive_cap schedules, for the
	 * reduction factor; 0: none. */
	long sample;
	uint64_t naive_cap;
};

/* The smallest scenario found breaking one invariant, as a text with
 * its variant, knobs, expected outcome and schedule. */
struct check_find {
	bool set;
	int devices, features;
	size_t nsched;
	long index;		/* in the space: the first found wins ties */
	char *text;		/* malloc'd */
};

struct check_totals {
	long chunks;
	uint64_t scenarios, schedules, blocked, events;
	uint64_t capped;	/* scenarios whose search hit max_schedules */
	uint64_t nondet;	/* scenarios the engine did not replay (bugs) */
	/* The naive sample: scenarios, their schedules naive and reduced,
	 * and how many hit naive_cap. */
	uint64_t sample_scenarios, sample_naive, sample_reduced, sample_capped;
	double seconds;		/* CPU time spent */
	uint64_t violating[NR_INV];	/* scenarios with some schedule breaking it */
	struct check_find find[NR_INV];
};

/*
 * Explore chunk c, whose first scenario has global index first, into t
 * (zeroed first).  A replay of each smallest find with its schedule bytes
 * must show the same invariant; one that does not counts as nondet.
 */
void check_chunk(const struct space *sp, long c, long first,
		 const struct check_opts *co, struct check_totals *t);

/* a += b (finds: the smaller of the two, copied). */
void check_totals_add(struct check_totals *a, const struct check_totals *b);
void check_totals_free(struct check_totals *t);

/* Whether a is a smaller find than b. */
bool check_find_less(const struct check_find *a, const struct check_find *b);

/* Write / read totals as one text record (for pipes and the state
 * file): write returns 0 or -1; read returns 0, -1 on a malformed
 * record, 1 at EOF. */
int check_totals_write(FILE *f, long chunk, const struct check_totals *t);
int check_totals_read(FILE *f, long *chunk, struct check_totals *t);

#endif
