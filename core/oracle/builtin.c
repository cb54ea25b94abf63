// SPDX-License-Identifier: GPL-2.0-only
/*
 * The built-in invariants' table lines (docs/oracle.md, "Invariants",
 * says each in full).  The oracle's record judges them (oracle.c,
 * kernel_rules.c, skip.c): they share its per-device state, so their
 * lines have no check, and what they read and write is the record's
 * (record_access in table.c, from which the exhaustive search derives
 * what a step touches).  Their events say which handlers judge them.
 */
#include "invariant.h"

#define BUILTIN(sym, nm, what, ev)                                           \
	const struct invariant sym = { .name = nm, .meaning = what, .events = ev }

BUILTIN(inv_suspend_after_children, "SUSPEND-AFTER-CHILDREN",
	"A device suspends, each phase, only after every subordinate in play suspended that deep.",
	EVB(EV_CB_START) | EVB(EV_CB_END) | EVB(EV_SKIP) | EVB(EV_DIRECT_COMPLETE));
BUILTIN(inv_resume_after_parent, "RESUME-AFTER-PARENT",
	"A device resumes, each phase, only after every superior in play resumed that far.",
	EVB(EV_CB_START) | EVB(EV_CB_END) | EVB(EV_SKIP) | EVB(EV_DIRECT_RESUME));
BUILTIN(inv_once, "ONCE",
	"Each callback of a device runs at most once a transition, never two at a time.",
	EVB(EV_CB_START) | EVB(EV_CB_END) | EVB(EV_HANDLED));
BUILTIN(inv_rollback, "ROLLBACK",
	"A transition ends with every device in play on and not prepared, and reports an error if and only if one happened.",
	EVB(EV_CB_START) | EVB(EV_CB_END) | EVB(EV_DIRECT_COMPLETE) |
	EVB(EV_TRANSITION_END));
BUILTIN(inv_removed, "REMOVED",
	"No callback or kernel API call touches a device that is gone, absent or freed.",
	EVB(EV_CB_START) | EVB(EV_GONE) | EVB(EV_FREED) |
	EVB(EV_USE_AFTER_FREE) | EVB(EV_RELINKED));
BUILTIN(inv_liveness, "LIVENESS",
	"Every run ends: no deadlock, no livelock.",
	0);
BUILTIN(inv_phase_barrier, "PHASE-BARRIER",
	"A phase begins after the previous one returned, and returns with none of its callbacks running.",
	EVB(EV_PHASE_BEGIN) | EVB(EV_PHASE_END) | EVB(EV_CB_START) |
	EVB(EV_DIRECT_COMPLETE) | EVB(EV_DIRECT_RESUME));
BUILTIN(inv_sync_order, "SYNC-ORDER",
	"When no device can be async, callbacks run one at a time in dpm_list order.",
	EVB(EV_CB_START) | EVB(EV_CB_END) | EVB(EV_DIRECT_COMPLETE));
BUILTIN(inv_refs, "REFS",
	"Every reference is accounted for at the end, and every device freed only once unregistered.",
	EVB(EV_REFS) | EVB(EV_FREED) | EVB(EV_TEARDOWN_DONE));
BUILTIN(inv_sleep_complete, "SLEEP-COMPLETE",
	"When the system would sleep, every device in play is suspended through noirq.",
	EVB(EV_PHASE_END));
BUILTIN(inv_skip, "SKIP",
	"A step the PM core skips is one it may skip.",
	EVB(EV_SKIP) | EVB(EV_CB_START) | EVB(EV_DIRECT_COMPLETE) |
	EVB(EV_HANDLED));
BUILTIN(inv_wakeup, "WAKEUP",
	"A wake-up device never takes direct_complete, and power.wakeup_path is set exactly where one is at or under the device.",
	EVB(EV_CB_START) | EVB(EV_DIRECT_COMPLETE) | EVB(EV_WAKEUP_ABORT));
BUILTIN(inv_stats, "STATS",
	"main.c records a failed device and step in suspend_stats if and only if one failed.",
	EVB(EV_FAILED_DEV) | EVB(EV_FAILED_STEP) | EVB(EV_CB_END) |
	EVB(EV_PHASE_END) | EVB(EV_TRANSITION_END));
BUILTIN(inv_callback, "CALLBACK",
	"main.c calls the callback the kernel's lookup chooses, never a lower layer's.",
	EVB(EV_CB_START));
BUILTIN(inv_runtime_pm, "RUNTIME-PM",
	"Runtime PM is disabled around the late and noirq callbacks, and its depth and status are kept as the kernel promises.",
	EVB(EV_RPM_STATE) | EVB(EV_CB_START) | EVB(EV_SKIP));
BUILTIN(inv_locks, "LOCKS",
	"main.c touches its lists only under dpm_list_mtx, and calls, waits and calls out only without it.",
	EVB(EV_LOCKING));
