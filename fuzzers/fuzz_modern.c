// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_modern: the algorithm of Linux 6.12 (core/variants/modern.c): eight
 * phases, async in the six middle ones, device links, direct_complete,
 * async_schedule_dev_nocall(), device_pm_wait_for_dev().
 *
 * Oracle: the invariants of docs/oracle.md, with suppliers ordered like
 * parents, consumers like children, and the direct_complete rules.
 *
 * Input: the bytes of fuzz_seed (core/scenario/decode.c); the device
 * links, rpm-suspended devices and pm-waits the bytes encode are used
 * here (the seed variant leaves them out).  Knobs: DPMFUZZ_FIX=list.
 * The target's body is in variant_target.h.
 */
#define FUZZ_VARIANT variant_modern
#include "variant_target.h"
