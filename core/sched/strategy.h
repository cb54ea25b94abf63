/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The det engine's schedule strategies, in one place: who runs next
 * wherever two or more tasks could.  dpmstress, the fuzz targets,
 * dpmrepro and the minimiser take their strategy from here, with one
 * generator (core/util/rng.h, which dpmrepro's schedule search and the
 * scenario generator use too).  A strategy is a det_config.choose
 * callback (run_opts.choose) with its state as the context.
 *
 *   input   the scenario's schedule bytes, positionally: the k-th choice
 *           takes byte k (the det engine's own rule, core/engine/det.c);
 *           no callback.
 *   random  each choice uniform among the candidates, from a seed.
 *   pct     PCT (Burckhardt et al., ASPLOS 2010): a random priority per
 *           task, the highest runs; at d - 1 random steps the running
 *           task drops below every other.
 *   keyed   PCT with the priorities and change points read from the
 *           scenario's schedule bytes by task: a task's bytes are found
 *           by a hash of its key (dpm_task_key()), not by the position
 *           of a choice, so a mutation that adds a device, a removal or
 *           a step leaves every other task's priority where it was.
 *
 * Every strategy but input records its choices as schedule bytes
 * (candidate indices), so that a run it drove replays from the scenario
 * with those bytes alone (rec_exact: no choice had over 256 candidates).
 */
#ifndef DPM_SCHED_STRATEGY_H
#define DPM_SCHED_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../scenario/scenario.h"
#include "../util/rng.h"

enum dpm_strategy_kind { STRAT_BYTES, STRAT_RANDOM, STRAT_PCT, STRAT_KEYED };

/* The strategies' names, in enum dpm_strategy_kind's order and ended by
 * NULL ("input", "random", "pct", "keyed": dpmstress --strategy). */
extern const char *const dpm_strategy_names[];

static inline const char *dpm_strategy_name(enum dpm_strategy_kind k)
{
	return dpm_strategy_names[k];
}

/* A task's key, the same in every run of a scenario and across
 * mutations of it: an async job's name without its cookie
 * ("async:dev3"), "hotplug" for every removal task (they are numbered by
 * action), the others by name. */
void dpm_task_key(int id, char *buf, size_t n);

struct dpm_strategy {
	enum dpm_strategy_kind kind;
	uint64_t rng;
	/* pct and keyed: per task id, its priority, how many choices it
	 * was the running candidate of, and after how many it drops (0:
	 * never). */
	struct dpm_task_prio {
		int64_t prio, base;	/* now, and before any drop */
		uint32_t seen, drop_at;
		bool known;
	} *task;
	int ntask;
	uint64_t step, change[16];
	int nchange;
	int64_t low;
	/* keyed: the schedule bytes read by task. */
	const uint8_t *bytes;
	size_t nbytes;
	/* The choices made. */
	uint8_t *rec;
	size_t nrec, rec_cap;
	bool rec_exact;
};

typedef int (*dpm_choose_fn)(void *ctx, int n, const int *ids);

/*
 * Start a run of s with strategy kind: seed drives random and pct; pct
 * has depth - 1 change points (1..17) spread over the choices a run of
 * s is expected to make; keyed reads s's schedule bytes.  Returns the
 * callback to run with st as its context: NULL for input, and for keyed
 * when s has no schedule bytes (the det engine's default rule).
 */
dpm_choose_fn dpm_strategy_start(struct dpm_strategy *st, enum dpm_strategy_kind kind,
				 uint64_t seed, int depth, const struct scenario *s);

/* The buffers st holds (it can start again after). */
void dpm_strategy_free(struct dpm_strategy *st);

#endif
