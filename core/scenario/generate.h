/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenarios drawn from a seed, shaped like real machines: dpmstress's
 * workload.  Scenario i of a seed is the same on every run and engine.
 *
 * Scenario 0 (unless fixed_size) is directed: sync roots walked one by
 * one while an async device, walked first, fails its suspend.  Every
 * other: a tree of up to max_devices devices (exactly that many with
 * fixed_size; about 10% async, a few PCI, depth growing with size, a
 * few callbacks slow or failing, now and then a resume that unregisters
 * a child), up to two concurrent removals, one to three cycles, 64 to
 * 255 schedule bytes; with the variant's features (links, rpm-suspended
 * leaves, pm-waits, the kernel trees' fields as the decoder reads them)
 * drawn only for a variant that has them.
 */
#ifndef DPM_SCENARIO_GENERATE_H
#define DPM_SCENARIO_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"

struct scn_generator {
	uint64_t seed;
	int max_devices;
	bool fixed_size;
	bool no_worker_limit;	/* every worker limit none */
	/* What the variant's kernel has (its VF_* features): device links,
	 * runtime-suspended devices (direct_complete), pm-waits, the
	 * kernel trees' fields (transitions, levels ...). */
	bool links, rpm, pm_wait, kernel_fields;
};

/* Scenario i of g's seed into s (scenario_free() it). */
void scenario_generate(const struct scn_generator *g, uint64_t i, struct scenario *s);

#endif
