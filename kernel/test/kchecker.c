// SPDX-License-Identifier: GPL-2.0-only
/*
 * The harness's checker: basic invariants over the events a kernel
 * variant publishes, with a state per device and transition.
 *
 *   ORDER-SUSPEND   a suspend-side callback starts only when every
 *                   subordinate (child; consumer of an ordering link) in
 *                   the transition and not gone is suspended that deep,
 *                   direct-complete, or was skipped as a syscore device;
 *   ORDER-RESUME    a resume-side callback starts only for a device
 *                   suspended that deep, and when every superior (parent,
 *                   supplier) has resumed through the phase, is not
 *                   direct-complete, and (suspend-to-RAM/idle) was not
 *                   left suspended by skip_resume;
 *   ONCE            per transition one callback and one taking-in-hand per
 *                   device and phase, never two callbacks of a device at
 *                   a time;
 *   BARRIER         phases do not overlap; a callback starts only in its
 *                   phase; none runs when its phase ends;
 *   REMOVED         no callback starts after EV_GONE, nothing after
 *                   EV_FREED, no use after free;
 *   END             when a transition ends every device in it is ON,
 *                   not direct-complete, completed; an error is reported
 *                   if and only if a suspend-side callback failed or a
 *                   wake-up came (a wake-up may end it quietly);
 *   SKIP            every EV_SKIP's reason is a fact the checker knows
 *                   (docs/kernel.md, "Skips");
 *   REFS, FREED     references as expected at the end; every device
 *                   freed after teardown.
 * An ordering link is a valid, not SYNC_STATE_ONLY, not dormant link
 * between devices registered at setup; a device whose supplier went away
 * may have lost its driver and its links with it, and is exempt.
 */
#include <stdarg.h>
#include <string.h>

#include "kcheck.h"
#include "engine/engine.h"
#include "kapi/kapi.h"

struct kc_stats kc_stats;
bool kc_strict;

struct kdev {
	bool registered, in_tr, prepared, gone, freed, dc, left_suspended;
	bool maybe_unbound;
	bool probe_deferred;	/* registered in this transition: no driver yet */
	bool dc_broken;		/* a consumer cleared its direct_complete (KV-3) */
	bool kv3;		/* ... and main.c then handled it as suspended */
	int lvl;
	int running;		/* phase + 1 */
	int cbs[NR_PHASES], handled[NR_PHASES];
	bool done[NR_PHASES];
};

static const struct kc_scenario *k;
static struct kdev dev[KC_MAX_DEV];
static bool order_link[KC_MAX_DEV][KC_MAX_DEV];	/* [supplier][consumer] */
static int phase_open;
static bool in_transition, suspend_failed, wakeup_seen, abort_in_phase;
static char violation[2048];
static bool violated;
static int lock;

void kc_check_fail(const char *fmt, ...)
{
	va_list ap;

	if (violated)
		return;
	violated = true;
	va_start(ap, fmt);
	vsnprintf(violation, sizeof(violation), fmt, ap);
	va_end(ap);
}

const char *kc_check_violation(void)
{
	return violated ? violation : NULL;
}

static int depth(int p)
{
	static const int d[NR_PHASES] = { 0, 1, 2, 3, 3, 2, 1, 0 };

	return d[p];
}

static bool valid_flags(unsigned int f)
{
	unsigned int managed_only = DPMK_LINK_AUTOREMOVE_CONSUMER |
				    DPMK_LINK_AUTOREMOVE_SUPPLIER |
				    DPMK_LINK_AUTOPROBE_CONSUMER |
				    DPMK_LINK_SYNC_STATE_ONLY;

	if (f & DPMK_LINK_STATELESS && f & managed_only)
		return false;
	if (f & DPMK_LINK_AUTOPROBE_CONSUMER &&
	    f & (DPMK_LINK_AUTOREMOVE_CONSUMER | DPMK_LINK_AUTOREMOVE_SUPPLIER))
		return false;
	return true;
}

void kc_check_reset(const struct kc_scenario *sc)
{
	k = sc;
	memset(dev, 0, sizeof(dev));
	memset(order_link, 0, sizeof(order_link));
	for (int i = 0; i < k->s.ndev; i++)
		dev[i].registered = !(k->dev[i].flags & DPMK_DEV_LATE);
	/* Pairs with a valid ordering link.  All links of a pair are one
	 * link in the kernel (device_link_add() merges them): it is dormant
	 * if one asked for it, or if it is managed (one link was) and the
	 * supplier has no driver (device_link_init_status()); a pair with a
	 * SYNC_STATE_ONLY link is left out. */
	bool exempt[KC_MAX_DEV][KC_MAX_DEV] = { { false } };

	for (int i = 0; i < k->s.nlinks; i++) {
		const struct dpmk_link *l = &k->link[i];
		bool valid = valid_flags(l->flags);

		if (l->flags & (DPMK_LINK_DORMANT | DPMK_LINK_SYNC_STATE_ONLY) ||
		    (valid && !(l->flags & DPMK_LINK_STATELESS) &&
		     k->dev[l->supplier].flags & DPMK_DEV_NO_DRIVER))
			exempt[l->supplier][l->consumer] = true;
		if (!valid || l->supplier >= l->consumer ||
		    k->dev[l->supplier].flags & DPMK_DEV_LATE ||
		    k->dev[l->consumer].flags & DPMK_DEV_LATE)
			continue;
		order_link[l->supplier][l->consumer] = true;
	}
	for (int s = 0; s < k->s.ndev; s++)
		for (int c = 0; c < k->s.ndev; c++)
			if (exempt[s][c])
				order_link[s][c] = false;
	phase_open = -1;
	in_transition = false;
	violated = false;
	violation[0] = '\0';
}

static const char *nm(int d)
{
	return d >= 0 && d < k->s.ndev ? k->dev[d].name : "?";
}

/* Whether sup -> d (parent or ordering link) binds the order now. */
static bool superior(int sup, int d)
{
	if (k->dev[d].parent == sup)
		return true;
	return order_link[sup][d] && !dev[d].maybe_unbound;
}

static void check_suspend_order(int d, int p)
{
	for (int s = 0; s < k->s.ndev; s++) {
		struct kdev *c = &dev[s];

		if (!superior(d, s) || !c->in_tr || c->gone)
			continue;
		if (c->dc || c->lvl >= depth(p) ||
		    (k->dev[s].flags & DPMK_DEV_SYSCORE && c->done[p]))
			continue;
		kc_check_fail("ORDER-SUSPEND: %s's %s callback starts before %s (%s of it) suspended that deep (level %d)",
			      nm(d), pm_phase_name(p), nm(s),
			      k->dev[s].parent == d ? "a child" : "a consumer", c->lvl);
		return;
	}
}

static void check_resume_order(int d, int p)
{
	if (dev[d].lvl < depth(p)) {
		kc_check_fail("ORDER-RESUME: %s's %s callback starts but it is suspended only to level %d",
			      nm(d), pm_phase_name(p), dev[d].lvl);
		return;
	}
	for (int s = 0; s < k->s.ndev; s++) {
		struct kdev *sp = &dev[s];

		if (!superior(s, d) || !sp->in_tr || sp->gone)
			continue;
		if (sp->dc && dev[d].kv3 && !kc_strict) {
			/* KV-3's consequence: the superior took direct_complete
			 * trusting d's, which main.c dropped afterwards. */
			kc_stats.kv3++;
			continue;
		}
		if (sp->dc) {
			kc_check_fail("ORDER-RESUME: %s's %s callback starts while %s (its %s) is direct-complete",
				      nm(d), pm_phase_name(p), nm(s),
				      k->dev[d].parent == s ? "parent" : "supplier");
			return;
		}
		if (sp->lvl >= depth(p)) {
			kc_check_fail("ORDER-RESUME: %s's %s callback starts before %s (its %s) resumed (level %d)",
				      nm(d), pm_phase_name(p), nm(s),
				      k->dev[d].parent == s ? "parent" : "supplier", sp->lvl);
			return;
		}
		/* ->resume() itself runs for a device left in suspend: only
		 * the noirq and early callbacks are skipped. */
		if (sp->left_suspended && p != PH_RESUME && !suspend_failed && !wakeup_seen &&
		    (k->s.transition == DPMK_MEM || k->s.transition == DPMK_S2IDLE)) {
			kc_check_fail("ORDER-RESUME: %s's %s callback starts while %s (its %s) was left suspended (skip resume)",
				      nm(d), pm_phase_name(p), nm(s),
				      k->dev[d].parent == s ? "parent" : "supplier");
			return;
		}
	}
}

/* Whether the scenario gives d no callback main.c would find for p (the
 * driver counted only while it can still be bound). */
static bool static_no_callback(int d, int p)
{
	const struct dpmk_device *sd = &k->dev[d];
	bool lvl = sd->level_phases & 1u << p;
	bool drv = !(sd->flags & DPMK_DEV_NO_DRIVER) && !dev[d].probe_deferred &&
		   sd->driver_phases & 1u << p;

	switch (sd->level) {
	case DPMK_LVL_NONE:
		return !drv;
	case DPMK_LVL_LEGACY_BUS:
		if (p == PH_SUSPEND || p == PH_RESUME)
			return !lvl && !drv;
		return !drv;
	default:
		return !lvl && !drv;
	}
}

static bool driver_only(int d, int p)
{
	const struct dpmk_device *sd = &k->dev[d];

	return !(sd->level_phases & 1u << p) || sd->level == DPMK_LVL_NONE ||
	       (sd->level == DPMK_LVL_LEGACY_BUS && p != PH_SUSPEND && p != PH_RESUME);
}

/*
 * d finished device_suspend() without direct_complete: main.c clears the
 * direct_complete of its parent and of every supplier it has a link to
 * (dpm_clear_superiors_direct_complete()), whatever the link's state.  A
 * supplier that took direct_complete already (it did not wait for d: the
 * link is dormant) has it taken away behind its back: finding KV-3.
 */
static void suspended_in_suspend(int d)
{
	for (int i = 0; i < k->s.nlinks; i++) {
		int s = k->link[i].supplier;

		if (k->link[i].consumer == d && dev[s].dc && dev[s].in_tr && !dev[s].gone)
			dev[s].dc_broken = true;
	}
}

static void check_skip(int d, int p, int why, long long facts)
{
	const struct dpmk_device *sd = &k->dev[d];
	struct kdev *x = &dev[d];
	bool susp = pm_phase_is_suspend(p);
	const char *bad = NULL;

	/* prepare and complete: a step without a callback, no depth. */
	if (p == PH_PREPARE || p == PH_COMPLETE) {
		if (why == SKIP_SYSCORE ? !(sd->flags & DPMK_DEV_SYSCORE) :
		    why != SKIP_NO_CALLBACK)
			kc_check_fail("SKIP: %s skipped %s because %d, which does not apply",
				      nm(d), pm_phase_name(p), why);
		return;
	}
	switch (why) {
	case SKIP_SYSCORE:
		if (!(sd->flags & DPMK_DEV_SYSCORE))
			bad = "not a syscore device";
		break;
	case SKIP_NO_CALLBACK:
		if (!static_no_callback(d, p) && !(x->maybe_unbound && driver_only(d, p)))
			bad = "it has a callback for the phase";
		if (p == PH_SUSPEND)
			suspended_in_suspend(d);
		if (susp)
			x->lvl = depth(p);
		else
			x->lvl = depth(p) - 1;
		break;
	case SKIP_ABORTING:
		if (!susp || !(abort_in_phase || wakeup_seen))
			bad = "no error or wake-up came first";
		break;
	case SKIP_NOT_SUSPENDED:
		if (susp || x->lvl >= depth(p))
			bad = "it is suspended that deep";
		break;
	case SKIP_RUNTIME_SUSPENDED:
		if (x->dc)
			break;
		if (!(facts & DPMK_SKIPF_RPM_SUSPENDED) && p == PH_RESUME_EARLY && x->lvl == 2 &&
		    (suspend_failed || wakeup_seen) &&
		    sd->dpm_flags & DPMK_DPM_MAY_SKIP_RESUME && !kc_strict) {
			/* Finding KV-2 (docs/kernel.md): after a suspend that
			 * aborted, main.c skips the early resume of a
			 * may-skip-resume device whose noirq suspend did not
			 * complete (must_resume was never evaluated), without
			 * marking it runtime-suspended.  Tolerated unless
			 * --strict. */
			kc_stats.kv2++;
		} else if (!(facts & DPMK_SKIPF_RPM_SUSPENDED)) {
			bad = "it is not runtime-suspended";
		}
		else if (!(sd->dpm_flags & (DPMK_DPM_SMART_SUSPEND | DPMK_DPM_MAY_SKIP_RESUME)))
			bad = "no smart-suspend or may-skip-resume flag";
		if (susp) {
			x->lvl = depth(p);
			if (p == PH_SUSPEND)
				suspended_in_suspend(d);
		} else {
			x->lvl = depth(p) - 1;
			x->left_suspended = true;
		}
		break;
	default:
		bad = "unknown reason";
	}
	if (bad)
		kc_check_fail("SKIP: %s skipped in %s for reason %d, but %s", nm(d),
			      pm_phase_name(p), why, bad);
	kc_stats.skips[why < NR_SKIP && why >= 0 ? why : 0]++;
}

static void check_direct_complete(int d)
{
	const struct dpmk_device *sd;

	if (d < 0)
		return;
	sd = &k->dev[d];

	if (k->s.transition != DPMK_MEM && k->s.transition != DPMK_S2IDLE)
		kc_check_fail("DIRECT: %s took direct_complete outside suspend-to-RAM/idle", nm(d));
	if (sd->flags & DPMK_DEV_WAKEUP)
		kc_check_fail("DIRECT: %s took direct_complete though it may wake the system", nm(d));
	for (int s = 0; s < k->s.ndev; s++) {
		struct kdev *c = &dev[s];

		if (!superior(d, s) || !c->in_tr || c->gone || c->dc ||
		    k->dev[s].flags & DPMK_DEV_SYSCORE)
			continue;
		kc_check_fail("DIRECT: %s took direct_complete but %s (its %s) did not",
			      nm(d), nm(s), k->dev[s].parent == d ? "child" : "consumer");
		return;
	}
	dev[d].dc = true;
	dev[d].lvl = 1;		/* main.c's power.is_suspended is set */
}

/* A direct-complete device handled as a suspended one: main.c dropped
 * its direct_complete (finding KV-3 when a dormant-link consumer did). */
static void dc_abandoned(int d, int p)
{
	if (dev[d].dc_broken && !kc_strict) {
		kc_stats.kv3++;
		dev[d].kv3 = true;
	} else {
		kc_check_fail("DIRECT: %s took direct_complete, then main.c handles it in %s as suspended normally",
			      nm(d), pm_phase_name(p));
	}
	dev[d].dc = false;
}

static void transition_end(int err)
{
	if (phase_open >= 0)
		kc_check_fail("END: the transition ended inside %s", pm_phase_name(phase_open));
	for (int i = 0; i < k->s.ndev; i++) {
		struct kdev *x = &dev[i];

		if (!x->in_tr || x->gone)
			continue;
		if (x->lvl || x->dc) {
			kc_check_fail("END: %s is still %s at the end of the transition",
				      nm(i), x->dc ? "direct-complete" : "suspended");
		}
		else if (x->prepared)
			kc_check_fail("END: %s was prepared and never completed", nm(i));
	}
	if (err && !suspend_failed && !wakeup_seen)
		kc_check_fail("END: the transition reports %d, but nothing failed", err);
	if (!err && suspend_failed)
		kc_check_fail("END: a suspend-side callback failed, the transition reports success");
	in_transition = false;
	for (int i = 0; i < k->s.ndev; i++)
		dev[i].probe_deferred = false;
	kc_stats.transitions++;
	if (err)
		kc_stats.failed_transitions++;
}

/* Unbinding a supplier unbinds its consumers first, and theirs
 * (device_links_unbind_consumers()): they may lose drivers and links. */
static void mark_unbound_consumers(int d)
{
	for (int i = 0; i < k->s.nlinks; i++) {
		int c = k->link[i].consumer;

		if (k->link[i].supplier == d && !dev[c].maybe_unbound) {
			dev[c].maybe_unbound = true;
			mark_unbound_consumers(c);
		}
	}
}

static void on_event(const struct dpm_event *ev, void *ctx)
{
	int d = ev->dev, p = ev->phase;
	struct kdev *x = d >= 0 && d < k->s.ndev ? &dev[d] : NULL;

	if (d >= k->s.ndev) {
		kc_check_fail("EVENT: device index %d out of range", d);
		return;
	}
	if (!x && ev->kind >= EV_CB_START && ev->kind != EV_WAKEUP_ABORT &&
	    ev->kind != EV_TEARDOWN_DONE && ev->kind != EV_FAILED_DEV &&
	    ev->kind != EV_FAILED_STEP && ev->kind != EV_RPM_STATE &&
	    ev->kind != EV_LOCKING && ev->kind != EV_RELINKED) {
		kc_check_fail("EVENT: kind %d without a device", ev->kind);
		return;
	}
	switch (ev->kind) {
	case EV_TRANSITION_BEGIN:
		in_transition = true;
		suspend_failed = wakeup_seen = false;
		for (int i = 0; i < k->s.ndev; i++) {
			dev[i].in_tr = dev[i].prepared = dev[i].left_suspended = false;
			dev[i].dc_broken = dev[i].kv3 = false;
			memset(dev[i].cbs, 0, sizeof(dev[i].cbs));
			memset(dev[i].handled, 0, sizeof(dev[i].handled));
		}
		break;
	case EV_TRANSITION_END:
		transition_end(ev->err);
		break;
	case EV_PHASE_BEGIN:
		if (phase_open >= 0)
			kc_check_fail("BARRIER: %s begins while %s is open", pm_phase_name(p),
				      pm_phase_name(phase_open));
		phase_open = p;
		abort_in_phase = false;
		for (int i = 0; i < k->s.ndev; i++)
			dev[i].done[p] = false;
		break;
	case EV_PHASE_END:
		if (p != phase_open)
			kc_check_fail("BARRIER: %s ends, but %s is open", pm_phase_name(p),
				      phase_open >= 0 ? pm_phase_name(phase_open) : "none");
		for (int i = 0; i < k->s.ndev; i++)
			if (dev[i].running)
				kc_check_fail("BARRIER: %s ends while %s's %s callback runs",
					      pm_phase_name(p), nm(i),
					      pm_phase_name(dev[i].running - 1));
		phase_open = -1;
		break;
	case EV_HANDLED:
		if (p != phase_open)
			kc_check_fail("BARRIER: %s taken in hand in %s outside it", nm(d),
				      pm_phase_name(p));
		if (x->freed)
			kc_check_fail("REMOVED: %s taken in hand after it was freed", nm(d));
		if (++x->handled[p] > 1)
			kc_check_fail("ONCE: %s taken in hand twice in %s", nm(d), pm_phase_name(p));
		if (p == PH_PREPARE) {
			x->in_tr = true;
			x->prepared = true;
		} else if (p == PH_COMPLETE) {
			x->prepared = false;
		}
		break;
	case EV_CB_START:
		kc_stats.callbacks++;
		if (p != phase_open)
			kc_check_fail("BARRIER: %s's %s callback starts outside its phase", nm(d),
				      pm_phase_name(p));
		if (x->gone || x->freed)
			kc_check_fail("REMOVED: %s's %s callback starts after it was %s", nm(d),
				      pm_phase_name(p), x->freed ? "freed" : "removed");
		if (x->running)
			kc_check_fail("ONCE: %s's %s callback starts while its %s runs", nm(d),
				      pm_phase_name(p), pm_phase_name(x->running - 1));
		if (x->cbs[p]++)
			kc_check_fail("ONCE: %s's %s callback runs twice", nm(d), pm_phase_name(p));
		if (!x->in_tr)
			kc_check_fail("ONCE: %s's %s callback runs, but it is not in the transition",
				      nm(d), pm_phase_name(p));
		/* The side action that registers a late child runs in it. */
		if (k->dev[d].add_phase == p && k->dev[d].add_target >= 0 &&
		    !dev[k->dev[d].add_target].registered) {
			/* Probing is blocked from dpm_prepare() to dpm_complete():
			 * its driver binds when the transition ends. */
			dev[k->dev[d].add_target].registered = true;
			dev[k->dev[d].add_target].probe_deferred = true;
		}
		x->running = p + 1;
		if (x->dc)
			dc_abandoned(d, p);
		if (p >= PH_SUSPEND && p <= PH_SUSPEND_NOIRQ)
			check_suspend_order(d, p);
		else if (p >= PH_RESUME_NOIRQ && p <= PH_RESUME)
			check_resume_order(d, p);
		break;
	case EV_CB_END:
		x->running = 0;
		x->done[p] = true;
		if (p == PH_SUSPEND && ev->err >= 0)
			suspended_in_suspend(d);
		if (pm_phase_is_suspend(p) && ev->err < 0) {
			suspend_failed = true;
			abort_in_phase = true;
			if (p == PH_PREPARE)
				x->prepared = false;
		} else if (p >= PH_SUSPEND && p <= PH_SUSPEND_NOIRQ) {
			x->lvl = depth(p);
		} else if (p >= PH_RESUME_NOIRQ && p <= PH_RESUME) {
			x->lvl = depth(p) - 1;
			x->left_suspended = false;
		}
		break;
	case EV_SKIP:
		if (x->dc && !(ev->b & DPMK_SKIPF_DIRECT_COMPLETE) && ev->a != SKIP_SYSCORE)
			dc_abandoned(d, p);
		if (x->handled[p] != 1 || x->cbs[p])
			kc_check_fail("SKIP: %s skipped in %s, but it was %s", nm(d),
				      pm_phase_name(p), x->cbs[p] ? "called" : "not taken in hand");
		x->done[p] = true;
		check_skip(d, p, (int)ev->a, ev->b);
		break;
	case EV_DIRECT_COMPLETE:
		kc_stats.direct_complete++;
		if (p != PH_SUSPEND)
			kc_check_fail("DIRECT: %s direct-complete in %s", nm(d), pm_phase_name(p));
		check_direct_complete(d);
		x->done[p] = true;
		break;
	case EV_DIRECT_RESUME:
		kc_stats.direct_resume++;
		if (!x->dc)
			kc_check_fail("DIRECT: %s leaves direct_complete it never took", nm(d));
		x->dc = false;
		x->lvl = 0;
		x->done[p] = true;
		break;
	case EV_WAKEUP_ABORT:
		kc_stats.wakeup_aborts++;
		if (wakeup_seen)
			kc_check_fail("WAKEUP: two wake-up aborts in one transition");
		wakeup_seen = true;
		if (phase_open > PH_PREPARE && phase_open <= PH_SUSPEND_NOIRQ)
			abort_in_phase = true;
		break;
	case EV_GONE:
		kc_stats.gone++;
		if (x->gone)
			kc_check_fail("REMOVED: %s removed twice", nm(d));
		x->gone = true;
		mark_unbound_consumers(d);
		/* Its parent and suppliers no longer wait for it (it left
		 * their lists), but its device_suspend() may still finish
		 * and clear their direct_complete: KV-3 again. */
		if (in_transition) {
			if (k->dev[d].parent >= 0)
				dev[k->dev[d].parent].dc_broken = true;
			for (int i = 0; i < k->s.nlinks; i++)
				if (k->link[i].consumer == d)
					dev[k->link[i].supplier].dc_broken = true;
		}
		break;
	case EV_FREED:
		kc_stats.freed++;
		if (x->freed)
			kc_check_fail("REMOVED: %s freed twice", nm(d));
		if (!x->gone)
			kc_check_fail("REFS: %s freed while still registered", nm(d));
		x->freed = true;
		break;
	case EV_USE_AFTER_FREE:
		kc_check_fail("REMOVED: %s() on %s after it was freed", ev->what ? ev->what : "?",
			      nm(d));
		break;
	case EV_REFS:
		if (ev->a != ev->b)
			kc_check_fail("REFS: %s holds %lld references at the end, should hold %lld",
				      nm(d), ev->a, ev->b);
		break;
	case EV_TEARDOWN_DONE:
		for (int i = 0; i < k->s.ndev; i++)
			if (dev[i].registered && !dev[i].freed)
				kc_check_fail("FREED: %s was never freed (a reference leaked)", nm(i));
		break;
	case EV_LIST_POS:	/* the oracle's list-order rule; not checked here */
	case EV_ADDED:		/* seen at the adding callback's end, above */
	case EV_LINK:		/* its own link model: kc_link_* */
	case EV_UNBOUND:	/* EV_GONE and the callbacks tell it enough */
	case EV_FAILED_DEV:	/* suspend_stats: the oracle's STATS */
	case EV_FAILED_STEP:
	case EV_RPM_STATE:	/* runtime PM: the oracle's RUNTIME-PM */
	case EV_LOCKING:	/* dpm_list_mtx: the oracle's LOCKS */
	case EV_RELINKED:	/* the oracle's REMOVED */
	case EV_PM_WAIT:	/* the oracle's WAIT */
	case EV_NOT_SET_UP:	/* the oracle's SET-UP */
		break;
	default:
		kc_check_fail("EVENT: unknown kind %d", ev->kind);
	}
}

bool kc_print_events;

static void print_event(const struct dpm_event *ev)
{
	static const char *const kinds[] = {
		"transition-begin", "transition-end", "phase-begin", "phase-end",
		"cb-start", "cb-end", "handled", "direct-complete", "direct-resume",
		"skip", "wakeup-abort", "gone", "freed", "use-after-free", "refs",
		"teardown-done", "added", "list-pos", "unbound", "link",
		"failed-dev", "rpm-state", "failed-step", "locking", "relinked",
		"pm-wait", "not-set-up",
	};
	_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == NR_EV_KINDS,
		       "a name for every event kind");

	pm_printk("event %s dev %s phase %s err %d a %lld b %lld%s%s",
		  (unsigned)ev->kind < NR_EV_KINDS ? kinds[ev->kind] : "?",
		  ev->dev >= 0 ? nm(ev->dev) : "-",
		  ev->phase >= 0 ? pm_phase_name(ev->phase) : "-", ev->err, ev->a,
		  ev->b, ev->what ? " " : "", ev->what ? ev->what : "");
}

static void listener(const struct dpm_event *ev, void *ctx)
{
	bool stop;

	quiet_lock(&lock);
	if (kc_print_events && dpm_log_enabled)
		print_event(ev);
	on_event(ev, ctx);
	stop = violated;
	quiet_unlock(&lock);
	/* The first violation ends the run (the det engine gives control
	 * back to the harness; the threads engine reports and exits). */
	if (stop && ev->kind != EV_TEARDOWN_DONE)
		dpm_eng->stop();
}

bool kc_check_gone(const char *name)
{
	for (int i = 0; i < k->s.ndev; i++)
		if (!strcmp(k->dev[i].name, name))
			return dev[i].gone;
	return false;
}

void kc_check_listen(void)
{
	dpm_listen_none();
	dpm_listen(listener, NULL);
}
