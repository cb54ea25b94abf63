// SPDX-License-Identifier: GPL-2.0-only
/*
 * What main.c does, as events on dpmfuzz's bus (core/event/event.h).
 *
 * Sources, all of them calls main.c makes anyway:
 *   - trace_suspend_resume() with a phase function's name: EV_PHASE_BEGIN
 *     and EV_PHASE_END.  A phase rolled back from inside another (a failed
 *     dpm_suspend_late() calls dpm_resume_early() before its own end
 *     trace) ends when the next one begins; its late end trace is ignored.
 *   - TRACE_DEVICE(dev) at the top of every device_suspend*() and
 *     device_resume*(), and trace_device_pm_callback_start() with an empty
 *     info around device_prepare()/device_complete(): EV_HANDLED.
 *   - complete_all(&dev->power.completion) at the end of every
 *     device_suspend*()/device_resume*(): the moment main.c is done with
 *     the device in the phase.  If the device's callback did not run (the
 *     callbacks tell, kernel/rt/callbacks.c), the runtime says why, from
 *     its own state (and, on the suspend side, main.c's is_*suspended
 *     flags: see suspended_that_deep()): EV_SKIP with enum pm_skip, or
 *     EV_DIRECT_COMPLETE / EV_DIRECT_RESUME for the direct_complete path.
 * The direct_complete path is recognised by what it does to runtime PM:
 * in device_suspend() main.c disables runtime PM of the device only to
 * take that path, and in device_resume() enables it only to leave it; the
 * runtime sees both (kernel/rt/runtime.c) while the device is in hand.
 */
#include <trace/events/power.h>
#include <linux/pm-trace.h>

#include "rt.h"

static const char *const phase_fn[NR_PHASES] = {
	"dpm_prepare", "dpm_suspend", "dpm_suspend_late", "dpm_suspend_noirq",
	"dpm_resume_noirq", "dpm_resume_early", "dpm_resume", "dpm_complete",
};

/* The task handling each device in the phase in progress.  Indexed
 * like dpmk_run.dev. */
static int *handler_task;
/* When each device was taken in hand (a rising count), 0 once main.c is
 * done with it: what a task is doing, for reports (dpmk_in_hand_now()). */
static long long *hand_seq;
static long long hand_next;

void dpmk_emit(int kind, int dev, int phase, int err, long long a, long long b,
	       const char *what)
{
	struct dpm_event ev = { kind, dev, phase, err, a, b, what };

	dpm_publish(&ev);
}

void dpmk_events_reset(void)
{
	free(handler_task);
	handler_task = calloc(dpmk_run.ndev ? dpmk_run.ndev : 1, sizeof(int));
	free(hand_seq);
	hand_seq = calloc(dpmk_run.ndev ? dpmk_run.ndev : 1, sizeof(*hand_seq));
	if (!handler_task || !hand_seq)
		dpmk_host_bug("events: out of memory");
	/* Per device: the search keys them with the device (footprint.c). */
	dpmk_fp_note_array(0, handler_task, sizeof(*handler_task));
	dpmk_fp_note_array(1, hand_seq, sizeof(*hand_seq));
	hand_next = 0;
	dpmk_run.phase = -1;
	dpmk_run.phase_inst = 0;
	dpmk_run.window_open = 0;
	init_completion(&dpmk_run.window_closed);
	(complete_all)(&dpmk_run.window_closed);
}

int dpmk_phase_now(void)
{
	return __atomic_load_n(&dpmk_run.phase, __ATOMIC_RELAXED);
}

/* The runtime's bookkeeping is read from other tasks (a runtime PM call
 * on a device from whichever task makes it): relaxed atomics, so they
 * neither race nor order anything for ThreadSanitizer. */
#define RD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WR(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static int phase_inst(void)
{
	return RD(dpmk_run.phase_inst);
}

static void phase_end(void)
{
	int p = dpmk_phase_now();

	if (p < 0)
		return;
	__atomic_store_n(&dpmk_run.phase, -1, __ATOMIC_RELAXED);
	dpmk_emit(EV_PHASE_END, -1, p, 0, 0, 0, NULL);
}

/*
 * Nothing but the PM task and its async jobs runs device code from the
 * start of dpm_suspend_late() to the end of dpm_resume_early(): the late
 * and noirq callbacks run without the device lock, so a removal then
 * would race with them; the kernel keeps the threads that remove devices
 * frozen by then.  A removal waits the window out before it starts, but
 * for one by a task the freezer leaves running (device_del()).
 */
static void window_set(bool open)
{
	if (open && !dpmk_run.window_open) {
		reinit_completion(&dpmk_run.window_closed);
		__atomic_store_n(&dpmk_run.window_open, 1, __ATOMIC_RELEASE);
	} else if (!open && dpmk_run.window_open) {
		__atomic_store_n(&dpmk_run.window_open, 0, __ATOMIC_RELEASE);
		(complete_all)(&dpmk_run.window_closed);
	}
}

void dpmk_phase_window_wait(void)
{
	wait_for_completion(&dpmk_run.window_closed);
}

void trace_suspend_resume(const char *action, int val, bool start)
{
	int p;

	for (p = 0; p < NR_PHASES; p++)
		if (!strcmp(action, phase_fn[p]))
			break;
	if (p == NR_PHASES)
		return;
	if (start) {
		phase_end();	/* a rollback from inside the open phase */
		WR(dpmk_run.phase_inst, dpmk_run.phase_inst + 1);
		if (p == PH_SUSPEND_LATE)
			window_set(true);
		__atomic_store_n(&dpmk_run.phase, p, __ATOMIC_RELAXED);
		/* The event it resumes with: an aborted suspend rolls back
		 * with resume_event() of its own, whatever the caller does
		 * next (dpm_suspend_late() failing in a freeze recovers). */
		dpmk_emit(EV_PHASE_BEGIN, -1, p, 0, pm_phase_is_suspend(p) ? 0 :
			  1 + (val == PM_EVENT_THAW ? PM_RESUME_THAW :
			       val == PM_EVENT_RESTORE ? PM_RESUME_RESTORE :
			       PM_RESUME_PLAIN), 0, NULL);
		return;
	}
	if (p == dpmk_phase_now())
		phase_end();
	if (p == PH_RESUME_EARLY)
		window_set(false);
}

static void handled(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);

	WR(d->handled_inst, phase_inst());
	long long seq;

	WR(handler_task[d->idx], dpmk_host_task_id());
	/* The order in which a task took its devices in hand is for reports
	 * only (dpmk_in_hand_now()): no shared state to the search. */
	DPMK_QUIET_BEGIN();
	seq = __atomic_add_fetch(&hand_next, 1, __ATOMIC_RELAXED);
	DPMK_QUIET_END();
	WR(hand_seq[d->idx], seq);
	dpmk_emit(EV_HANDLED, d->idx, dpmk_phase_now(), 0, 0, 0, NULL);
}

void dpmk_trace_device(struct device *dev)
{
	int p = dpmk_phase_now();

	if (p == PH_PREPARE || p == PH_COMPLETE || p < 0)
		return;
	handled(dev);
}

void trace_device_pm_callback_start(struct device *dev, const char *pm_ops,
				    int event)
{
	int p = dpmk_phase_now();

	/* Only dpm_prepare() and dpm_complete() pass an empty info, around
	 * the whole per-device step. */
	if (pm_ops && !pm_ops[0] && (p == PH_PREPARE || p == PH_COMPLETE))
		handled(dev);
}

/* Whether the device is in main.c's hands in this phase on this task. */
static bool in_hand(struct dpmk_dev *d)
{
	return RD(d->handled_inst) == phase_inst() &&
	       RD(d->done_inst) != phase_inst() &&
	       RD(handler_task[d->idx]) == dpmk_host_task_id();
}

static void skip(struct dpmk_dev *d, int p, int why);

/*
 * The end of a device's prepare or complete step (dpm_prepare() and
 * dpm_complete() close the pair they opened; nothing inside those steps
 * traces a callback).  A prepare that called nothing still counts for
 * the oracle: a device without PM callbacks takes direct_complete on
 * main.c's word alone (power.no_pm_callbacks).
 */
void trace_device_pm_callback_end(struct device *dev, int error)
{
	struct dpmk_dev *d = to_dpmk(dev);
	int p = dpmk_phase_now();

	if ((p != PH_PREPARE && p != PH_COMPLETE) || !in_hand(d))
		return;
	WR(d->done_inst, phase_inst());
	WR(hand_seq[d->idx], 0);
	if (d->ran_inst != phase_inst() && !error &&
	    !__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE))
		skip(d, p, d->sd->flags & DPMK_DEV_SYSCORE ? SKIP_SYSCORE :
							  SKIP_NO_CALLBACK);
}

int dpmk_in_hand_now(void)
{
	int me = dpmk_host_task_id(), best = -1;
	long long seq = 0;

	if (dpmk_phase_now() < 0 || !hand_seq)
		return -1;
	for (int i = 0; i < dpmk_run.ndev; i++)
		if (RD(handler_task[i]) == me && RD(hand_seq[i]) > seq) {
			seq = RD(hand_seq[i]);
			best = i;
		}
	return best;
}

void dpmk_rpm_disabled_hook(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);

	if (dpmk_phase_now() == PH_SUSPEND && in_hand(d))
		d->dc_mark_inst = phase_inst();
}

void dpmk_rpm_enabled_hook(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);

	if (dpmk_phase_now() == PH_SUSPEND && in_hand(d))
		d->dc_mark_inst = 0;	/* it went on with the callbacks */
	if (dpmk_phase_now() == PH_RESUME && in_hand(d))
		d->en_mark_inst = phase_inst();
}

/*
 * The complete_all() of a device's completion inside device_pm_remove()
 * is not an end of handling: the device records who removes it.  Only
 * that task's reads can find itself there (one removal per device; it
 * reads its own write), every other task finds "not me" in any order:
 * no shared state for the search (a single global here once made every
 * completion depend on every removal, and two removals at once each
 * saw the other's id).
 */
static void set_remover(struct dpmk_dev *d, int v)
{
	DPMK_QUIET_BEGIN();
	__atomic_store_n(&d->remover, v, __ATOMIC_RELAXED);
	DPMK_QUIET_END();
}

static bool removing(struct dpmk_dev *d, int me)
{
	int v;

	DPMK_QUIET_BEGIN();
	v = __atomic_load_n(&d->remover, __ATOMIC_RELAXED);
	DPMK_QUIET_END();
	return v && v == me + 1;
}

static void set_lister(struct dpmk_dev *d, int on)
{
	DPMK_QUIET_BEGIN();
	__atomic_store_n(&d->lister, on, __ATOMIC_RELAXED);
	__atomic_add_fetch(&dpmk_run.listing, on ? 1 : -1, __ATOMIC_RELAXED);
	DPMK_QUIET_END();
}

void dpmk_device_pm_add(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);

	set_lister(d, 1);
	device_pm_add(dev);
	set_lister(d, 0);
}

void dpmk_device_pm_remove(struct device *dev)
{
	struct dpmk_dev *d = to_dpmk(dev);

	set_remover(d, dpmk_host_task_id() + 1);
	set_lister(d, 1);
	device_pm_remove(dev);
	set_lister(d, 0);
	set_remover(d, 0);
}

/*
 * LOCKS: power.in_dpm_list, which device_link_add() and
 * dpm_wait_for_superior() read under dpm_list_mtx, changes with the
 * device's list entry under that lock.  As main.c lets go of the lock,
 * every device inside device_pm_add() or device_pm_remove() has it set
 * exactly when its entry is on a list.  Only the lock's holder writes
 * either.  On the det engine only: on real threads main.c's own stores
 * to other bit-fields of the same word (is_prepared, under the device
 * lock) can undo one the lock ordered, a race of the kernel's that
 * ThreadSanitizer reports.
 */
void dpmk_main_mutex_unlock(struct mutex *m)
{
	if (m == dpmk_run.list_mtx && !dpmk_spin_real &&
	    __atomic_load_n(&dpmk_run.listing, __ATOMIC_RELAXED) > 0) {
		for (int i = 0; i < dpmk_run.ndev; i++) {
			struct dpmk_dev *d = dpmk_dev_peek(i);
			bool on, flag;

			if (!d || !__atomic_load_n(&d->lister, __ATOMIC_RELAXED))
				continue;
			DPMK_QUIET_BEGIN();
			on = READ_ONCE(d->dev.power.entry.next) != &d->dev.power.entry;
			flag = d->dev.power.in_dpm_list;
			DPMK_QUIET_END();
			if (on == flag)
				continue;
			dpmk_log("main.c releases dpm_list_mtx with '%s' %s a list but in_dpm_list %s",
				 d->name, on ? "on" : "off", flag ? "set" : "clear");
			dpmk_emit(EV_LOCKING, i, dpmk_phase_now(), 0, 0, 0,
				  "sets power.in_dpm_list (device_pm_add() or device_pm_remove())");
		}
	}
	mutex_unlock(m);
}

static void skip(struct dpmk_dev *d, int p, int why)
{
	long long facts = DPMK_SKIPF_TOLD;
	bool rpm_suspended = __atomic_load_n(&d->dev.power.runtime_status,
					     __ATOMIC_RELAXED) == RPM_SUSPENDED;

	/*
	 * A device main.c leaves in suspend in the resume phase was passed
	 * over at its noirq resume (is_suspended cleared there); runtime PM
	 * has been on since its early resume ended, and anyone may have
	 * runtime-resumed it since (a child's unbind does).  Its status as
	 * main.c left it is the one at that moment.
	 */
	if (p == PH_RESUME && why == SKIP_RUNTIME_SUSPENDED && !d->in_dc)
		rpm_suspended = d->early_rpm_suspended;
	if (rpm_suspended)
		facts |= DPMK_SKIPF_RPM_SUSPENDED;
	if (d->in_dc)
		facts |= DPMK_SKIPF_DIRECT_COMPLETE;
	if (d->asked_inst == phase_inst())
		facts |= DPMK_SKIPF_LAYER_ASKED;
	dpmk_emit(EV_SKIP, d->idx, p, 0, why, facts, NULL);
}

/*
 * How deep main.c itself says d is suspended after suspend-side phase p
 * (power.is_suspended, is_late_suspended, is_noirq_suspended).  The one
 * place the runtime reads main.c's flags: without a callback to watch,
 * "skipped because the transition is aborting" and "nothing to call,
 * done" look alike from outside, and only main.c knows which check the
 * device passed before the error came.  Read under power.lock, which
 * the other writers of these bit-fields' neighbours hold.
 */
static bool suspended_that_deep(struct dpmk_dev *d, int p)
{
	struct dev_pm_info *pi = &d->dev.power;
	bool ret;

	spin_lock(&pi->lock);
	ret = p == PH_SUSPEND ? pi->is_suspended :
	      p == PH_SUSPEND_LATE ? pi->is_late_suspended : pi->is_noirq_suspended;
	spin_unlock(&pi->lock);
	return ret;
}

/* main.c is done with d in suspend-side phase p without its callback. */
static void judge_suspend(struct dpmk_dev *d, int p)
{
	const struct dpmk_device *sd = d->sd;

	if (p == PH_SUSPEND && d->dc_mark_inst == phase_inst() &&
	    __atomic_load_n(&d->dev.power.runtime_status, __ATOMIC_RELAXED) ==
		    RPM_SUSPENDED) {
		d->in_dc = true;
		d->depth = pm_phase_depth(p);
		dpmk_emit(EV_DIRECT_COMPLETE, d->idx, p, 0, 0, 0, NULL);
		return;
	}
	if (sd->flags & DPMK_DEV_SYSCORE) {
		skip(d, p, SKIP_SYSCORE);
	} else if (!suspended_that_deep(d, p)) {
		skip(d, p, d->in_dc ? SKIP_RUNTIME_SUSPENDED : SKIP_ABORTING);
	} else if ((d->in_dc = false), !dpmk_has_callback(d, p)) {
		/* (A device main.c took out of direct_complete behind its
		 * back, finding KV-3, is suspended as any other here.) */
		d->depth = pm_phase_depth(p);
		skip(d, p, SKIP_NO_CALLBACK);
	} else {
		/* The only way left: the middle layer let main.c skip it
		 * (DPM_FLAG_SMART_SUSPEND and runtime-suspended). */
		d->depth = pm_phase_depth(p);
		skip(d, p, SKIP_RUNTIME_SUSPENDED);
	}
}

static void judge_resume(struct dpmk_dev *d, int p)
{
	const struct dpmk_device *sd = d->sd;
	int want = pm_phase_depth(p);

	if (p == PH_RESUME && d->in_dc) {
		d->in_dc = false;
		if (d->en_mark_inst == phase_inst()) {
			d->depth = 0;
			dpmk_emit(EV_DIRECT_RESUME, d->idx, p, 0, 0, 0, NULL);
			return;
		}
		/* No runtime PM enable: main.c resumed it as a suspended
		 * device (its direct_complete was dropped, KV-3). */
	}
	if (sd->flags & DPMK_DEV_SYSCORE) {
		skip(d, p, SKIP_SYSCORE);
	} else if (d->in_dc) {
		skip(d, p, SKIP_RUNTIME_SUSPENDED);
	} else if (d->depth < want) {
		skip(d, p, SKIP_NOT_SUSPENDED);
	} else if (!dpmk_has_callback(d, p)) {
		d->depth = want - 1;
		skip(d, p, SKIP_NO_CALLBACK);
	} else {
		/* DPM_FLAG_MAY_SKIP_RESUME / smart suspend: left suspended. */
		d->depth = want - 1;
		skip(d, p, SKIP_RUNTIME_SUSPENDED);
	}
}

/* A callback of d for phase p ended with err (callbacks.c). */
void dpmk_callback_ended(struct dpmk_dev *d, int p, int err)
{
	if (pm_phase_is_suspend(p) && p != PH_PREPARE) {
		d->in_dc = false;	/* called: not direct-complete any more */
		if (!err)
			d->depth = pm_phase_depth(p);
	} else if (p != PH_PREPARE && p != PH_COMPLETE) {
		d->depth = pm_phase_depth(p) - 1;
	}
}

/* A device's runtime PM as main.c left it, for EV_RPM_STATE: its
 * disable depth and EV_RPMF_SUSPENDED, _USED (a usage count above the one
 * prepare took), _ACTIVE_CHILD (one it does not ignore). */
static long long rpm_snapshot(struct device *dev, int *depth)
{
	long long b = 0;

	spin_lock_irq(&dev->power.lock);
	*depth = dev->power.disable_depth;
	if (dev->power.runtime_status == RPM_SUSPENDED)
		b |= EV_RPMF_SUSPENDED;
	if (atomic_read(&dev->power.usage_count) > 1)
		b |= EV_RPMF_USED;
	if (atomic_read(&dev->power.child_count) > 0 && !dev->power.ignore_children)
		b |= EV_RPMF_ACTIVE_CHILD;
	spin_unlock_irq(&dev->power.lock);
	return b;
}

/* As a device's noirq step ends (EV_RPM_NOIRQ_SUSPEND or _RESUME): after
 * the suspend, whether it is in use, which must_resume follows, and
 * must_resume as the step passed it on to the superiors; after
 * the resume, whether main.c called pm_runtime_set_active() on it. */
static void tell_noirq_rpm(struct dpmk_dev *d, int p)
{
	int depth;
	long long b = rpm_snapshot(&d->dev, &depth);

	if (__atomic_load_n(&d->set_active_inst, __ATOMIC_RELAXED) == phase_inst())
		b |= EV_RPMF_SET_ACTIVE;
	/* main.c's own store, in this task, a moment ago: it marks the
	 * device's superiors as it leaves the step. */
	if (p == PH_SUSPEND_NOIRQ && d->dev.power.must_resume)
		b |= EV_RPMF_MUST_RESUME;
	dpmk_emit(EV_RPM_STATE, d->idx, p, p == PH_SUSPEND_NOIRQ ?
		  EV_RPM_NOIRQ_SUSPEND : EV_RPM_NOIRQ_RESUME, depth, b, NULL);
}

/* What main.c's device_pm_remove() left (its pm_runtime_remove():
 * disabled, and suspended). */
void dpmk_tell_removed_rpm(struct dpmk_dev *d)
{
	int depth;
	long long b = rpm_snapshot(&d->dev, &depth);

	dpmk_emit(EV_RPM_STATE, d->idx, dpmk_phase_now(), EV_RPM_REMOVED, depth, b, NULL);
}

void dpmk_init_completion(struct completion *x)
{
	(init_completion)(x);
	x->dpmk_set_up = 1;
}

/* x, a live device's power.completion, used by main.c (op). */
static void completion_used(struct completion *x, const char *op)
{
	struct device *dev = container_of(x, struct device, power.completion);

	if (!x->dpmk_set_up)
		dpmk_emit(EV_NOT_SET_UP, to_dpmk(dev)->idx, dpmk_phase_now(), 0, 0, 0, op);
}

void dpmk_completion_used(struct completion *x, const char *op)
{
	/* A freed device's completion: kapi reports the use after free
	 * (and its memory is poisoned: asked first). */
	if (!dpmk_is_quarantined(x, NULL))
		completion_used(x, op);
}

void dpmk_complete_all(struct completion *x)
{
	struct device *dev = container_of(x, struct device, power.completion);
	struct dpmk_dev *d = to_dpmk(dev);
	int p = dpmk_phase_now();
	int me = dpmk_host_task_id();

	/* A freed device's completion: kapi reports the use after free. */
	if (dpmk_is_quarantined(x, NULL)) {
		(complete_all)(x);
		return;
	}
	completion_used(x, "complete_all()");
	if (p > PH_PREPARE && p < PH_COMPLETE &&
	    !removing(d, me) &&
	    in_hand(d)) {
		WR(d->done_inst, phase_inst());
		WR(hand_seq[d->idx], 0);
		if (p == PH_RESUME_EARLY)
			d->early_rpm_suspended =
				__atomic_load_n(&d->dev.power.runtime_status,
						__ATOMIC_RELAXED) == RPM_SUSPENDED;
		if (d->ran_inst != phase_inst() &&
		    !__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE)) {
			if (pm_phase_is_suspend(p))
				judge_suspend(d, p);
			else
				judge_resume(d, p);
		}
		if (p == PH_SUSPEND_NOIRQ || p == PH_RESUME_NOIRQ)
			tell_noirq_rpm(d, p);
	}
	(complete_all)(x);
}
