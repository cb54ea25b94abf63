/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oracle.  It listens to the event bus (core/event): callback start
 * and end with their results, device removal and release, phase and
 * transition boundaries, and keeps each device's state; it knows nothing
 * of the variant that produces the events and nothing in the model asks
 * it anything.  docs/oracle.md states every invariant precisely.
 */
#ifndef DPM_ORACLE_H
#define DPM_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../event/event.h"

enum inv {
	INV_SUSPEND_AFTER_CHILDREN,
	INV_RESUME_AFTER_PARENT,
	INV_ONCE,
	INV_ROLLBACK,
	INV_REMOVED,
	INV_LIVENESS,
	INV_PHASE_BARRIER,
	INV_SYNC_ORDER,
	INV_REFS,
	INV_SLEEP_COMPLETE,
	INV_SKIP,
	INV_WAKEUP,
	INV_STATS,
	INV_CALLBACK,
	INV_RUNTIME_PM,
	INV_LOCKS,
	NR_INV_BUILTIN
};
/* Room for invariant IDs: the built-in ones and those the table adds
 * (core/oracle/table.c, oracle_ninvariants). */
#define NR_INV 32

const char *inv_name(enum inv id);
int inv_parse(const char *name);	/* -1 if unknown */

struct oracle_config {
	int ndev;
	const int *parent;	/* scenario tree: parent id or -1 */
	const char *const *names;
	bool async_possible;	/* some device may run async at all */
	bool pm_trace;		/* resume phases must run synchronously */
	/* Device links, supplier -> consumer: ordered like parent -> child. */
	int nlinks;
	const int *link_sup, *link_con;
	/* Per device: may skip its callbacks (direct_complete); NULL: none. */
	const bool *may_direct_complete;
	/* Per device: the device its driver waits for with
	 * device_pm_wait_for_dev() (pm_wait_applies()), or -1; NULL: none. */
	const int *pm_wait;
	/* The kernel variants (all NULL or 0 for the models).  Per device:
	 * not on dpm_list (it needs no PM); a syscore device (on the list,
	 * its callbacks left to syscore ops); registered during the run
	 * (EV_ADDED); its DPM driver flags (PMF_*). */
	const bool *exempt;
	const bool *syscore;
	const bool *late;
	const unsigned int *dpm_flags;
	/* Per device: a wakeup source, enabled (device_may_wakeup()); NULL:
	 * none (the kernel variants with wake-up support). */
	const bool *wakeup;
	/* Per device: its suspend_late callback calls
	 * device_set_wakeup_path() (NULL: none). */
	const bool *wakeup_late;
	/* Every link of the scenario, whatever its flags and state (the
	 * kernel variants; 0: none): supplier and consumer of each.  A
	 * consumer's suspend clears its suppliers' direct_complete over
	 * every link it has, a DORMANT one too. */
	int nscn_links;
	const int *scn_link_sup, *scn_link_con;
	/* The transition's events: direct_complete is allowed (suspend to
	 * RAM or idle: PM_EVENT_SUSPEND), and which resume follows a
	 * suspend that went through, one that failed, and one a wake-up
	 * aborted (resume/recover: plain; thaw; restore). */
	bool dc_forbidden;
	enum oracle_resume { RESUME_PLAIN, RESUME_THAW, RESUME_RESTORE }
		resume, resume_failed, resume_woken;
	/* A device the DPM flags leave in suspend skips its resume callback
	 * as well as the noirq and early ones, and may-skip-resume applies
	 * to a thaw too (DPM_FLAG_LEAVE_SUSPENDED, before 5.8); otherwise
	 * only direct_complete skips a resume, and a thaw skips only with
	 * smart suspend. */
	bool left_skips_resume;
	/* What a kernel tree's known finding shows, accepted (ORACLE_TOL_*:
	 * the knobs of struct knob.tolerates that are on). */
	unsigned int tolerate;
	/* main.c records failures in suspend_stats (STATS: every kernel
	 * tree does; the models do not), and per device whether it may
	 * run its steps in an async job (NULL: none may).  A tree before
	 * 7839d0078e0d records an async job's resume failure nowhere, so
	 * STATS asks the resume phases to record only the failures of
	 * devices that run in the walk itself. */
	bool stats;
	const bool *may_async;
	/* CALLBACK (the kernel variants; NULL: no check): per device, bit p
	 * when phase p's callback is its middle layer's (cb_layer) or its
	 * driver's (cb_driver), by the kernel's order of lookup. */
	const unsigned int *cb_layer, *cb_driver;
	/* SKIP, the walk's stop (the kernel variants under the runtime,
	 * whose events come from the task that does them): a suspend walk
	 * stops at the first failure or abort of a device it runs itself
	 * (one that may_async says cannot run in an async job). */
	bool walk_stops;
};

/* KV-2 (docs/findings.md): after a suspend aborted before a superior's
 * noirq suspend, the superior's early resume is skipped as if it could
 * stay suspended while its subordinate resumes. */
#define ORACLE_TOL_KEPT_SUPERIOR	1u
/* KV-9 (docs/kernel.md): a thaw leaves a runtime-suspended smart-suspend
 * superior in suspend (its freeze callbacks were skipped) while a
 * subordinate whose freeze callbacks ran thaws. */
#define ORACLE_TOL_THAW_KEPT_SUPERIOR	2u
/* KV-3 (docs/kernel.md, "Findings"): a consumer over a DORMANT link, which the
 * supplier's suspend does not wait for, suspends after the supplier took
 * the direct_complete path and clears the supplier's direct_complete:
 * main.c then runs the supplier's late, noirq or resume callbacks though
 * its suspend callbacks never ran. */
#define ORACLE_TOL_DC_CLEARED		4u
/* KV-4 (docs/kernel.md, "Findings"): a synchronous device removed as a
 * resume phase begins (device_pm_remove() completes its completion,
 * then the phase's first loop re-arms it, and nobody handles it after)
 * leaves whoever waits for it hanging: the run (core/run) accepts a
 * deadlock in which a task waits for a removed device's completion. */
#define ORACLE_TOL_REARMED		8u
/* sso-must-resume (docs/findings.md): a SYNC_STATE_ONLY consumer ahead
 * of its supplier on dpm_list marks the supplier's must_resume in the
 * noirq suspend after the supplier's own step passed its must_resume on
 * to its superiors: the supplier resumes while a superior of its own,
 * which nobody marked, is left in suspend. */
#define ORACLE_TOL_LATE_MUST_RESUME	16u

/* Room for a violation's message. */
#define ORACLE_MSG_MAX 1024

struct oracle_result {
	bool violated;
	enum inv id;
	char msg[ORACLE_MSG_MAX];
	/* Known findings the run showed and a knob on waived (ORACLE_TOL_*
	 * bits), and the first one's violation as it would have read. */
	unsigned int waived;
	enum inv waived_id;
	char waived_msg[ORACLE_MSG_MAX];
	/* When and in which task the violation was seen. */
	uint64_t viol_ns;
	int viol_tid;
	/* Virtual time each phase took in the first transition (ns). */
	uint64_t phase_ns[NR_PHASES];
	int transitions;
};

/* Start judging a new run (the caller adds oracle_listener to the bus). */
void oracle_reset(const struct oracle_config *cfg);
const struct oracle_result *oracle_result(void);

/* The bus listener: every event the oracle judges. */
void oracle_listener(const struct dpm_event *ev, void *ctx);

/* A known finding a waiver knob accepts, in place of the violation of id
 * it would be (msg): the run's result names it (oracle_result()->waived)
 * and the run goes on.  False, nothing recorded, when the waiver (an
 * ORACLE_TOL_* bit) is not on. */
bool oracle_waive(unsigned int waiver, enum inv id, const char *msg);

/* The device of that name, or -1; whether it was removed (EV_GONE). */
int oracle_find(const char *name);
bool oracle_gone(int dev);

/* Why device dev is not where a waiter needs it, in words, for the
 * wait-for graph of a LIVENESS report. */
void oracle_explain(int dev, char *buf, size_t n);

#endif
