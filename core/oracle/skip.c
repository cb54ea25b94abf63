// SPDX-License-Identifier: GPL-2.0-only
/*
 * SKIP: each step a variant reports it skipped (EV_SKIP), judged against
 * the reasons main.c may skip it for (docs/oracle.md, "SKIP"), with what
 * a skip leaves (kept in suspend, runtime-suspended).
 */
#include "oracle_int.h"

/* A suspend-side step skipped because the device is runtime-suspended:
 * direct_complete in suspend, DPM_FLAG_SMART_SUSPEND in late and noirq. */
void skip_suspend_rpm(int dev, enum pm_phase p)
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
void skip_resume_rpm(int dev, enum pm_phase p)
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
	/* A device in use right before the system suspended (its runtime
	 * PM usage count or an active child, as its noirq suspend ended)
	 * must resume: device_suspend_noirq() sets must_resume for it,
	 * whatever its flags (5.8 and later: pm_runtime_need_not_resume()). */
	if (r == RESUME_PLAIN && p == PH_RESUME_NOIRQ && st[dev].in_use &&
	    !cfg.left_skips_resume)
		check_fail(INV_SKIP,
			   "'%s' skipped its resume_noirq callback, left in suspend, though it was in use as its noirq suspend ended (a runtime PM usage count above 1, or an active child): a device in use must resume",
			   nm(dev));
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
void check_layer_asked(int dev, enum pm_phase p, int why, long long facts)
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

void do_check_skip(int dev, enum pm_phase p, int why, long long facts)
{
	struct dstate *s = &st[dev];
	int d = pm_phase_depth(p);

	pr_info("%s: %s callback skipped: %s", nm(dev), pm_phase_name(p),
		(unsigned)why >= NR_SKIP ? "?" :
		why == SKIP_RUNTIME_SUSPENDED && !pm_phase_is_suspend(p) ?
		"it stays suspended (direct_complete or the DPM flags)" :
		skip_names[why]);
	/* A suspend step that ends without calling back still clears its
	 * superiors' direct_complete, a device out of play's too (an
	 * unbound one is still walked). */
	if (p == PH_SUSPEND && why != SKIP_ABORTING)
		note_dc_clearers(dev);
	if (out_of_play(dev))
		return;
	/* main.c's power.direct_complete cleared after the device took the
	 * path (KV-3), what RUNTIME-PM's waiver asks for: a late or noirq
	 * suspend step's facts say so, or (a real kernel's record, whose
	 * facts are not told) the step found no callback to call, where a
	 * device still in direct_complete is skipped as runtime-suspended.
	 * (A resume step's facts are not taken: main.c's direct resume,
	 * mutated, is told as a skip.) */
	if (s->dc && (p == PH_SUSPEND_LATE || p == PH_SUSPEND_NOIRQ) &&
	    (facts & EV_SKIPF_TOLD ? !(facts & EV_SKIPF_DIRECT_COMPLETE) :
				     why == SKIP_NO_CALLBACK))
		s->dc_cleared = true;
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
			if (p == PH_RESUME_NOIRQ)
				s->noirq_resumed = true;
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
