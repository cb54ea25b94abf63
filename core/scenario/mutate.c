// SPDX-License-Identifier: GPL-2.0-only
/*
 * The structure-aware mutator (mutate.h).  Every new field is drawn the
 * way the decoder draws it, from random bytes through
 * scenario_decode_device() and scenario_decode_action(), so a mutation
 * reaches exactly what the byte format can say and no more; after each
 * edit scenario_canonicalize() puts back what an edit may break (a side
 * action's victim that is no longer a descendant, a supplier now too far
 * before), and scenario_encode() writes it back exactly.
 */
#include "mutate.h"

#include <stdlib.h>
#include <string.h>

#include "../util/xalloc.h"
#include "../util/xorshift.h"

static const char *const op_names[NR_MUT_OPS] = {
	"add-device", "remove-device", "move-device", "async",
	"async-subtree", "error-place", "error-move", "removal-add",
	"removal-move", "config", "duration", "link", "kernel", "attr",
	"schedule",
};

const char *scn_mut_op_name(enum scn_mut_op op)
{
	return (unsigned)op < NR_MUT_OPS ? op_names[op] : "?";
}

static unsigned int rnd(uint64_t *rng, unsigned int n)
{
	return n ? (unsigned int)(xorshift64(rng) % n) : 0;
}

static uint8_t rbyte(uint64_t *rng)
{
	return (uint8_t)(xorshift64(rng) >> 24);
}

/*
 * Renumbers the devices: device j becomes map[j], or goes when map[j] is
 * -1 (its children must have been given another parent first).  The new
 * array has n devices; those no old device maps to are the caller's.
 * Every reference follows: parents, suppliers, pm-waits, side actions,
 * release targets, actions (an action on a device that goes, goes).
 */
static void reindex(struct scenario *s, const int *map, int n)
{
	struct scn_device *nd = dpm_xcalloc((size_t)n, sizeof(*nd));
	int na = 0;

	for (int j = 0; j < s->ndev; j++) {
		struct scn_device d = s->dev[j];
		int k = 0;

		if (map[j] < 0)
			continue;
		if (d.parent >= 0)
			d.parent = map[d.parent];
		for (int l = 0; l < d.nsup; l++)
			if (map[d.sup[l]] >= 0)
				d.sup[k++] = map[d.sup[l]];
		d.nsup = k;
		if (d.beh.pm_wait_for)
			d.beh.pm_wait_for = map[d.beh.pm_wait_for - 1] + 1;
		if (d.beh.remove_phase >= 0) {
			d.beh.remove_target = map[d.beh.remove_target];
			if (d.beh.remove_target < 0) {
				d.beh.remove_phase = -1;
				d.beh.remove_target = 0;
			}
		}
		if (d.k.release_unregisters >= 0)
			d.k.release_unregisters = map[d.k.release_unregisters];
		nd[map[j]] = d;
	}
	for (int i = 0; i < s->nact; i++) {
		struct scn_action a = s->act[i];

		a.dev = map[a.dev];
		if (a.dev >= 0)
			s->act[na++] = a;
	}
	s->nact = na;
	free(s->dev);
	s->dev = nd;
	s->ndev = n;
}

/* Device i as the decoder would draw it from b (random where b leaves
 * bytes unset: pass a fully random b), without touching s. */
static struct scn_device draw_device(struct scenario *s, int i,
				     const uint8_t b[5])
{
	struct scn_device keep = s->dev[i], fresh;

	scenario_decode_device(s, i, b);
	fresh = s->dev[i];
	s->dev[i] = keep;
	return fresh;
}

static void random_bytes(uint8_t *b, size_t n, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		b[i] = rbyte(rng);
}

static bool add_device(struct scenario *s, const struct scn_limits *lim,
		       uint64_t *rng)
{
	int pos = (int)rnd(rng, (unsigned)s->ndev + 1), parent;
	int *map;
	uint8_t b[5];

	if (s->ndev >= lim->max_devices || s->ndev >= 256)
		return false;
	map = dpm_xcalloc((size_t)s->ndev, sizeof(*map));
	for (int j = 0; j < s->ndev; j++)
		map[j] = j < pos ? j : j + 1;
	reindex(s, map, s->ndev + 1);
	free(map);
	parent = (int)rnd(rng, (unsigned)pos + 1) - 1;
	random_bytes(b, sizeof(b), rng);
	b[1] &= 0x1f;		/* no side action: it has no descendant */
	scenario_decode_device(s, pos, b);
	s->dev[pos].parent = parent;
	return true;
}

static bool remove_device(struct scenario *s, uint64_t *rng)
{
	int x = (int)rnd(rng, (unsigned)s->ndev);
	int *map;

	if (s->ndev < 2)
		return false;
	/* Its children go to its parent (earlier, so still before them). */
	for (int j = x + 1; j < s->ndev; j++)
		if (s->dev[j].parent == x)
			s->dev[j].parent = s->dev[x].parent;
	map = dpm_xcalloc((size_t)s->ndev, sizeof(*map));
	for (int j = 0; j < s->ndev; j++)
		map[j] = j < x ? j : j == x ? -1 : j - 1;
	reindex(s, map, s->ndev - 1);
	free(map);
	return true;
}

/* Another parent; or the device one step later in the list, past a
 * device that is not its child. */
static bool move_device(struct scenario *s, uint64_t *rng)
{
	int i = (int)rnd(rng, (unsigned)s->ndev), p;

	if (rnd(rng, 2) && i + 1 < s->ndev && s->dev[i + 1].parent != i) {
		int *map = dpm_xcalloc((size_t)s->ndev, sizeof(*map));

		for (int j = 0; j < s->ndev; j++)
			map[j] = j == i ? i + 1 : j == i + 1 ? i : j;
		reindex(s, map, s->ndev);
		free(map);
		return true;
	}
	if (!i)
		return false;
	p = (int)rnd(rng, (unsigned)i + 1) - 1;
	if (p == s->dev[i].parent)
		p = p + 1 < i ? p + 1 : -1;
	s->dev[i].parent = p;
	return true;
}

static bool flip_async(struct scenario *s, uint64_t *rng)
{
	struct scn_device *d = &s->dev[rnd(rng, (unsigned)s->ndev)];

	if (rnd(rng, 4))
		d->async = !d->async;
	else
		d->pci = !d->pci;
	return true;
}

/* A device and its descendants (or every device) all async, or none. */
static bool async_subtree(struct scenario *s, uint64_t *rng)
{
	int r = (int)rnd(rng, (unsigned)s->ndev + 1) - 1;
	bool on = rnd(rng, 4);

	for (int j = r < 0 ? 0 : r; j < s->ndev; j++)
		if (r < 0 || j == r || scn_is_descendant(s, j, r))
			s->dev[j].async = on;
	return true;
}

/* The phases whose callbacks may fail in the variant. */
static int error_phase(unsigned int mask, uint64_t *rng)
{
	static const int common[] = {
		PH_PREPARE, PH_SUSPEND, PH_SUSPEND_NOIRQ, PH_RESUME_NOIRQ,
		PH_RESUME, PH_COMPLETE,
	};

	if ((mask & SCN_MUT_LATE_EARLY) && !rnd(rng, 4))
		return rnd(rng, 2) ? PH_SUSPEND_LATE : PH_RESUME_EARLY;
	return common[rnd(rng, 6)];
}

/* Device i fails in phase ph with a code from the table; its error byte
 * then says nothing else (canonicalize drops its other kernel fields). */
static void set_error(struct scenario *s, int i, int ph, uint64_t *rng)
{
	uint8_t b[5];
	struct scn_device f;

	random_bytes(b, sizeof(b), rng);
	b[2] = (uint8_t)(ph | (rnd(rng, 4) << 5));
	f = draw_device(s, i, b);
	memset(s->dev[i].beh.err, 0, sizeof(s->dev[i].beh.err));
	s->dev[i].beh.err[ph] = f.beh.err[ph];
}

static int error_of(const struct scn_device *d)
{
	for (int ph = 0; ph < NR_PHASES; ph++)
		if (d->beh.err[ph])
			return ph;
	return -1;
}

static bool place_error(struct scenario *s, unsigned int mask, uint64_t *rng)
{
	set_error(s, (int)rnd(rng, (unsigned)s->ndev), error_phase(mask, rng),
		  rng);
	return true;
}

/* An error to another device (the same phase and code), another phase,
 * or gone. */
static bool move_error(struct scenario *s, unsigned int mask, uint64_t *rng)
{
	int with[256], n = 0, i, ph, to;

	for (int j = 0; j < s->ndev && n < 256; j++)
		if (error_of(&s->dev[j]) >= 0)
			with[n++] = j;
	if (!n)
		return false;
	i = with[rnd(rng, (unsigned)n)];
	ph = error_of(&s->dev[i]);
	switch (rnd(rng, 3)) {
	case 0:
		to = (int)rnd(rng, (unsigned)s->ndev);
		if (to == i)
			return false;
		memset(s->dev[to].beh.err, 0, sizeof(s->dev[to].beh.err));
		s->dev[to].beh.err[ph] = s->dev[i].beh.err[ph];
		s->dev[i].beh.err[ph] = 0;
		return true;
	case 1:
		set_error(s, i, error_phase(mask, rng), rng);
		return true;
	default:
		s->dev[i].beh.err[ph] = 0;
		return true;
	}
}

static bool has_descendant(const struct scenario *s, int i)
{
	for (int j = i + 1; j < s->ndev; j++)
		if (scn_is_descendant(s, j, i))
			return true;
	return false;
}

/* A device's callback of this phase unregisters one of its descendants
 * (drawn as the decoder draws a side action). */
static bool side_action(struct scenario *s, int i, uint64_t *rng)
{
	static const int phases[] = { PH_PREPARE, PH_SUSPEND, PH_RESUME,
				      PH_COMPLETE };
	int n = 0, k;

	if (!has_descendant(s, i))
		return false;
	for (int j = i + 1; j < s->ndev && n < 8; j++)
		n += scn_is_descendant(s, j, i);
	k = (int)rnd(rng, (unsigned)n);
	for (int j = i + 1; j < s->ndev; j++)
		if (scn_is_descendant(s, j, i) && !k--) {
			s->dev[i].beh.remove_phase = phases[rnd(rng, 4)];
			s->dev[i].beh.remove_target = j;
			return true;
		}
	return false;
}

static void push_action(struct scenario *s, const uint8_t b[3])
{
	s->act = dpm_xrealloc(s->act, (size_t)s->nact + 1, sizeof(*s->act));
	scenario_decode_action(s, &s->act[s->nact++], b);
}

/* A hotplug task unregisters a subtree at some time, or a callback
 * unregisters a descendant. */
static bool add_removal(struct scenario *s, const struct scn_limits *lim,
			uint64_t *rng)
{
	if (rnd(rng, 2) && s->nact < lim->max_actions) {
		uint8_t b[3] = { (uint8_t)(rbyte(rng) & ~1u), rbyte(rng),
				 (uint8_t)rnd(rng, rnd(rng, 2) ? 32 : 256) };

		push_action(s, b);
		return true;
	}
	return side_action(s, (int)rnd(rng, (unsigned)s->ndev), rng);
}

/* An unregistration to another device or time, a side action to another
 * phase or victim; or gone. */
static bool move_removal(struct scenario *s, uint64_t *rng)
{
	int cand[256 + 4], n = 0, c;

	for (int i = 0; i < s->nact; i++)
		if (s->act[i].kind == ACT_UNREGISTER)
			cand[n++] = -1 - i;
	for (int j = 0; j < s->ndev && n < 256 + 4; j++)
		if (s->dev[j].beh.remove_phase >= 0)
			cand[n++] = j;
	if (!n)
		return false;
	c = cand[rnd(rng, (unsigned)n)];
	if (c >= 0) {
		if (!rnd(rng, 4)) {
			s->dev[c].beh.remove_phase = -1;
			s->dev[c].beh.remove_target = 0;
			return true;
		}
		return side_action(s, c, rng);
	}
	struct scn_action *a = &s->act[-1 - c];
	uint64_t t = 0;

	while (t < 255 && (t + 1) * (t + 1) * 50 <= a->at)
		t++;
	switch (rnd(rng, 4)) {
	case 0:
		a->dev = (int)rnd(rng, (unsigned)s->ndev);
		break;
	case 1:		/* a little earlier or later */
		t = (t + 256 + rnd(rng, 9) - 4) % 256;
		a->at = t * t * 50;
		break;
	case 2:
		t = rnd(rng, 256);
		a->at = t * t * 50;
		break;
	default:
		*a = s->act[--s->nact];
		break;
	}
	return true;
}

static bool change_config(struct scenario *s, const struct scn_limits *lim,
			  unsigned int mask, uint64_t *rng)
{
	struct scenario t;

	switch (rnd(rng, (mask & SCN_MUT_TRANSITION) ? 6 : 5)) {
	case 0:
		s->pm_async = !s->pm_async;
		return true;
	case 1:
		if (lim->no_worker_limit)
			return false;
		s->worker_limit = rnd(rng, 5);
		return true;
	case 2:
		s->cycles = 1 + (int)rnd(rng, lim->max_cycles < 4 ?
					 (unsigned)lim->max_cycles : 4);
		return true;
	case 3: {
		static const unsigned int inl[] = { 0, 2, 3, 4, 5 };

		s->inline_every = inl[rnd(rng, 5)];
		return true;
	}
	case 4:
		s->pm_trace = !s->pm_trace;
		return true;
	default:
		scenario_init(&t);
		scenario_decode_config(&t, 0, rbyte(rng), lim);
		s->transition = t.transition;
		s->wakeup_at_us = t.wakeup_at_us;
		return true;
	}
}

/* A device's suspend, resume or other phases' durations, redrawn. */
static bool change_duration(struct scenario *s, uint64_t *rng)
{
	int i = (int)rnd(rng, (unsigned)s->ndev);
	uint8_t b[5];
	struct scn_device f;
	unsigned int which = rnd(rng, 3);

	random_bytes(b, sizeof(b), rng);
	f = draw_device(s, i, b);
	for (int ph = 0; ph < NR_PHASES; ph++) {
		bool other = ph != PH_SUSPEND && ph != PH_RESUME;

		if ((which == 0 && ph == PH_SUSPEND) ||
		    (which == 1 && ph == PH_RESUME) || (which == 2 && other))
			s->dev[i].beh.dur_us[ph] = f.beh.dur_us[ph];
	}
	return true;
}

/* A supplier link, a pm-wait, or rpm-suspended, on or off. */
static bool change_link(struct scenario *s, unsigned int mask, uint64_t *rng)
{
	int i = (int)rnd(rng, (unsigned)s->ndev);
	struct scn_device *d = &s->dev[i];
	unsigned int what = rnd(rng, 3);

	if (what == 0 && (mask & SCN_MUT_LINKS)) {
		if (d->nsup) {
			d->nsup = 0;
			return true;
		}
		if (!i)
			return false;
		d->beh.pm_wait_for = 0;
		d->sup[0] = i - 1 - (int)rnd(rng, i < 4 ? (unsigned)i : 4);
		d->nsup = 1;
		return true;
	}
	if (what == 1 && (mask & SCN_MUT_PM_WAIT)) {
		static const int rel[] = { -1, -2, 1, 2 };
		int t = i + rel[rnd(rng, 4)];

		if (d->beh.pm_wait_for) {
			d->beh.pm_wait_for = 0;
			return true;
		}
		if (t < 0 || t >= s->ndev)
			return false;
		d->nsup = 0;
		d->beh.pm_wait_for = t + 1;
		return true;
	}
	if (what == 2 && (mask & SCN_MUT_RPM)) {
		d->beh.rpm_suspended = !d->beh.rpm_suspended;
		return true;
	}
	return false;
}

/* A device's kernel fields (level, DPM flags, driverless, late, ...)
 * redrawn; they share the error byte, so its error goes. */
static bool change_kernel(struct scenario *s, uint64_t *rng)
{
	int i = (int)rnd(rng, (unsigned)s->ndev);
	struct scn_device *d = &s->dev[i];
	struct scn_device f;
	uint8_t b[5];

	random_bytes(b, sizeof(b), rng);
	b[0] = (uint8_t)(d->parent + 1);	/* the same parent */
	b[2] = (uint8_t)((NR_PHASES + rnd(rng, 24)) | (rbyte(rng) & 0xe0));
	f = draw_device(s, i, b);
	memcpy(f.k.link_flags, d->k.link_flags, sizeof(f.k.link_flags));
	d->k = f.k;
	memset(d->beh.err, 0, sizeof(d->beh.err));
	return true;
}

/* User space writes power/async before a cycle (drawn as decoded). */
static bool change_attr(struct scenario *s, const struct scn_limits *lim,
			uint64_t *rng)
{
	uint8_t b[3] = { (uint8_t)(rbyte(rng) | 1), rbyte(rng), rbyte(rng) };

	for (int i = 0; i < s->nact; i++)
		if (s->act[i].kind == ACT_ASYNC_ATTR && rnd(rng, 2)) {
			scenario_decode_action(s, &s->act[i], b);
			return true;
		}
	if (s->nact >= lim->max_actions)
		return false;
	push_action(s, b);
	return true;
}

static void sched_resize(struct scenario *s, size_t n)
{
	s->sched = dpm_xrealloc(s->sched, n ? n : 1, 1);
	if (n > s->nsched)
		memset(s->sched + s->nsched, 0, n - s->nsched);
	s->nsched = n;
}

/*
 * The schedule: a choice changed (to a small number: b picks candidate
 * b mod n, and most points have few), one inserted or deleted (the later
 * choices shift to the next points), some appended, the tail cut, a run
 * copied elsewhere, or a run of one choice.
 */
static bool change_schedule(struct scenario *s, size_t max_sched,
			    uint64_t *rng)
{
	size_t n = s->nsched, at = rnd(rng, (unsigned)n + 1), len;

	switch (rnd(rng, 7)) {
	case 0:
		if (!n)
			return false;
		at = rnd(rng, (unsigned)n);
		s->sched[at] = rnd(rng, 2) ? (uint8_t)rnd(rng, 4) : rbyte(rng);
		return true;
	case 1:
		if (n >= max_sched)
			return false;
		sched_resize(s, n + 1);
		memmove(s->sched + at + 1, s->sched + at, n - at);
		s->sched[at] = (uint8_t)rnd(rng, 4);
		return true;
	case 2:
		if (at >= n)
			return false;
		len = 1 + rnd(rng, 4);
		if (len > n - at)
			len = n - at;
		memmove(s->sched + at, s->sched + at + len, n - at - len);
		s->nsched = n - len;
		return true;
	case 3:
		len = 1 + rnd(rng, 16);
		if (n + len > max_sched)
			len = max_sched - n;
		if (!len)
			return false;
		sched_resize(s, n + len);
		for (size_t i = n; i < n + len; i++)
			s->sched[i] = (uint8_t)rnd(rng, 4);
		return true;
	case 4:
		if (at >= n)
			return false;
		s->nsched = at;
		return true;
	case 5: {
		size_t from;

		if (n < 2)
			return false;
		from = rnd(rng, (unsigned)n);
		at = rnd(rng, (unsigned)n);
		len = 1 + rnd(rng, 8);
		if (len > n - from)
			len = n - from;
		if (len > n - at)
			len = n - at;
		if (from == at)
			return false;
		memmove(s->sched + at, s->sched + from, len);
		return true;
	}
	default:
		if (at >= n)
			return false;
		len = 1 + rnd(rng, 8);
		if (len > n - at)
			len = n - at;
		memset(s->sched + at, (int)rnd(rng, 4), len);
		return true;
	}
}

static bool apply(struct scenario *s, enum scn_mut_op op,
		  const struct scn_limits *lim, unsigned int mask,
		  size_t max_sched, uint64_t *rng)
{
	switch (op) {
	case MUT_ADD_DEVICE: return add_device(s, lim, rng);
	case MUT_REMOVE_DEVICE: return remove_device(s, rng);
	case MUT_MOVE_DEVICE: return move_device(s, rng);
	case MUT_ASYNC: return flip_async(s, rng);
	case MUT_ASYNC_SUBTREE: return async_subtree(s, rng);
	case MUT_ERROR_PLACE: return place_error(s, mask, rng);
	case MUT_ERROR_MOVE: return move_error(s, mask, rng);
	case MUT_REMOVAL_ADD: return add_removal(s, lim, rng);
	case MUT_REMOVAL_MOVE: return move_removal(s, rng);
	case MUT_CONFIG: return change_config(s, lim, mask, rng);
	case MUT_DURATION: return change_duration(s, rng);
	case MUT_LINK: return change_link(s, mask, rng);
	case MUT_KERNEL: return (mask & SCN_MUT_KERNEL) && change_kernel(s, rng);
	case MUT_ATTR: return change_attr(s, lim, rng);
	case MUT_SCHEDULE: return change_schedule(s, max_sched, rng);
	case NR_MUT_OPS: break;
	}
	abort();
}

enum scn_mut_op scenario_mutate(struct scenario *s, const struct scn_limits *lim,
				unsigned int mask, size_t max_sched,
				uint64_t *rng)
{
	enum scn_mut_op op = MUT_SCHEDULE;

	/* The schedule gets a third of the picks: most bugs need a
	 * particular interleaving once the tree is right. */
	for (int tries = 0; tries < 32; tries++) {
		unsigned int r = rnd(rng, 3 * NR_MUT_OPS / 2);

		op = r >= NR_MUT_OPS ? MUT_SCHEDULE : (enum scn_mut_op)r;
		if (apply(s, op, lim, mask, max_sched, rng))
			break;
	}
	scenario_canonicalize(s, lim);
	return op;
}

void scenario_crossover(struct scenario *s, const struct scenario *o,
			const struct scn_limits *lim, size_t max_sched,
			uint64_t *rng)
{
	switch (rnd(rng, 4)) {
	case 0: {	/* graft a subtree of o at the end of s */
		int r = (int)rnd(rng, (unsigned)o->ndev), base = s->ndev, m = 0;
		int room = lim->max_devices - base, *map;

		if (room > 256 - base)
			room = 256 - base;
		if (room <= 0)
			break;
		map = dpm_xcalloc((size_t)o->ndev, sizeof(*map));
		for (int j = 0; j < o->ndev; j++)
			map[j] = -1;
		/* The first ones in list order: closed under parent. */
		for (int j = r; j < o->ndev && m < room; j++)
			if (j == r || scn_is_descendant(o, j, r))
				map[j] = base + m++;
		s->dev = dpm_xrealloc(s->dev, (size_t)(base + m), sizeof(*s->dev));
		s->ndev = base + m;
		for (int j = r; j < o->ndev; j++) {
			struct scn_device d = o->dev[j];
			int k = 0;

			if (map[j] < 0)
				continue;
			d.parent = j == r ? (int)rnd(rng, (unsigned)base + 1) - 1 :
					    map[d.parent];
			for (int l = 0; l < d.nsup; l++)
				if (map[d.sup[l]] >= 0)
					d.sup[k++] = map[d.sup[l]];
			d.nsup = k;
			if (d.beh.pm_wait_for)
				d.beh.pm_wait_for = map[d.beh.pm_wait_for - 1] + 1;
			if (d.beh.remove_phase >= 0)
				d.beh.remove_target = map[d.beh.remove_target];
			if (d.beh.remove_target < 0) {
				d.beh.remove_phase = -1;
				d.beh.remove_target = 0;
			}
			s->dev[map[j]] = d;
		}
		free(map);
		break;
	}
	case 1:		/* o's schedule */
		free(s->sched);
		s->nsched = o->nsched < max_sched ? o->nsched : max_sched;
		s->sched = dpm_xmemdup(o->sched ? o->sched : (const uint8_t *)"",
				       s->nsched ? s->nsched : 1, 1);
		break;
	case 2: {	/* s's schedule up to a point, o's after it */
		size_t head = rnd(rng, (unsigned)s->nsched + 1);
		size_t from = rnd(rng, (unsigned)o->nsched + 1);
		size_t tail = o->nsched - from;

		if (head + tail > max_sched)
			tail = max_sched > head ? max_sched - head : 0;
		sched_resize(s, head + tail);
		if (tail)
			memcpy(s->sched + head, o->sched + from, tail);
		break;
	}
	default:	/* o's configuration and actions */
		s->pm_async = o->pm_async;
		s->pm_trace = o->pm_trace;
		s->cycles = o->cycles;
		s->inline_every = o->inline_every;
		s->worker_limit = o->worker_limit;
		s->transition = o->transition;
		s->wakeup_at_us = o->wakeup_at_us;
		s->suspend_again = o->suspend_again;
		free(s->act);
		s->nact = o->nact;
		s->act = dpm_xmemdup(o->act ? o->act : (const void *)"",
				     (size_t)(o->nact ? o->nact : 1), sizeof(*o->act));
		for (int i = 0; i < s->nact; i++)
			s->act[i].dev %= s->ndev;
		break;
	}
	scenario_canonicalize(s, lim);
}

/* s's bytes into out; 0 if they do not fit in max (a schedule is cut to
 * fit: its head is a schedule too).  Without a schedule, trailing zero
 * bytes go: the decoder reads a missing byte as 0. */
static size_t emit(const struct scenario *s, uint8_t *out, size_t max)
{
	size_t n;
	bool lossy;
	uint8_t *b = scenario_encode(s, s->sched_by_task ? SCHED_BY_TASK : SCHED_BY_POSITION,
				     &n, &lossy);

	if (!s->nsched)
		while (n && !b[n - 1])
			n--;
	if (lossy || !n || n - s->nsched > max) {
		free(b);
		return 0;
	}
	if (n > max)
		n = max;
	memcpy(out, b, n);
	free(b);
	return n;
}

size_t scenario_mutate_bytes(const uint8_t *data, size_t size, uint8_t *out,
			     size_t max, const struct scn_limits *lim,
			     unsigned int mask, uint64_t seed)
{
	struct scenario s;
	uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t n;

	scenario_decode(data, size, lim, &s);
	scenario_mutate(&s, lim, mask, max, &rng);
	n = emit(&s, out, max);
	scenario_free(&s);
	return n;
}

size_t scenario_crossover_bytes(const uint8_t *a, size_t alen,
				const uint8_t *b, size_t blen, uint8_t *out,
				size_t max, const struct scn_limits *lim,
				uint64_t seed)
{
	struct scenario s, o;
	uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 1;
	size_t n;

	scenario_decode(a, alen, lim, &s);
	scenario_decode(b, blen, lim, &o);
	scenario_crossover(&s, &o, lim, max, &rng);
	n = emit(&s, out, max);
	scenario_free(&s);
	scenario_free(&o);
	return n;
}
