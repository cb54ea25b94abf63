/* SPDX-License-Identifier: GPL-2.0-only */
/* The bounds fuzz_seed decodes its inputs with; dpmrepro decodes crash
 * files with the same ones, so a crash file means the same scenario. */
#ifndef DPM_SCENARIO_LIMITS_H
#define DPM_SCENARIO_LIMITS_H

#include "scenario.h"

/* 160 devices: the 141 of the skynet desktop (shared/data) fit; 4 actions, 3 cycles. */
static const struct scn_limits fuzz_limits = {
	.max_devices = 160,
	.max_actions = 4,
	.max_cycles = 3,
};

#endif
