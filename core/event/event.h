/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the model does, as events.  The device layer and the variants
 * publish them; the oracle, the trace recorder and the fuzzers' feedback
 * listen.  Whoever publishes does not know who listens, and nothing that
 * listens changes what the model does.
 *
 * Plain C types only, and no includes: the kernel variants' code (kernel/,
 * built against the kernel shim, whose headers must never meet libc's)
 * publishes through this header too.
 */
#ifndef DPM_EVENT_H
#define DPM_EVENT_H

/* The sleep phases, in the order a full transition runs them.  A
 * hibernation's freeze, thaw, poweroff and restore callbacks count as the
 * phase in the same place (freeze_late is PH_SUSPEND_LATE, thaw_noirq is
 * PH_RESUME_NOIRQ, ...). */
enum pm_phase {
	PH_PREPARE,
	PH_SUSPEND,
	PH_SUSPEND_LATE,
	PH_SUSPEND_NOIRQ,
	PH_RESUME_NOIRQ,
	PH_RESUME_EARLY,
	PH_RESUME,
	PH_COMPLETE,
	NR_PHASES
};

const char *pm_phase_name(enum pm_phase p);

static inline int pm_phase_is_suspend(enum pm_phase p)
{
	return p <= PH_SUSPEND_NOIRQ;
}

/* How deep a suspend phase leaves a device, and how deep a resume phase
 * wants it (main.c's is_suspended 1, is_late_suspended 2,
 * is_noirq_suspended 3); 0 for prepare and complete. */
static inline int pm_phase_depth(enum pm_phase p)
{
	switch (p) {
	case PH_SUSPEND:
	case PH_RESUME:
		return 1;
	case PH_SUSPEND_LATE:
	case PH_RESUME_EARLY:
		return 2;
	case PH_SUSPEND_NOIRQ:
	case PH_RESUME_NOIRQ:
		return 3;
	default:
		return 0;
	}
}

/*
 * Whether a callback in phase p of device dev waits for device t
 * (device_pm_wait_for_dev()): suspend-side phases wait for later
 * devices, resume-side phases for earlier ones, so waits never cycle.
 */
static inline int pm_wait_applies(int dev, int t, enum pm_phase p)
{
	if (t < 0 || t == dev || p == PH_PREPARE || p == PH_COMPLETE)
		return 0;
	return pm_phase_is_suspend(p) ? t > dev : t < dev;
}

enum pm_ev_kind {
	EV_TRANSITION_BEGIN,	/* a: the cycle, from 0 */
	EV_TRANSITION_END,	/* err: what the suspend entry point reported */
	EV_PHASE_BEGIN,		/* phase; a: for a resume-side phase, 1 +
				 * enum pm_resume_kind of the event main.c
				 * resumes with, 0 if not told */
	EV_PHASE_END,		/* phase */
	EV_CB_START,		/* dev, phase: a driver callback starts; a
				 * (kernel variants, 0 otherwise): EV_FACT_*
				 * of the device's dev_pm_info as main.c left
				 * it */
	EV_CB_END,		/* dev, phase, err: it returned err */
	EV_HANDLED,		/* dev, phase: the PM core takes dev in hand */
	EV_DIRECT_COMPLETE,	/* dev: stays runtime-suspended, its suspend
				 * callbacks skipped (direct_complete) */
	EV_DIRECT_RESUME,	/* dev: leaves direct_complete in resume */
	EV_SKIP,		/* dev, phase, a: enum pm_skip: the PM core was
				 * done with dev in this phase without calling
				 * the callback it has (kernel variants) */
	EV_WAKEUP_ABORT,	/* a wake-up event made the transition abort */
	EV_GONE,		/* dev: unbound and off the PM list */
	EV_FREED,		/* dev: its last reference was dropped; a: 1
				 * if while main.c held dpm_list_mtx (kernel
				 * variants) */
	EV_USE_AFTER_FREE,	/* dev, what: an operation on its freed memory */
	EV_REFS,		/* dev, a: references it holds at the end of the
				 * run, b: how many it should hold */
	EV_TEARDOWN_DONE,	/* everything is unregistered and dropped:
				 * every device should have been freed */
	EV_ADDED,		/* dev: registered while the run goes on (a
				 * device the scenario adds late) */
	EV_LIST_POS,		/* dev, a: its place on dpm_list (a kernel
				 * variant's links reorder the list) */
	EV_UNBOUND,		/* dev: its driver was unbound (a supplier's
				 * removal unbinds its consumers), it stays
				 * registered: only a middle layer may still
				 * call back (kernel variants) */
	EV_LINK,		/* dev: a consumer, a: its supplier, b: 1 if
				 * the PM core must now order them, 0 if not
				 * (a kernel variant's device links) */
	EV_FAILED_DEV,		/* dev (-1: no device of the run has that
				 * name), phase: the phase in progress:
				 * main.c recorded dev in suspend_stats as
				 * a device that failed (dpm_save_failed_dev()) */
	EV_RPM_STATE,		/* dev: its runtime PM when the transition
				 * starts (err 0) and ends (err 1), if it
				 * is on dpm_list then, or (err
				 * EV_RPM_NOIRQ_*, phase) as its noirq
				 * suspend or resume step ends, or (err
				 * EV_RPM_REMOVED) as main.c is done
				 * removing it: a its
				 * disable_depth, b EV_RPMF_* (kernel
				 * variants) */
	EV_FAILED_STEP,		/* phase: the phase in progress, a: the
				 * phase main.c recorded in suspend_stats as
				 * the step that failed (dpm_save_failed_step();
				 * -1: a step that is no phase of main.c's) */
	EV_LOCKING,		/* dev (-1: none), phase: the phase in
				 * progress, what: what main.c did (a kernel
				 * variant's runtime tells only a breach of
				 * dpm_list_mtx's rule), a: 1 if it held
				 * dpm_list_mtx then, 0 if it did not */
	EV_RELINKED,		/* dev (-1: unknown): main.c moved a list
				 * entry that was on no list (a removed
				 * device put back on the PM lists; kernel
				 * variants) */
	EV_PM_WAIT,		/* dev, phase: its driver's callback called
				 * device_pm_wait_for_dev(), which returned
				 * err; a: the device it waited for (kernel
				 * variants) */
	EV_NOT_SET_UP,		/* dev, what: main.c used its power.completion,
				 * which init_completion() never set up
				 * (kernel variants) */
	NR_EV_KINDS
};

/* EV_RPM_STATE's err: when it was told. */
#define EV_RPM_START		0	/* the transition starts */
#define EV_RPM_END		1	/* the transition ends */
#define EV_RPM_NOIRQ_SUSPEND	2	/* the device's noirq suspend step ends */
#define EV_RPM_NOIRQ_RESUME	3	/* the device's noirq resume step ends */
#define EV_RPM_REMOVED		4	/* main.c's device_pm_remove() returned */
/* EV_RPM_STATE's b. */
#define EV_RPMF_SUSPENDED	1	/* runtime status suspended */
#define EV_RPMF_USED		2	/* usage count above 1 (the one
					 * device_prepare() takes) */
#define EV_RPMF_ACTIVE_CHILD	4	/* child count above 0, children
					 * not ignored */
#define EV_RPMF_SET_ACTIVE	8	/* main.c called pm_runtime_set_active()
					 * on it in this noirq resume */
#define EV_RPMF_MUST_RESUME	16	/* power.must_resume is set (told as
					 * the noirq suspend ends) */

/* EV_SKIP's b: what a kernel variant saw of the device when main.c was
 * done with it (kernel/kabi.h's DPMK_SKIPF_* are the same bits). */
#define EV_SKIPF_RPM_SUSPENDED	1	/* runtime status suspended */
#define EV_SKIPF_DIRECT_COMPLETE 2	/* still in direct_complete */
#define EV_SKIPF_TOLD		4	/* the two above are told */
#define EV_SKIPF_LAYER_ASKED	8	/* main.c called the device's middle
					 * layer, which skipped it (told with
					 * EV_SKIPF_TOLD) */

/* EV_CB_START's b: whose callback main.c called (kernel variants; 0:
 * not told). */
#define EV_CB_FROM_LAYER	1	/* the device's middle layer's: its PM
					 * domain's, type's, class's or bus's */
#define EV_CB_FROM_DRIVER	2	/* its driver's dev_pm_ops */
#define EV_CB_FROM_LOWER	3	/* a middle layer under its first one,
					 * which the lookup never reaches */

/* EV_CB_START's a: facts a kernel variant reads in the device's
 * dev_pm_info when the callback starts. */
#define EV_FACT_TOLD		1	/* the bits below are told */
#define EV_FACT_WAKEUP_PATH	2	/* power.wakeup_path is set */
#define EV_FACT_RPM_TOLD	4	/* the bit below is told */
#define EV_FACT_RPM_DISABLED	8	/* runtime PM is disabled
					 * (power.disable_depth > 0) */
#define EV_FACT_RPM_SUSPENDED	16	/* its runtime status is suspended
					 * (told with EV_FACT_RPM_TOLD) */
#define EV_FACT_PREP_TOLD	32	/* the bit below is told */
#define EV_FACT_PREPARED	64	/* power.is_prepared is set */
#define EV_FACT_DC_TOLD		128	/* the bit below is told */
#define EV_FACT_DIRECT_COMPLETE	256	/* power.direct_complete is set */
#define EV_FACT_PARENT_TOLD	512	/* the parent's disable_depth is told,
					 * in the bits from the shift below */
#define EV_FACT_RPM_RESUME_QUEUED 1024	/* a runtime resume request queued
					 * before the transition is still
					 * queued (told with EV_FACT_RPM_TOLD) */
#define EV_FACT_MR_TOLD		2048	/* the bit below is told */
#define EV_FACT_MUST_RESUME	4096	/* power.must_resume is set */
#define EV_FACT_PARENT_DEPTH_SHIFT 16

/* Which resume a resume-side phase does, as dev_pm_skip_resume() tells
 * them apart: PM_EVENT_THAW, PM_EVENT_RESTORE, or any other (resume,
 * recover). */
enum pm_resume_kind { PM_RESUME_PLAIN, PM_RESUME_THAW, PM_RESUME_RESTORE };

/* Why an EV_SKIP skipped (the oracle judges whether it may). */
enum pm_skip {
	SKIP_NO_CALLBACK,	/* no level of the device has one for the phase */
	SKIP_RUNTIME_SUSPENDED,	/* runtime-suspended: direct_complete, or
				 * DPM_FLAG_SMART_SUSPEND / MAY_SKIP_RESUME */
	SKIP_NOT_SUSPENDED,	/* resume side: not suspended that deep */
	SKIP_ABORTING,		/* suspend side: an error or a wake-up came first */
	SKIP_SYSCORE,		/* a syscore device: handled by syscore ops */
	NR_SKIP
};

/* The kernel's DPM driver flags (DPM_FLAG_*), as the scenario, the
 * oracle and the kernel variants' code name them. */
#define PMF_NO_DIRECT_COMPLETE	(1u << 0)
#define PMF_SMART_PREPARE	(1u << 1)
#define PMF_SMART_SUSPEND	(1u << 2)
#define PMF_MAY_SKIP_RESUME	(1u << 3)

struct dpm_event {
	int kind;		/* enum pm_ev_kind */
	int dev;		/* scenario device index, -1: none */
	int phase;		/* enum pm_phase, -1: none */
	int err;
	long long a, b;
	const char *what;
};

typedef void (*dpm_listener_fn)(const struct dpm_event *ev, void *ctx);

/* Listeners hear every event in the order they were added. */
#define DPM_MAX_LISTENERS 4
void dpm_listen(dpm_listener_fn fn, void *ctx);
void dpm_listen_none(void);
void dpm_publish(const struct dpm_event *ev);

static inline void dpm_emit(int kind, int dev, int phase, int err)
{
	struct dpm_event ev = { kind, dev, phase, err, 0, 0, 0 };

	dpm_publish(&ev);
}

#endif
