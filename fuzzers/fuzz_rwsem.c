// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_rwsem: Linus's rw_semaphore scheme for async suspend/resume
 * (core/variants/rwsem.c) with the seed's phases and error handling.
 *
 * Oracle, input and limits are fuzz_seed's (docs/oracle.md,
 * docs/scenario.md): the same bytes decode to the same scenario, so the
 * two targets' corpora are interchangeable and a crash file of either
 * replays on the other with dpmrepro --variant.
 *
 * DPMFUZZ_FIX=<knob,...|all> turns on the seed's error-handling fixes
 * (async-error-order, async-error-once); DPMFUZZ_FIX=list prints them.
 * DPMFUZZ_MAX_DEVICES=N decodes smaller trees.
 */
#include "fuzz_model.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_model_init(&variant_rwsem);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_model_one(data, size);
}
