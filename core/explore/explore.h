/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every schedule of one scenario, by stateless model checking: the det
 * engine runs the scenario from the start once per schedule, the search
 * choosing at each point where two or more tasks can run
 * (det_config.choose), depth first.  With partial-order reduction it runs
 * one schedule per class of equivalent ones (docs/exhaustive.md):
 *
 *   EX_NAIVE  every choice at every point;
 *   EX_SLEEP  every choice, with sleep sets (Godefroid);
 *   EX_DPOR   source-set DPOR with sleep sets (Abdulla et al., "Source
 *             Sets", JACM 2017): backtrack points only where two steps
 *             of different tasks race.
 *
 * Two steps (what a task does from one scheduling point to the next) are
 * dependent when they touch the same object and one writes it; the
 * objects are what kapi_access_hook and the event bus report (a
 * completion, a lock, a list, a device's reference count, memory or
 * oracle state, async_error ...).  A kernel variant's steps are seen
 * through its explorable copy (kernel/rt/footprint.c: every load and
 * store of main.c and the runtime); one without a copy in this build
 * (a sanitizer or gcc build) is opaque: every step depends on every
 * other.
 */
#ifndef DPM_EXPLORE_H
#define DPM_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>

#include "../run/run.h"

enum explore_mode { EX_NAIVE, EX_SLEEP, EX_DPOR, NR_EXPLORE_MODES };

const char *explore_mode_name(enum explore_mode m);
int explore_mode_parse(const char *s);	/* -1 if unknown */

/* Deliberate faults in the dependence relation, for the test that shows
 * the soundness check can fail (tests/test_explore.c --break). */
enum explore_break {
	EXB_NONE,
	EXB_NO_RACE,		/* a race adds no backtrack point */
	NR_EXPLORE_BREAKS
};

struct explore_opts {
	enum explore_mode mode;
	uint64_t max_schedules;	/* stop after this many (0: no limit) */
	bool opaque;		/* every step depends on every other */
	enum explore_break brk;
	/* Count the distinct classes of the schedules run (explore_result
	 * .classes; a violating run's class is its violating step's causal
	 * past): a check of the search, not needed to use it. */
	bool classes;
	/* Keep the outcome of every run that ends without a violation
	 * (explore_result.outcomes): a check of the search. */
	bool outcomes;
	/* Record every step of every run anew, not only those after the
	 * branch (the steps before it are the last run's): the same
	 * search, slower; a check of the kept records. */
	bool record_all;
};

struct explore_result {
	uint64_t schedules;	/* runs to their end (maximal or violating) */
	uint64_t blocked;	/* runs cut short: every task left asleep */
	uint64_t events;	/* steps of all runs */
	uint64_t classes;	/* distinct classes among them (opts.classes) */
	bool capped;		/* max_schedules reached: not exhaustive */
	unsigned int violated;	/* bit i: some schedule broke invariant i */
	/* Per invariant, the shortest schedule (schedule bytes, as the
	 * engine reads them) that showed it; malloc'd, NULL if none. */
	uint8_t *sched[NR_INV];
	size_t nsched[NR_INV];
	/* opts.outcomes: the distinct outcomes, sorted; malloc'd. */
	uint64_t *outcomes;
	size_t noutcomes;
};

/*
 * Every schedule of s (its own schedule bytes are ignored) on the model
 * o names, o->choose and o->event_hook being the search's.  Returns 0,
 * or -1 with a one-line reason in err when the engine was not
 * deterministic under replay (a bug).  Free r with explore_result_free().
 */
int explore_scenario(const struct scenario *s, const struct run_opts *o,
		     const struct explore_opts *eo, struct explore_result *r,
		     char *err, size_t errlen);
void explore_result_free(struct explore_result *r);

/*
 * A run's outcome: the multiset of its events (kind, device, phase,
 * error and the event's two numbers), whatever their order.  Runs of
 * one class have the same steps, so the same outcome; a class the search
 * missed shows when a run outside it (a random or naive schedule) ends
 * with an outcome none of the search's runs had.  Sum
 * explore_outcome_event() over a run's events (dpm_run()'s event_hook).
 */
uint64_t explore_outcome_event(const struct dpm_event *ev);
/* Whether h is one of r's outcomes. */
bool explore_has_outcome(const struct explore_result *r, uint64_t h);

/* A variant whose steps the hooks see whole. */
bool explore_variant_visible(const struct pm_variant *v);

#endif
