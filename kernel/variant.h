/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel tree as a registry entry (kernel/variant.c): the build writes
 * one definition per tree configured,
 *	KERNEL_VARIANT(variant_kernel_6_12_118, "kernel-6.12.118",
 *		       "drivers/base/power/main.c of ...",
 *		       dpmk_tree_6_12_118, &dpmk_tree_6_12_118_x, "modern", 0,
 *		       KERNEL_KNOB_KV2, KERNEL_KNOB_KV5);
 * the summary --list-variants prints (where the tree is, whether it is
 * Debian's as shipped, main.c's sha256); &dpmk_tree_6_12_118_x the tree's explorable copy or NULL (a build
 * without one: kernel/CMakeLists.txt); "modern" the model fuzz_diff compares it with, or NULL; 0 the features
 * only some trees have (VF_LEAVE_SUSPENDED); then the tree's knobs: the
 * findings no kernel commit fixes yet, and the kernel fixes the tree
 * lacks whose bug the harness can stand in for (the build reads which
 * off main.c, kernel/CMakeLists.txt).
 */
#ifndef DPMK_VARIANT_H
#define DPMK_VARIANT_H

#include "kabi.h"
#include "oracle/oracle.h"
#include "variants/variant.h"

extern const struct variant_ops kernel_variant_ops;
extern const struct diff_config kernel_diff[];

/*
 * The knobs (docs/findings.md, docs/kernel.md): off, the run shows the
 * finding; on, the oracle accepts what it shows or the harness stands in
 * for the fix (struct knob.stand_in, .no_alloc_failures), so that a
 * campaign (DPMFUZZ_FIX=all) goes on to what is not known.
 */
/* KV-1: the harness keeps SYNC_STATE_ONLY links DORMANT, so the waits
 * pass over them as the links' documentation has them serve sync_state()
 * only (7.x's main.c skips them itself). */
#define KERNEL_KNOB_KV1 { "kv1-sso-dormant", "unfixed",                        \
	"KV-1: SYNC_STATE_ONLY links stay DORMANT, so the PM core's waits pass over them as the links' documentation has them serve sync_state() only", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.stand_in = DPMK_FIX_SSO_DORMANT }
#define KERNEL_KNOB_KV2 { "kv2-kept-parent", "unfixed",                         \
	"KV-2: accept a may-skip-resume superior left in suspend by the early resume after a suspend that aborted before its noirq suspend", \
	.bug = "RESUME-AFTER-PARENT", .needs = "", .detector = "fuzz",       \
	.tolerates = ORACLE_TOL_KEPT_SUPERIOR }
#define KERNEL_KNOB_KV5 { "kv5-hold-parent", "unfixed",                         \
	"KV-5: device_del() outside the resume phases keeps the parent's reference until the device's release, so a suspend-side step never finds its parent freed", \
	.bug = "REMOVED", .needs = "", .detector = "fuzz",                   \
	.stand_in = DPMK_FIX_HOLD_PARENT }
/* Before 7839d0078e0d a job async_schedule() cannot queue runs in the
 * caller, under dpm_list_mtx in the resume walks.  The fix is in main.c
 * (async_schedule_dev_nocall(), the walk handles the device itself), so
 * the harness stands in for it by injecting no allocation failure. */
#define KERNEL_KNOB_NOCALL { "nocall", "7839d0078e0d",                         \
	"run an async job that cannot be queued outside dpm_list_mtx (here: no allocation failure)", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.no_alloc_failures = true }
/* Before 0552e05fdfea a device's async resume step waits on its parent
 * without a reference: the stand-in keeps the parent's reference of a
 * device deleted in a resume phase until the device's release. */
#define KERNEL_KNOB_RESUME_DELETED { "resume-deleted", "0552e05fdfea",         \
	"a resume step never waits on a freed parent (here: device_del() in a resume phase keeps the parent's reference until the device's release)", \
	.bug = "REMOVED", .needs = "", .detector = "fuzz",                   \
	.stand_in = DPMK_FIX_HOLD_PARENT_RESUME }

/* KV-9: a thaw leaves a smart-suspend parent in suspend while its child,
 * whose freeze callbacks ran, thaws; accepted with the knob on. */
#define KERNEL_KNOB_KV9 { "kv9-thaw-kept-parent", "unfixed",                    \
	"KV-9: accept a runtime-suspended smart-suspend superior a thaw leaves in suspend while a subordinate thaws", \
	.bug = "RESUME-AFTER-PARENT", .needs = "", .detector = "fuzz",       \
	.tolerates = ORACLE_TOL_THAW_KEPT_SUPERIOR }
/* KV-3: a subordinate the device's suspend did not wait for (the
 * consumer of a DORMANT link) clears its direct_complete after the device
 * took it; the callbacks main.c then runs are accepted with the knob on. */
#define KERNEL_KNOB_KV3 { "kv3-dc-cleared", "unfixed",                        \
	"KV-3: accept the callbacks main.c runs on a device whose direct_complete a subordinate it did not wait for cleared after the device took it", \
	.bug = "SKIP", .needs = "", .detector = "fuzz",                      \
	.tolerates = ORACLE_TOL_DC_CLEARED }
/* KV-4: a synchronous device removed as a resume phase begins is never
 * handled, and its re-armed completion never done. */
#define KERNEL_KNOB_KV4 { "kv4-rearmed", "unfixed",                           \
	"KV-4: accept a hang on the power.completion of a device removed as a resume phase began (the phase's first loop re-armed it after device_pm_remove() completed it)", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.tolerates = ORACLE_TOL_REARMED }
/* KV-7: a new device's completion lets one waiter through; the stand-in
 * completes it for all, as complete_all() did up to 6.12. */
#define KERNEL_KNOB_KV7 { "kv7-init-complete-all", "unfixed",                   \
	"KV-7: a new device's power.completion is completed for every waiter (complete_all()), not one", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.stand_in = DPMK_FIX_INIT_COMPLETE_ALL }
/* KV-8: the 6.16+ scheme deadlocks in a bounded async pool (modern-3 on
 * the real code); the kernel's pool has 512 workers. */
#define KERNEL_KNOB_KV8 { "kv8-no-worker-limit", "unfixed",                     \
	"KV-8: no async worker limit (the 6.16+ scheme deadlocks when its blocked jobs take every worker)", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.no_worker_limit = true }

/* KV-6: the 6.16+ scheme starts a parent's async suspend from its
 * child's step without asking whether the parent needs PM at all; with the
 * knob on, no device that needs no PM is async. */
#define KERNEL_KNOB_KV6 { "kv6-no-pm-sync", "unfixed",                          \
	"KV-6: no device that needs no PM is async (the 6.16+ scheme lets a child start the async suspend of such a parent, which main.c then handles though it is on no PM list)", \
	.bug = "REMOVED", .needs = "", .detector = "fuzz",                   \
	.cuts = VF_NO_PM_ASYNC }

/* A syscore device's PM children resume before its ancestors (main.c
 * skips a syscore device before it waits for its parent), and a child
 * that waits for another device (pm-wait) while an ancestor's callback
 * unregisters it hangs (docs/findings.md, "syscore-leaves"; untriaged:
 * a kernel finding or a device tree no kernel has).  With the knob on,
 * only a leaf is syscore. */
#define KERNEL_KNOB_SYSCORE { "syscore-leaves", "unfixed",                      \
	"a syscore device has no PM children (here: a syscore device with children is an ordinary one)", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.cuts = VF_SYSCORE_PARENTS }

/* must_resume passed over a SYNC_STATE_ONLY link to a supplier that had
 * already passed its own on (docs/findings.md, "sso-must-resume";
 * untriaged): the supplier resumes while a superior of its own is left
 * in suspend.  With the knob on, the oracle accepts that. */
#define KERNEL_KNOB_SSO_MR { "sso-must-resume", "unfixed",                      \
	"accept a superior left in suspend under a device whose must_resume was set after its own noirq suspend had passed it on (a SYNC_STATE_ONLY consumer ahead of it on dpm_list)", \
	.bug = "RESUME-AFTER-PARENT", .needs = "", .detector = "fuzz",       \
	.tolerates = ORACLE_TOL_LATE_MUST_RESUME }

/* The same for a device that needs no PM: it is on no PM list, so its
 * PM children wait for nobody above it and resume before its ancestors
 * (docs/findings.md, "no-pm-leaves"; untriaged like syscore-leaves).
 * With the knob on, the children of such a device need no PM either. */
#define KERNEL_KNOB_NO_PM { "no-pm-leaves", "unfixed",                          \
	"a device that needs no PM has no PM children (here: its children need no PM either)", \
	.bug = "LIVENESS", .needs = "", .detector = "fuzz",                  \
	.cuts = VF_NO_PM_PARENTS }

#define KERNEL_VARIANT(sym, name_, summary_, tree, xtree, diff_with_, feat_, ...) \
	extern const struct dpmk_tree tree;                                 \
	static const struct knob sym##_knobs[] = { __VA_ARGS__ };           \
	const struct pm_variant sym = {                                     \
		.name = name_,                                              \
		.summary = summary_,                                        \
		.corpus = "kernel",                                         \
		.features = VF_LINKS | VF_DIRECT_COMPLETE | VF_PM_WAIT |    \
			    VF_TRANSITIONS | VF_WAKEUP | VF_PM_STACK |     \
			    VF_LATE_ADD | VF_LINK_FLAGS | VF_LATE_EARLY |   \
			    VF_SYSFS_STREQ | VF_SYSCORE_PARENTS |          \
			    VF_NO_PM_ASYNC | VF_UNFROZEN_REMOVAL |          \
			    VF_NO_PM_PARENTS | VF_SUSPEND_AGAIN | (feat_),  \
		.knobs = sym##_knobs,                                       \
		.nknobs = sizeof(sym##_knobs) / sizeof(sym##_knobs[0]),     \
		.diff = kernel_diff,                                        \
		.diff_with = diff_with_,                                    \
		.ops = &kernel_variant_ops,                                 \
		.kernel = &tree,                                            \
		.kernel_explore = (xtree),                                  \
	}

#endif
