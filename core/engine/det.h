/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The deterministic engine: every task is a fiber, one runs at a time.
 * When more than one task could run, the next schedule byte picks it.
 * Virtual time advances only when no task can run.
 */
#ifndef DPM_ENGINE_DET_H
#define DPM_ENGINE_DET_H

#include "engine.h"

struct det_config {
	const uint8_t *sched;	/* schedule bytes, may be NULL */
	size_t nsched;
	uint64_t step_limit;	/* scheduling points before LIVENESS */
	/* Instead of schedule bytes: a strategy (PCT, seeded random) picks
	 * one of n candidates, given their task ids in candidate order. */
	int (*choose)(void *ctx, int n, const int *ids);
	void *choose_ctx;
};

enum det_outcome {
	DET_DONE,		/* every task finished */
	DET_DEADLOCK,		/* tasks left, none can ever run */
	DET_STEP_LIMIT,		/* the step limit was hit: livelock */
	DET_STOPPED,		/* a task called stop() */
	DET_INTERRUPTED,	/* dpm_interrupt was set (engine.h): abandoned */
};

struct det_stats {
	uint64_t steps;		/* scheduling points passed */
	uint64_t choices;	/* points where more than one task could run */
	uint64_t sched_used;	/* schedule bytes consumed */
	uint64_t switches;
	int tasks;		/* tasks created */
	/* The threads engine only: the most tasks on threads at once, and
	 * the unstarted tasks its host started only when a look
	 * (THREADS_POLL_MS) found every running task blocked, not when
	 * the last one to block woke it. */
	int peak_running;
	int late_starts;
};

/* Run fn(arg) as the first task until every task has finished. */
enum det_outcome det_run(void (*fn)(void *), void *arg,
			 const struct det_config *cfg, struct det_stats *st);

/* After det_run(): the tasks that did not finish, for reports. */
struct det_task_info {
	int id;
	const char *name;
	enum wait_kind kind;	/* WAIT_NONE if runnable or sleeping */
	const void *obj;
	bool sleeping;
};
int det_unfinished(struct det_task_info *out, int max);

/* During a run (a strategy's choose()): the name of task id. */
const char *det_task_name(int id);

/* In an ORDER_BLOCK hook (engine.h): the object the running task is
 * about to wait on (NULL if it named none). */
const void *det_wait_obj(void);

extern const struct dpm_engine det_engine;

/*
 * Step hook of the exhaustive search (core/explore), NULL by default: a
 * task starts a step (at every scheduling point, whether or not another
 * task could run; also for the first task), a task created another
 * (a: creator, b: new task), virtual time moved and woke a sleeper (a),
 * the run is over.
 */
enum det_hook_ev { DH_RUN, DH_SPAWN, DH_TIMER, DH_END };
/* p lies on the stack of the task running now (not the host's): memory
 * no other task sees unless handed a pointer to it. */
bool det_own_stack(const void *p);
extern void (*det_hook)(enum det_hook_ev ev, int a, int b);

#endif
