// SPDX-License-Identifier: GPL-2.0-only
/* Scenario-level delta debugging (dpm_minimize() in run.h). */
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "../util/xalloc.h"

static long runs;

static bool still_fails(const struct scenario *s, const struct run_opts *o,
			enum inv id)
{
	static struct run_result r;
	struct run_opts q = *o;

	q.log = false;
	runs++;
	dpm_run(s, &q, &r);
	return r.violated && r.id == id;
}

static struct scenario clone(const struct scenario *s)
{
	struct scenario c = *s;

	c.dev = dpm_xmemdup(s->dev, (size_t)s->ndev, sizeof(*c.dev));
	c.act = dpm_xmemdup(s->act, (size_t)s->nact, sizeof(*c.act));
	c.sched = dpm_xmemdup(s->sched, s->nsched, 1);
	return c;
}

/* Keep candidate c in place of s if it still fails, else drop it. */
static bool try_keep(struct scenario *s, struct scenario *c,
		     const struct run_opts *o, enum inv id)
{
	if (still_fails(c, o, id)) {
		scenario_free(s);
		*s = *c;
		return true;
	}
	scenario_free(c);
	return false;
}

/* Remove device k, which has no children, renumbering the rest. */
static bool drop_device(struct scenario *c, int k)
{
	for (int i = 0; i < c->ndev; i++)
		if (c->dev[i].parent == k)
			return false;
	if (c->ndev == 1)
		return false;
	for (int i = 0; i < c->ndev; i++) {
		struct dev_behaviour *b = &c->dev[i].beh;

		if (b->remove_phase >= 0 && b->remove_target == k)
			b->remove_phase = -1;
		if (b->remove_phase >= 0 && b->remove_target > k)
			b->remove_target--;
		if (c->dev[i].parent > k)
			c->dev[i].parent--;
		if (b->pm_wait_for == k + 1)
			b->pm_wait_for = 0;
		else if (b->pm_wait_for > k + 1)
			b->pm_wait_for--;
		struct scn_device *d = &c->dev[i];
		int n = 0;

		for (int j = 0; j < d->nsup; j++)
			if (d->sup[j] != k)
				d->sup[n++] = d->sup[j] > k ? d->sup[j] - 1 : d->sup[j];
		d->nsup = n;
	}
	memmove(&c->dev[k], &c->dev[k + 1],
		sizeof(*c->dev) * (size_t)(c->ndev - k - 1));
	c->ndev--;
	int n = 0;

	for (int a = 0; a < c->nact; a++) {
		if (c->act[a].dev == k)
			continue;
		c->act[n] = c->act[a];
		if (c->act[n].dev > k)
			c->act[n].dev--;
		n++;
	}
	c->nact = n;
	return true;
}

static bool pass(struct scenario *s, const struct run_opts *o, enum inv id)
{
	bool changed = false;

	for (int k = s->ndev - 1; k >= 0; k--) {
		struct scenario c = clone(s);

		if (drop_device(&c, k))
			changed |= try_keep(s, &c, o, id);
		else
			scenario_free(&c);
	}
	for (int a = s->nact - 1; a >= 0; a--) {
		struct scenario c = clone(s);

		memmove(&c.act[a], &c.act[a + 1],
			sizeof(*c.act) * (size_t)(c.nact - a - 1));
		c.nact--;
		changed |= try_keep(s, &c, o, id);
	}
	if (s->cycles > 1) {
		struct scenario c = clone(s);

		c.cycles = 1;
		for (int a = 0; a < c.nact; a++)
			if (c.act[a].kind == ACT_ASYNC_ATTR)
				c.act[a].at = 0;
		changed |= try_keep(s, &c, o, id);
	}
	/* Schedule bytes: halves, then single bytes from the end. */
	for (size_t chunk = s->nsched / 2; chunk >= 1; chunk /= 2) {
		for (size_t at = 0; at + chunk <= s->nsched;) {
			struct scenario c = clone(s);

			memmove(c.sched + at, c.sched + at + chunk,
				c.nsched - at - chunk);
			c.nsched -= chunk;
			if (!try_keep(s, &c, o, id))
				at += chunk;
			else
				changed = true;
		}
		if (chunk == 1)
			break;
	}
	for (int i = 0; i < s->ndev; i++) {
		for (int p = 0; p < NR_PHASES; p++) {
			struct dev_behaviour *b = &s->dev[i].beh;

			if (b->dur_us[p]) {
				struct scenario c = clone(s);

				c.dev[i].beh.dur_us[p] = 0;
				changed |= try_keep(s, &c, o, id);
			}
			if (s->dev[i].beh.err[p]) {
				struct scenario c = clone(s);

				c.dev[i].beh.err[p] = 0;
				changed |= try_keep(s, &c, o, id);
			}
		}
		if (s->dev[i].beh.remove_phase >= 0) {
			struct scenario c = clone(s);

			c.dev[i].beh.remove_phase = -1;
			changed |= try_keep(s, &c, o, id);
		}
		/* Links, pm-waits and runtime suspend, one at a time. */
		for (int j = s->dev[i].nsup - 1; j >= 0; j--) {
			struct scenario c = clone(s);
			struct scn_device *d = &c.dev[i];

			memmove(&d->sup[j], &d->sup[j + 1],
				sizeof(int) * (size_t)(d->nsup - j - 1));
			d->nsup--;
			changed |= try_keep(s, &c, o, id);
		}
		if (s->dev[i].beh.pm_wait_for) {
			struct scenario c = clone(s);

			c.dev[i].beh.pm_wait_for = 0;
			changed |= try_keep(s, &c, o, id);
		}
		if (s->dev[i].beh.rpm_suspended) {
			struct scenario c = clone(s);

			c.dev[i].beh.rpm_suspended = false;
			changed |= try_keep(s, &c, o, id);
		}
		/* The async and PCI flags, one at a time. */
		for (int f = 0; f < 2; f++) {
			bool on = f ? s->dev[i].pci : s->dev[i].async;

			if (!on)
				continue;
			struct scenario c = clone(s);

			if (f)
				c.dev[i].pci = false;
			else
				c.dev[i].async = false;
			changed |= try_keep(s, &c, o, id);
		}
	}
	return changed;
}

long dpm_minimize(struct scenario *s, const struct run_opts *o, enum inv id)
{
	runs = 0;
	if (!still_fails(s, o, id))
		return runs;
	while (pass(s, o, id))
		;
	return runs;
}
