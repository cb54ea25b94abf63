// SPDX-License-Identifier: GPL-2.0-only
/* Generated scenarios (generate.h). */
#include "generate.h"

#include <errno.h>
#include <stdlib.h>

#include "../util/rng.h"
#include "../util/str.h"
#include "../util/xalloc.h"

/* A slow callback's time, us. */
static const unsigned int slow[] = { 100000, 500000, 800000, 2000000 };

/*
 * Scenario 0 of every seed is directed: sync roots walked one by one
 * while an async device, walked first, fails its suspend.  Whatever the
 * fixes, it never breaks an ordering rule, and it is the shape in which
 * the walk's reads of async_error meet the async thread's write (the
 * data race ThreadSanitizer reports in the seed as posted).
 */
static void generate_directed(const struct scn_generator *g, struct scenario *s)
{
	scenario_init(s);
	s->ndev = g->max_devices < 33 ? g->max_devices : 33;
	s->dev = calloc((size_t)s->ndev, sizeof(*s->dev));
	s->act = calloc(1, sizeof(*s->act));
	if (!s->dev || !s->act)
		abort();
	for (int d = 0; d < s->ndev; d++) {
		struct scn_device *v = &s->dev[d];

		scn_device_init(v);
		dpm_name_index(v->name, sizeof(v->name), "dev", d);
		v->beh.dur_us[PH_SUSPEND] = 50000;
	}
	struct scn_device *last = &s->dev[s->ndev - 1];

	last->async = true;
	last->beh.dur_us[PH_SUSPEND] = 200000;
	last->beh.err[PH_SUSPEND] = -EIO;
}

void scenario_generate(const struct scn_generator *g, uint64_t i, struct scenario *s)
{
	uint64_t r = g->seed * 0x100000001b3ULL ^ (i + 1) * 0x9e3779b97f4a7c15ULL;

	if (i == 0 && !g->fixed_size) {
		generate_directed(g, s);
		return;
	}
	scenario_init(s);
	s->pm_async = dpm_rng_below(&r, 10) != 0;
	s->pm_trace = dpm_rng_below(&r, 20) == 0;
	s->cycles = 1 + (int)dpm_rng_below(&r, 3);
	s->inline_every = dpm_rng_below(&r, 8) == 0 ? 2 + (unsigned)dpm_rng_below(&r, 4) : 0;
	s->worker_limit = dpm_rng_below(&r, 8) == 0 ? 1 + (unsigned)dpm_rng_below(&r, 4) : 0;
	if (g->no_worker_limit)	/* as the fuzz targets decode */
		s->worker_limit = 0;
	s->ndev = g->fixed_size ? g->max_devices : 1 + (int)dpm_rng_below(&r, g->max_devices);
	s->dev = calloc((size_t)s->ndev, sizeof(*s->dev));
	if (!s->dev)
		abort();
	for (int d = 0; d < s->ndev; d++) {
		struct scn_device *v = &s->dev[d];

		scn_device_init(v);
		dpm_name_index(v->name, sizeof(v->name), "dev", d);
		/* Roots are rare; a parent is usually recent, so depth grows
		 * slowly with size, as on real machines. */
		if (d == 0 || dpm_rng_below(&r, 50) == 0)
			v->parent = -1;
		else
			v->parent = d - 1 - (int)dpm_rng_below(&r, d < 16 ? d : 16);
		v->async = dpm_rng_below(&r, 10) == 0;
		v->pci = dpm_rng_below(&r, 20) == 0;
		for (int p = 0; p < NR_PHASES; p++)
			v->beh.dur_us[p] = (unsigned)dpm_rng_below(&r, 20);
		if (dpm_rng_below(&r, 100) < 2)
			v->beh.dur_us[PH_SUSPEND] = slow[dpm_rng_below(&r, 4)];
		if (dpm_rng_below(&r, 100) < 2)
			v->beh.dur_us[PH_RESUME] = slow[dpm_rng_below(&r, 4)];
		/* Failures: rare, more so in sync devices; an async device's
		 * failure is the path that touches async_error. */
		if (dpm_rng_below(&r, v->async ? 6 : 60) == 0)
			v->beh.err[v->async ? PH_SUSPEND : dpm_rng_below(&r, 4)] =
				scn_err_table[dpm_rng_below(&r, 4)];
	}
	/* The variant's kernel features (modern): device links to earlier
	 * devices, runtime-suspended leaves of the tree, pm-waits.  Drawn
	 * only for such a variant, so the others' scenarios stay as they
	 * were. */
	for (int d = 0; (g->links || g->rpm || g->pm_wait) && d < s->ndev; d++) {
		struct scn_device *v = &s->dev[d];

		if (g->links && d && dpm_rng_below(&r, 8) == 0)
			v->sup[v->nsup++] = (int)dpm_rng_below(&r, (uint64_t)d);
		if (g->rpm && dpm_rng_below(&r, 4) == 0)
			v->beh.rpm_suspended = true;
		if (g->pm_wait && dpm_rng_below(&r, 30) == 0) {
			int t = (int)dpm_rng_below(&r, (uint64_t)s->ndev);

			if (t != d)
				v->beh.pm_wait_for = t + 1;
		}
	}
	/* The kernel trees' features (transitions, wake-ups, DPM flags,
	 * levels, syscore, late devices ...), drawn as the fuzz targets'
	 * decoder reads them; a third of the devices get some. */
	if (g->kernel_fields) {
		uint8_t *b = dpm_xcalloc((size_t)s->ndev * 2, 1);

		for (int d = 0; d < s->ndev; d++)
			if (dpm_rng_below(&r, 3) == 0) {
				b[2 * d] = (uint8_t)dpm_rng_next(&r);
				b[2 * d + 1] = (uint8_t)dpm_rng_next(&r);
			}
		scenario_add_kernel_features(s, (uint8_t)dpm_rng_next(&r), b);
		free(b);
	}
	for (int d = 0; d < s->ndev; d++) {
		/* A resume callback now and then unregisters a child. */
		if (dpm_rng_below(&r, 100))
			continue;
		for (int c = d + 1; c < s->ndev && c < d + 64; c++) {
			if (s->dev[c].parent == d) {
				s->dev[d].beh.remove_phase = PH_RESUME;
				s->dev[d].beh.remove_target = c;
				break;
			}
		}
	}
	s->nact = (int)dpm_rng_below(&r, 3);
	s->act = calloc((size_t)s->nact + 1, sizeof(*s->act));
	if (!s->act)
		abort();
	for (int a = 0; a < s->nact; a++) {
		s->act[a].kind = ACT_UNREGISTER;
		s->act[a].dev = (int)dpm_rng_below(&r, s->ndev);
		s->act[a].at = dpm_rng_below(&r, 3000000);
	}
	s->nsched = 64 + (size_t)dpm_rng_below(&r, 192);
	s->sched = malloc(s->nsched);
	if (!s->sched)
		abort();
	for (size_t k = 0; k < s->nsched; k++)
		s->sched[k] = (uint8_t)dpm_rng_next(&r);
	/* Drawn last, so that everything before stays as it was: half the
	 * removals by a task the freezer leaves running (the run keeps it
	 * for a subtree without drivers, docs/scenario.md). */
	for (int a = 0; g->kernel_fields && a < s->nact; a++)
		s->act[a].unfrozen = dpm_rng_below(&r, 2);
}
