// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracle's state per device and transition:
 *   lvl   how deep the device is suspended: 0 ON, 1 after suspend,
 *         2 after suspend_late, 3 after suspend_noirq.  A suspend
 *         callback that ends without error sets it to its phase's depth;
 *         a resume callback, when it ends, whatever its result, sets it
 *         to one less than the depth it undoes.
 *   gone  the device was unbound and taken off the PM list: exempt from
 *         every later ordering obligation.
 *   dc    direct_complete: the device stayed runtime-suspended and its
 *         callbacks were skipped; it counts as suspended (lvl 3) until
 *         the resume phase takes it out of that state.
 * A device's subordinates are its children and its consumers (device
 * links); its superiors its parent and its suppliers.
 */
#include "oracle_int.h"
#include "invariant.h"
#include "../util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kapi/kapi.h"

const char *inv_name(enum inv id)
{
	return (unsigned)id < (unsigned)oracle_ninvariants ?
	       oracle_invariants[id]->name : "?";
}

int inv_parse(const char *name)
{
	for (int i = 0; i < oracle_ninvariants; i++)
		if (!strcmp(name, oracle_invariants[i]->name))
			return i;
	return -1;
}

struct oracle_config cfg;
struct dstate *st;
int *child_start, *child_list;	/* subordinates of i, CSR */
int *sup_start, *sup_list;	/* superiors of i, CSR */
int *scn_sup_start, *scn_sup_list;	/* suppliers of i over any link */
int *scn_con_start, *scn_con_list;	/* consumers of i over any link */
struct oracle_result result;
/* Links the variant publishes (EV_LINK): consumer, supplier, ordered. */
struct dlink *dlinks;
int ndlinks, dlinks_cap;

bool in_transition;
bool suspend_failed;
bool wakeup_abort;	/* a wake-up event aborted this transition */
/* STATS: the phases main.c recorded as failed steps this transition. */
unsigned int steps_recorded;
/* PHASE-BARRIER: the phases begun this transition. */
unsigned int phases_begun;
/* Bit e: a suspend-side callback returned -e; e up to the kernel's
 * MAX_ERRNO, the text format's limit (EPROTO, 71, is in real logs). */
uint64_t failed_errs[ERRNO_MAX / 64 + 1];

uint64_t *err_word(int error, uint64_t *bit)
{
	if (error >= 0 || error < -ERRNO_MAX)
		return NULL;
	*bit = 1ULL << (-error % 64);
	return &failed_errs[-error / 64];
}

int first_fail_dev = -1, first_fail_phase, first_fail_err;
/* SKIP, the walk's stop: the task that walks the phase in progress, and
 * the device whose failure or abort in that task stopped a suspend walk
 * (-1: none yet). */
int walk_tid = -1, walk_stop_dev = -1;
bool walk_stop_failed;
int phase_active = -1;
/* The resume the phase in progress does (enum oracle_resume) as the
 * variant told, or -1: as the transition's kind says (resume_kind()). */
int told_resume = -1;
int running[NR_PHASES];
int last_pos[NR_PHASES];		/* SYNC-ORDER: previous device */
int running_total;
uint64_t phase_start;

/* Lists by key: list[start[k]..start[k+1]) = val[e] of the edges e
 * with key[e] == k, in edge order (tree edges come first). */
void csr_build(int ne, const int *key, const int *val, int **start,
		      int **list)
{
	free(*start);
	free(*list);
	*start = dpm_xcalloc(cfg.ndev + 1, sizeof(int));
	*list = dpm_xcalloc(ne, sizeof(int));
	int *fill = dpm_xcalloc(cfg.ndev, sizeof(int));

	for (int e = 0; e < ne; e++)
		(*start)[key[e] + 1]++;
	for (int i = 0; i < cfg.ndev; i++)
		(*start)[i + 1] += (*start)[i];
	for (int e = 0; e < ne; e++)
		(*list)[(*start)[key[e]] + fill[key[e]]++] = val[e];
	free(fill);
}

void oracle_reset(const struct oracle_config *c)
{
	cfg = *c;
	free(st);
	st = dpm_xcalloc(cfg.ndev, sizeof(*st));
	for (int i = 0; i < cfg.ndev; i++) {
		st[i].busy = -1;
		st[i].pos = i;
		st[i].exempt = cfg.exempt && cfg.exempt[i];
		st[i].syscore = cfg.syscore && cfg.syscore[i];
		st[i].absent = cfg.late && cfg.late[i];
	}
	for (int i = 0; i < cfg.ndev; i++)
		if ((cfg.wakeup && cfg.wakeup[i]) ||
		    (cfg.wakeup_late && cfg.wakeup_late[i]))
			for (int a = i; a >= 0 && !st[a].wakes_below;
			     a = cfg.parent[a])
				st[a].wakes_below = true;
	/* Edges superior -> subordinate: the tree, then the links. */
	int ne = 0;
	int *from = dpm_xcalloc(cfg.ndev + cfg.nlinks, sizeof(int));
	int *to = dpm_xcalloc(cfg.ndev + cfg.nlinks, sizeof(int));

	for (int i = 0; i < cfg.ndev; i++)
		if (cfg.parent[i] >= 0) {
			from[ne] = cfg.parent[i];
			to[ne++] = i;
		}
	for (int i = 0; i < cfg.nlinks; i++) {
		from[ne] = cfg.link_sup[i];
		to[ne++] = cfg.link_con[i];
	}
	csr_build(ne, from, to, &child_start, &child_list);
	csr_build(ne, to, from, &sup_start, &sup_list);
	/* Every link of the scenario, whatever its state: each consumer's
	 * suppliers, each supplier's consumers. */
	csr_build(cfg.nscn_links, cfg.scn_link_con, cfg.scn_link_sup,
		  &scn_sup_start, &scn_sup_list);
	csr_build(cfg.nscn_links, cfg.scn_link_sup, cfg.scn_link_con,
		  &scn_con_start, &scn_con_list);
	free(from);
	free(to);
	memset(&result, 0, sizeof(result));
	ndlinks = 0;
	in_transition = false;
	phase_active = -1;
	told_resume = -1;
	running_total = 0;
	memset(running, 0, sizeof(running));
	for (int i = 0; i < oracle_ninvariants; i++)
		if (oracle_invariants[i]->reset)
			oracle_invariants[i]->reset();
}

const struct oracle_result *oracle_result(void)
{
	return &result;
}

void vrecord(enum inv id, const char *fmt, va_list ap)
{
	if (result.violated)
		return;
	result.violated = true;
	result.id = id;
	result.viol_ns = dpm_eng->now();
	result.viol_tid = dpm_eng->current_id();
	vsnprintf(result.msg, sizeof(result.msg), fmt, ap);
	pr_info("dpmfuzz: VIOLATION %s: %s", inv_name(id), result.msg);
}

/* A violation of id: the first of the run is recorded; the run stops. */
static void vfail(enum inv id, const char *fmt, va_list ap)
{
	vrecord(id, fmt, ap);
	dpm_eng->stop();
}

void check_fail(enum inv id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(id, fmt, ap);
	va_end(ap);
}

void oracle_fail(int id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail((enum inv)id, fmt, ap);
	va_end(ap);
}

bool oracle_waive(unsigned int waiver, enum inv id, const char *msg)
{
	if (!(waiver & cfg.tolerate))
		return false;
	if (!result.waived) {
		result.waived_id = id;
		snprintf(result.waived_msg, sizeof(result.waived_msg), "%s", msg);
		pr_info("dpmfuzz: KNOWN (waived) %s: %s", inv_name(id), msg);
	}
	result.waived |= waiver;
	return true;
}

void check_fail_unless(unsigned int waiver, enum inv id, const char *fmt, ...)
{
	char msg[ORACLE_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	if (!(waiver & cfg.tolerate)) {
		vfail(id, fmt, ap);
	} else {
		vsnprintf(msg, sizeof(msg), fmt, ap);
		oracle_waive(waiver, id, msg);
	}
	va_end(ap);
}

const char *oracle_dev_name(int dev)
{
	return nm(dev);
}

int oracle_ndev(void)
{
	return cfg.ndev;
}

int oracle_find(const char *name)
{
	for (int i = 0; i < cfg.ndev; i++)
		if (cfg.names && cfg.names[i] && !strcmp(cfg.names[i], name))
			return i;
	return -1;
}

bool oracle_gone(int dev)
{
	return dev >= 0 && dev < cfg.ndev && st[dev].gone;
}

int oracle_depth(int dev)
{
	return dev >= 0 && dev < cfg.ndev ? (st[dev].dc ? 3 : st[dev].lvl) : 0;
}

const char *nm(int dev)
{
	return cfg.names[dev];
}

/* No ordering obligation: removed, not registered yet, or never handled
 * by the PM core. */
bool out_of_play(int dev)
{
	return st[dev].gone || st[dev].absent || st[dev].exempt ||
	       st[dev].syscore || st[dev].unbound;
}

/* Forward (list order) or backward (reverse list order) phase. */
bool phase_forward(enum pm_phase p)
{
	return p == PH_PREPARE || p == PH_RESUME_NOIRQ ||
	       p == PH_RESUME_EARLY || p == PH_RESUME;
}

bool phase_must_be_sync(enum pm_phase p)
{
	if (!cfg.async_possible)
		return true;
	return cfg.pm_trace && !pm_phase_is_suspend(p) && p != PH_COMPLETE;
}

void do_check_transition_begin(void)
{
	result.transitions++;
	in_transition = true;
	suspend_failed = false;
	wakeup_abort = false;
	memset(failed_errs, 0, sizeof(failed_errs));
	first_fail_dev = -1;
	steps_recorded = 0;
	phases_begun = 0;
	for (int i = 0; i < cfg.ndev; i++) {
		st[i].ran = 0;
		st[i].failed = 0;
		st[i].recorded = 0;
		st[i].rpm_depth = -1;
		st[i].prep_pos = false;
		st[i].rpm_down = -1;
		st[i].handled = 0;
		st[i].dc = false;
		st[i].rpm_off = false;
		st[i].kept = false;
		st[i].kept_aborted = false;
		st[i].kept_thaw = false;
		st[i].dc_cleared = false;
		st[i].dc_clearable = false;
		st[i].stays_early = false;
		st[i].in_use = false;
		st[i].noirq_resumed = false;
		st[i].mr_told = false;
		st[i].mr_noirq = false;
		st[i].mr_late = false;
	}
}

enum oracle_resume resume_kind(void)
{
	if (told_resume >= 0)
		return (enum oracle_resume)told_resume;
	return suspend_failed ? cfg.resume_failed :
	       wakeup_abort ? cfg.resume_woken : cfg.resume;
}

_Static_assert((int)RESUME_PLAIN == PM_RESUME_PLAIN &&
	       (int)RESUME_THAW == PM_RESUME_THAW &&
	       (int)RESUME_RESTORE == PM_RESUME_RESTORE,
	       "the oracle's resume kinds as the bus's");

/* A new round of suspend_enter() in the same transition: the late and
 * noirq phases and their resumes begin anew for every device, from
 * where the early resume left it (suspended once, not late). */
static void new_round(void)
{
	unsigned int m = 1u << PH_SUSPEND_LATE | 1u << PH_SUSPEND_NOIRQ |
			 1u << PH_RESUME_NOIRQ | 1u << PH_RESUME_EARLY;

	pr_info("the platform suspends again: a new round of the late and noirq phases");
	phases_begun &= ~m;
	for (int i = 0; i < cfg.ndev; i++) {
		struct dstate *d = &st[i];

		d->ran &= ~m;
		d->handled &= ~m;
		d->failed &= ~m;
		d->recorded &= ~m;
		if (!d->dc && d->lvl > 1)
			d->lvl = 1;
		d->rpm_off = false;
		d->rpm_down = -1;
		d->kept = false;
		d->kept_aborted = false;
		d->kept_thaw = false;
		d->stays_early = false;
		d->in_use = false;
		d->noirq_resumed = false;
		d->mr_told = false;
		d->mr_noirq = false;
		d->mr_late = false;
	}
}

void do_check_phase_begin(enum pm_phase p, long long told)
{
	told_resume = told > 0 && told <= PM_RESUME_RESTORE + 1 ? (int)told - 1 : -1;
	pr_info("suspend_resume: %s begin", pm_phase_name(p));
	if (phase_active >= 0)
		check_fail(INV_PHASE_BARRIER,
			   "phase %s began while phase %s had not returned",
			   pm_phase_name(p), pm_phase_name(phase_active));
	/* A platform that asks to suspend again (suspend_ops->
	 * suspend_again()) runs suspend_enter() once more after an early
	 * resume that followed no error and no wake-up: a new round of the
	 * late and noirq phases. */
	if (in_transition && p == PH_SUSPEND_LATE &&
	    phases_begun & (1u << PH_RESUME_EARLY) &&
	    !(phases_begun & (1u << PH_RESUME)) && !suspend_failed && !wakeup_abort)
		new_round();
	/* The kernel's callers run each phase at most once a transition (a
	 * round); a noirq resume only after a noirq suspend, an early resume
	 * only after a late suspend and, once the noirq suspend ran, after
	 * the noirq resume (dpm_suspend_end(), suspend_enter(),
	 * hibernate.c). */
	if (in_transition && phases_begun & (1u << p))
		check_fail(INV_PHASE_BARRIER, "phase %s began twice in one transition",
			   pm_phase_name(p));
	else if (in_transition && p == PH_RESUME_NOIRQ &&
		 !(phases_begun & (1u << PH_SUSPEND_NOIRQ)))
		check_fail(INV_PHASE_BARRIER, "phase resume_noirq began, but suspend_noirq had not");
	else if (in_transition && p == PH_RESUME_EARLY &&
		 (!(phases_begun & (1u << PH_SUSPEND_LATE)) ||
		  (phases_begun & (1u << PH_SUSPEND_NOIRQ) &&
		   !(phases_begun & (1u << PH_RESUME_NOIRQ)))))
		check_fail(INV_PHASE_BARRIER, "phase resume_early began, but %s",
			   phases_begun & (1u << PH_SUSPEND_LATE) ?
			   "suspend_noirq had run and resume_noirq had not" :
			   "suspend_late had not");
	phases_begun |= 1u << p;
	phase_active = p;
	walk_tid = dpm_eng->current_id();
	walk_stop_dev = -1;
	last_pos[p] = -1;
	phase_start = dpm_eng->now();
}

void do_check_phase_end(enum pm_phase p)
{
	pr_info("suspend_resume: %s end", pm_phase_name(p));
	if (result.transitions == 1)
		result.phase_ns[p] += dpm_eng->now() - phase_start;
	if (running[p]) {
		for (int i = 0; i < cfg.ndev; i++)
			if (st[i].busy == (int)p)
				check_fail(INV_PHASE_BARRIER,
					   "%s returned while the %s callback of '%s' was still running",
					   pm_phase_name(p), pm_phase_name(p),
					   nm(i));
	}
	phase_active = -1;
	/* The system sleeps now: every device is suspended through noirq. */
	if (p == PH_SUSPEND_NOIRQ && !suspend_failed && !wakeup_abort)
		for (int i = 0; i < cfg.ndev; i++)
			if (!out_of_play(i) && st[i].lvl < 3)
				check_fail(INV_SLEEP_COMPLETE,
					   "the system would sleep now, but '%s' is %s",
					   nm(i), st[i].lvl ? "only partly suspended" :
					   "not suspended at all");
}

bool is_child(int c, int dev)
{
	return cfg.parent[c] == dev;
}

void check_suspend_start(int dev, enum pm_phase p)
{
	int d = pm_phase_depth(p);

	if (!d)
		return;
	for (int k = 0; k < ndlinks; k++) {
		int c = dlinks[k].con;

		if (!dlinks[k].on || dlinks[k].sup != dev || out_of_play(c) ||
		    st[c].lvl >= d)
			continue;
		check_fail(INV_SUSPEND_AFTER_CHILDREN,
			   "consumer '%s' had not %s when its supplier '%s' started %s",
			   nm(c), st[c].busy == (int)p ?
			   "finished suspending (its callback is running)" : "suspended",
			   nm(dev), pm_phase_name(p));
	}
	for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
		int c = child_list[k];

		if (out_of_play(c) || st[c].lvl >= d)
			continue;
		check_fail(INV_SUSPEND_AFTER_CHILDREN,
			   "%s '%s' had not %s when its %s '%s' started %s",
			   is_child(c, dev) ? "child" : "consumer", nm(c),
			   st[c].busy == (int)p ? "finished suspending (its callback is running)" :
						 "suspended",
			   is_child(c, dev) ? "parent" : "supplier",
			   nm(dev), pm_phase_name(p));
	}
}

/* The waiver of a superior par left in suspend: KV-2
 * (ORACLE_TOL_KEPT_SUPERIOR) when a resume step it skipped after a
 * suspend that aborted left it so, KV-9 (ORACLE_TOL_THAW_KEPT_SUPERIOR)
 * when a thaw did; 0 when neither. */
unsigned int kept_ok(int par)
{
	return (st[par].kept_aborted ? ORACLE_TOL_KEPT_SUPERIOR : 0) |
	       (st[par].kept_thaw ? ORACLE_TOL_THAW_KEPT_SUPERIOR : 0);
}

/* The waivers of a superior par still suspended when dev starts to
 * resume: kept_ok(par), KV-3 (ORACLE_TOL_DC_CLEARED) when dev's
 * direct_complete was cleared behind main.c's back after par took the
 * direct_complete path trusting it, so main.c resumes dev while par stays
 * runtime-suspended (docs/kernel.md, KV-3), and sso-must-resume
 * (ORACLE_TOL_LATE_MUST_RESUME) when par was left in suspend and dev's
 * must_resume was set only after its noirq suspend had passed it on to
 * its superiors (docs/findings.md). */
static unsigned int kept_ok_for(int par, int dev)
{
	return kept_ok(par) |
	       (st[dev].dc_cleared && st[par].dc ? ORACLE_TOL_DC_CLEARED : 0) |
	       (st[dev].mr_late && st[par].kept ? ORACLE_TOL_LATE_MUST_RESUME : 0);
}

void check_resume_start(int dev, enum pm_phase p)
{
	int d = pm_phase_depth(p);

	if (!d)
		return;
	if (st[dev].lvl < d)
		check_fail(INV_RESUME_AFTER_PARENT,
			   "'%s' started %s but had not been suspended that deep",
			   nm(dev), pm_phase_name(p));
	for (int k = 0; k < ndlinks; k++) {
		int par = dlinks[k].sup;

		if (!dlinks[k].on || dlinks[k].con != dev || out_of_play(par) ||
		    st[par].lvl < d)
			continue;
		check_fail_unless(kept_ok_for(par, dev), INV_RESUME_AFTER_PARENT,
			   "supplier '%s' had not %s when its consumer '%s' started %s",
			   nm(par), st[par].busy == (int)p ?
			   "finished resuming (its callback is running)" : "resumed",
			   nm(dev), pm_phase_name(p));
	}
	for (int k = sup_start[dev]; k < sup_start[dev + 1]; k++) {
		int par = sup_list[k];

		if (out_of_play(par) || st[par].lvl < d)
			continue;
		check_fail_unless(kept_ok_for(par, dev), INV_RESUME_AFTER_PARENT,
			   "%s '%s' had not %s when its %s '%s' started %s",
			   is_child(dev, par) ? "parent" : "supplier", nm(par),
			   st[par].busy == (int)p ? "finished resuming (its callback is running)" :
						   "resumed",
			   is_child(dev, par) ? "child" : "consumer",
			   nm(dev), pm_phase_name(p));
	}
}

/* device_pm_wait_for_dev(): when a callback that waited returns (without
 * an error), the device it waited for is through the same phase. */
void check_pm_wait(int dev, enum pm_phase p)
{
	int t = cfg.pm_wait ? cfg.pm_wait[dev] : -1;
	int d = pm_phase_depth(p);

	if (t < 0 || !pm_wait_applies(st[dev].pos, st[t].pos, p) ||
	    out_of_play(t) || st[t].dc)
		return;
	/* Left in suspend by a step it may skip: the PM core is through
	 * with it (its completion is done), and a driver's private wait is
	 * no dependency the PM core knows of (dpm_superior_set_must_resume()
	 * follows only parents and links). */
	if (!pm_phase_is_suspend(p) && st[t].kept)
		return;
	if (pm_phase_is_suspend(p) ? st[t].lvl >= d : st[t].lvl < d)
		return;
	check_fail(pm_phase_is_suspend(p) ? INV_SUSPEND_AFTER_CHILDREN :
					    INV_RESUME_AFTER_PARENT,
		   "the %s callback of '%s' waited for '%s' (device_pm_wait_for_dev) and returned before '%s' had %s",
		   pm_phase_name(p), nm(dev), nm(t), nm(t),
		   pm_phase_is_suspend(p) ? "suspended" : "resumed");
}

void do_check_direct_complete(int dev)
{
	pr_info("%s: direct-complete: stays runtime-suspended", nm(dev));
	if (out_of_play(dev)) {	/* removed or unbound: no obligations left */
		st[dev].dc = true;	/* but what main.c did is kept */
		st[dev].lvl = 3;
		return;
	}
	if (cfg.dc_forbidden)
		check_fail(INV_SKIP,
			   "'%s' took the direct_complete path, which only suspend to RAM or idle allows (PM_EVENT_SUSPEND)",
			   nm(dev));
	if (cfg.dpm_flags && (cfg.dpm_flags[dev] & PMF_NO_DIRECT_COMPLETE))
		check_fail(INV_SKIP,
			   "'%s' took the direct_complete path though its driver set DPM_FLAG_NO_DIRECT_COMPLETE",
			   nm(dev));
	/* device_suspend() clears direct_complete for a device that may
	 * wake the system up, so that wakeup_path reaches its parent. */
	if (cfg.wakeup && cfg.wakeup[dev])
		check_fail(INV_WAKEUP,
			   "'%s' took the direct_complete path though it may wake the system up (device_may_wakeup())",
			   nm(dev));
	if (!cfg.may_direct_complete || !cfg.may_direct_complete[dev])
		check_fail(INV_ROLLBACK,
			   "'%s' skipped its suspend callbacks (direct_complete), but it is not runtime-suspended or its prepare did not allow it",
			   nm(dev));
	if (phase_active != PH_SUSPEND)
		check_fail(INV_PHASE_BARRIER,
			   "'%s' took the direct_complete path outside the suspend phase",
			   nm(dev));
	if (st[dev].lvl || st[dev].dc || !st[dev].prepared)
		check_fail(INV_ONCE,
			   "'%s' took the direct_complete path while not prepared and active",
			   nm(dev));
	for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
		int c = child_list[k];

		if (out_of_play(c) || st[c].dc)
			continue;
		check_fail(INV_SUSPEND_AFTER_CHILDREN,
			   "'%s' stayed runtime-suspended (direct_complete) though its %s '%s' %s",
			   nm(dev), is_child(c, dev) ? "child" : "consumer", nm(c),
			   st[c].lvl ? "was suspended by its callbacks" :
				       "had not suspended");
	}
	for (int k = 0; k < ndlinks; k++) {
		int c = dlinks[k].con;

		if (!dlinks[k].on || dlinks[k].sup != dev || out_of_play(c) ||
		    st[c].dc)
			continue;
		check_fail(INV_SUSPEND_AFTER_CHILDREN,
			   "'%s' stayed runtime-suspended (direct_complete) though its consumer '%s' %s",
			   nm(dev), nm(c), st[c].lvl ? "was suspended by its callbacks" :
			   "had not suspended");
	}
	st[dev].dc = true;
	st[dev].lvl = 3;
	/* A subordinate over a link main.c does not wait for (a dormant
	 * one: KV-3) whose suspend callback has returned may not have
	 * cleared its superiors' direct_complete yet: device_suspend() does
	 * that after the callback, before it completes the device.  So it
	 * may still clear this one's, as one that ends its step later does
	 * (note_dc_clearers()).  Had it cleared it already, main.c would not
	 * have taken the path. */
	for (int k = scn_con_start[dev]; k < scn_con_start[dev + 1]; k++) {
		int c = scn_con_list[k];

		if (st[c].ran >> PH_SUSPEND & 1 && st[c].busy != PH_SUSPEND &&
		    !(st[c].failed >> PH_SUSPEND & 1))
			st[dev].dc_clearable = true;
	}
}

void do_check_direct_resume(int dev)
{
	pr_info("%s: direct-complete: leaves runtime suspend to runtime PM",
		nm(dev));
	if (out_of_play(dev)) {
		st[dev].dc = false;
		st[dev].lvl = 0;
		return;
	}
	if (!st[dev].dc)
		check_fail(INV_RESUME_AFTER_PARENT,
			   "'%s' skipped its resume callbacks (direct_complete) but had not skipped suspend",
			   nm(dev));
	if (phase_active != PH_RESUME)
		check_fail(INV_PHASE_BARRIER,
			   "'%s' left direct_complete outside the resume phase",
			   nm(dev));
	st[dev].dc = false;
	st[dev].lvl = 0;
}

void do_check_callback_start(int dev, enum pm_phase p, long long facts, long long from)
{
	struct dstate *s = &st[dev];

	pr_info("calling  %s+ [%s]%s%s", nm(dev), pm_phase_name(p),
		cfg.parent[dev] >= 0 ? ", parent: " : "",
		cfg.parent[dev] >= 0 ? nm(cfg.parent[dev]) : "");
	if (p == PH_RESUME_NOIRQ)
		s->noirq_resumed = true;
	if (p == PH_RESUME_NOIRQ && s->mr_told && facts & EV_FACT_MR_TOLD)
		s->mr_late = facts & EV_FACT_MUST_RESUME && !s->mr_noirq;
	if (s->gone)
		check_fail(INV_REMOVED,
			   "the %s callback of '%s' started after the device was removed",
			   pm_phase_name(p), nm(dev));
	if (s->absent)
		check_fail(INV_REMOVED,
			   "the %s callback of '%s' started before the device was registered",
			   pm_phase_name(p), nm(dev));
	if (s->exempt || s->syscore)
		check_fail(INV_REMOVED,
			   "the %s callback of '%s' started, but the PM core must not handle it (a syscore device, or one that needs no PM)",
			   pm_phase_name(p), nm(dev));
	if (!in_transition || phase_active != (int)p)
		check_fail(INV_PHASE_BARRIER,
			   "the %s callback of '%s' started outside its phase (active: %s)",
			   pm_phase_name(p), nm(dev),
			   phase_active >= 0 ? pm_phase_name(phase_active) : "none");
	if (s->busy >= 0)
		check_fail(INV_ONCE,
			   "the %s callback of '%s' started while its %s callback was running",
			   pm_phase_name(p), nm(dev), pm_phase_name(s->busy));
	if (s->ran & (1u << p))
		check_fail(INV_ONCE,
			   "the %s callback of '%s' ran twice in one transition",
			   pm_phase_name(p), nm(dev));
	check_dc_kept(dev, p, facts);
	if (phase_must_be_sync(p)) {
		if (running_total)
			check_fail(INV_SYNC_ORDER,
				   "the %s callback of '%s' started while another callback was running, with async off",
				   pm_phase_name(p), nm(dev));
		if (last_pos[p] >= 0 &&
		    (phase_forward(p) ? s->pos < st[last_pos[p]].pos :
					s->pos > st[last_pos[p]].pos))
			check_fail(INV_SYNC_ORDER,
				   "with async off, %s ran '%s' after '%s', against %s list order",
				   pm_phase_name(p), nm(dev), nm(last_pos[p]),
				   phase_forward(p) ? "forward" : "reverse");
		last_pos[p] = dev;
	}
	if (p == PH_RESUME_EARLY && s->stays_early &&
	    resume_kind() == RESUME_PLAIN)
		check_fail(INV_SKIP,
			   "the resume_early callback of '%s' ran, but its late suspend was skipped (smart suspend) and the aborted noirq phase did not suspend it, so its early resume leaves it in suspend",
			   nm(dev));
	if (p == PH_COMPLETE && !s->prepared)
		check_fail(INV_ROLLBACK,
			   "complete callback of '%s', which was not prepared",
			   nm(dev));
	if (pm_phase_is_suspend(p))
		check_suspend_start(dev, p);
	else
		check_resume_start(dev, p);
	check_wakeup_path(dev, p, facts);
	check_dc_due(dev, p, facts);
	check_callback_source(dev, p, from);
	check_rpm_disabled(dev, p, facts);
	check_rpm_request(dev, p, facts);
	check_parent_rpm_enabled(dev, p, facts);
	check_rpm_status_kept(dev, p, facts);
	check_smart_kept(dev, p, from);
	check_prepared_flag(dev, p, facts);
	s->ran |= 1u << p;
	s->busy = p;
	running[p]++;
	running_total++;
}

void do_check_callback_end(int dev, enum pm_phase p, int error)
{
	struct dstate *s = &st[dev];
	uint64_t *w, bit;

	pr_info("call %s+ [%s] returned %d", nm(dev), pm_phase_name(p), error);
	s->busy = -1;
	running[p]--;
	running_total--;
	if (!error) {
		check_pm_wait(dev, p);
		if (p == PH_SUSPEND)
			note_dc_clearers(dev);
	} else {
		s->failed |= 1u << p;
		walk_note_stop(dev, p, true);
	}
	if (pm_phase_is_suspend(p)) {
		if (error) {
			if (!suspend_failed) {
				first_fail_dev = dev;
				first_fail_phase = p;
				first_fail_err = error;
			}
			suspend_failed = true;
			if ((w = err_word(error, &bit)))
				*w |= bit;
			return;
		}
		if (p == PH_PREPARE)
			s->prepared = true;
		else
			s->lvl = pm_phase_depth(p);
	} else if (p == PH_COMPLETE) {
		s->prepared = false;
	} else {
		s->lvl = pm_phase_depth(p) - 1;
	}
}

/* STATS: main.c records a device in suspend_stats (dpm_save_failed_dev(),
 * /sys/power/suspend_stats/last_failed_dev) only after a callback of
 * that device failed in the phase in progress. */
void do_check_failed_dev(int dev, const char *name)
{
	pr_info("suspend_stats: failed device %s", name ? name : "?");
	if (dev < 0) {
		check_fail(INV_STATS,
			   "suspend_stats recorded '%s' as a failed device, but no device has that name",
			   name ? name : "?");
		return;
	}
	if (phase_active < 0 || !(st[dev].failed & (1u << phase_active)))
		check_fail(INV_STATS,
			   "suspend_stats recorded '%s' as a failed device in %s, but no callback of it failed there",
			   nm(dev), phase_active >= 0 ? pm_phase_name(phase_active) :
			   "no phase");
	else
		st[dev].recorded |= 1u << phase_active;
}

void do_check_device_gone(int dev)
{
	pr_info("device '%s' removed", nm(dev));
	st[dev].gone = true;
}

/* REFS: a last reference dropped while main.c holds dpm_list_mtx runs
 * the release under it, and a release that unregisters a device takes it
 * again: 2aa36604e824 ("PM: sleep: Avoid calling put_device() under
 * dpm_list_mtx") moved every put_device() of main.c out of the lock. */
void do_check_device_freed(int dev, long long under_list_mtx)
{
	st[dev].freed = true;
	if (under_list_mtx)
		check_fail(INV_REFS,
			   "the last reference of '%s' was dropped while main.c held dpm_list_mtx: a release that unregisters a device would deadlock there",
			   nm(dev));
}

void do_check_transition_end(int error)
{
	uint64_t *w, bit;

	pr_info("transition ends, suspend reported %d", error);
	in_transition = false;
	if (cfg.stats)
		check_stats_recorded();
	for (int i = 0; i < cfg.ndev; i++) {
		if (out_of_play(i))
			continue;
		if (st[i].lvl)
			check_fail(INV_ROLLBACK,
				   "'%s' was still suspended (depth %d) when the transition ended",
				   nm(i), st[i].lvl);
		if (st[i].prepared)
			check_fail(INV_ROLLBACK,
				   "'%s' was prepared but never completed",
				   nm(i));
	}
	if (suspend_failed && !error)
		check_fail(INV_ROLLBACK,
			   "a suspend callback failed but the transition reported success");
	/* A wake-up event aborts with -EBUSY (-EAGAIN from the hibernation
	 * power-off); the resume that follows is the same. */
	bool wake_error = wakeup_abort && (error == -EBUSY || error == -EAGAIN);

	if (!suspend_failed && error && !wake_error)
		check_fail(INV_ROLLBACK,
			   "the transition reported error %d though no callback failed",
			   error);
	if (error && !wake_error && !((w = err_word(error, &bit)) && (*w & bit)))
		check_fail(INV_ROLLBACK,
			   "the transition reported error %d, which no callback returned",
			   error);
}

/* End of run: dev holds have references (-1: it was freed), want expected. */
void do_check_refs(int dev, long long have, long long want)
{
	if (have < 0) {
		if (!st[dev].gone && !st[dev].absent)
			check_fail(INV_REFS,
				   "'%s' was freed while still registered",
				   nm(dev));
		return;
	}
	if (have != want)
		check_fail(INV_REFS,
			   "'%s' holds %lld references at the end of the run, expected %lld",
			   nm(dev), have, want);
}

void do_check_all_freed(void)
{
	for (int i = 0; i < cfg.ndev; i++)
		if (!st[i].freed && !st[i].absent)	/* never registered */
			check_fail(INV_REFS,
				   "'%s' was never freed: a reference leaked",
				   nm(i));
}

/* in: 1 + the device whose step was running (0: not told), p its phase. */
void do_check_use_after_free(int dev, const char *op, long long in,
				    long long p)
{
	if (in > 0 && in <= cfg.ndev && p >= 0 && p < NR_PHASES)
		check_fail(INV_REMOVED,
			   "%s() on memory of '%s', freed when its last reference was dropped, in the %s step of '%s'",
			   op, nm(dev), pm_phase_name((enum pm_phase)p),
			   nm((int)in - 1));
	else
		check_fail(INV_REMOVED,
			   "%s() on memory of '%s', freed when its last reference was dropped",
			   op, nm(dev));
}

void do_check_device_handled(int dev, enum pm_phase p)
{
	check_walk_stopped(dev, p);
	if (st[dev].handled & (1u << p))
		check_fail(INV_ONCE,
			   "the PM core took '%s' in hand twice in %s (two jobs, or a job and the walk): its %s work, runtime PM included, runs twice",
			   nm(dev), pm_phase_name(p), pm_phase_name(p));
	st[dev].handled |= 1u << p;
}

const char *const skip_names[NR_SKIP] = {
	"it has none", "it is runtime-suspended", "it was not suspended",
	"the transition is aborting", "it is a syscore device",
};

void do_check_link(int con, int sup, bool on)
{
	for (int k = 0; k < ndlinks; k++)
		if (dlinks[k].con == con && dlinks[k].sup == sup) {
			dlinks[k].on = on;
			return;
		}
	DPM_ARRAY_PUSH(dlinks, ndlinks, dlinks_cap,
		       ((struct dlink){ con, sup, on }));
}

void do_check_added(int dev)
{
	pr_info("device '%s' registered", nm(dev));
	st[dev].absent = false;
	st[dev].lvl = 0;
	st[dev].prepared = false;
}

/* Events are judged one at a time, invisibly to TSan, on the threads
 * engine. */
static int oracle_lk;

void oracle_listener(const struct dpm_event *ev, void *ctx)
{
	(void)ctx;
	quiet_lock(&oracle_lk);
	switch (ev->kind) {
	case EV_TRANSITION_BEGIN:
		do_check_transition_begin();
		break;
	case EV_TRANSITION_END:
		do_check_transition_end(ev->err);
		break;
	case EV_PHASE_BEGIN:
		do_check_phase_begin(ev->phase, ev->a);
		break;
	case EV_PHASE_END:
		do_check_phase_end(ev->phase);
		break;
	case EV_CB_START:
		do_check_callback_start(ev->dev, ev->phase, ev->a, ev->b);
		break;
	case EV_CB_END:
		if (ev->phase == PH_PREPARE && !ev->err && ev->a > 0)
			st[ev->dev].prep_pos = true;
		do_check_callback_end(ev->dev, ev->phase, ev->err);
		break;
	case EV_HANDLED:
		do_check_device_handled(ev->dev, ev->phase);
		break;
	case EV_DIRECT_COMPLETE:
		do_check_direct_complete(ev->dev);
		break;
	case EV_DIRECT_RESUME:
		do_check_direct_resume(ev->dev);
		break;
	case EV_GONE:
		do_check_device_gone(ev->dev);
		break;
	case EV_FREED:
		do_check_device_freed(ev->dev, ev->a);
		break;
	case EV_USE_AFTER_FREE:
		do_check_use_after_free(ev->dev, ev->what, ev->a, ev->b);
		break;
	case EV_REFS:
		do_check_refs(ev->dev, ev->a, ev->b);
		break;
	case EV_TEARDOWN_DONE:
		do_check_all_freed();
		break;
	case EV_SKIP:
		do_check_skip(ev->dev, ev->phase, (int)ev->a, ev->b);
		break;
	case EV_WAKEUP_ABORT:
		pr_info("a wake-up event aborts the transition");
		wakeup_abort = true;
		break;
	case EV_ADDED:
		do_check_added(ev->dev);
		break;
	case EV_LIST_POS:
		st[ev->dev].pos = (int)ev->a;
		break;
	case EV_LINK:
		do_check_link(ev->dev, (int)ev->a, ev->b);
		break;
	case EV_FAILED_DEV:
		do_check_failed_dev(ev->dev, ev->what);
		break;
	case EV_FAILED_STEP:
		do_check_failed_step(ev->a);
		break;
	case EV_RPM_STATE:
		if (ev->err == EV_RPM_NOIRQ_SUSPEND || ev->err == EV_RPM_NOIRQ_RESUME)
			do_check_rpm_noirq(ev->dev, ev->err, ev->b);
		else if (ev->err == EV_RPM_REMOVED)
			do_check_rpm_removed(ev->dev, ev->a, ev->b);
		else
			do_check_rpm_state(ev->dev, ev->err, ev->a, ev->b);
		break;
	case EV_LOCKING:
		do_check_locking(ev->dev, ev->what, ev->a);
		break;
	case EV_RELINKED:
		do_check_relinked(ev->dev);
		break;
	case EV_UNBOUND:
		pr_info("device '%s': driver unbound", nm(ev->dev));
		st[ev->dev].unbound = true;
		break;
	default:
		break;
	}
	/* The invariants with a check of their own (table.c). */
	for (int i = NR_INV_BUILTIN; i < oracle_ninvariants; i++) {
		const struct invariant *v = oracle_invariants[i];

		if (v->check && (v->events & EVB(ev->kind)))
			v->check(i, ev);
	}
	quiet_unlock(&oracle_lk);
}

void oracle_explain(int dev, char *buf, size_t n)
{
	const struct dstate *s = &st[dev];

	if (dev < 0 || dev >= cfg.ndev) {
		snprintf(buf, n, "unknown device");
	} else if (s->gone) {
		snprintf(buf, n, "'%s' was removed", nm(dev));
	} else if (s->busy >= 0) {
		snprintf(buf, n, "the %s callback of '%s' is still running",
			 pm_phase_name(s->busy), nm(dev));
	} else if (!(s->ran & (1u << PH_SUSPEND)) && suspend_failed &&
		   first_fail_dev >= 0) {
		int at = snprintf(buf, n,
				  "'%s' was never visited by the suspend walk: suspend stopped at '%s' (its %s returned %d), so nobody %s it",
				  nm(dev), nm(first_fail_dev),
				  pm_phase_name(first_fail_phase), first_fail_err,
				  phase_active >= 0 && pm_phase_is_suspend(phase_active) ?
				  "completes" : "resumes");
		const char *sep = "; its suspended children wait to resume: ";

		for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
			int c = child_list[k];

			if (st[c].gone || !st[c].lvl || at < 0 || (size_t)at >= n)
				continue;
			at += snprintf(buf + at, n - (size_t)at, "%s'%s'", sep, nm(c));
			sep = ", ";
		}
	} else if (phase_active >= 0) {
		snprintf(buf, n, "no task is running the %s callback of '%s'",
			 pm_phase_name(phase_active), nm(dev));
	} else {
		snprintf(buf, n, "no phase is in progress");
	}
}
