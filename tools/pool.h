/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The programs' one worker pool (dpmstress --jobs, dpmcheck -j): J
 * forked worker processes take tasks 0..N-1 in order as each frees up,
 * and send each task's result back through a pipe; the parent collects
 * the results as they come.  dpmstress has one task per worker (its
 * share of the scenarios), dpmcheck one per chunk of its space.
 */
#ifndef DPM_POOL_H
#define DPM_POOL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct worker_pool {
	const char *prog;		/* for messages */
	int jobs;			/* 1..256 */
	long ntasks;
	/* In each worker, once, after fork(); parent is the pool's pid.
	 * NULL: nothing. */
	void (*worker_init)(pid_t parent, void *ctx);
	/* In a worker: runs task t and writes its result to out.  Returns
	 * an exit code; the worker exits with the worst below 128 when it
	 * has no more tasks, or at once with one of 128 and up. */
	int (*run)(long t, FILE *out, void *ctx);
	/* In the parent: reads task t's result from in.  Nonzero: there was
	 * none (the worker died). */
	int (*collect)(long t, FILE *in, void *ctx);
	/* In the parent, before each task is handed out: true skips it (a
	 * task done by an earlier session).  NULL: none is. */
	bool (*skip)(long t, void *ctx);
	/* In the parent: true hands out no more tasks (a time limit, a
	 * signal the program caught itself); the busy workers finish.  NULL:
	 * never. */
	bool (*stop)(void *ctx);
	/* A stop signal the parent is asked for (dpm_interrupted()) is
	 * passed on to the workers, which stop and send what they have;
	 * false: the workers ignore SIGINT and finish their task. */
	bool forward_signals;
	void *ctx;
};

/*
 * Runs every task not skipped, until done or stopped, and waits for
 * every worker.  Returns the worst exit code a worker gave below 128
 * (CLI_EXIT_WRITE when one could not be started: the others still run),
 * and in *sig the signal passed on (0: none).  A result that cannot be
 * collected ends the program (one line, exit 2).
 */
int pool_run(const struct worker_pool *p, int *sig);

#endif
