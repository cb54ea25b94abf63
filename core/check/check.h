/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oracle.  It watches what the PM core does (callback start and end
 * with their results, device removal, phase and transition boundaries)
 * and keeps each device's state; it knows nothing of the variant that
 * produces the events.  docs/oracle.md states every invariant precisely.
 */
#ifndef DPM_CHECK_H
#define DPM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../device/device.h"

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
	NR_INV
};

const char *inv_name(enum inv id);
int inv_parse(const char *name);	/* -1 if unknown */

struct check_config {
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
	/* The window in which no hotplug runs starts at suspend_late and
	 * ends with resume_early (else: the noirq phases only). */
	bool late_early_quiet;
};

struct check_result {
	bool violated;
	enum inv id;
	char msg[1024];
	/* Virtual time each phase took in the first transition (ns). */
	uint64_t phase_ns[NR_PHASES];
	int transitions;
};

void check_reset(const struct check_config *cfg);
const struct check_result *check_result(void);

void check_transition_begin(void);
void check_transition_end(int error);
void check_phase_begin(enum pm_phase p);
void check_phase_end(enum pm_phase p);
void check_callback_start(int dev, enum pm_phase p);
void check_callback_end(int dev, enum pm_phase p, int error);
void check_device_gone(int dev);
/* direct_complete: the device stays runtime-suspended through the
 * suspend phases (skip), and leaves that state in resume (resume). */
void check_direct_complete(int dev);
void check_direct_resume(int dev);
/* The PM core takes dev in hand in phase p (its device function starts,
 * whether or not a callback runs): at most once per phase. */
void check_device_handled(int dev, enum pm_phase p);
/* Told when the window without hotplug (suspend_noirq's start to
 * resume_noirq's end, or suspend_late's to resume_early's) opens and
 * closes. */
extern void (*check_noirq_hook)(bool open);
void check_device_freed(int dev);
/* End of run: every device's reference count is what its registration
 * state says it must be. */
void check_refs(void);
/* Teardown done: every device object must have been freed. */
void check_all_freed(void);

/* Why device dev is not where a waiter needs it, in words, for the
 * wait-for graph of a LIVENESS report. */
void check_explain(int dev, char *buf, size_t n);

/* Optional observer of the oracle's events, for trace export. */
enum check_event { CEV_START, CEV_END, CEV_VIOLATION, CEV_PHASE_BEGIN, CEV_PHASE_END };
extern void (*check_event_hook)(enum check_event ev, int dev, int phase, int err);

/* Record a violation and end the run. */
void check_fail(enum inv id, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
