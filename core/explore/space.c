// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenarios of a bound (space.h).  A chunk fixes the device count,
 * the forest (parent[i] < i: registration order is dpm_list order, so
 * each parent array is its own canonical form), the async flags and
 * pm_async; inside it the generator nests, outermost first: pm_trace,
 * cycles, inline_every, worker_limit, links, runtime-suspended devices,
 * pm-waits, errors, removals.
 *
 * Left out because they cannot change a run (docs/exhaustive.md says
 * why): device names; durations (all zero: virtual time only orders
 * sleepers, and every schedule with durations is one without); hotplug
 * times other than the start of each cycle; pm_trace, inline_every and
 * worker_limit without an async device; async flags with pm_async off;
 * runtime-suspended sets that dpm_cut() would shrink; features the
 * variant's kernel lacks.
 */
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/xalloc.h"
#include "../variants/variant.h"

static long factorial(int n)
{
	long f = 1;

	for (int i = 2; i <= n; i++)
		f *= i;
	return f;
}

void space_init(struct space *sp, const struct space_bound *b)
{
	static const int errs[4] = { -EIO, -EBUSY, -ENODEV, -ENOMEM };

	memset(sp, 0, sizeof(*sp));
	sp->b = *b;
	for (int p = 0; p < NR_PHASES; p++) {
		if (!(b->features & VF_LATE_EARLY) &&
		    (p == PH_SUSPEND_LATE || p == PH_RESUME_EARLY))
			continue;
		sp->phases[sp->nphases++] = p;
	}
	sp->nerrnos = b->all_errnos ? 4 : 1;
	memcpy(sp->errnos, errs, sizeof(errs));
}

static long chunks_of(const struct space *sp, int n)
{
	return factorial(n) * ((1L << n) + (sp->b.pm_async_off ? 1 : 0));
}

long space_chunks(const struct space *sp)
{
	long c = 0;

	for (int n = 1; n <= sp->b.devices; n++)
		c += chunks_of(sp, n);
	return c;
}

/* Chunk c as (n, forest index, flags, pm_async). */
static int chunk_decode(const struct space *sp, long c, long *tree,
			unsigned int *mask, bool *pm_async)
{
	int n;

	for (n = 1; n <= sp->b.devices; n++) {
		long k = chunks_of(sp, n);

		if (c < k)
			break;
		c -= k;
	}
	if (n > sp->b.devices)
		return -1;
	long per = (1L << n) + (sp->b.pm_async_off ? 1 : 0);

	*tree = c / per;
	c %= per;
	*pm_async = c < (1L << n);
	*mask = *pm_async ? (unsigned int)c : 0;
	return n;
}

int space_chunk_devices(const struct space *sp, long c)
{
	long t;
	unsigned int m;
	bool pa;

	return chunk_decode(sp, c, &t, &m, &pa);
}

/* ---- the generator ---- */

struct gen {
	const struct space *sp;
	struct scenario s;
	int n;
	void (*fn)(const struct scenario *s, void *ctx);
	void *ctx;
	long count;
	bool dry;		/* count only */
	int nlinks, nrpm, npmw, nerr, nrem;
};

static bool is_desc(const struct scenario *s, int d, int anc)
{
	for (int p = s->dev[d].parent; p >= 0; p = s->dev[p].parent)
		if (p == anc)
			return true;
	return false;
}

static void emit(struct gen *g)
{
	g->count++;
	if (!g->dry)
		g->fn(&g->s, g->ctx);
}

/* Removals: hotplug (device d at the start of cycle c) or a callback of
 * device i in phase ph unregistering its descendant j, one per device. */
static void gen_removals(struct gen *g, int from, int left, int hot)
{
	static const int rphases[4] = { PH_PREPARE, PH_SUSPEND, PH_RESUME,
					PH_COMPLETE };
	const int n = g->n;
	const int nhot = n * g->s.cycles;

	emit(g);
	if (!left)
		return;
	for (int o = from; o < nhot + n * 4 * n; o++) {
		if (o < nhot && !hot) {
			o = nhot - 1;
			continue;
		}
		if (o < nhot) {
			struct scn_action *a = &g->s.act[g->s.nact++];

			memset(a, 0, sizeof(*a));
			a->kind = ACT_UNREGISTER;
			a->dev = o % n;
			/* Time moves only between cycles (1 us each, the
			 * durations being zero): at c us the task can run
			 * from cycle c on, at any point of any schedule. */
			a->at = (uint64_t)(o / n);
			gen_removals(g, o + 1, left - 1, hot - 1);
			g->s.nact--;
			continue;
		}
		int r = o - nhot, i = r / (4 * n), k = r / n % 4, j = r % n;
		struct dev_behaviour *b = &g->s.dev[i].beh;

		if (!is_desc(&g->s, j, i) || b->remove_phase >= 0)
			continue;
		b->remove_phase = rphases[k];
		b->remove_target = j;
		gen_removals(g, o + 1, left - 1, hot);
		b->remove_phase = -1;
		b->remove_target = 0;
	}
}

/* Errors: a slot is (device, phase), with one of the errnos. */
static void gen_errors(struct gen *g, int from, int left)
{
	const struct space *sp = g->sp;
	int nslots = g->n * sp->nphases;

	gen_removals(g, 0, sp->b.removals, sp->b.hotplug);
	if (!left)
		return;
	for (int slot = from; slot < nslots; slot++) {
		int d = slot / sp->nphases, p = sp->phases[slot % sp->nphases];

		for (int e = 0; e < sp->nerrnos; e++) {
			g->s.dev[d].beh.err[p] = sp->errnos[e];
			gen_errors(g, slot + 1, left - 1);
		}
		g->s.dev[d].beh.err[p] = 0;
	}
}

/* pm-waits: device d's driver waits for device t (t != d). */
static void gen_pm_waits(struct gen *g, int from, int left)
{
	const int n = g->n;

	gen_errors(g, 0, g->sp->b.errors);
	if (!left)
		return;
	for (int d = from; d < n; d++)
		for (int t = 0; t < n; t++) {
			if (t == d)
				continue;
			g->s.dev[d].beh.pm_wait_for = t + 1;
			gen_pm_waits(g, d + 1, left - 1);
			g->s.dev[d].beh.pm_wait_for = 0;
		}
}

/* Runtime-suspended sets dpm_cut() keeps: with a device, all its
 * children and consumers. */
static bool rpm_closed(const struct scenario *s)
{
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];

		if (d->beh.rpm_suspended)
			continue;
		if (d->parent >= 0 && s->dev[d->parent].beh.rpm_suspended)
			return false;
		for (int k = 0; k < d->nsup; k++)
			if (s->dev[d->sup[k]].beh.rpm_suspended)
				return false;
	}
	return true;
}

static void gen_rpm(struct gen *g, int from, int left)
{
	if (rpm_closed(&g->s))
		gen_pm_waits(g, 0, g->sp->b.features & VF_PM_WAIT ?
				   g->sp->b.pm_waits : 0);
	if (!left)
		return;
	for (int d = from; d < g->n; d++) {
		g->s.dev[d].beh.rpm_suspended = true;
		gen_rpm(g, d + 1, left - 1);
		g->s.dev[d].beh.rpm_suspended = false;
	}
}

/* Links: supplier s before consumer c, at most SCN_SUP_MAX per consumer. */
static void gen_links(struct gen *g, int from, int left)
{
	const int n = g->n;

	gen_rpm(g, 0, g->sp->b.features & VF_DIRECT_COMPLETE ? g->sp->b.rpm : 0);
	if (!left)
		return;
	for (int o = from; o < n * n; o++) {
		int c = o / n, sup = o % n;
		struct scn_device *d = &g->s.dev[c];

		if (sup >= c || d->nsup == SCN_SUP_MAX)
			continue;
		d->sup[d->nsup++] = sup;
		gen_links(g, o + 1, left - 1);
		d->nsup--;
	}
}

static void gen_pool(struct gen *g, bool any_async)
{
	const struct space_bound *b = &g->sp->b;
	int links = b->features & VF_LINKS ? b->links : 0;

	for (int ie = 0; ie <= (any_async ? b->inline_every : 0); ie++)
		for (int w = 0; w <= (any_async ? b->workers : 0); w++) {
			g->s.inline_every = (unsigned int)ie;
			g->s.worker_limit = (unsigned int)w;
			gen_links(g, 0, links);
		}
}

static long chunk_run(const struct space *sp, long c, bool dry,
		      void (*fn)(const struct scenario *s, void *ctx), void *ctx)
{
	long tree;
	unsigned int mask;
	bool pm_async;
	int n = chunk_decode(sp, c, &tree, &mask, &pm_async);
	struct gen g = { .sp = sp, .n = n, .fn = fn, .ctx = ctx, .dry = dry };

	if (n < 0)
		return 0;
	scenario_init(&g.s);
	g.s.ndev = n;
	g.s.dev = dpm_xcalloc((size_t)n, sizeof(*g.s.dev));
	g.s.act = dpm_xcalloc((size_t)sp->b.removals + 1, sizeof(*g.s.act));
	for (int i = 0; i < n; i++) {
		struct scn_device *d = &g.s.dev[i];

		scn_device_init(d);
		snprintf(d->name, sizeof(d->name), "dev%d", i);
		if (i) {
			d->parent = (int)(tree % (i + 1)) - 1;
			tree /= i + 1;
		}
		d->async = mask >> i & 1;
	}
	g.s.pm_async = pm_async;
	bool any_async = pm_async && mask;

	for (int tr = 0; tr <= (sp->b.pm_trace && any_async ? 1 : 0); tr++)
		for (int cy = 1; cy <= sp->b.cycles; cy++) {
			g.s.pm_trace = tr;
			g.s.cycles = cy;
			gen_pool(&g, any_async);
		}
	scenario_free(&g.s);
	return g.count;
}

long space_chunk_foreach(const struct space *sp, long c,
			 void (*fn)(const struct scenario *s, void *ctx),
			 void *ctx)
{
	return chunk_run(sp, c, false, fn, ctx);
}

long space_chunk_count(const struct space *sp, long c)
{
	return chunk_run(sp, c, true, NULL, NULL);
}

int space_features(const struct scenario *s)
{
	int f = s->nact + (s->cycles - 1) + (s->inline_every != 0) +
		(s->worker_limit != 0) + s->pm_trace + !s->pm_async;

	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];

		f += d->nsup + d->beh.rpm_suspended + (d->beh.pm_wait_for != 0) +
		     (d->beh.remove_phase >= 0);
		for (int p = 0; p < NR_PHASES; p++)
			f += d->beh.err[p] != 0;
	}
	return f;
}

void space_bound_format(const struct space_bound *b, char *buf, size_t n)
{
	int at = snprintf(buf, n, "devices<=%d errors<=%d removals<=%d (hotplug<=%d) cycles<=%d",
			  b->devices, b->errors, b->removals,
			  b->hotplug < b->removals ? b->hotplug : b->removals,
			  b->cycles);

	if (at < 0 || (size_t)at >= n)
		return;
#define MORE(...)                                                       \
	do {                                                            \
		int w = snprintf(buf + at, n - (size_t)at, __VA_ARGS__); \
		if (w < 0 || (size_t)(at + w) >= n)                     \
			return;                                         \
		at += w;                                                \
	} while (0)
	if (b->features & VF_LINKS)
		MORE(" links<=%d", b->links);
	if (b->features & VF_DIRECT_COMPLETE)
		MORE(" rpm<=%d", b->rpm);
	if (b->features & VF_PM_WAIT)
		MORE(" pm-waits<=%d", b->pm_waits);
	MORE(" inline<=%d workers<=%d pm_trace=%s pm_async=%s errnos=%s",
	     b->inline_every, b->workers, b->pm_trace ? "0,1" : "0",
	     b->pm_async_off ? "0,1" : "1", b->all_errnos ? "all" : "EIO");
#undef MORE
}
