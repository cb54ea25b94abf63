// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracle's rules that only the kernel variants' runtime tells enough
 * for (docs/oracle.md): SKIP's walk stop and direct_complete due and kept,
 * STATS, RUNTIME-PM, LOCKS, REMOVED relinked, WAKEUP and CALLBACK.  The
 * state they read is oracle_int.h's; oracle.c dispatches the events.
 */
#include "oracle_int.h"

/* SKIP, the walk's stop (the kernel variants): a suspend, late or noirq
 * walk that sees a device it runs itself fail, or skip its step because
 * the transition is aborting (async_error set: an earlier failure or a
 * wake-up), stops there (dpm_suspend()'s "if (error || async_error)
 * break;" and the same in the late and noirq walks); it takes no other
 * device in hand in that phase.  Only a device that cannot run in an
 * async job counts: a job the async code runs inline in the walk's task
 * is not checked by the walk. */
void walk_note_stop(int dev, enum pm_phase p, bool failed)
{
	if (!cfg.walk_stops || p == PH_PREPARE || !pm_phase_is_suspend(p) ||
	    (int)p != phase_active || walk_stop_dev >= 0 ||
	    (cfg.may_async && cfg.may_async[dev]) ||
	    dpm_eng->current_id() != walk_tid)
		return;
	walk_stop_dev = dev;
	walk_stop_failed = failed;
}

void check_walk_stopped(int dev, enum pm_phase p)
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
bool must_record(int dev, enum pm_phase p)
{
	if (p == PH_PREPARE || p == PH_COMPLETE)
		return false;
	return pm_phase_is_suspend(p) || !cfg.may_async || !cfg.may_async[dev];
}

void check_stats_recorded(void)
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
void do_check_failed_step(long long q)
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
void check_rpm_disabled(int dev, enum pm_phase p, long long facts)
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
void check_prepared_flag(int dev, enum pm_phase p, long long facts)
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
void check_smart_kept(int dev, enum pm_phase p, long long from)
{
	if (p != PH_SUSPEND_NOIRQ || from != EV_CB_FROM_DRIVER || !cfg.cb_layer ||
	    !st[dev].rpm_off || st[dev].dc || out_of_play(dev))
		return;
	check_fail(INV_SKIP,
		   "the driver's suspend_noirq callback of '%s' ran, but smart suspend skipped its suspend_late callback (runtime-suspended): dev_pm_skip_suspend() cannot change while runtime PM is off",
		   nm(dev));
}

/* device_suspend() calls pm_runtime_barrier() before it calls back: a
 * runtime resume request queued for the device is carried out first, so
 * its suspend callback never starts with one still queued. */
void check_rpm_request(int dev, enum pm_phase p, long long facts)
{
	if (p != PH_SUSPEND || !(facts & EV_FACT_RPM_TOLD) ||
	    !(facts & EV_FACT_RPM_RESUME_QUEUED) || out_of_play(dev))
		return;
	check_fail(INV_RUNTIME_PM,
		   "the suspend callback of '%s' started with a runtime resume request still queued: device_suspend() carries it out first (pm_runtime_barrier())",
		   nm(dev));
}

/* A device's early resume step enables its runtime PM again before it
 * completes (device_resume_early(): pm_runtime_enable(), then
 * complete_all()), so a child's early resume callback finds its
 * parent's runtime PM as deep as the transition found it: one deeper
 * only for a direct_complete parent, which device_resume() enables. */
void check_parent_rpm_enabled(int dev, enum pm_phase p, long long facts)
{
	int par = cfg.parent[dev];
	long long depth = facts >> EV_FACT_PARENT_DEPTH_SHIFT & 0xff;

	if (p != PH_RESUME_EARLY || !(facts & EV_FACT_PARENT_TOLD) || par < 0 ||
	    out_of_play(par) || st[par].rpm_depth < 0 || st[par].lvl >= 2 ||
	    depth <= st[par].rpm_depth + (st[par].dc ? 1 : 0))
		return;
	check_fail(INV_RUNTIME_PM,
		   "the resume_early callback of '%s' started while the runtime PM of its parent '%s', through its early resume, was still disabled (depth %lld, %lld as the transition began): main.c enables it before it lets the children go",
		   nm(dev), nm(par), depth, st[par].rpm_depth);
}

/* Runtime PM is off from a device's late suspend to its early resume;
 * main.c changes its runtime status there only for the DPM flags: a
 * smart-suspend device it resumes becomes active, one it leaves in
 * suspend (may-skip-resume) suspended (device_resume_noirq()).  A device
 * with neither flag starts its noirq and early resume callbacks in the
 * status its late and noirq suspend callbacks saw. */
void check_rpm_status_kept(int dev, enum pm_phase p, long long facts)
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

void do_check_rpm_state(int dev, bool end, long long depth, bool suspended)
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
	/* KV-3 leaves the disable of the direct_complete path in place: a
	 * device that took it, then was handled without it (its
	 * direct_complete cleared behind main.c's back: a later step saw
	 * it clear), ends one deeper.  Not one that kept direct_complete
	 * and was never enabled again. */
	if (s->rpm_depth >= 0 && depth != s->rpm_depth)
		check_fail_unless(s->dc && s->dc_cleared && s->dc_clearable &&
				  depth == s->rpm_depth + 1 ?
				  ORACLE_TOL_DC_CLEARED : 0, INV_RUNTIME_PM,
				  "the runtime PM of '%s' ends the transition disabled %lld times, not %lld as it began: main.c's disables and enables do not match",
				  nm(dev), depth, s->rpm_depth);
}

/*
 * What the runtime tells as a device's noirq step ends (EV_RPM_NOIRQ_*).
 * As the suspend ends: whether it is in use, which SKIP's resume rules
 * read (must_resume).  As the resume ends: a smart-suspend device whose
 * late suspend main.c skipped as runtime-suspended, and which this step
 * resumed, is made runtime-active (device_resume_noirq() calls
 * pm_runtime_set_active(); it may fail, for a supplier runtime PM
 * cannot resume, so the call is what counts).  5.8 and later.
 */
void do_check_rpm_noirq(int dev, int when, long long flags)
{
	struct dstate *s = &st[dev];
	unsigned int f = cfg.dpm_flags ? cfg.dpm_flags[dev] : 0;

	if (when == EV_RPM_NOIRQ_SUSPEND) {
		s->in_use = s->lvl == 3 &&
			    flags & (EV_RPMF_USED | EV_RPMF_ACTIVE_CHILD);
		s->mr_told = true;
		s->mr_noirq = flags & EV_RPMF_MUST_RESUME;
		return;
	}
	if (cfg.left_skips_resume || !(f & PMF_SMART_SUSPEND) || !s->rpm_off ||
	    s->dc || s->kept || !s->noirq_resumed || out_of_play(dev) ||
	    !(flags & EV_RPMF_SUSPENDED) || flags & EV_RPMF_SET_ACTIVE)
		return;
	check_fail(INV_RUNTIME_PM,
		   "main.c resumed '%s' in the noirq phase, whose late suspend smart suspend had skipped (runtime-suspended), but never made it runtime-active (pm_runtime_set_active()): it is on, and runtime PM thinks it suspended",
		   nm(dev));
}

/* main.c's device_pm_remove() tears a removed device's runtime PM down
 * (pm_runtime_remove(): disabled, and suspended, so its parent no
 * longer counts it as an active child).  Not a device that needs no PM:
 * device_pm_remove() returns at once for it. */
void do_check_rpm_removed(int dev, long long depth, long long flags)
{
	if (st[dev].exempt || (depth > 0 && flags & EV_RPMF_SUSPENDED))
		return;
	check_fail(INV_RUNTIME_PM,
		   "main.c removed '%s' (device_pm_remove()) and left its runtime PM %s: pm_runtime_remove() disables it and sets it suspended, so its parent stops counting it",
		   nm(dev), depth > 0 ? "active" : "enabled");
}

/* A device a skipped noirq or early resume leaves in suspend: its runtime
 * status suspended (runtime PM is off from the late suspend to the early
 * resume, so no one else changed it). */
void check_rpm_kept(int dev, enum pm_phase p, long long facts)
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
void do_check_locking(int dev, const char *what, long long held)
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
void do_check_relinked(int dev)
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
 * device that supplies a link (any consumer may clear it: main.c's
 * dpm_clear_superiors_direct_complete() walks every supplier link, a
 * DORMANT one too, which the runtime does not publish as ordering) or
 * whose child left play. */
void check_dc_due(int dev, enum pm_phase p, long long facts)
{
	if (p != PH_SUSPEND || !cfg.cb_layer || cfg.dc_forbidden ||
	    (facts & (EV_FACT_RPM_TOLD | EV_FACT_RPM_SUSPENDED)) !=
	    (EV_FACT_RPM_TOLD | EV_FACT_RPM_SUSPENDED) ||
	    !st[dev].prep_pos || out_of_play(dev) ||
	    (cfg.dpm_flags && cfg.dpm_flags[dev] & PMF_NO_DIRECT_COMPLETE) ||
	    (cfg.wakeup && cfg.wakeup[dev]))
		return;
	if (scn_con_start[dev] < scn_con_start[dev + 1])
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

/* dev's late callback ran, set power.wakeup_path (wakeup-path-late) and
 * returned 0 in this transition. */
static bool late_path_set(int dev)
{
	return cfg.wakeup_late[dev] && st[dev].ran >> PH_SUSPEND_LATE & 1 &&
	       st[dev].busy != PH_SUSPEND_LATE &&
	       !(st[dev].failed >> PH_SUSPEND_LATE & 1) && !st[dev].dc;
}

void check_wakeup_path(int dev, enum pm_phase p, long long facts)
{
	if (!(facts & EV_FACT_TOLD) || !cfg.wakeup ||
	    (p != PH_SUSPEND_LATE && p != PH_SUSPEND_NOIRQ))
		return;
	if (facts & EV_FACT_WAKEUP_PATH) {
		/* Only then can power.wakeup_path be set: device_suspend()
		 * sets it for a device that may wake up, a driver with
		 * wakeup-path-late in its late callback, and
		 * dpm_propagate_wakeup_to_parent() copies it up. */
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
	if (!cfg.wakeup_late)
		return;
	/* A late callback that set the device's wakeup_path and returned 0:
	 * its noirq callback finds it set, and its parent's late and noirq
	 * callbacks too (device_suspend_late() propagates it once the
	 * callback succeeded, before the parent, which waits for it, goes
	 * on). */
	if (p == PH_SUSPEND_NOIRQ && late_path_set(dev))
		check_fail(INV_WAKEUP,
			   "the suspend_noirq callback of '%s' started with power.wakeup_path clear, which its own suspend_late callback set",
			   nm(dev));
	for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
		int c = child_list[k];

		if (!is_child(c, dev) || out_of_play(c) || !late_path_set(c))
			continue;
		check_fail(INV_WAKEUP,
			   "the %s callback of '%s' started with power.wakeup_path clear, but the suspend_late callback of its child '%s' set its own and succeeded: device_suspend_late() propagates it",
			   pm_phase_name(p), nm(dev), nm(c));
		return;
	}
}

/* CALLBACK: main.c looks a phase's callback up in the device's PM
 * domain, type, class, bus (or the bus's legacy suspend/resume), the
 * first of them the device has, and in its driver only when that one has
 * none for the phase. */
void check_callback_source(int dev, enum pm_phase p, long long from)
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
void note_dc_clearers(int dev)
{
	int par = cfg.parent[dev];

	if (par >= 0 && st[par].dc)
		st[par].dc_clearable = true;
	for (int k = scn_sup_start[dev]; k < scn_sup_start[dev + 1]; k++)
		if (st[scn_sup_list[k]].dc)
			st[scn_sup_list[k]].dc_clearable = true;
}

void check_dc_kept(int dev, enum pm_phase p, long long facts)
{
	struct dstate *s = &st[dev];

	if (!s->dc || p == PH_PREPARE || p == PH_COMPLETE)
		return;
	/* KV-3 is main.c's power.direct_complete cleared behind its back,
	 * by a subordinate that ended its suspend step after the device
	 * took the path; a callback main.c runs with the flag still set,
	 * or with no such subordinate, is main.c's own doing, which no
	 * waiver covers (a start that does not tell the flag, a real
	 * kernel's, is taken for KV-3 when a subordinate could clear). */
	bool cleared = s->dc_clearable &&
		       ((facts & EV_FACT_DC_TOLD) ?
			!(facts & EV_FACT_DIRECT_COMPLETE) : true);

	if (cleared)
		s->dc_cleared = true;
	check_fail_unless(cleared ? ORACLE_TOL_DC_CLEARED : 0, INV_SKIP,
			  "the %s callback of '%s' started, but it took the direct_complete path this transition: its suspend callback never ran",
			  pm_phase_name(p), nm(dev));
}
