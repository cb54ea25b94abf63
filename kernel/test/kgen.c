// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random scenarios for the kernel variants, from a seed.  Every scenario
 * stays inside the kernel's contract as docs/kernel.md states it:
 *   - parents before children; a DPMK_DEV_LATE device is registered by
 *     its parent's callback (add_phase), at most one per parent;
 *   - side actions only in prepare, suspend, resume and complete (the
 *     phases in which main.c holds the device lock and other tasks run),
 *     and a device only unregisters a descendant;
 *   - no -EAGAIN from prepare (dpm_prepare() would retry for ever);
 *   - device links with any flags (device_link_add() refuses the bad
 *     ones), the supplier registered first (with --sso-backward a
 *     SYNC_STATE_ONLY link may point the other way, as core.c lets it:
 *     finding KV-1);
 *   - device_pm_wait_for_dev() only between devices whose dpm_list order
 *     is their registration order (neither is moved by a link, neither
 *     is late), in the direction pm_wait_applies() gives: a driver waits
 *     for a device that is handled before it, never after.
 */
#include <stdio.h>
#include <string.h>

#include "kcheck.h"
#include "util/xorshift.h"

static uint64_t rng;

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)(xorshift64(&rng) % n) : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

static const int errors[] = { -5, -16, -19, -12, -11 };	/* EIO EBUSY ENODEV ENOMEM EAGAIN */
static const int side_phases[] = { PH_PREPARE, PH_SUSPEND, PH_RESUME, PH_COMPLETE };

static unsigned int duration(void)
{
	switch (rnd(8)) {
	case 0:
		return 0;
	case 1:
		return 2000 + rnd(20000);
	default:
		return rnd(500);
	}
}

static bool descendant(const struct kc_scenario *k, int d, int of)
{
	for (int p = k->dev[d].parent; p >= 0; p = k->dev[p].parent)
		if (p == of)
			return true;
	return false;
}

/* Whether a removal of t is generated: leaves only, unless --kv5. */
static bool removable(const struct kc_scenario *k, const struct kc_gen_opts *o, int t)
{
	if (o->kv5)
		return true;
	for (int i = t + 1; i < k->s.ndev; i++)
		if (k->dev[i].parent == t)
			return false;
	return true;
}

/* Devices a link moves to the end of dpm_list: each consumer with its
 * descendants and consumers (device_reorder_to_tail()). */
static void mark_moved(const struct kc_scenario *k, int d, bool *moved)
{
	if (moved[d])
		return;
	moved[d] = true;
	for (int i = d + 1; i < k->s.ndev; i++)
		if (k->dev[i].parent == d)
			mark_moved(k, i, moved);
	for (int i = 0; i < k->s.nlinks; i++)
		if (k->link[i].supplier == d)
			mark_moved(k, k->link[i].consumer, moved);
}

void kc_generate(uint64_t seed, const struct kc_gen_opts *o, struct kc_scenario *k)
{
	int n, nl;
	bool moved[KC_MAX_DEV] = { false };
	bool adds[KC_MAX_DEV] = { false };
	unsigned long long total_us = 0;

	rng = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	if (!rng)
		rng = 1;
	memset(k, 0, sizeof(*k));
	k->s.dev = k->dev;
	k->s.link = k->link;
	k->s.transition = rnd(DPMK_NR_TRANSITIONS);
	k->s.pm_async = !chance(10);
	k->s.pm_trace = chance(8);
	k->cycles = 1 + rnd(3);
	k->inline_every = chance(15) ? 2 + rnd(4) : 0;
	k->worker_limit = chance(30) ? 1 + rnd(3) : 0;
	n = 1 + rnd(o->max_dev < KC_MAX_DEV ? o->max_dev : KC_MAX_DEV);
	if (chance(40) && n > 6)
		n = 1 + rnd(6);
	k->s.ndev = n;

	for (int i = 0; i < n; i++) {
		struct dpmk_device *d = &k->dev[i];

		snprintf(k->names[i], sizeof(k->names[i]), "dev%d", i);
		d->name = k->names[i];
		d->parent = i && chance(85) ? (int)rnd(i) : -1;
		/* Only a late device's own callbacks could register its
		 * children: give them its parent instead. */
		while (d->parent >= 0 && k->dev[d->parent].flags & DPMK_DEV_LATE)
			d->parent = k->dev[d->parent].parent;
		d->level = rnd(DPMK_NR_LEVELS);
		d->level_phases = rnd(256);
		d->driver_phases = chance(80) ? 0xff & ~rnd(256) : rnd(256);
		if (chance(55))
			d->flags |= DPMK_DEV_ASYNC;
		if (chance(10))
			d->flags |= DPMK_DEV_NO_DRIVER;
		if (chance(5))
			d->flags |= DPMK_DEV_NO_PM;
		/* Async matters to a no-PM device only where a child starts
		 * its parent's async step (7.x: finding KV-6): only with
		 * --kv6. */
		if (d->flags & DPMK_DEV_NO_PM && !o->kv6)
			d->flags &= ~DPMK_DEV_ASYNC;
		if (chance(5))
			d->flags |= DPMK_DEV_SYSCORE;
		if (chance(35))
			d->flags |= DPMK_DEV_RPM_SUSPENDED;
		if (chance(50))
			d->flags |= DPMK_DEV_PREPARE_POS;
		if (chance(10))
			d->flags |= DPMK_DEV_WAKEUP;
		if (chance(10))
			d->flags |= DPMK_DEV_IGNORE_CHILDREN;
		for (int b = 0; b < 4; b++)
			if (chance(20))
				d->dpm_flags |= 1u << b;
		for (int p = 0; p < NR_PHASES; p++) {
			d->dur_us[p] = duration();
			total_us += d->dur_us[p];
		}
		if (chance(12)) {
			int p = rnd(NR_PHASES);
			int e = errors[rnd(p == PH_PREPARE ? 4 : 5)];

			d->err[p] = e;
		}
		d->remove_phase = d->remove_target = -1;
		d->add_phase = d->add_target = -1;
		d->pm_wait_for = -1;
		d->release_unregisters = -1;
		/* A late device: its parent registers it in a callback. */
		if (d->parent >= 0 && !adds[d->parent] && chance(12)) {
			struct dpmk_device *pd = &k->dev[d->parent];

			adds[d->parent] = true;
			d->flags |= DPMK_DEV_LATE;
			pd->add_target = i;
			pd->add_phase = side_phases[rnd(4)];
		}
	}
	/* Removals by a driver: a descendant.  A removed device with
	 * children takes them along; if one of them is suspending
	 * asynchronously then, main.c touches the freed parent (finding
	 * KV-5): such removals only with --kv5. */
	for (int i = 0; i < n && !o->no_removals; i++) {
		int t = rnd(n);

		if (chance(10) && descendant(k, t, i) && removable(k, o, t)) {
			k->dev[i].remove_target = t;
			k->dev[i].remove_phase = side_phases[rnd(4)];
		}
		t = rnd(n);
		if (chance(5) && removable(k, o, t))
			k->dev[i].release_unregisters = t;
	}
	/* Links: supplier first; SYNC_STATE_ONLY ones last (below). */
	struct dpmk_link sso[KC_MAX_LINKS];
	int nsso = 0;

	nl = n > 1 ? (int)rnd(n / 2 + 1) : 0;
	for (int i = 0; i < nl && k->s.nlinks < KC_MAX_LINKS; i++) {
		struct dpmk_link *l = &k->link[k->s.nlinks];
		int a = rnd(n), b = rnd(n);

		if (a == b)
			continue;
		l->supplier = a < b ? a : b;
		l->consumer = a < b ? b : a;
		if (chance(40))
			l->flags |= DPMK_LINK_PM_RUNTIME;
		if (chance(20))
			l->flags |= DPMK_LINK_RPM_ACTIVE;
		if (chance(25))
			l->flags |= DPMK_LINK_STATELESS;
		if (chance(10))
			l->flags |= DPMK_LINK_AUTOREMOVE_CONSUMER;
		if (chance(10))
			l->flags |= DPMK_LINK_AUTOREMOVE_SUPPLIER;
		if (chance(5))
			l->flags |= DPMK_LINK_AUTOPROBE_CONSUMER;
		if (chance(10))
			l->flags |= DPMK_LINK_DORMANT;
		if (chance(8)) {
			l->flags = DPMK_LINK_SYNC_STATE_ONLY | (l->flags & DPMK_LINK_DORMANT);
			if (chance(50)) {
				l->supplier = a > b ? a : b;
				l->consumer = a > b ? b : a;
			}
			sso[nsso++] = *l;
			*l = (struct dpmk_link){ 0 };
			continue;
		}
		k->s.nlinks++;
	}
	for (int i = 0; i < k->s.nlinks; i++)
		mark_moved(k, k->link[i].consumer, moved);
	/*
	 * main.c waits on a SYNC_STATE_ONLY link, but device_link_add() does
	 * not move its consumer after the supplier on dpm_list: one whose
	 * consumer comes first (a later, late or moved supplier) makes
	 * main.c wait against the list's order, which can deadlock (finding
	 * KV-1, docs/kernel.md).  Left out unless asked for.
	 */
	for (int i = 0; i < nsso && k->s.nlinks < KC_MAX_LINKS; i++) {
		const struct dpmk_link *l = &sso[i];

		if (!o->sso_backward &&
		    (l->supplier > l->consumer || moved[l->supplier] ||
		     k->dev[l->supplier].flags & DPMK_DEV_LATE))
			continue;
		k->link[k->s.nlinks++] = *l;
	}
	/* pm-wait: only where dpm_list order is registration order, and the
	 * waits main.c makes go the same way (a SYNC_STATE_ONLY link from a
	 * later device makes the earlier one wait for it). */
	bool reversed = false;

	for (int i = 0; i < k->s.nlinks; i++)
		reversed |= k->link[i].flags & DPMK_LINK_SYNC_STATE_ONLY &&
			    (k->link[i].supplier > k->link[i].consumer ||
			     moved[k->link[i].supplier] ||
			     k->dev[k->link[i].supplier].flags & DPMK_DEV_LATE);
	/* Such a wait also goes against the order the async jobs are
	 * queued in: with a small pool the earlier job holds a worker while
	 * the later one it waits for cannot start.  The kernel's pool
	 * (max_active 512) is not that small. */
	if (reversed)
		k->worker_limit = 0;
	for (int i = 0; i < n && !reversed; i++) {
		int t = rnd(n);

		if (!chance(12) || t == i || moved[i] || moved[t] ||
		    k->dev[i].flags & DPMK_DEV_LATE || k->dev[t].flags & DPMK_DEV_LATE)
			continue;
		k->dev[i].pm_wait_for = t;
	}
	k->s.wakeup_at_us = chance(20) ? (long long)rnd((unsigned int)(total_us / 3 + 50)) : -1;
	/* Concurrent actions. */
	for (int i = 0; i < KC_MAX_ACT; i++) {
		struct kc_action *a = &k->act[k->nact];

		if (!chance(20))
			continue;
		a->dev = rnd(n);
		if (chance(60) && !o->no_removals && removable(k, o, a->dev)) {
			a->kind = 0;
			a->at_us = rnd((unsigned int)(total_us / 2 + 100));
		} else {
			static const char *const texts[] = {
				"enabled", "disabled\n", "enabled\n", "disabled",
				"garbage", "enable", "",
			};
			const char *t = texts[rnd(7)];

			a->kind = 1;
			a->cycle = rnd(k->cycles);
			a->len = (int)strlen(t);
			memcpy(a->text, t, a->len);
		}
		k->nact++;
	}
	k->nsched = 32 + rnd(sizeof(k->sched) - 32);
	for (int i = 0; i < k->nsched; i++)
		k->sched[i] = (uint8_t)xorshift64(&rng);
}

static const char *const transition_names[DPMK_NR_TRANSITIONS] = {
	"mem", "s2idle", "freeze", "poweroff", "restore",
};

void kc_print(const struct kc_scenario *k, const char *tree, FILE *f)
{
	fprintf(f, "scenario on %s: %s, pm_async %d, pm_trace %d, %d cycle(s), inline_every %u, worker_limit %u, wake-up %lld us\n",
		tree, transition_names[k->s.transition], k->s.pm_async,
		k->s.pm_trace, k->cycles, k->inline_every, k->worker_limit,
		k->s.wakeup_at_us);
	for (int i = 0; i < k->s.ndev; i++) {
		const struct dpmk_device *d = &k->dev[i];

		fprintf(f, "  %-6s parent %-2d flags %#05x dpm %#x level %d phases lvl %#04x drv %#04x",
			d->name, d->parent, d->flags, d->dpm_flags, d->level,
			d->level_phases, d->driver_phases);
		for (int p = 0; p < NR_PHASES; p++)
			if (d->err[p])
				fprintf(f, " err %s=%d", pm_phase_name(p), d->err[p]);
		if (d->remove_phase >= 0)
			fprintf(f, " remove %s:dev%d", pm_phase_name(d->remove_phase),
				d->remove_target);
		if (d->add_phase >= 0)
			fprintf(f, " add %s:dev%d", pm_phase_name(d->add_phase),
				d->add_target);
		if (d->pm_wait_for >= 0)
			fprintf(f, " pm-wait dev%d", d->pm_wait_for);
		if (d->release_unregisters >= 0)
			fprintf(f, " release-unregisters dev%d", d->release_unregisters);
		fputc('\n', f);
	}
	for (int i = 0; i < k->s.nlinks; i++)
		fprintf(f, "  link dev%d -> dev%d flags %#x\n", k->link[i].supplier,
			k->link[i].consumer, k->link[i].flags);
	for (int i = 0; i < k->nact; i++) {
		const struct kc_action *a = &k->act[i];

		if (a->kind == 0)
			fprintf(f, "  hotplug: unregister dev%d at %lld us\n", a->dev, a->at_us);
		else
			fprintf(f, "  user space: \"%.*s\" > dev%d/power/async before cycle %d\n",
				a->len, a->text, a->dev, a->cycle);
	}
}
