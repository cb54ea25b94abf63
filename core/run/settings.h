/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The DPMFUZZ_* environment, read in one place.  The fuzz targets have
 * no command line of their own (libFuzzer's is libFuzzer's), so their
 * settings come from here; dpmrepro and dpmstress read the same ones so
 * that a crash file means the same scenario to all of them
 * (docs/fuzzing.md lists every variable).
 */
#ifndef DPM_RUN_SETTINGS_H
#define DPM_RUN_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "../scenario/limits.h"

struct dpm_env {
	const char *fix;		/* DPMFUZZ_FIX, NULL when unset */
	/* fuzz_limits with DPMFUZZ_MAX_DEVICES=N (1..160) and
	 * DPMFUZZ_NO_WORKER_LIMIT=1 applied. */
	struct scn_limits limits;
	const char *max_devices;	/* as set (NULL: unset), for the */
	const char *no_worker_limit;	/* reproduce lines */
	const char *schedule_by;	/* DPMFUZZ_SCHEDULE_BY=task|position|mixed */
	bool interleaving;		/* DPMFUZZ_INTERLEAVING=1 */
	/* DPMFUZZ_MUTATOR=N: the share in percent of the fuzz targets'
	 * mutations that are structure-aware (core/scenario/mutate.h); the
	 * rest are libFuzzer's byte mutations. */
	int mutator;
};

/* DPMFUZZ_MUTATOR's default (docs/fuzzing.md, "The structure-aware
 * mutator", has the measurement that chose it). */
#define DPM_MUTATOR_DEFAULT 0

/* Reads every DPMFUZZ_* variable: 0, or -1 with a one-line reason in
 * err ("DPMFUZZ_MAX_DEVICES must be 1..160, not 'x'"). */
int dpm_env_read(struct dpm_env *e, char *err, size_t errlen);

struct pm_variant;

/* A variant fuzzed without a worker limit (struct pm_variant's
 * no_worker_limit): DPMFUZZ_NO_WORKER_LIMIT=1 for it, unless the
 * environment sets that variable; the reproduce lines then carry it. */
void dpm_env_variant(struct dpm_env *e, const struct pm_variant *v);

/* DPMFUZZ_SCHEDULE_BY's default: how the schedule bytes of an input are
 * read (docs/fuzzing.md, "Schedules by task", has the measurement that
 * chose it). */
#define DPM_SCHEDULE_BY_DEFAULT SCHED_BY_POSITION

/* "DPMFUZZ_MAX_DEVICES=16 DPMFUZZ_NO_WORKER_LIMIT=1
 * DPMFUZZ_SCHEDULE_BY=task " (each part only when set): what a
 * reproduce line must put before dpmrepro. */
void dpm_env_prefix(const struct dpm_env *e, char *buf, size_t n);

#endif
