// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bytes to scenario.  Layout (docs/scenario.md), every field read with a
 * byte consumer that yields 0 once the input is used up, so every input
 * is valid:
 *   config   3 bytes: flags, worker limit, device count
 *   devices  5 bytes each: parent, flags (async, pci, side action),
 *            error, suspend/resume durations, other phases' durations
 *            (bits 0-2) with rpm-suspended (bit 3) and a supplier link
 *            or a pm-wait (bits 4-5 which, 6-7 which device)
 *   actions  1 byte count, then 3 bytes each: kind, device, time
 *   schedule the rest, one byte per choice
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "../util/xalloc.h"
#include "scenario.h"

/* The encoder and canonicalize serve the structure-aware mutator, which
 * runs between a fuzz target's executions: coverage hooks there are no
 * signal, only cost. */
#include "../util/nocov.h"
#include "../util/str.h"

struct consumer {
	const uint8_t *p;
	size_t left;
};

static uint8_t byte(struct consumer *c)
{
	if (!c->left)
		return 0;
	c->left--;
	return *c->p++;
}

/* Callback durations in microseconds: mostly short, a few long, like the
 * real machines in shared/data (disks 0.8 s, audio 0.16 s). */
static const unsigned int dur_table[16] = {
	0, 0, 1, 2, 5, 10, 20, 50, 100, 500, 1000, 5000,
	20000, 100000, 500000, 2000000,
};

const int scn_err_table[4] = { -EIO, -EBUSY, -ENODEV, -ENOMEM };

/* power/async writes a fuzzer can make, good and bad. */
static const char *const attr_table[8] = {
	"enabled", "disabled", "enabled\n", "disabled\n",
	"enabl", "enabledx\n", "", "disabled\nx",
};

/* Side actions: the phase whose callback unregisters a descendant. */
static const int remove_phase_table[8] = {
	-1, -1, -1, -1, PH_PREPARE, PH_SUSPEND, PH_RESUME, PH_COMPLETE,
};

void scenario_init(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->pm_async = true;
	s->cycles = 1;
	s->wakeup_at_us = -1;
}

void scn_device_init(struct scn_device *d)
{
	memset(d, 0, sizeof(*d));
	d->parent = -1;
	d->beh.remove_phase = -1;
	d->k.level_cbs = SCN_ALL_PHASES;
	d->k.driver_cbs = SCN_ALL_PHASES;
	d->k.late_phase = -1;
	d->k.release_unregisters = -1;
	for (int i = 0; i < SCN_SUP_MAX; i++)
		d->k.link_flags[i] = SCN_LINK_PM_RUNTIME;
}

static const char *const transition_names[NR_TRANSITIONS] = {
	"mem", "s2idle", "freeze", "poweroff", "restore",
};

static const char *const level_names[NR_LEVELS] = {
	"none", "domain", "type", "class", "bus", "legacy-bus",
};

const char *scn_transition_name(enum scn_transition t)
{
	return (unsigned)t < NR_TRANSITIONS ? transition_names[t] : "?";
}

const char *scn_level_name(enum scn_level l)
{
	return (unsigned)l < NR_LEVELS ? level_names[l] : "?";
}

/*
 * The kernel variants' fields come from bits the models never read, so
 * every byte string still means the same scenario to the models
 * (docs/scenario.md, "Bytes").
 */
static const unsigned int wakeup_table[4] = { 50, 500, 5000, 50000 };
static const unsigned int dpm_table[4] = {
	0, SCN_DPM_SMART_SUSPEND, SCN_DPM_MAY_SKIP_RESUME,
	SCN_DPM_SMART_SUSPEND | SCN_DPM_MAY_SKIP_RESUME,
};
static const int level_table[4] = { LVL_NONE, LVL_BUS, LVL_CLASS, LVL_DOMAIN };
/* Never in suspend: a driver that registers children while its device
 * suspends is out of contract (main.c warns "should not be sleeping"). */
static const int late_table[4] = { PH_PREPARE, PH_RESUME, PH_COMPLETE, PH_RESUME };
static const unsigned int link_table[4] = {
	SCN_LINK_PM_RUNTIME, SCN_LINK_PM_RUNTIME,
	SCN_LINK_STATELESS | SCN_LINK_PM_RUNTIME, SCN_LINK_SYNC_STATE_ONLY,
};
#define LATE_EARLY ((1u << PH_SUSPEND_LATE) | (1u << PH_RESUME_EARLY))

/* The config byte's bits 3-7: the transition and a wake-up event. */
static void decode_kernel_config(uint8_t w, struct scenario *s)
{
	unsigned int t = (w >> 3) & 7;

	s->transition = t < 4 ? TR_MEM : (enum scn_transition)(t - 3);
	s->wakeup_at_us = (w >> 6) == 3 ? (int64_t)wakeup_table[t & 3] : -1;
}

/* A device's error byte: bit 7, and when it sets no error (low five bits
 * 8 and up) the rest, as v = low five bits - 8 and y = bits 5-6. */
static void decode_kernel_device(uint8_t e, uint8_t p, struct scn_device *d)
{
	struct scn_kernel *k = &d->k;
	int v = (e & 31) - NR_PHASES, y = (e >> 5) & 3;

	if (e & 0x80)
		k->flags |= SCN_WAKEUP;
	for (int i = 0; i < d->nsup; i++)
		k->link_flags[i] = link_table[p >> 6];
	if (v < 0)
		return;
	if (v < 6) {			/* a middle layer; the driver's ops */
		k->level = v;
		if (y == 1)
			k->driver_cbs &= ~LATE_EARLY;
		else if (y == 2)
			k->driver_cbs = 0;
		return;
	}
	if (v < 12) {			/* a middle layer, DPM flags */
		k->level = v - 6;
		k->dpm_flags = dpm_table[y];
		return;
	}
	k->level = level_table[y];
	switch (v) {
	case 12: k->flags |= SCN_NO_DRIVER; break;
	case 13: k->flags |= SCN_SYSCORE; break;
	case 14: k->flags |= SCN_NO_PM; break;
	case 15: k->dpm_flags = SCN_DPM_NO_DIRECT_COMPLETE; break;
	case 16: k->dpm_flags = SCN_DPM_SMART_PREPARE; break;
	case 17: k->level_cbs &= ~LATE_EARLY; break;
	case 18: k->release_unregisters = 0; break;	/* target: below */
	case 19: k->level_cbs = (1u << PH_SUSPEND) | (1u << PH_RESUME); break;
	default:
		if (d->parent >= 0)
			k->late_phase = late_table[v - 20];
		break;
	}
}


/* A release that unregisters: the device before, unless it is an
 * ancestor (the releasing device's own parents are gone first). */
static void release_target(struct scenario *s, int i)
{
	struct scn_device *d = &s->dev[i];

	if (d->k.release_unregisters == 0)
		d->k.release_unregisters =
			i && !scn_is_descendant(s, i, i - 1) ? i - 1 : -1;
}

void scenario_add_kernel_features(struct scenario *s, uint8_t cfg_byte,
				  const uint8_t *dev_bytes)
{
	decode_kernel_config(cfg_byte, s);
	for (int i = 0; i < s->ndev; i++) {
		uint8_t e = dev_bytes[2 * i];

		/* The error byte's values that set no error. */
		if ((e & 31) < NR_PHASES)
			e = (uint8_t)((e & ~31u) | (NR_PHASES + (e & 7)));
		decode_kernel_device(e, dev_bytes[2 * i + 1], &s->dev[i]);
		release_target(s, i);
	}
}

void scenario_free(struct scenario *s)
{
	free(s->dev);
	free(s->act);
	free(s->sched);
	scenario_init(s);
}

bool scn_is_descendant(const struct scenario *s, int d, int anc)
{
	for (int p = s->dev[d].parent; p >= 0; p = s->dev[p].parent)
		if (p == anc)
			return true;
	return false;
}

uint8_t scenario_decode_device(struct scenario *s, int i, const uint8_t b[5])
{
	struct scn_device *d = &s->dev[i];
	uint8_t p = b[0], fl = b[1], e = b[2], du = b[3], other = b[4];

	scn_device_init(d);
	dpm_name_index(d->name, sizeof(d->name), "dev", i);
	d->parent = i ? (int)(p % (i + 1)) - 1 : -1;
	d->async = fl & 1;
	d->pci = fl & 2;
	d->beh.remove_phase = remove_phase_table[(fl >> 2) & 7];
	if ((e & 31) < NR_PHASES)
		d->beh.err[e & 31] = scn_err_table[(e >> 5) & 3];
	d->beh.dur_us[PH_SUSPEND] = dur_table[du & 15];
	d->beh.dur_us[PH_RESUME] = dur_table[du >> 4];
	for (int ph = 0; ph < NR_PHASES; ph++)
		if (ph != PH_SUSPEND && ph != PH_RESUME)
			d->beh.dur_us[ph] = dur_table[other & 7];
	d->beh.rpm_suspended = other & 8;
	int rel = other >> 6, t;

	switch ((other >> 4) & 3) {
	case 1:		/* a supplier among the 4 devices before */
		if (i - 1 - rel >= 0)
			d->sup[d->nsup++] = i - 1 - rel;
		break;
	case 2:		/* pm-wait: 2 before, or 2 after */
		t = rel < 2 ? i - 1 - rel : i + rel - 1;
		if (t >= 0 && t < s->ndev)
			d->beh.pm_wait_for = t + 1;
		break;
	}
	decode_kernel_device(e, p, d);
	release_target(s, i);
	return fl >> 5;
}

void scenario_decode_config(struct scenario *s, uint8_t f, uint8_t wb,
			    const struct scn_limits *lim)
{
	uint8_t w = wb & 7;

	s->pm_async = !(f & 1);
	s->pm_trace = f & 2;
	s->cycles = 1 + ((f >> 2) & 3) % (lim->max_cycles ? lim->max_cycles : 1);
	s->inline_every = (f >> 4) < 12 ? 0 : (f >> 4) - 10;
	s->worker_limit = w < 4 || lim->no_worker_limit ? 0 : w - 3;
	decode_kernel_config(wb, s);
}

void scenario_decode_action(const struct scenario *s, struct scn_action *a,
			    const uint8_t b[3])
{
	uint8_t k = b[0], t = b[2];

	memset(a, 0, sizeof(*a));
	a->kind = (k & 1) ? ACT_ASYNC_ATTR : ACT_UNREGISTER;
	a->dev = b[1] % s->ndev;
	if (a->kind == ACT_UNREGISTER) {
		a->at = (uint64_t)t * t * 50;
		a->unfrozen = k & 2;
	} else {
		const char *v = attr_table[(k >> 1) & 7];

		a->at = t % s->cycles;
		a->attr_len = (int)strlen(v);
		memcpy(a->attr, v, a->attr_len);
	}
}

/* The device i's remove_target as the decoder picks it: the n-th of its
 * descendants in list order; -1 if it has no n-th. */
DPM_NO_COVERAGE
static int nth_descendant(const struct scenario *s, int i, int n)
{
	for (int j = i + 1; j < s->ndev; j++)
		if (scn_is_descendant(s, j, i) && !n--)
			return j;
	return -1;
}

DPM_NO_COVERAGE
void scenario_canonicalize(struct scenario *s, const struct scn_limits *lim)
{
	int maxc = lim->max_cycles ? lim->max_cycles : 1;

	if (maxc > 4)
		maxc = 4;
	if (s->cycles < 1 || s->cycles > maxc)
		s->cycles = 1;
	if (lim->no_worker_limit || s->worker_limit > 4)
		s->worker_limit = 0;
	if (s->inline_every == 1 || s->inline_every > 5)
		s->inline_every = 0;
	for (int i = 0; i < s->ndev; i++) {
		struct scn_device *d = &s->dev[i];
		struct scn_kernel *k = &d->k;
		int t = d->beh.pm_wait_for - 1, nerr = 0;

		dpm_name_index(d->name, sizeof(d->name), "dev", i);
		if (d->parent >= i || d->parent < -1)
			d->parent = -1;
		if (d->parent < 0)
			k->late_phase = -1;
		/* One supplier among the 4 devices before, or one pm-wait on
		 * one of the 2 devices before or after. */
		if (d->nsup > 1)
			d->nsup = 1;
		if (d->nsup && (d->sup[0] >= i || i - 1 - d->sup[0] > 3))
			d->nsup = 0;
		if (d->nsup || (t != i - 1 && t != i - 2 && t != i + 1 &&
				t != i + 2) || t < 0 || t >= s->ndev)
			d->beh.pm_wait_for = 0;
		for (int l = d->nsup; l < SCN_SUP_MAX; l++)
			k->link_flags[l] = SCN_LINK_PM_RUNTIME;
		if (d->nsup) {	/* the parent byte's top bits carry them */
			int first = -1;
			bool ok = false;

			for (int p = 0; p < 256 && !ok; p++) {
				if (p % (i + 1) != (d->parent + 1) % (i + 1))
					continue;
				if (first < 0)
					first = p;
				ok = link_table[p >> 6] == k->link_flags[0];
			}
			if (!ok)
				k->link_flags[0] = link_table[first >> 6];
		}
		/* One error per device, from the table; its byte then
		 * carries no kernel field but the wakeup bit. */
		for (int ph = 0; ph < NR_PHASES; ph++) {
			bool known = false;

			for (int c = 0; c < 4; c++)
				known |= d->beh.err[ph] == scn_err_table[c];
			if (d->beh.err[ph] && (!known || nerr++))
				d->beh.err[ph] = 0;
		}
		if (nerr) {
			struct scn_device plain;

			scn_device_init(&plain);
			plain.k.flags = k->flags & SCN_WAKEUP;
			memcpy(plain.k.link_flags, k->link_flags,
			       sizeof(k->link_flags));
			*k = plain.k;
		}
		if (k->release_unregisters >= 0)
			k->release_unregisters =
				i && !scn_is_descendant(s, i, i - 1) ? i - 1 : -1;
	}
	/* A side action's victim: one of the first 8 descendants. */
	for (int i = 0; i < s->ndev; i++) {
		struct dev_behaviour *b = &s->dev[i].beh;
		bool ok = false;

		if (b->remove_phase < 0)
			continue;
		for (int n = 0; n < 8 && !ok; n++)
			ok = nth_descendant(s, i, n) == b->remove_target &&
			     b->remove_target >= 0;
		if (!ok || (b->remove_phase != PH_PREPARE &&
			    b->remove_phase != PH_SUSPEND &&
			    b->remove_phase != PH_RESUME &&
			    b->remove_phase != PH_COMPLETE)) {
			b->remove_phase = -1;
			b->remove_target = 0;
		}
	}
	if (s->nact > lim->max_actions)
		s->nact = lim->max_actions;
	for (int i = 0; i < s->nact; i++) {
		struct scn_action *a = &s->act[i];

		if (a->dev < 0 || a->dev >= s->ndev)
			a->dev = 0;
		if (a->kind == ACT_ASYNC_ATTR) {
			a->at %= (uint64_t)s->cycles;
		} else {	/* at = t * t * 50 for a byte t */
			uint64_t t = 0;

			while (t < 255 && (t + 1) * (t + 1) * 50 <= a->at)
				t++;
			a->at = t * t * 50;
		}
	}
}

void scenario_decode(const uint8_t *data, size_t size,
		     const struct scn_limits *lim, struct scenario *s)
{
	struct consumer c = { data, size };
	scenario_init(s);
	uint8_t f = byte(&c), wb = byte(&c);

	scenario_decode_config(s, f, wb, lim);
	s->ndev = 1 + byte(&c) % lim->max_devices;
	s->dev = dpm_xcalloc(s->ndev, sizeof(*s->dev));
	uint8_t *target = dpm_xcalloc(s->ndev, 1);

	for (int i = 0; i < s->ndev; i++) {
		uint8_t b[5];

		for (int k = 0; k < 5; k++)
			b[k] = byte(&c);
		target[i] = scenario_decode_device(s, i, b);
	}
	/* A side action's victim is a descendant; none: no action. */
	for (int i = 0; i < s->ndev; i++) {
		struct dev_behaviour *b = &s->dev[i].beh;
		int n = 0, pick = -1;

		if (b->remove_phase < 0)
			continue;
		for (int j = i + 1; j < s->ndev; j++)
			n += scn_is_descendant(s, j, i);
		if (n) {
			int k = target[i] % n;

			for (int j = i + 1; j < s->ndev && pick < 0; j++)
				if (scn_is_descendant(s, j, i) && !k--)
					pick = j;
		}
		if (pick < 0)
			b->remove_phase = -1;
		else
			b->remove_target = pick;
	}
	free(target);

	s->nact = byte(&c) % (lim->max_actions + 1);
	s->act = dpm_xcalloc(s->nact, sizeof(*s->act));
	for (int i = 0; i < s->nact; i++) {
		uint8_t b[3];

		for (int k = 0; k < 3; k++)
			b[k] = byte(&c);
		scenario_decode_action(s, &s->act[i], b);
	}
	s->nsched = c.left;
	s->sched = dpm_xcalloc(c.left, 1);
	if (c.left)
		memcpy(s->sched, c.p, c.left);
	s->sched_by_task = lim->sched_mode == SCHED_BY_TASK ||
			   (lim->sched_mode == SCHED_MIXED && (c.left & 1));
}

DPM_NO_COVERAGE
static int nearest(const unsigned int *table, int n, unsigned int v)
{
	int best = 0;

	for (int i = 1; i < n; i++) {
		unsigned int d = table[i] > v ? table[i] - v : v - table[i];
		unsigned int bd = table[best] > v ? table[best] - v :
						    v - table[best];
		if (d < bd)
			best = i;
	}
	return best;
}

DPM_NO_COVERAGE
static uint8_t encode_kernel_config(const struct scenario *s, uint8_t w,
				    bool *lost)
{
	for (unsigned int b = 0; b < 32; b++) {
		struct scenario t;

		decode_kernel_config((uint8_t)(w | b << 3), &t);
		if (t.transition == s->transition &&
		    t.wakeup_at_us == s->wakeup_at_us) {
			*lost |= s->suspend_again != 0;	/* text only */
			return (uint8_t)(w | b << 3);
		}
	}
	*lost = true;
	return w;
}

/* The kernel fields each error byte gives without its wakeup bit (bit
 * 7), for a device without ([0]) and with ([1]) a parent, its release
 * target not yet resolved (0 for "the device before"): filled once, so
 * that the encoder looks codes up instead of decoding each. */
static struct scn_kernel code_kernel[2][128];
static bool code_kernel_ready;

DPM_NO_COVERAGE
static void fill_code_kernel(void)
{
	for (int hp = 0; hp < 2; hp++)
		for (int e = 0; e < 128; e++) {
			struct scn_device t;

			scn_device_init(&t);
			t.parent = hp ? 0 : -1;
			decode_kernel_device((uint8_t)e, 0, &t);
			code_kernel[hp][e] = t.k;
		}
	code_kernel_ready = true;
}

/* Whether code k gives device i of s the kernel fields d has (the link
 * flags apart: they come from the parent byte). */
DPM_NO_COVERAGE
static bool code_gives(const struct scenario *s, int i,
		       const struct scn_kernel *k, const struct scn_kernel *d)
{
	int rel = k->release_unregisters;

	if (rel == 0)
		rel = i && !scn_is_descendant(s, i, i - 1) ? i - 1 : -1;
	return (k->flags | (d->flags & SCN_WAKEUP)) == d->flags &&
	       k->dpm_flags == d->dpm_flags && k->level == d->level &&
	       k->level_cbs == d->level_cbs && k->driver_cbs == d->driver_cbs &&
	       k->late_phase == d->late_phase && rel == d->release_unregisters;
}

/* The error byte err (and the parent byte *pb, whose top bits carry link
 * flags) with the kernel fields of device i: the first code, in the
 * order of its byte value, that gives them. */
DPM_NO_COVERAGE
static uint8_t encode_kernel_device(const struct scenario *s, int i, int err,
				    uint8_t *pb, bool *lost)
{
	const struct scn_device *d = &s->dev[i];
	bool has_err = (err & 31) < NR_PHASES, found = false;
	int hp = d->parent >= 0, e = err & 127;

	if (!code_kernel_ready)
		fill_code_kernel();
	for (int v = has_err ? e : 0; v < 128 && !found; v++) {
		if (!has_err && (v & 31) < NR_PHASES)
			continue;
		if (code_gives(s, i, &code_kernel[hp][v], &d->k)) {
			e = v;
			found = true;
		}
		if (has_err)
			break;
	}
	if (d->nsup) {
		bool links = false;

		for (int pm = 0; pm < 256 && !links; pm++) {
			if (i && pm % (i + 1) != *pb % (i + 1))
				continue;
			links = true;
			for (int k = 0; k < d->nsup; k++)
				links &= d->k.link_flags[k] == link_table[pm >> 6];
			if (links)
				*pb = (uint8_t)pm;
		}
		found &= links;
	}
	if (!found) {
		*lost = true;
		return (uint8_t)err;
	}
	return (uint8_t)(e | (d->k.flags & SCN_WAKEUP ? 0x80 : 0));
}

bool scenario_sched_fits(const struct scenario *s, enum scn_sched_mode mode)
{
	/* Mixed: an odd count is read by task; one by position gets a
	 * padding byte (below). */
	return !s->nsched ||
	       (mode == SCHED_MIXED ? !s->sched_by_task || (s->nsched & 1) :
				      s->sched_by_task == (mode == SCHED_BY_TASK));
}

DPM_NO_COVERAGE
uint8_t *scenario_encode(const struct scenario *s, enum scn_sched_mode mode,
			 size_t *len, bool *lossy)
{
	size_t cap = 4 + 5 * (size_t)s->ndev + 1 + 3 * (size_t)s->nact +
		     s->nsched + 1;
	uint8_t *b = dpm_xcalloc(cap, 1), *p = b;
	bool lost = !scenario_sched_fits(s, mode);
	unsigned int inl = s->inline_every;

	if (inl && (inl < 2 || inl > 5)) {
		lost = true;
		inl = inl < 2 ? 2 : 5;
	}
	if (s->worker_limit > 4 || s->cycles > 4 || s->ndev > 256)
		lost = true;
	*p++ = (uint8_t)((s->pm_async ? 0 : 1) | (s->pm_trace << 1) |
			 (((s->cycles - 1) & 3) << 2) |
			 ((inl ? inl + 10 : 0) << 4));
	*p++ = encode_kernel_config(s, s->worker_limit ?
				    (s->worker_limit > 4 ? 4 : s->worker_limit) + 3 : 0,
				    &lost);
	*p++ = (uint8_t)(s->ndev - 1);
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];
		int rp = 0, sel = 0, err = 31, nerr = 0;

		if (d->beh.remove_phase >= 0) {
			for (rp = 4; rp < 8; rp++)
				if (remove_phase_table[rp] == d->beh.remove_phase)
					break;
			for (int j = i + 1; j < d->beh.remove_target; j++)
				sel += scn_is_descendant(s, j, i);
			if (sel > 7)
				lost = true;
		}
		for (int ph = 0; ph < NR_PHASES; ph++) {
			if (!d->beh.err[ph])
				continue;
			int code = 0;

			for (int k = 0; k < 4; k++)
				if (scn_err_table[k] == d->beh.err[ph])
					code = k;
			lost |= scn_err_table[code] != d->beh.err[ph] || nerr++;
			err = ph | (code << 5);
		}
		unsigned int other = 0;

		for (int ph = 0; ph < NR_PHASES; ph++)
			if (ph != PH_SUSPEND && ph != PH_RESUME &&
			    d->beh.dur_us[ph] > other)
				other = d->beh.dur_us[ph];
		uint8_t pb = (uint8_t)(d->parent + 1);

		err = encode_kernel_device(s, i, err, &pb, &lost);
		*p++ = pb;
		*p++ = (uint8_t)(d->async | (d->pci << 1) | ((rp & 7) << 2) |
				 ((sel & 7) << 5));
		*p++ = (uint8_t)err;
		*p++ = (uint8_t)(nearest(dur_table, 16, d->beh.dur_us[PH_SUSPEND]) |
				 (nearest(dur_table, 16, d->beh.dur_us[PH_RESUME]) << 4));
		int ext = d->beh.rpm_suspended ? 8 : 0;
		int t = d->beh.pm_wait_for - 1, rel = -1;

		if (d->nsup) {
			rel = i - 1 - d->sup[0];
			lost |= d->nsup > 1 || rel > 3 || d->beh.pm_wait_for;
			if (rel <= 3)
				ext |= 1 << 4 | rel << 6;
		} else if (t >= 0) {
			rel = t < i ? i - 1 - t : t - i + 1;
			if ((t < i && rel <= 1) || (t > i && rel >= 2 && rel <= 3))
				ext |= 2 << 4 | rel << 6;
			else
				lost = true;
		}
		*p++ = (uint8_t)(nearest(dur_table, 8, other) | ext);
	}
	*p++ = (uint8_t)s->nact;
	for (int i = 0; i < s->nact; i++) {
		const struct scn_action *a = &s->act[i];
		int k = 0;

		if (a->kind == ACT_ASYNC_ATTR) {
			for (int t = 0; t < 8; t++)
				if ((int)strlen(attr_table[t]) == a->attr_len &&
				    !memcmp(attr_table[t], a->attr, a->attr_len))
					k = t;
			*p++ = (uint8_t)(1 | (k << 1));
			*p++ = (uint8_t)a->dev;
			*p++ = (uint8_t)a->at;
		} else {
			unsigned int t = 0;

			while (t < 255 && (uint64_t)(t + 1) * (t + 1) * 50 <= a->at)
				t++;
			*p++ = a->unfrozen ? 2 : 0;
			*p++ = (uint8_t)a->dev;
			*p++ = (uint8_t)t;
		}
	}
	if (s->nsched)		/* s->sched may be NULL then */
		memcpy(p, s->sched, s->nsched);
	p += s->nsched;
	if (mode == SCHED_MIXED && !s->sched_by_task && (s->nsched & 1))
		*p++ = 0;	/* even: read by position */
	*len = (size_t)(p - b);
	*lossy = lost;
	return b;
}
