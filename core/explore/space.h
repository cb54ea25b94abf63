/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scenarios of a bound, each once (docs/exhaustive.md, "What is
 * enumerated"): every device forest in registration (dpm_list) order up
 * to N devices, every async flag assignment, and every placement of at
 * most E injected errors and R removals; cycles, the async pool's
 * settings and the features the variant's kernel has (links,
 * runtime-suspended devices, pm-waits) within their own bounds.  Only
 * settings that provably cannot change a run are left out.
 *
 * The space is cut into chunks, one per (device count, forest, async
 * flags, pm_async): the unit of work of dpmcheck's workers and of its
 * state file.  Chunk c's scenarios always come in the same order.
 */
#ifndef DPM_EXPLORE_SPACE_H
#define DPM_EXPLORE_SPACE_H

#include <stdbool.h>
#include <stddef.h>

#include "../scenario/scenario.h"

struct space_bound {
	int devices;		/* 1 .. devices devices */
	int errors;		/* injected callback errors, at most */
	int removals;		/* unregistrations (hotplug or a callback's) */
	int hotplug;		/* of which by a hotplug task, at most */
	int cycles;		/* 1 .. cycles transitions per run */
	int links;		/* supplier links in all (VF_LINKS) */
	int rpm;		/* runtime-suspended devices (VF_DIRECT_COMPLETE) */
	int pm_waits;		/* devices whose driver waits for another (VF_PM_WAIT) */
	int inline_every;	/* inline_every 0 .. this */
	int workers;		/* worker_limit 0 .. this */
	bool pm_trace;		/* pm_trace 1 too */
	bool pm_async_off;	/* pm_async 0 too */
	bool all_errnos;	/* -EIO -EBUSY -ENODEV -ENOMEM, else -EIO */
	unsigned int features;	/* the variant's VF_* */
};

struct space {
	struct space_bound b;
	int nphases;
	int phases[8];
	int nerrnos;
	int errnos[4];
};

void space_init(struct space *sp, const struct space_bound *b);
long space_chunks(const struct space *sp);
/* Device count of chunk c. */
int space_chunk_devices(const struct space *sp, long c);
/* fn on every scenario of chunk c, in order; returns how many.  The
 * scenario lives only during the call. */
long space_chunk_foreach(const struct space *sp, long c,
			 void (*fn)(const struct scenario *s, void *ctx),
			 void *ctx);
/* Scenarios of chunk c, without building them. */
long space_chunk_count(const struct space *sp, long c);

/* How many settings a scenario has beyond its tree and async flags
 * (errors, removals, links, ..., cycles beyond one): with the device
 * count, what "smallest" means. */
int space_features(const struct scenario *s);

/* "devices<=3 errors<=1 ..." */
void space_bound_format(const struct space_bound *b, char *buf, size_t n);

#endif
