// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario-level delta debugging (dpm_minimize() in run.h).  A finding
 * that depends on the schedule disappears when a reduction shifts the
 * schedule bytes (removing a device changes which task each byte
 * picks).  So the minimiser keeps the failing run's choices by task
 * (the tasks are named after their devices: "async/7:usb1" is usb1's
 * job, whatever its number): after a reduction that loses the
 * invariant, the candidate runs again choosing, wherever it can, the
 * task the failing run chose next (guided), and its schedule bytes
 * become the choices that made; failing that, its schedules are
 * searched, bounded and seeded, for the same invariant.
 */
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "run.h"
#include "../engine/det.h"
#include "../sched/strategy.h"
#include "../util/xalloc.h"

/* Other schedules tried for a candidate that lost the invariant. */
#define RESEARCH_SCHEDULES 48
/* How far ahead in the failing run's choices a guided run looks for a
 * task that is among its candidates (the others' tasks are gone). */
#define GUIDE_LOOKAHEAD 8

static long runs;

/* The failing run's choices, by task, and a guided run's, as bytes. */
static struct guide {
	char (*keys)[DPM_TASK_NAME_MAX];
	int nkeys, cap, pos;
	const uint8_t *bytes;		/* recording: the schedule replayed */
	size_t nbytes, at;
	uint8_t *out;			/* guided: the choices made */
	size_t nout, outcap;
} guide;

static int record_choice(void *ctx, int n, const int *ids)
{
	int c = guide.at < guide.nbytes ? guide.bytes[guide.at++] % n : -1;

	(void)ctx;
	DPM_ARRAY_RESERVE(guide.keys, guide.nkeys, guide.cap);
	dpm_task_key(ids[c < 0 ? 0 : c], guide.keys[guide.nkeys++],
		 sizeof(guide.keys[0]));
	return c;
}

static int guided_choice(void *ctx, int n, const int *ids)
{
	char k[DPM_TASK_NAME_MAX];
	int pick = -1;

	(void)ctx;
	for (int j = guide.pos; j < guide.nkeys && j < guide.pos + GUIDE_LOOKAHEAD &&
	     pick < 0; j++)
		for (int i = 0; i < n; i++) {
			dpm_task_key(ids[i], k, sizeof(k));
			if (!strcmp(k, guide.keys[j])) {
				pick = i;
				guide.pos = j + 1;
				break;
			}
		}
	if (pick < 0)
		pick = 0;
	DPM_ARRAY_PUSH(guide.out, guide.nout, guide.outcap, (uint8_t)pick);
	return pick;
}

/* Record s's choices by task (s fails as it is). */
static void record_guide(const struct scenario *s, const struct run_opts *o)
{
	static struct run_result r;
	struct run_opts q = *o;

	q.log = false;
	q.choose = record_choice;
	guide.nkeys = 0;
	guide.bytes = s->sched;
	guide.nbytes = s->nsched;
	guide.at = 0;
	runs++;
	dpm_run(s, &q, &r);
}

/* Run s guided by the recorded choices; on the invariant, s's schedule
 * becomes those choices as bytes (checked by a plain run). */
static bool guided(struct scenario *s, const struct run_opts *o, enum inv id)
{
	static struct run_result r;
	struct run_opts q = *o;

	if (!guide.nkeys)
		return false;
	q.log = false;
	q.choose = guided_choice;
	guide.pos = 0;
	guide.nout = 0;
	runs++;
	dpm_run(s, &q, &r);
	if (!r.violated || r.id != id)
		return false;
	free(s->sched);
	s->sched = dpm_xmemdup(guide.out, guide.nout, 1);
	s->nsched = guide.nout;
	s->sched_by_task = false;
	q.choose = NULL;
	runs++;
	dpm_run(s, &q, &r);
	return r.violated && r.id == id;
}

/* Whether a failed candidate's schedules are searched again: not while
 * the schedule itself is being shortened (a search would only put a
 * longer one back, for ever). */
static bool research;

static bool still_fails(struct scenario *s, const struct run_opts *o,
			enum inv id)
{
	static struct run_result r;
	struct run_opts q = *o;

	/* Asked to stop: no candidate is kept, so the passes end. */
	if (dpm_interrupted())
		return false;
	q.log = false;
	runs++;
	dpm_run(s, &q, &r);
	if (r.violated && r.id == id)
		return true;
	if (!research || r.interrupted)
		return false;
	if (guided(s, o, id))
		return true;
	/* The search runs s as it is first, again: counted there. */
	long k = dpm_schedule_search(s, &q, dpm_search_bound(s, RESEARCH_SCHEDULES),
				     id, &r);

	runs += k >= 0 ? k + 1 : dpm_search_bound(s, RESEARCH_SCHEDULES) + 1;
	return k > 0;
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
		if (research)
			record_guide(s, o);
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
		int n = 0, *r = &d->k.release_unregisters;

		if (*r == k)
			*r = -1;
		else if (*r > k)
			(*r)--;
		for (int j = 0; j < d->nsup; j++)
			if (d->sup[j] != k) {
				d->k.link_flags[n] = d->k.link_flags[j];
				d->sup[n++] = d->sup[j] > k ? d->sup[j] - 1 : d->sup[j];
			}
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

/* What only the kernel variants read, of device i, back to the default
 * one field at a time. */
static bool kernel_pass(struct scenario *s, int i, const struct run_opts *o,
			enum inv id)
{
	struct scn_device plain;
	bool changed = false;

	scn_device_init(&plain);
	for (int f = 0; f < 7; f++) {
		const struct scn_kernel *k = &s->dev[i].k;
		struct scenario c;
		struct scn_kernel *ck;

		switch (f) {
		case 0: if (!k->flags) continue; break;
		case 1: if (!k->dpm_flags) continue; break;
		case 2: if (k->level == plain.k.level) continue; break;
		case 3: if (k->level_cbs == plain.k.level_cbs) continue; break;
		case 4: if (k->driver_cbs == plain.k.driver_cbs) continue; break;
		case 5: if (k->late_phase < 0) continue; break;
		case 6: if (k->release_unregisters < 0) continue; break;
		}
		c = clone(s);
		ck = &c.dev[i].k;
		switch (f) {
		case 0: ck->flags = 0; break;
		case 1: ck->dpm_flags = 0; break;
		case 2: ck->level = plain.k.level; break;
		case 3: ck->level_cbs = plain.k.level_cbs; break;
		case 4: ck->driver_cbs = plain.k.driver_cbs; break;
		case 5: ck->late_phase = -1; break;
		case 6: ck->release_unregisters = -1; break;
		}
		changed |= try_keep(s, &c, o, id);
	}
	return changed;
}

static bool pass(struct scenario *s, const struct run_opts *o, enum inv id)
{
	bool changed = false;

	for (int k = s->ndev - 1; k >= 0 && !dpm_interrupted(); k--) {
		struct scenario c = clone(s);

		if (drop_device(&c, k))
			changed |= try_keep(s, &c, o, id);
		else
			scenario_free(&c);
	}
	for (int a = s->nact - 1; a >= 0 && !dpm_interrupted(); a--) {
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
	if (s->transition != TR_MEM) {
		struct scenario c = clone(s);

		c.transition = TR_MEM;
		changed |= try_keep(s, &c, o, id);
	}
	if (s->wakeup_at_us >= 0) {
		struct scenario c = clone(s);

		c.wakeup_at_us = -1;
		changed |= try_keep(s, &c, o, id);
	}
	/* Schedule bytes: halves, then single bytes from the end. */
	research = false;
	for (size_t chunk = s->nsched / 2; chunk >= 1; chunk /= 2) {
		for (size_t at = 0; at + chunk <= s->nsched && !dpm_interrupted();) {
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
	research = true;
	record_guide(s, o);
	for (int i = 0; i < s->ndev && !dpm_interrupted(); i++) {
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
		changed |= kernel_pass(s, i, o, id);
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
	research = false;
	/* The passes record and replay choices by position: a schedule
	 * read by task becomes the choices it made. */
	if (s->sched_by_task) {
		runs++;
		dpm_schedule_by_position(s, o);
	}
	if (!still_fails(s, o, id))
		return runs;
	research = true;
	record_guide(s, o);
	while (pass(s, o, id))
		;
	return runs;
}
