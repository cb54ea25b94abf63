/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The body of a one-variant fuzz target (fuzz_seed, fuzz_modern, ...):
 * define FUZZ_VARIANT to the variant and include this file.
 *
 * DPMFUZZ_FIX=<knob,...|all> turns kernel fixes on; DPMFUZZ_FIX=list
 * prints the knobs.  DPMFUZZ_MAX_DEVICES=N decodes smaller trees (the
 * benchmarks use 16); dpmrepro reads it too, so a crash found under it
 * replays under it.  On a violation the report goes to stderr, ending
 * with the dpmrepro command that reproduces it, and the target aborts,
 * so libFuzzer keeps the input.
 *
 * Interleaving feedback: the oracle's events bump libFuzzer extra
 * counters (run_opts.order_counters), so an input reaching a new order of
 * callbacks is kept though it covers no new line.  Off by default: the
 * bug benchmark found it slower to every bug, significantly so to three
 * (docs/fuzzing.md); DPMFUZZ_INTERLEAVING=1 turns it on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "scenario/limits.h"

static struct run_opts opts;
static struct scn_limits limits;
/* libFuzzer reads this section as extra coverage counters; with another
 * driver it is an ordinary array. */
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t order_counters[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	opts.variant = &FUZZ_VARIANT;
	opts.fixes = dpm_fixes_from_env(&FUZZ_VARIANT);
	limits = fuzz_limits_from_env();
	const char *il = getenv("DPMFUZZ_INTERLEAVING");

	if (il && strcmp(il, "0") && strcmp(il, "1")) {
		fprintf(stderr, "dpmfuzz: DPMFUZZ_INTERLEAVING must be 0 or 1, not '%s'\n", il);
		exit(2);
	}
	if (il && !strcmp(il, "1")) {
		opts.order_counters = order_counters;
		opts.norder_counters = sizeof(order_counters);
	}
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
		const char *nowl = getenv("DPMFUZZ_NO_WORKER_LIMIT");

		knobs_format(opts.variant, opts.fixes, fixes, sizeof(fixes));
		/* The bytes mean the same scenario only under the same limits. */
		fprintf(stderr,
			"--- reproduce: %s%s%s%s%s%sdpmrepro --variant %s --fix %s CRASH-FILE\n",
			max ? "DPMFUZZ_MAX_DEVICES=" : "", max ? max : "",
			max ? " " : "",
			nowl ? "DPMFUZZ_NO_WORKER_LIMIT=" : "", nowl ? nowl : "",
			nowl ? " " : "", opts.variant->name, fixes);
		fflush(stderr);
		abort();
	}
	scenario_free(&s);
	return 0;
}
