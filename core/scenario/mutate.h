/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The structure-aware mutator: a fuzz input is decoded to its scenario,
 * the scenario changed the way a person would change it (a device added,
 * removed or moved, async flipped, an error placed or moved, a removal
 * added or moved, the configuration or the schedule perturbed), and
 * encoded back to bytes that decode to exactly the changed scenario
 * (docs/fuzzing.md, "The structure-aware mutator").
 */
#ifndef DPM_SCENARIO_MUTATE_H
#define DPM_SCENARIO_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

/* Which of the fields only some variants read a mutation may touch (the
 * caller maps its variant's features to these): the others would be
 * left out of its runs, so changing them wastes an execution. */
enum {
	SCN_MUT_LINKS = 1 << 0,		/* supplier links */
	SCN_MUT_PM_WAIT = 1 << 1,	/* device_pm_wait_for_dev() */
	SCN_MUT_RPM = 1 << 2,		/* rpm-suspended devices */
	SCN_MUT_LATE_EARLY = 1 << 3,	/* late and early phases' errors */
	SCN_MUT_TRANSITION = 1 << 4,	/* the transition, a wake-up */
	SCN_MUT_KERNEL = 1 << 5,	/* levels, DPM flags, late devices ... */
	SCN_MUT_ALL = (1 << 6) - 1,
};

/* The mutation operators, for the tests and for counting. */
enum scn_mut_op {
	MUT_ADD_DEVICE, MUT_REMOVE_DEVICE, MUT_MOVE_DEVICE, MUT_ASYNC,
	MUT_ASYNC_SUBTREE, MUT_ERROR_PLACE, MUT_ERROR_MOVE, MUT_REMOVAL_ADD,
	MUT_REMOVAL_MOVE, MUT_CONFIG, MUT_DURATION, MUT_LINK, MUT_KERNEL,
	MUT_ATTR, MUT_SCHEDULE, NR_MUT_OPS
};

const char *scn_mut_op_name(enum scn_mut_op op);

/*
 * Applies one operator to s (a scenario the decoder gave under lim), chosen
 * with *rng among those that mask allows and that can change s, and
 * returns it.  s stays in the byte format's reach: scenario_encode(s) is
 * exact and decodes under lim to s.  max_sched bounds the schedule.
 */
enum scn_mut_op scenario_mutate(struct scenario *s, const struct scn_limits *lim,
				unsigned int mask, size_t max_sched,
				uint64_t *rng);

/*
 * Splices o into s: a subtree of o grafted under a device of s, o's
 * schedule (whole, or its tail after s's head), or o's configuration and
 * actions.  s stays in the byte format's reach as above.
 */
void scenario_crossover(struct scenario *s, const struct scenario *o,
			const struct scn_limits *lim, size_t max_sched,
			uint64_t *rng);

/*
 * The two on bytes, as LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver call them: decode, mutate (splice), encode
 * into out (at most max bytes; data and out may be the same).  Returns
 * the new size, or 0 when the changed scenario does not fit in max
 * bytes (the caller falls back to a byte mutation).
 */
size_t scenario_mutate_bytes(const uint8_t *data, size_t size, uint8_t *out,
			     size_t max, const struct scn_limits *lim,
			     unsigned int mask, uint64_t seed);
size_t scenario_crossover_bytes(const uint8_t *a, size_t alen,
				const uint8_t *b, size_t blen, uint8_t *out,
				size_t max, const struct scn_limits *lim,
				uint64_t seed);

#endif
