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
 * The target's body is in variant_target.h.
 */
#define FUZZ_VARIANT variant_rwsem
#include "variant_target.h"
