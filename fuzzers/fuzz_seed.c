// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_seed: the 2.6.33 async suspend/resume of the seed patches.
 *
 * Oracle: every device suspends after its children and resumes after its
 * parent, each callback runs once per phase, a failed suspend is rolled
 * back and reported, no callback runs for a removed device, phases are
 * barriers, async off means list order, references balance, and every
 * transition ends (docs/oracle.md has the exact rules).
 *
 * Input: the bytes decode to a scenario (core/scenario/decode.c): three
 * configuration bytes, five bytes per device, the concurrent actions,
 * then schedule bytes that pick the next task wherever two or more could
 * run.  Every input is valid.
 *
 * Limits (scenario/limits.h): 160 devices (the real 141-device desktop of
 * shared/data fits), 4 actions and 3 cycles per input keep one execution
 * around a millisecond at most; the model itself has no such bounds.
 *
 * DPMFUZZ_FIX=<knob,...|all> turns kernel fixes on; DPMFUZZ_FIX=list
 * prints the knobs.  DPMFUZZ_MAX_DEVICES=N decodes smaller trees (the
 * benchmarks use 16); dpmrepro reads it too, so a crash found
 * under it replays under it.  On a violation the report goes to stderr and the
 * target aborts, so libFuzzer keeps the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "run/run.h"
#include "scenario/limits.h"

static struct run_opts opts;
static struct scn_limits limits;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	opts.variant = &variant_seed;
	opts.fixes = dpm_fixes_from_env(&variant_seed);
	limits = fuzz_limits_from_env();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run_result r;
	struct scenario s;

	scenario_decode(data, size, &limits, &s);
	dpm_run(&s, &opts, &r);
	if (r.violated) {
		fflush(stdout);
		dpm_report(&s, &opts, stderr, 80, NULL);
		char fixes[512];
		const char *max = getenv("DPMFUZZ_MAX_DEVICES");

		knobs_format(opts.variant, opts.fixes, fixes, sizeof(fixes));
		/* The bytes mean the same scenario only under the same limit. */
		fprintf(stderr,
			"--- reproduce: %s%s%sdpmrepro --variant %s --fix %s CRASH-FILE\n",
			max ? "DPMFUZZ_MAX_DEVICES=" : "", max ? max : "",
			max ? " " : "", opts.variant->name, fixes);
		fflush(stderr);
		abort();
	}
	scenario_free(&s);
	return 0;
}
