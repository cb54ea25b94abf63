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

static const int err_table[4] = { -EIO, -EBUSY, -ENODEV, -ENOMEM };

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
}

void scenario_free(struct scenario *s)
{
	free(s->dev);
	free(s->act);
	free(s->sched);
	scenario_init(s);
}


static bool is_descendant(const struct scenario *s, int d, int anc)
{
	for (int p = s->dev[d].parent; p >= 0; p = s->dev[p].parent)
		if (p == anc)
			return true;
	return false;
}

void scenario_decode(const uint8_t *data, size_t size,
		     const struct scn_limits *lim, struct scenario *s)
{
	struct consumer c = { data, size };
	scenario_init(s);
	uint8_t f = byte(&c);

	s->pm_async = !(f & 1);
	s->pm_trace = f & 2;
	s->cycles = 1 + ((f >> 2) & 3) % (lim->max_cycles ? lim->max_cycles : 1);
	s->inline_every = (f >> 4) < 12 ? 0 : (f >> 4) - 10;
	uint8_t w = byte(&c) & 7;

	s->worker_limit = w < 4 || lim->no_worker_limit ? 0 : w - 3;
	s->ndev = 1 + byte(&c) % lim->max_devices;
	s->dev = dpm_xcalloc(s->ndev, sizeof(*s->dev));
	uint8_t *target = dpm_xcalloc(s->ndev, 1);

	for (int i = 0; i < s->ndev; i++) {
		struct scn_device *d = &s->dev[i];
		uint8_t p = byte(&c), fl = byte(&c), e = byte(&c);
		uint8_t du = byte(&c), other = byte(&c);

		snprintf(d->name, sizeof(d->name), "dev%d", i);
		d->parent = i ? (int)(p % (i + 1)) - 1 : -1;
		d->async = fl & 1;
		d->pci = fl & 2;
		d->beh.remove_phase = remove_phase_table[(fl >> 2) & 7];
		target[i] = fl >> 5;
		if ((e & 31) < NR_PHASES)
			d->beh.err[e & 31] = err_table[(e >> 5) & 3];
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
	}
	/* A side action's victim is a descendant; none: no action. */
	for (int i = 0; i < s->ndev; i++) {
		struct dev_behaviour *b = &s->dev[i].beh;
		int n = 0, pick = -1;

		if (b->remove_phase < 0)
			continue;
		for (int j = i + 1; j < s->ndev; j++)
			n += is_descendant(s, j, i);
		if (n) {
			int k = target[i] % n;

			for (int j = i + 1; j < s->ndev && pick < 0; j++)
				if (is_descendant(s, j, i) && !k--)
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
		struct scn_action *a = &s->act[i];
		uint8_t k = byte(&c), dv = byte(&c), t = byte(&c);

		a->kind = (k & 1) ? ACT_ASYNC_ATTR : ACT_UNREGISTER;
		a->dev = dv % s->ndev;
		if (a->kind == ACT_UNREGISTER) {
			a->at = (uint64_t)t * t * 50;
		} else {
			const char *v = attr_table[(k >> 1) & 7];

			a->at = t % s->cycles;
			a->attr_len = (int)strlen(v);
			memcpy(a->attr, v, a->attr_len);
		}
	}
	s->nsched = c.left;
	s->sched = dpm_xcalloc(c.left, 1);
	if (c.left)
		memcpy(s->sched, c.p, c.left);
}

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

uint8_t *scenario_encode(const struct scenario *s, size_t *len, bool *lossy)
{
	size_t cap = 4 + 5 * (size_t)s->ndev + 1 + 3 * (size_t)s->nact +
		     s->nsched;
	uint8_t *b = dpm_xcalloc(cap, 1), *p = b;
	bool lost = false;
	unsigned int inl = s->inline_every;

	if (inl && (inl < 2 || inl > 5)) {
		lost = true;
		inl = inl < 2 ? 2 : 5;
	}
	if (s->worker_limit > 4 || s->cycles > 4 || s->ndev > 256)
		lost = true;
	*p++ = (uint8_t)(!s->pm_async | (s->pm_trace << 1) |
			 (((s->cycles - 1) & 3) << 2) |
			 ((inl ? inl + 10 : 0) << 4));
	*p++ = (uint8_t)(s->worker_limit ? (s->worker_limit > 4 ? 4 : s->worker_limit) + 3 : 0);
	*p++ = (uint8_t)(s->ndev - 1);
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];
		int rp = 0, sel = 0, err = 31, nerr = 0;

		if (d->beh.remove_phase >= 0) {
			for (rp = 4; rp < 8; rp++)
				if (remove_phase_table[rp] == d->beh.remove_phase)
					break;
			for (int j = i + 1; j < d->beh.remove_target; j++)
				sel += is_descendant(s, j, i);
			if (sel > 7)
				lost = true;
		}
		for (int ph = 0; ph < NR_PHASES; ph++) {
			if (!d->beh.err[ph])
				continue;
			int code = 0;

			for (int k = 0; k < 4; k++)
				if (err_table[k] == d->beh.err[ph])
					code = k;
			lost |= err_table[code] != d->beh.err[ph] || nerr++;
			err = ph | (code << 5);
		}
		unsigned int other = 0;

		for (int ph = 0; ph < NR_PHASES; ph++)
			if (ph != PH_SUSPEND && ph != PH_RESUME &&
			    d->beh.dur_us[ph] > other)
				other = d->beh.dur_us[ph];
		*p++ = (uint8_t)(d->parent + 1);
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
			*p++ = 0;
			*p++ = (uint8_t)a->dev;
			*p++ = (uint8_t)t;
		}
	}
	if (s->nsched)		/* s->sched may be NULL then */
		memcpy(p, s->sched, s->nsched);
	p += s->nsched;
	*len = (size_t)(p - b);
	*lossy = lost;
	return b;
}
