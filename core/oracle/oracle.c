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
#include "oracle.h"
#include "../util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kapi/kapi.h"

static const char *const inv_names[NR_INV] = {
	"SUSPEND-AFTER-CHILDREN", "RESUME-AFTER-PARENT", "ONCE", "ROLLBACK",
	"REMOVED", "LIVENESS", "PHASE-BARRIER", "SYNC-ORDER", "REFS",
	"SLEEP-COMPLETE", "SKIP", "WAKEUP", "STATS", "CALLBACK", "RUNTIME-PM",
	"LOCKS",
};

const char *inv_name(enum inv id)
{
	return (unsigned)id < NR_INV ? inv_names[id] : "?";
}

int inv_parse(const char *name)
{
	for (int i = 0; i < NR_INV; i++)
		if (!strcmp(name, inv_names[i]))
			return i;
	return -1;
}

struct dstate {
	int lvl;
	bool gone;
	bool absent;		/* registered later in the run (EV_ADDED) */
	bool exempt;		/* never handled: it needs no PM */
	bool syscore;		/* handled, its callbacks by syscore ops */
	bool wakes_below;	/* it or a device under it in the tree may
				 * wake the system up (WAKEUP) */
	bool unbound;		/* its driver unbound: no obligations left */
	bool rpm_off;		/* skipped as runtime-suspended: off, not
				 * suspended by its callbacks */
	bool kept;		/* left in suspend by a resume step it may
				 * skip (dev_pm_skip_resume()) */
	bool kept_aborted;	/* so in resume_early, late-suspended only,
				 * after an aborted suspend (KV-2) */
	bool kept_thaw;		/* left in suspend by a thaw (KV-9) */
	bool stays_early;	/* must stay in suspend through a plain
				 * early resume: smart suspend skipped its
				 * late suspend, and the noirq phase took it
				 * in hand but skipped it, aborting */
	int pos;		/* its place on dpm_list */
	bool freed;
	bool prepared;
	bool prep_pos;		/* its prepare returned a positive number */
	bool dc;
	unsigned int handled;	/* phases that took it in hand */
	int busy;		/* phase of the running callback, or -1 */
	unsigned int ran;	/* phases whose callback ran this transition */
	unsigned int failed;	/* phases whose callback failed this
				 * transition (STATS) */
	unsigned int recorded;	/* phases in which main.c recorded it in
				 * suspend_stats (STATS) */
	long long rpm_depth;	/* its runtime PM disable depth when the
				 * transition began, -1 untold (RUNTIME-PM) */
	int rpm_down;		/* its runtime status (1 suspended, 0 not)
				 * at its last late or noirq suspend
				 * callback's start, -1 untold (RUNTIME-PM) */
};

static struct oracle_config cfg;
static struct dstate *st;
static int *child_start, *child_list;	/* subordinates of i, CSR */
static int *sup_start, *sup_list;	/* superiors of i, CSR */
static struct oracle_result result;
/* Links the variant publishes (EV_LINK): consumer, supplier, ordered. */
static struct dlink { int con, sup; bool on; } *dlinks;
static int ndlinks, dlinks_cap;

static bool in_transition;
static bool suspend_failed;
static bool wakeup_abort;	/* a wake-up event aborted this transition */
/* STATS: the phases main.c recorded as failed steps this transition. */
static unsigned int steps_recorded;
/* PHASE-BARRIER: the phases begun this transition. */
static unsigned int phases_begun;
/* Bit e: a suspend-side callback returned -e; e up to the kernel's
 * MAX_ERRNO, the text format's limit (EPROTO, 71, is in real logs). */
#define ERRNO_MAX 4095
static uint64_t failed_errs[ERRNO_MAX / 64 + 1];

static uint64_t *err_word(int error, uint64_t *bit)
{
	if (error >= 0 || error < -ERRNO_MAX)
		return NULL;
	*bit = 1ULL << (-error % 64);
	return &failed_errs[-error / 64];
}

static int first_fail_dev = -1, first_fail_phase, first_fail_err;
/* SKIP, the walk's stop: the task that walks the phase in progress, and
 * the device whose failure or abort in that task stopped a suspend walk
 * (-1: none yet). */
static int walk_tid = -1, walk_stop_dev = -1;
static bool walk_stop_failed;
static int phase_active = -1;
/* The resume the phase in progress does (enum oracle_resume) as the
 * variant told, or -1: as the transition's kind says (resume_kind()). */
static int told_resume = -1;
static int running[NR_PHASES];
static int last_pos[NR_PHASES];		/* SYNC-ORDER: previous device */
static int running_total;
static uint64_t phase_start;


/* Lists by key: list[start[k]..start[k+1]) = val[e] of the edges e
 * with key[e] == k, in edge order (tree edges come first). */
static void csr_build(int ne, const int *key, const int *val, int **start,
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
		if (cfg.wakeup && cfg.wakeup[i])
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
	free(from);
	free(to);
	memset(&result, 0, sizeof(result));
	ndlinks = 0;
	in_transition = false;
	phase_active = -1;
	told_resume = -1;
	running_total = 0;
	memset(running, 0, sizeof(running));
}

const struct oracle_result *oracle_result(void)
{
	return &result;
}

static void vrecord(enum inv id, const char *fmt, va_list ap)
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

static void check_fail(enum inv id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrecord(id, fmt, ap);
	va_end(ap);
	dpm_eng->stop();
}

static const char *nm(int dev)
{
	return cfg.names[dev];
}

/* No ordering obligation: removed, not registered yet, or never handled
 * by the PM core. */
static bool out_of_play(int dev)
{
	return st[dev].gone || st[dev].absent || st[dev].exempt ||
	       st[dev].syscore || st[dev].unbound;
}

/* Forward (list order) or backward (reverse list order) phase. */
static bool phase_forward(enum pm_phase p)
{
	return p == PH_PREPARE || p == PH_RESUME_NOIRQ ||
	       p == PH_RESUME_EARLY || p == PH_RESUME;
}

static bool phase_must_be_sync(enum pm_phase p)
{
	if (!cfg.async_possible)
		return true;
	return cfg.pm_trace && !pm_phase_is_suspend(p) && p != PH_COMPLETE;
}

static void do_check_transition_begin(void)
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
		st[i].stays_early = false;
	}
}

static enum oracle_resume resume_kind(void)
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

static void do_check_phase_begin(enum pm_phase p, long long told)
{
	told_resume = told > 0 && told <= PM_RESUME_RESTORE + 1 ? (int)told - 1 : -1;
	pr_info("suspend_resume: %s begin", pm_phase_name(p));
	if (phase_active >= 0)
		check_fail(INV_PHASE_BARRIER,
			   "phase %s began while phase %s had not returned",
			   pm_phase_name(p), pm_phase_name(phase_active));
	/* The kernel's callers run each phase at most once a transition; a
	 * noirq resume only after a noirq suspend, an early resume only
	 * after a late suspend and, once the noirq suspend ran, after the
	 * noirq resume (dpm_suspend_end(), suspend_enter(), hibernate.c). */
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

/* SKIP, the walk's stop (the kernel variants): a suspend, late or noirq
 * walk that sees a device it runs itself fail, or skip its step because
 * the transition is aborting (async_error set: an earlier failure or a
 * wake-up), stops there (dpm_suspend()'s "if (error || async_error)
 * break;" and the same in the late and noirq walks); it takes no other
 * device in hand in that phase.  Only a device that cannot run in an
 * async job counts: a job the async code runs inline in the walk's task
 * is not checked by the walk. */
static void walk_note_stop(int dev, enum pm_phase p, bool failed)
{
	if (!cfg.walk_stops || p == PH_PREPARE || !pm_phase_is_suspend(p) ||
	    (int)p != phase_active || walk_stop_dev >= 0 ||
	    (cfg.may_async && cfg.may_async[dev]) ||
	    dpm_eng->current_id() != walk_tid)
		return;
	walk_stop_dev = dev;
	walk_stop_failed = failed;
}

static void check_walk_stopped(int dev, enum pm_phase p)
{
	if (walk_stop_dev < 0 || dev == walk_stop_dev || (int)p != phase_active ||
	    dpm_eng->current_id() != walk_tid)
		return;
	check_fail(INV_SKIP,
		   "the %s walk took '%s' in hand after '%s' %s in it: main.c's suspend walks stop at the first failure they see",
		   pm_phase_name(p), nm(dev), nm(walk_stop_dev),
		   walk_stop_failed ? "failed" : "was skipped as the transition was aborting");
}

/* STATS, the other way: a failure main.c must record (the kernel
 * variants).  Every suspend, late and noirq callback that fails, and a
 * resume-side one of a device that runs in the walk, gets its device
 * recorded (dpm_save_failed_dev(), in the phase) and its phase as a
 * failed step (dpm_save_failed_step()) by the end of the transition, when
 * a reader of suspend_stats could look.  Not prepare's: the callers of
 * dpm_prepare() differ (hibernation records no step). */
static bool must_record(int dev, enum pm_phase p)
{
	if (p == PH_PREPARE || p == PH_COMPLETE)
		return false;
	return pm_phase_is_suspend(p) || !cfg.may_async || !cfg.may_async[dev];
}

static void check_stats_recorded(void)
{
	for (int p = 0; p < NR_PHASES; p++) {
		int failed = -1;

		for (int i = 0; i < cfg.ndev; i++) {
			if (!(st[i].failed & (1u << p)) || !must_record(i, (enum pm_phase)p))
				continue;
			if (!(st[i].recorded & (1u << p))) {
				check_fail(INV_STATS,
					   "the %s callback of '%s' failed, but main.c did not record it in suspend_stats (dpm_save_failed_dev())",
					   pm_phase_name((enum pm_phase)p), nm(i));
				return;
			}
			failed = i;
		}
		if (failed >= 0 && !(steps_recorded & (1u << p))) {
			check_fail(INV_STATS,
				   "the %s callback of '%s' failed, but main.c did not record %s as a failed step (dpm_save_failed_step())",
				   pm_phase_name((enum pm_phase)p), nm(failed),
				   pm_phase_name((enum pm_phase)p));
			return;
		}
	}
}

/* A step recorded as failed: a phase of this transition in which a
 * callback failed, or a suspend-side one when a wake-up event aborted
 * the transition. */
static void do_check_failed_step(long long q)
{
	bool failed = false;

	pr_info("suspend_stats: failed step %s", q >= 0 && q < NR_PHASES ?
		pm_phase_name((enum pm_phase)q) : "(not a phase)");
	if (q < 0 || q >= NR_PHASES) {
		check_fail(INV_STATS, "suspend_stats recorded a failed step that is no phase of main.c's");
		return;
	}
	for (int i = 0; i < cfg.ndev && !failed; i++)
		failed = st[i].failed & (1u << q);
	if (!failed && !(pm_phase_is_suspend((enum pm_phase)q) && wakeup_abort))
		check_fail(INV_STATS,
			   "suspend_stats recorded %s as a failed step, but no callback failed there%s",
			   pm_phase_name((enum pm_phase)q),
			   pm_phase_is_suspend((enum pm_phase)q) ? " and no wake-up event aborted the transition" : "");
	/* A failed suspend-side phase records its step before it returns,
	 * so before any step of a later phase (its rollback's included). */
	for (int p = PH_SUSPEND; p < q && p <= PH_SUSPEND_NOIRQ; p++) {
		if (steps_recorded & (1u << p))
			continue;
		for (int i = 0; i < cfg.ndev; i++) {
			if (!(st[i].failed & (1u << p)))
				continue;
			check_fail(INV_STATS,
				   "suspend_stats recorded %s as a failed step before %s, whose callback of '%s' failed first",
				   pm_phase_name((enum pm_phase)q), pm_phase_name((enum pm_phase)p), nm(i));
			return;
		}
	}
	steps_recorded |= 1u << q;
}

static void do_check_phase_end(enum pm_phase p)
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

static bool is_child(int c, int dev)
{
	return cfg.parent[c] == dev;
}

static void check_suspend_start(int dev, enum pm_phase p)
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

/* KV-2 accepted (ORACLE_TOL_KEPT_SUPERIOR): par was left in suspend by a
 * resume step it skipped after a suspend that aborted; KV-9
 * (ORACLE_TOL_THAW_KEPT_SUPERIOR): by a thaw. */
static bool kept_ok(int par)
{
	return (cfg.tolerate & ORACLE_TOL_KEPT_SUPERIOR && st[par].kept_aborted) ||
	       (cfg.tolerate & ORACLE_TOL_THAW_KEPT_SUPERIOR && st[par].kept_thaw);
}

static void check_resume_start(int dev, enum pm_phase p)
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
		    st[par].lvl < d || kept_ok(par))
			continue;
		check_fail(INV_RESUME_AFTER_PARENT,
			   "supplier '%s' had not %s when its consumer '%s' started %s",
			   nm(par), st[par].busy == (int)p ?
			   "finished resuming (its callback is running)" : "resumed",
			   nm(dev), pm_phase_name(p));
	}
	for (int k = sup_start[dev]; k < sup_start[dev + 1]; k++) {
		int par = sup_list[k];

		if (out_of_play(par) || st[par].lvl < d || kept_ok(par))
			continue;
		check_fail(INV_RESUME_AFTER_PARENT,
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
static void check_pm_wait(int dev, enum pm_phase p)
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

static void do_check_direct_complete(int dev)
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
}

static void do_check_direct_resume(int dev)
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

/* WAKEUP: device_suspend() sets power.wakeup_path of a device that may
 * wake the system up when its suspend succeeds, and only device_prepare()
 * clears it: its late and noirq suspend callbacks see it set. */
/* RUNTIME-PM: device_suspend_late() disables a device's runtime PM
 * before anything else and device_resume_early() enables it again after
 * the callback, so the late, noirq and early callbacks run with it
 * disabled; every disable main.c makes it undoes by the transition's
 * end; and a device a skipped resume left in suspend gets the runtime
 * status suspended (device_resume_noirq(): pm_runtime_set_suspended()
 * when dev_pm_skip_resume()), but for one whose early resume was skipped
 * after a suspend that aborted before its noirq suspend: that one never
 * passes there with skip_resume (KV-2's case; it keeps its status).  The
 * last is judged when main.c is done with the device (EV_SKIP): later a
 * child's unbind may runtime-resume it, as the kernel's would. */
static void check_rpm_disabled(int dev, enum pm_phase p, long long facts)
{
	if (!(facts & EV_FACT_RPM_TOLD) || facts & EV_FACT_RPM_DISABLED ||
	    (p != PH_SUSPEND_LATE && p != PH_SUSPEND_NOIRQ &&
	     p != PH_RESUME_NOIRQ && p != PH_RESUME_EARLY))
		return;
	check_fail(INV_RUNTIME_PM,
		   "the %s callback of '%s' started with its runtime PM enabled",
		   pm_phase_name(p), nm(dev));
}

/* ROLLBACK, main.c's own record of it: power.is_prepared is set from a
 * device's prepare to its resume; main.c clears it before the resume
 * callback (device_resume(): "a fib", so that children may be added) and
 * before complete (dpm_complete()). */
static void check_prepared_flag(int dev, enum pm_phase p, long long facts)
{
	bool set = facts & EV_FACT_PREPARED;

	if (!(facts & EV_FACT_PREP_TOLD) || p == PH_PREPARE || out_of_play(dev))
		return;
	if ((p == PH_RESUME || p == PH_COMPLETE) && set)
		check_fail(INV_ROLLBACK,
			   "the %s callback of '%s' started with power.is_prepared still set: main.c clears it before",
			   pm_phase_name(p), nm(dev));
	else if (p != PH_RESUME && p != PH_COMPLETE && !set)
		check_fail(INV_ROLLBACK,
			   "the %s callback of '%s' started with power.is_prepared clear, but the device was prepared",
			   pm_phase_name(p), nm(dev));
}

/* SKIP: smart suspend skips a runtime-suspended device's driver callback
 * in the late phase and then in the noirq phase too: dev_pm_skip_suspend()
 * reads the smart-suspend flag main.c set in prepare and the runtime
 * status, which nothing changes while runtime PM is off. */
static void check_smart_kept(int dev, enum pm_phase p, long long from)
{
	if (p != PH_SUSPEND_NOIRQ || from != EV_CB_FROM_DRIVER || !cfg.cb_layer ||
	    !st[dev].rpm_off || st[dev].dc || out_of_play(dev))
		return;
	check_fail(INV_SKIP,
		   "the driver's suspend_noirq callback of '%s' ran, but smart suspend skipped its suspend_late callback (runtime-suspended): dev_pm_skip_suspend() cannot change while runtime PM is off",
		   nm(dev));
}

/* Runtime PM is off from a device's late suspend to its early resume;
 * main.c changes its runtime status there only for the DPM flags: a
 * smart-suspend device it resumes becomes active, one it leaves in
 * suspend (may-skip-resume) suspended (device_resume_noirq()).  A device
 * with neither flag starts its noirq and early resume callbacks in the
 * status its late and noirq suspend callbacks saw. */
static void check_rpm_status_kept(int dev, enum pm_phase p, long long facts)
{
	unsigned int f = cfg.dpm_flags ? cfg.dpm_flags[dev] : 0;
	int now;

	if (!(facts & EV_FACT_RPM_TOLD))
		return;
	now = !!(facts & EV_FACT_RPM_SUSPENDED);
	if (p == PH_SUSPEND_LATE || p == PH_SUSPEND_NOIRQ) {
		st[dev].rpm_down = now;
		return;
	}
	if ((p != PH_RESUME_NOIRQ && p != PH_RESUME_EARLY) || st[dev].rpm_down < 0 ||
	    now == st[dev].rpm_down || f & (PMF_SMART_SUSPEND | PMF_MAY_SKIP_RESUME) ||
	    out_of_play(dev))
		return;
	check_fail(INV_RUNTIME_PM,
		   "the %s callback of '%s' started with its runtime status %s, but its late and noirq suspend saw it %s: main.c changes it only for the DPM flags, which the driver did not set",
		   pm_phase_name(p), nm(dev), now ? "suspended" : "active",
		   st[dev].rpm_down ? "suspended" : "active");
}

static void do_check_rpm_state(int dev, bool end, long long depth, bool suspended)
{
	struct dstate *s = &st[dev];

	pr_info("runtime PM of '%s' at the transition's %s: disable depth %lld, %s",
		nm(dev), end ? "end" : "start", depth, suspended ? "suspended" : "not suspended");
	if (!end) {
		s->rpm_depth = depth;
		return;
	}
	if (out_of_play(dev))
		return;
	if (s->rpm_depth >= 0 && depth != s->rpm_depth)
		check_fail(INV_RUNTIME_PM,
			   "the runtime PM of '%s' ends the transition disabled %lld times, not %lld as it began: main.c's disables and enables do not match",
			   nm(dev), depth, s->rpm_depth);
}

/* A device a skipped noirq or early resume leaves in suspend: its runtime
 * status suspended (runtime PM is off from the late suspend to the early
 * resume, so no one else changed it). */
static void check_rpm_kept(int dev, enum pm_phase p, long long facts)
{
	if ((p != PH_RESUME_NOIRQ && p != PH_RESUME_EARLY) || !st[dev].kept ||
	    st[dev].kept_aborted || !(facts & EV_SKIPF_TOLD) ||
	    facts & (EV_SKIPF_DIRECT_COMPLETE | EV_SKIPF_RPM_SUSPENDED))
		return;
	check_fail(INV_RUNTIME_PM,
		   "'%s' was left in suspend by its skipped %s, but its runtime status is not suspended",
		   nm(dev), pm_phase_name(p));
}

/* LOCKS: main.c moves devices between its lists, and tests them, only
 * while it holds dpm_list_mtx, and it calls no callback and waits for no
 * device and no async job while it holds it (a callback or a job that
 * registers or removes a device takes the lock: it would deadlock).  The
 * runtime tells only a breach. */
static void do_check_locking(int dev, const char *what, long long held)
{
	if (dev >= 0)
		check_fail(INV_LOCKS, "main.c %s of '%s' %s dpm_list_mtx",
			   what ? what : "?", nm(dev), held ? "holding" : "without holding");
	else
		check_fail(INV_LOCKS, "main.c %s %s dpm_list_mtx",
			   what ? what : "?", held ? "holding" : "without holding");
}

/* REMOVED, relinked: main.c never moves the list entry of a device that
 * is on no list (device_pm_remove() took it off; moving it would put a
 * removed device back on the PM lists).  The runtime tells only a
 * breach; dev is -1 where it could not say which device. */
static void do_check_relinked(int dev)
{
	if (dev >= 0)
		check_fail(INV_REMOVED,
			   "main.c moved the list entry of '%s', which was on no list: a removed device put back on the PM lists",
			   nm(dev));
	else
		check_fail(INV_REMOVED,
			   "main.c moved the list entry of a device, which was on no list: a removed device put back on the PM lists");
}

/* SKIP, direct_complete taken when due (the kernel variants): a device
 * whose prepare returned a positive number in a suspend to RAM or idle,
 * whose driver did not set DPM_FLAG_NO_DIRECT_COMPLETE, that may not wake
 * the system up and whose children all took direct_complete (none cleared
 * its power.direct_complete, nor set its wakeup_path), stays in suspend
 * if it is runtime-suspended when device_suspend() tests it: its suspend
 * callback never runs so.  Its runtime status only goes from suspended to
 * active in the suspend phase (its prepare holds a usage count), so
 * suspended at the callback's start means suspended at the test.  Not a
 * device that supplies a link (any consumer may clear it) or whose child
 * left play. */
static void check_dc_due(int dev, enum pm_phase p, long long facts)
{
	if (p != PH_SUSPEND || !cfg.cb_layer || cfg.dc_forbidden ||
	    (facts & (EV_FACT_RPM_TOLD | EV_FACT_RPM_SUSPENDED)) !=
	    (EV_FACT_RPM_TOLD | EV_FACT_RPM_SUSPENDED) ||
	    !st[dev].prep_pos || out_of_play(dev) ||
	    (cfg.dpm_flags && cfg.dpm_flags[dev] & PMF_NO_DIRECT_COMPLETE) ||
	    (cfg.wakeup && cfg.wakeup[dev]))
		return;
	for (int k = 0; k < cfg.nlinks; k++)
		if (cfg.link_sup[k] == dev)
			return;
	for (int k = 0; k < ndlinks; k++)
		if (dlinks[k].sup == dev)
			return;
	for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
		int c = child_list[k];

		if (!is_child(c, dev) || st[c].exempt || st[c].syscore)
			continue;
		if (!st[c].dc || st[c].gone || st[c].absent || st[c].unbound)
			return;
	}
	check_fail(INV_SKIP,
		   "'%s' ran its suspend callback, but direct_complete was due: its prepare returned 1, it is runtime-suspended, may not wake the system up, and its children stayed in suspend",
		   nm(dev));
}

static void check_wakeup_path(int dev, enum pm_phase p, long long facts)
{
	if (!(facts & EV_FACT_TOLD) || !cfg.wakeup ||
	    (p != PH_SUSPEND_LATE && p != PH_SUSPEND_NOIRQ))
		return;
	if (facts & EV_FACT_WAKEUP_PATH) {
		/* Only then can power.wakeup_path be set: device_suspend()
		 * sets it for a device that may wake up, and
		 * dpm_propagate_wakeup_to_parent() copies it up; the
		 * harness's drivers never call device_set_wakeup_path(). */
		if (!st[dev].wakes_below)
			check_fail(INV_WAKEUP,
				   "the %s callback of '%s' started with power.wakeup_path set, but neither it nor a device under it may wake the system up",
				   pm_phase_name(p), nm(dev));
		return;
	}
	if (cfg.wakeup[dev])
		check_fail(INV_WAKEUP,
			   "the %s callback of '%s', which may wake the system up, started with power.wakeup_path clear",
			   pm_phase_name(p), nm(dev));
	/* A child that may wake up and whose suspend went through set the
	 * parent's wakeup_path (device_suspend(): the parent waited for it). */
	for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
		int c = child_list[k];

		if (!is_child(c, dev) || !cfg.wakeup[c] || out_of_play(c) ||
		    st[c].lvl < 1 || st[c].dc)
			continue;
		check_fail(INV_WAKEUP,
			   "the %s callback of '%s' started with power.wakeup_path clear, but its child '%s', which may wake the system up, suspended",
			   pm_phase_name(p), nm(dev), nm(c));
		return;
	}
}

/* CALLBACK: main.c looks a phase's callback up in the device's PM
 * domain, type, class, bus (or the bus's legacy suspend/resume), the
 * first of them the device has, and in its driver only when that one has
 * none for the phase. */
static void check_callback_source(int dev, enum pm_phase p, long long from)
{
	bool layer = from == EV_CB_FROM_LAYER;

	if (cfg.cb_layer && from == EV_CB_FROM_LOWER) {
		check_fail(INV_CALLBACK,
			   "main.c called the %s callback of a middle layer of '%s' under its first one, which the kernel's lookup (PM domain, type, class, bus, then driver) never reaches",
			   pm_phase_name(p), nm(dev));
		return;
	}
	if (!cfg.cb_layer || !cfg.cb_driver || st[dev].unbound ||
	    (from != EV_CB_FROM_LAYER && from != EV_CB_FROM_DRIVER))
		return;
	if ((layer ? cfg.cb_layer : cfg.cb_driver)[dev] & (1u << p))
		return;
	if (!layer && cfg.cb_layer[dev] & (1u << p))
		check_fail(INV_CALLBACK,
			   "main.c called the driver's %s callback of '%s', but its middle layer has one, which comes first",
			   pm_phase_name(p), nm(dev));
	else
		check_fail(INV_CALLBACK,
			   "main.c called the %s %s callback of '%s', which the kernel's lookup (PM domain, type, class, bus, then driver) does not choose",
			   layer ? "middle layer's" : "driver's", pm_phase_name(p), nm(dev));
}

/* SKIP, direct_complete kept: once a device took the direct_complete
 * path (device_suspend() left it runtime-suspended, is_suspended set),
 * main.c calls none of its callbacks but complete: device_suspend_late(),
 * device_suspend_noirq() and the resume steps test power.direct_complete,
 * and nothing may clear it after it was acted on.  KV-3 clears it
 * (ORACLE_TOL_DC_CLEARED accepts the callbacks that follow). */
static void check_dc_kept(int dev, enum pm_phase p)
{
	struct dstate *s = &st[dev];

	if (!s->dc || p == PH_PREPARE || p == PH_COMPLETE)
		return;
	if (!(cfg.tolerate & ORACLE_TOL_DC_CLEARED)) {
		check_fail(INV_SKIP,
			   "the %s callback of '%s' started, but it took the direct_complete path this transition: its suspend callback never ran",
			   pm_phase_name(p), nm(dev));
		return;
	}
}

static void do_check_callback_start(int dev, enum pm_phase p, long long facts, long long from)
{
	struct dstate *s = &st[dev];

	pr_info("calling  %s+ [%s]%s%s", nm(dev), pm_phase_name(p),
		cfg.parent[dev] >= 0 ? ", parent: " : "",
		cfg.parent[dev] >= 0 ? nm(cfg.parent[dev]) : "");
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
	check_dc_kept(dev, p);
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
	check_rpm_status_kept(dev, p, facts);
	check_smart_kept(dev, p, from);
	check_prepared_flag(dev, p, facts);
	s->ran |= 1u << p;
	s->busy = p;
	running[p]++;
	running_total++;
}

static void do_check_callback_end(int dev, enum pm_phase p, int error)
{
	struct dstate *s = &st[dev];
	uint64_t *w, bit;

	pr_info("call %s+ [%s] returned %d", nm(dev), pm_phase_name(p), error);
	s->busy = -1;
	running[p]--;
	running_total--;
	if (!error) {
		check_pm_wait(dev, p);
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
static void do_check_failed_dev(int dev, const char *name)
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

static void do_check_device_gone(int dev)
{
	pr_info("device '%s' removed", nm(dev));
	st[dev].gone = true;
}

/* REFS: a last reference dropped while main.c holds dpm_list_mtx runs
 * the release under it, and a release that unregisters a device takes it
 * again: 2aa36604e824 ("PM: sleep: Avoid calling put_device() under
 * dpm_list_mtx") moved every put_device() of main.c out of the lock. */
static void do_check_device_freed(int dev, long long under_list_mtx)
{
	st[dev].freed = true;
	if (under_list_mtx)
		check_fail(INV_REFS,
			   "the last reference of '%s' was dropped while main.c held dpm_list_mtx: a release that unregisters a device would deadlock there",
			   nm(dev));
}

static void do_check_transition_end(int error)
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
static void do_check_refs(int dev, long long have, long long want)
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

static void do_check_all_freed(void)
{
	for (int i = 0; i < cfg.ndev; i++)
		if (!st[i].freed && !st[i].absent)	/* never registered */
			check_fail(INV_REFS,
				   "'%s' was never freed: a reference leaked",
				   nm(i));
}

/* in: 1 + the device whose step was running (0: not told), p its phase. */
static void do_check_use_after_free(int dev, const char *op, long long in,
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

static void do_check_device_handled(int dev, enum pm_phase p)
{
	check_walk_stopped(dev, p);
	if (st[dev].handled & (1u << p))
		check_fail(INV_ONCE,
			   "the PM core took '%s' in hand twice in %s (two jobs, or a job and the walk): its %s work, runtime PM included, runs twice",
			   nm(dev), pm_phase_name(p), pm_phase_name(p));
	st[dev].handled |= 1u << p;
}

static const char *const skip_names[NR_SKIP] = {
	"it has none", "it is runtime-suspended", "it was not suspended",
	"the transition is aborting", "it is a syscore device",
};

/* A suspend-side step skipped because the device is runtime-suspended:
 * direct_complete in suspend, DPM_FLAG_SMART_SUSPEND in late and noirq. */
static void skip_suspend_rpm(int dev, enum pm_phase p)
{
	unsigned int f = cfg.dpm_flags ? cfg.dpm_flags[dev] : 0;

	if (p == PH_SUSPEND) {
		st[dev].rpm_off = true;
		do_check_direct_complete(dev);
		return;
	}
	if (st[dev].dc)
		return;		/* direct_complete skips the later phases */
	if (!(f & PMF_SMART_SUSPEND))
		check_fail(INV_SKIP,
			   "'%s' skipped its %s callback as runtime-suspended, but its driver did not set DPM_FLAG_SMART_SUSPEND",
			   nm(dev), pm_phase_name(p));
	check_suspend_start(dev, p);
	st[dev].rpm_off = true;
	st[dev].lvl = pm_phase_depth(p);
}

/* A resume-side step skipped because the device is left in suspend:
 * direct_complete, or the DPM flags (devices.rst: the noirq and early
 * resume callbacks may be skipped with DPM_FLAG_MAY_SKIP_RESUME, on thaw
 * with DPM_FLAG_SMART_SUSPEND, never on restore: dev_pm_skip_resume()).
 * The device stays suspended as deep as it was.  Before 5.8
 * (cfg.left_skips_resume) its resume callback is skipped too, and
 * DPM_FLAG_LEAVE_SUSPENDED lets a thaw skip as well
 * (dev_pm_may_skip_resume() excluded only restore). */
static void skip_resume_rpm(int dev, enum pm_phase p)
{
	unsigned int f = cfg.dpm_flags ? cfg.dpm_flags[dev] : 0;
	enum oracle_resume r = resume_kind();

	/* A direct-complete device's suspend callback never ran, so its
	 * resume step has nothing to undo: it leaves suspend to runtime PM,
	 * as with EV_DIRECT_RESUME.  So also when a subordinate cleared its
	 * direct_complete after it was taken (KV-3): main.c then runs its
	 * late, noirq and early callbacks, and before 6.1 skips its resume
	 * step as not suspended. */
	if (st[dev].dc) {
		if (p == PH_RESUME)
			st[dev].lvl = 0;
		return;
	}
	if (p == PH_RESUME && !cfg.left_skips_resume)
		check_fail(INV_SKIP,
			   "'%s' skipped its resume callback: only direct_complete skips it",
			   nm(dev));
	/* Before 5.8, left in suspend by an earlier step of this resume,
	 * which was judged by its own event: main.c cleared the device's
	 * later is_*_suspended flags then, so the later steps pass it by
	 * whatever their event (from 5.8 each step asks
	 * dev_pm_skip_resume() with its own).  A hibernation whose noirq freeze fails resumes the
	 * noirq phase with RECOVER, which may leave a device in suspend, and
	 * the later phases with RESTORE (hibernation_snapshot(): no image
	 * was made). */
	if (st[dev].kept && cfg.left_skips_resume) {
		if (p == PH_RESUME)
			st[dev].lvl = 0;
		return;
	}
	/* A suspend that aborted before the device's noirq suspend leaves a
	 * device its late suspend skipped (smart suspend) in suspend
	 * (device_resume_noirq(): the !is_noirq_suspended path clears
	 * must_resume when dev_pm_skip_suspend()). */
	bool left_by_late = f & PMF_SMART_SUSPEND && st[dev].rpm_off &&
			    st[dev].lvl < 3 && (suspend_failed || wakeup_abort);

	if (r == RESUME_RESTORE ||
	    (r == RESUME_THAW && !(f & PMF_SMART_SUSPEND) &&
	     !(cfg.left_skips_resume && f & PMF_MAY_SKIP_RESUME)) ||
	    (r == RESUME_PLAIN && !(f & PMF_MAY_SKIP_RESUME) && !left_by_late))
		check_fail(INV_SKIP,
			   "'%s' skipped its %s callback, which %s",
			   nm(dev), pm_phase_name(p),
			   r == RESUME_RESTORE ? "a restore never skips" :
			   r == RESUME_THAW ?
			   "a thaw skips only with DPM_FLAG_SMART_SUSPEND" :
			   "a resume skips only with DPM_FLAG_MAY_SKIP_RESUME, or with DPM_FLAG_SMART_SUSPEND after a suspend that aborted before its noirq suspend and after its late suspend was skipped");
	st[dev].kept = true;
	/* Left in suspend for good: from here on it is runtime PM's, as a
	 * direct-complete device is. */
	if (p == PH_RESUME)
		st[dev].lvl = 0;
	st[dev].kept_thaw = r == RESUME_THAW;
	st[dev].kept_aborted = p == PH_RESUME_EARLY && st[dev].lvl == 2 &&
			       (suspend_failed || wakeup_abort);
}

/*
 * EV_SKIP: the PM core was done with dev in phase p without calling the
 * callback it has there (docs/oracle.md, SKIP).  A device with no
 * callback counts as one whose callback took no time.
 */
/* The DPM flags let main.c skip a runtime-suspended device's driver
 * callback in the late, noirq and early phases, never its middle layer's:
 * device_suspend_late() and the others call the layer's callback when it
 * has one (goto Run) before they test dev_pm_skip_suspend() or
 * dev_pm_skip_resume(); the layer decides (the harness's skip the device,
 * as the PCI bus does, and the runtime tells it asked). */
static void check_layer_asked(int dev, enum pm_phase p, int why, long long facts)
{
	if (why != SKIP_RUNTIME_SUSPENDED || !cfg.cb_layer || !(cfg.cb_layer[dev] >> p & 1) ||
	    (p != PH_SUSPEND_LATE && p != PH_SUSPEND_NOIRQ &&
	     p != PH_RESUME_NOIRQ && p != PH_RESUME_EARLY) ||
	    (facts & (EV_SKIPF_TOLD | EV_SKIPF_LAYER_ASKED | EV_SKIPF_DIRECT_COMPLETE)) !=
	    EV_SKIPF_TOLD || st[dev].dc)
		return;
	check_fail(INV_SKIP,
		   "main.c skipped the %s of '%s' as runtime-suspended without calling its middle layer, which has a callback for it: only the driver's callback may be skipped so",
		   pm_phase_name(p), nm(dev));
}

static void do_check_skip(int dev, enum pm_phase p, int why, long long facts)
{
	struct dstate *s = &st[dev];
	int d = pm_phase_depth(p);

	pr_info("%s: %s callback skipped: %s", nm(dev), pm_phase_name(p),
		(unsigned)why >= NR_SKIP ? "?" :
		why == SKIP_RUNTIME_SUSPENDED && !pm_phase_is_suspend(p) ?
		"it stays suspended (direct_complete or the DPM flags)" :
		skip_names[why]);
	if (out_of_play(dev))
		return;
	if (why == SKIP_ABORTING)
		walk_note_stop(dev, p, false);
	if (p == PH_PREPARE || p == PH_COMPLETE) {
		if (why == SKIP_NO_CALLBACK)
			s->prepared = p == PH_PREPARE;
		return;
	}
	/* A syscore device's callbacks are syscore ops': none here, and the
	 * PM core does not order it (its resume steps skip it before they
	 * wait for the parent), so neither does the oracle. */
	if (why == SKIP_SYSCORE && s->syscore)
		return;
	if (why == SKIP_NO_CALLBACK) {
		if (pm_phase_is_suspend(p)) {
			/* Even while the transition aborts: what reports this
			 * skip saw the PM core mark the device suspended that
			 * deep (kernel/rt/events.c, judge_suspend(); a device
			 * the PM core left as it was is SKIP_ABORTING), so its
			 * parent may suspend after it. */
			check_suspend_start(dev, p);
			s->lvl = d;
		} else if (s->lvl >= d) {
			check_resume_start(dev, p);
			s->lvl = d - 1;
		}
		return;
	}
	check_layer_asked(dev, p, why, facts);
	if (pm_phase_is_suspend(p)) {
		switch (why) {
		case SKIP_RUNTIME_SUSPENDED:
			skip_suspend_rpm(dev, p);
			return;
		case SKIP_ABORTING:
			if (!(suspend_failed || wakeup_abort))
				break;
			/* device_resume_noirq() clears must_resume of a device
			 * the noirq phase did not suspend when
			 * dev_pm_skip_suspend(): its early resume leaves it in
			 * suspend (5.8 and later). */
			if (p == PH_SUSPEND_NOIRQ && s->rpm_off && !s->dc &&
			    s->lvl == 2 && cfg.dpm_flags &&
			    cfg.dpm_flags[dev] & PMF_SMART_SUSPEND &&
			    !cfg.left_skips_resume)
				s->stays_early = true;
			return;
		default:
			break;
		}
	} else {
		switch (why) {
		case SKIP_RUNTIME_SUSPENDED:
			skip_resume_rpm(dev, p);
			check_rpm_kept(dev, p, facts);
			return;
		case SKIP_NOT_SUSPENDED:
			if (s->lvl < d || s->dc)
				return;
			check_fail(INV_SKIP,
				   "'%s' skipped its %s callback as not suspended, but it was suspended (depth %d)",
				   nm(dev), pm_phase_name(p), s->lvl);
		default:
			break;
		}
	}
	check_fail(INV_SKIP, "'%s' skipped its %s callback because %s, which does not apply",
		   nm(dev), pm_phase_name(p),
		   (unsigned)why < NR_SKIP ? skip_names[why] : "?");
}

static void do_check_link(int con, int sup, bool on)
{
	for (int k = 0; k < ndlinks; k++)
		if (dlinks[k].con == con && dlinks[k].sup == sup) {
			dlinks[k].on = on;
			return;
		}
	DPM_ARRAY_PUSH(dlinks, ndlinks, dlinks_cap,
		       ((struct dlink){ con, sup, on }));
}

static void do_check_added(int dev)
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
