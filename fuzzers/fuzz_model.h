/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The body of a model fuzz target (fuzz_seed, fuzz_rwsem): bytes to a
 * scenario, one run of the variant, the oracle's verdict.  A violation is
 * reported on stderr (the scenario as text, the trace tail, the command
 * that replays it) and the target aborts, so libFuzzer keeps the input.
 * DPMFUZZ_FIX and DPMFUZZ_MAX_DEVICES are read once, at initialisation.
 */
#ifndef DPM_FUZZ_MODEL_H
#define DPM_FUZZ_MODEL_H

#include <stdio.h>
#include <stdlib.h>

#include "run/run.h"
#include "scenario/limits.h"

static struct run_opts fuzz_opts;
static struct scn_limits fuzz_scn_limits;

static inline void fuzz_model_init(const struct pm_variant *v)
{
	fuzz_opts.variant = v;
	fuzz_opts.fixes = dpm_fixes_from_env(v);
	fuzz_scn_limits = fuzz_limits_from_env();
}

static inline int fuzz_model_one(const uint8_t *data, size_t size)
{
	static struct run_result r;
	struct scenario s;

	scenario_decode(data, size, &fuzz_scn_limits, &s);
	dpm_run(&s, &fuzz_opts, &r);
	if (r.violated) {
		fflush(stdout);
		dpm_report(&s, &fuzz_opts, stderr, 80, NULL);
		char fixes[512];

		knobs_format(fuzz_opts.variant, fuzz_opts.fixes, fixes,
			     sizeof(fixes));
		fprintf(stderr,
			"--- reproduce: dpmrepro --variant %s --fix %s CRASH-FILE\n",
			fuzz_opts.variant->name, fixes);
		fflush(stderr);
		abort();
	}
	scenario_free(&s);
	return 0;
}

#endif
