/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The threads engine: every task is a real thread (from a reusable
 * pool), primitives are real mutexes and condition variables, scheduling
 * points add seeded random yields and short sleeps, callback durations
 * are scaled from virtual time, and a watchdog ends a run that outlives
 * its deadline.
 */
#ifndef DPM_ENGINE_THREADS_H
#define DPM_ENGINE_THREADS_H

#include "det.h"
#include "engine.h"

struct threads_config {
	uint64_t seed;		/* perturbation seed */
	unsigned int perturb;	/* 0 none; n: yield at 1 point in n */
	/* Real nanoseconds per virtual microsecond of callback time
	 * (default 1: a virtual second takes a real millisecond). */
	uint64_t ns_per_virtual_us;
	/* Run deadline: dpm_run() adds 2 ms per device and cycle to
	 * it (default 10000). */
	unsigned int watchdog_ms;
	/* Called before the process ends: by the watchdog (then
	 * threads_unfinished() tells what each task waits for), and on a
	 * violation found by the oracle. */
	void (*on_watchdog)(void);
	void (*on_violation)(void);
};

/* Run fn(arg) as the first task until every task has finished.  A run
 * past its deadline never returns: the watchdog reports and exits with
 * DPM_EXIT_LIVENESS. */
enum det_outcome threads_run(void (*fn)(void *), void *arg,
			     const struct threads_config *cfg,
			     struct det_stats *st);

#define DPM_EXIT_VIOLATION 1
#define DPM_EXIT_LIVENESS 3

extern const struct dpm_engine threads_engine;

/* The unfinished tasks, for the wait-for report of a watchdog. */
int threads_unfinished(struct det_task_info *out, int max);

#endif
