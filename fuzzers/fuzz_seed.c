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
#include "fuzz_model.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_model_init(&variant_seed);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_model_one(data, size);
}
