/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmstress --jobs: J forked worker processes, each its share of the
 * scenarios, each sending one record of its counts through a pipe when
 * it ends.  The parent passes a stop it is asked for (dpm_interrupted())
 * on to the workers, which stop and send what they have.
 */
#ifndef DPM_STRESS_POOL_H
#define DPM_STRESS_POOL_H

#include <stddef.h>
#include <sys/types.h>

struct stress_pool {
	const char *prog;		/* for messages */
	int jobs;			/* 1..256 */
	size_t record_size;
	/* In worker j (forked; parent is the pool's pid): runs the share,
	 * writes one record of record_size bytes to fd, and exits. */
	void (*worker)(int j, pid_t parent, int fd) __attribute__((noreturn));
	/* In the parent, for each record read; ctx is the pool's. */
	void (*collect)(const void *record, void *ctx);
	void *ctx;
};

/*
 * Starts the workers and waits for every one.  Returns the worst exit
 * code a worker gave below 128 (CLI_EXIT_WRITE when one could not be
 * started: the others still run and are collected), and in *sig the
 * signal the pool passed on (0: none).
 */
int stress_pool_run(const struct stress_pool *p, int *sig);

#endif
