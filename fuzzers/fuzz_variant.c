// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_<variant>: one fuzz target per registered variant, built from this
 * file with FUZZ_VARIANT_NAME set (fuzzers/CMakeLists.txt; the registry
 * is core/variants/variants.cmake): fuzz_seed, fuzz_rwsem, fuzz_modern,
 * fuzz_modern_6.16 (modern-6.16: without worker limits, see below),
 * and fuzz_kernel_<version> for each kernel tree configured.
 *
 * Oracle: every device suspends after its children (and consumers) and
 * resumes after its parent (and suppliers), each callback runs once per
 * phase, a failed suspend is rolled back and reported, no callback runs
 * for a removed device, phases are barriers, async off means list order,
 * references balance, and every transition ends (docs/oracle.md has the
 * exact rules).
 *
 * Input: the bytes decode to a scenario (core/scenario/decode.c,
 * docs/scenario.md): configuration bytes, five bytes per device, the
 * concurrent actions, then schedule bytes that pick the next task
 * wherever two or more could run.  Every input is valid; the features a
 * variant's kernel lacks are left out of its runs (the registry says
 * which it has).
 *
 * Limits (core/scenario/limits.h): 160 devices (the real 141-device
 * desktop of shared/data fits), 4 actions and 3 cycles per input keep one
 * execution around a millisecond at most; the model itself has no such
 * bounds.
 *
 * Settings (core/run/settings.h, docs/fuzzing.md): DPMFUZZ_FIX=<knob,...|
 * all> turns kernel fixes on, DPMFUZZ_FIX=list prints the knobs;
 * DPMFUZZ_MAX_DEVICES=N decodes smaller trees (the benchmarks use 16);
 * DPMFUZZ_NO_WORKER_LIMIT=1 decodes every worker limit as none (the
 * default of a variant whose scheme deadlocks under one: modern-6.16);
 * DPMFUZZ_INTERLEAVING=1 turns on interleaving feedback: the oracle's
 * events bump libFuzzer extra counters, so an input reaching a new order
 * of callbacks is kept though it covers no new line (off by default: the
 * bug benchmark found it slower, docs/fuzzing.md); DPMFUZZ_MUTATOR=N
 * makes N percent of the mutations structure-aware (0: libFuzzer's byte
 * mutations only); DPMFUZZ_SCHEDULE_BY=position|task|mixed says how the
 * schedule bytes are read (core/sched/strategy.h; the run reads them,
 * and the reproduce line carries the setting).
 *
 * Mutator: LLVMFuzzerCustomMutator decodes the input, changes the
 * scenario (a device added, removed or moved, async, an error, a
 * removal, the configuration, the schedule: core/scenario/mutate.h) and
 * encodes it back, N percent of the time; otherwise, or when the result
 * would not fit, libFuzzer's own byte mutations.  LLVMFuzzerCustomCrossOver
 * splices two scenarios (a subtree, a schedule, a configuration).  On a violation the
 * report goes to stderr, ending with the dpmrepro command that
 * reproduces it, and the target aborts, so libFuzzer keeps the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "run/settings.h"
#include "scenario/mutate.h"

static struct run_opts opts;
static struct dpm_env env;
/* libFuzzer reads this section as extra coverage counters; with another
 * driver it is an ordinary array. */
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t order_counters[4096];

/* libFuzzer's byte mutations; absent with another driver, which never
 * calls the custom mutator either. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
	__attribute__((weak));
/* What of a scenario the mutator changes: the fields the variant reads. */
static unsigned int mutate_mask;

static void die(const char *what)
{
	fprintf(stderr, "dpmfuzz: %s\n", what);
	exit(2);
}

/* The line that replays an input: after the oracle's report, and once
 * at the start, for a sanitizer's report (which ends the process before
 * the oracle sees anything: the replay shows the oracle's view and its
 * trace).  libFuzzer owns the sanitizers' death callback. */
static void print_reproduce(const char *when)
{
	char fixes[KNOBS_TEXT_MAX], prefix[128];

	knobs_format(opts.variant, opts.fixes, fixes, sizeof(fixes));
	/* The bytes mean the same scenario only under the same limits. */
	dpm_env_prefix(&env, prefix, sizeof(prefix));
	fprintf(stderr,
		"%s%sdpmrepro --variant %s --fix %s --bytes CRASH-FILE\n",
		when, prefix, opts.variant->name, fixes);
	fflush(stderr);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[256];
	const char *bad;
	size_t badlen;

	(void)argc;
	(void)argv;
	opts.variant = variant_find(FUZZ_VARIANT_NAME);
	if (!opts.variant)
		die("this target's variant " FUZZ_VARIANT_NAME " is not in the registry");
	if (dpm_env_read(&env, err, sizeof(err)))
		die(err);
	dpm_env_variant(&env, opts.variant);
	if (env.fix && !strcmp(env.fix, "list")) {
		knobs_list(opts.variant, stdout);
		exit(0);
	}
	if (env.fix && knobs_parse(opts.variant, env.fix, &opts.fixes, &bad,
				   &badlen) < 0) {
		snprintf(err, sizeof(err),
			 "DPMFUZZ_FIX: no knob '%.*s' in variant %s (DPMFUZZ_FIX=list shows them)",
			 (int)(badlen > 60 ? 60 : badlen), bad, opts.variant->name);
		die(err);
	}
	print_reproduce("dpmfuzz: " FUZZ_VARIANT_NAME ": a crash of this run replays with: ");
	mutate_mask = SCN_MUT_ALL;
	if (!(opts.variant->features & VF_LINKS))
		mutate_mask &= ~SCN_MUT_LINKS;
	if (!(opts.variant->features & VF_PM_WAIT))
		mutate_mask &= ~SCN_MUT_PM_WAIT;
	if (!(opts.variant->features & VF_DIRECT_COMPLETE))
		mutate_mask &= ~SCN_MUT_RPM;
	if (!(opts.variant->features & VF_LATE_EARLY))
		mutate_mask &= ~SCN_MUT_LATE_EARLY;
	if (!(opts.variant->features & (VF_TRANSITIONS | VF_WAKEUP)))
		mutate_mask &= ~SCN_MUT_TRANSITION;
	if (!(opts.variant->features & (VF_PM_STACK | VF_LATE_ADD |
					VF_LINK_FLAGS | VF_WAKEUP)))
		mutate_mask &= ~SCN_MUT_KERNEL;
	if (env.interleaving) {
		opts.order_counters = order_counters;
		opts.norder_counters = sizeof(order_counters);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run_result r;
	struct scenario s;

	scenario_decode(data, size, &env.limits, &s);
	dpm_run(&s, &opts, &r);
	if (r.violated) {
		fflush(stdout);
		dpm_report(&s, &opts, stderr, 80, NULL);
		print_reproduce("--- reproduce: ");
		abort();
	}
	scenario_free(&s);
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	size_t n = 0;

	if (seed % 100 < (unsigned int)env.mutator)
		n = scenario_mutate_bytes(data, size, data, max_size, &env.limits,
					  mutate_mask, seed / 100);
	return n ? n : LLVMFuzzerMutate(data, size, max_size);
}

/* libFuzzer picks this as often as the mutator above, and picks again
 * when it returns 0: so a splice is a quarter as likely as a
 * structure-aware mutation (one in five mutations at DPMFUZZ_MUTATOR=100;
 * libFuzzer's byte mutations splice inputs too). */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
				 const uint8_t *data2, size_t size2,
				 uint8_t *out, size_t max_out_size,
				 unsigned int seed)
{
	if (seed % 400 >= (unsigned int)env.mutator)
		return 0;
	return scenario_crossover_bytes(data1, size1, data2, size2, out,
					max_out_size, &env.limits, seed / 400);
}
