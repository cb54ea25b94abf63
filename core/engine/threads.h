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
	/* Called, from the host thread, when dpm_interrupt is set (engine.h)
	 * while tasks run: it must end the process (the tasks' threads
	 * cannot be unwound); NULL: exit 128 + the signal's number. */
	void (*on_interrupt)(int sig) __attribute__((noreturn));
};

/* How often the host thread looks whether every running task is blocked
 * while others wait, and at dpm_interrupt, while a run goes on. */
#define THREADS_POLL_MS 5

/* Run fn(arg) as the first task until every task has finished.  A run
 * past its deadline never returns: the watchdog reports and exits with
 * DPM_EXIT_LIVENESS; nor does an interrupted one (on_interrupt). */
enum det_outcome threads_run(void (*fn)(void *), void *arg,
			     const struct threads_config *cfg,
			     struct det_stats *st);

#define DPM_EXIT_VIOLATION 1
#define DPM_EXIT_LIVENESS 3

extern const struct dpm_engine threads_engine;

/* The unfinished tasks, for the wait-for report of a watchdog. */
int threads_unfinished(struct det_task_info *out, int max);

#endif
