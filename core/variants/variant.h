/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A variant is one algorithm of drivers/base/power/main.c.  It calls only
 * kapi and the device layer, never the engine or the fuzzer: it does not
 * know whether it is being fuzzed.
 */
#ifndef DPM_VARIANT_H
#define DPM_VARIANT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../device/device.h"
#include "../scenario/scenario.h"

struct device;

/* A later kernel fix that changes the variant's behaviour; off by
 * default, so the default is the code as posted. */
struct knob {
	const char *name;
	const char *commit;	/* kernel commit that made the fix */
	const char *reason;	/* one line */
	/* A newer scheme rather than a fix: off is an older kernel, not a
	 * bug (the bug benchmark leaves it out). */
	bool feature;
	/* For the bug benchmark (bench/time-to-bug): the invariant that
	 * fires with this fix off and every other on; the feature knobs the
	 * bug needs ("" none); and who can see it: "fuzz" (the det engine),
	 * or "tsan" (a data race: dpmstress on threads under TSan). */
	const char *bug;
	const char *needs;
	const char *detector;
	/* A kernel tree's finding no kernel commit fixes yet: with the knob
	 * on, the oracle accepts what the finding shows (ORACLE_TOL_*,
	 * core/oracle/oracle.h), or the harness stands in for the fix. */
	unsigned int tolerates;
	/* The harness stands in for the fix by injecting no async
	 * allocation failure (the scenario's inline_every is ignored). */
	bool no_alloc_failures;
	/* ... by running without an async worker limit. */
	bool no_worker_limit;
	/* A kernel variant's harness stands in for the fix so
	 * (DPMK_FIX_*, kernel/kabi.h). */
	unsigned int stand_in;
	/* The run leaves these scenario features (VF_*) out, as for a
	 * variant without them. */
	unsigned int cuts;
};

/* Scenario features a variant's kernel has; the run leaves out the
 * others (docs/scenario.md says what each means). */
enum {
	VF_LINKS = 1 << 0,		/* device links: suppliers, consumers */
	VF_DIRECT_COMPLETE = 1 << 1,	/* rpm-suspended devices may skip */
	VF_PM_WAIT = 1 << 2,		/* device_pm_wait_for_dev() */
	VF_TRANSITIONS = 1 << 3,	/* s2idle, hibernation's freeze,
					 * poweroff and restore */
	VF_WAKEUP = 1 << 4,		/* wake-up events, wakeup sources */
	VF_PM_STACK = 1 << 5,		/* callback levels, DPM flags,
					 * syscore, no-driver and no-PM
					 * devices */
	VF_LATE_ADD = 1 << 6,		/* devices registered during a
					 * transition, releases that
					 * unregister */
	VF_LINK_FLAGS = 1 << 7,		/* stateless, sync-state-only ...
					 * links */
	VF_LATE_EARLY = 1 << 8,		/* the late and early phases */
	VF_SYSFS_STREQ = 1 << 9,	/* power/async read by sysfs_streq()
					 * (the seed's parser stops at the
					 * first newline) */
	VF_LEAVE_SUSPENDED = 1 << 10,	/* may-skip-resume is the DPM flag's
					 * first form, LEAVE_SUSPENDED (before
					 * 5.8): a device left in suspend
					 * skips its resume callback too */
	VF_SYSCORE_PARENTS = 1 << 11,	/* a syscore device may have
					 * children (without it, only a
					 * leaf is syscore) */
	VF_NO_PM_ASYNC = 1 << 12,	/* a device that needs no PM may
					 * be async (without it, none is) */
	VF_UNFROZEN_REMOVAL = 1 << 13,	/* a hotplug task that is not
					 * frozen removes devices in the
					 * late/noirq window */
	VF_NO_PM_PARENTS = 1 << 14,	/* a device that needs no PM may
					 * have children that need PM
					 * (without it, they need none) */
	VF_SUSPEND_AGAIN = 1 << 15,	/* a platform that asks for the
					 * late and noirq phases again
					 * (suspend_again) */
};

struct scenario;
struct dpmk_tree;

/* A configuration fuzz_diff runs a variant in (docs/fuzzing.md, "fuzz_diff
 * allow-list", says why each restriction is there). */
struct diff_config {
	const char *fixes;		/* knob list, as DPMFUZZ_FIX takes */
	bool no_worker_limit;		/* A4: run without a worker limit */
};

/*
 * What a run asks of a variant.  Every call runs on a task of the
 * engine's run (the PM task unless said otherwise), except abandon().
 */
struct variant_ops {
	/* Reset the variant's state, then register the scenario's devices
	 * (registration order is list order) and links.  s has been cut
	 * to the variant's features and stays valid until the run ends. */
	void (*setup)(const struct scenario *s);
	/* One system sleep transition, cycle c: every device suspended,
	 * then resumed (or rolled back); returns the error the caller of
	 * the suspend entry point saw, 0 on success. */
	int (*transition)(int cycle);
	/* From a hotplug task: unregister the subtree at device id, unless
	 * it is gone already; unfrozen: the task is not frozen during a
	 * transition (VF_UNFROZEN_REMOVAL). */
	void (*unregister)(int id, bool unfrozen);
	/* User space writes buf to device id's power/async, and the run log
	 * says what the write returned: the store's result, or -ENODEV (not
	 * logged) when the device (its sysfs directory) is gone. */
	ssize_t (*async_store)(int id, const char *buf, size_t n);
	/* End of the run: publish every device's references (EV_REFS),
	 * unregister and drop everything, publish EV_TEARDOWN_DONE. */
	void (*teardown)(void);
	/* Outside the engine, after a run that stopped or deadlocked: free
	 * whatever is left. */
	void (*abandon)(void);
	/* Describe obj, which a blocked task waits on, in buf; NULL if it is
	 * not the variant's.  *why is set to the device whose state explains
	 * why nobody releases obj, or -1. */
	const char *(*describe)(const void *obj, char *buf, size_t n, int *why);
};

struct pm_variant {
	const char *name;
	const char *summary;		/* one line, for --list-variants */
	/* corpus/<corpus>/ holds its fuzz target's seeds, and
	 * fuzzers/<corpus>.options its libFuzzer options. */
	const char *corpus;
	unsigned int features;		/* VF_* */
	const struct knob *knobs;
	int nknobs;
	/* Knobs always on, whatever the knob list says: the scheme a
	 * variant over another's model is (modern-6.16: modern's
	 * async-early).  Never listed; accepted when named. */
	uint64_t forced;
	/* Knobs still accepted (old command lines, DPMFUZZ_FIX, scenario
	 * files) but not listed, as they belong to the variant moved_to
	 * now; naming a feature knob among them notes so on stderr, once
	 * per process.  "all" means what it did before they moved. */
	uint64_t moved;
	const char *moved_to;
	/* Its scheme deadlocks under a small worker limit (a finding,
	 * docs/findings.md#modern-3): its fuzz target, and dpmstress and
	 * dpmrepro given --variant, decode every worker limit as none, as
	 * DPMFUZZ_NO_WORKER_LIMIT=1 does, unless that variable is set
	 * (dpm_env_variant(), core/run/settings.h). */
	bool no_worker_limit;
	/* The configurations fuzz_diff runs it in, ended by one without
	 * fixes; NULL: fuzz_diff leaves it out.  diff_with names the
	 * variant whose first configuration it is compared with (NULL: it
	 * is a baseline, run only as others' partner). */
	const struct diff_config *diff;
	const char *diff_with;
	const struct variant_ops *ops;
	const struct model_ops *model;	/* the hand-written models only */
	const struct dpmk_tree *kernel;	/* the kernel variants only */
	/* The same tree built to report every load and store (its
	 * explorable copy, kernel/rt/footprint.c), for the exhaustive
	 * search; NULL when the build has none. */
	const struct dpmk_tree *kernel_explore;
};

/* dbd4bccd9662's READ_ONCE()/WRITE_ONCE() of async_error: a knob of every
 * completion-era variant. */
#define DPM_KNOB_ASYNC_ERROR_ONCE {                                             \
	"async-error-once", "dbd4bccd9662",                                   \
	"read and write async_error with READ_ONCE()/WRITE_ONCE(): no data race between the threads", \
	.bug = "data race", .needs = "", .detector = "tsan",                  \
}

/* Room for a knob list as knobs_format() writes it. */
#define KNOBS_TEXT_MAX (SCN_FIXES_MAX + 1)

extern const struct pm_variant *pm_variant;	/* of the current run */
/* Runs use a kernel variant's explorable copy (.kernel_explore) when it
 * has one: set by the exhaustive search (core/explore) around its runs. */
extern bool pm_variant_explore_copy;
extern uint64_t dpm_fixes;			/* bit i: knob i is on */

static inline bool fix_on(int knob)
{
	return dpm_fixes & (1ULL << knob);
}

/* The knobs a run of v with mask on has on: mask and v's forced ones. */
static inline uint64_t knobs_effective(const struct pm_variant *v,
				       uint64_t mask)
{
	return mask | v->forced;
}

/* Set once a moved knob has been noted (knobs_parse()); a caller whose
 * own configurations name one (fuzz_diff) sets it to stay quiet. */
extern bool knobs_moved_noted;

/* The registry: every variant of this build, in a fixed order (generated
 * from core/variants/variants.cmake and the kernel trees configured). */
extern const struct pm_variant *const pm_variants[];
extern const int pm_nvariants;

const struct pm_variant *variant_find(const char *name);
/* "seed, rwsem, ...": the names variant_find() knows, for messages. */
const char *variant_names(void);
/* One line per variant, tab-separated: name, fuzz target, corpus
 * folder, features, knobs, summary (docs/fuzzing.md). */
void variants_list(FILE *f);
/* Parse "a,b" or "all" or "" into a knob mask; -1 on an unknown name
 * (with its text in *bad).  "all" is every fix but not the feature
 * knobs, which are named ("all,async-early").  The variant's forced
 * knobs are accepted and left out of the mask (a run adds them:
 * knobs_effective()); naming a moved feature knob notes where it went
 * (struct pm_variant). */
int knobs_parse(const struct pm_variant *v, const char *spec, uint64_t *mask,
		const char **bad, size_t *badlen);
/* One line per knob, tab-separated: name, kernel commit, reason, then
 * kind (fix, feature, or waiver: a knob that tolerates a known finding),
 * bug, needs, detector (see struct knob).  The
 * variant's forced and moved knobs are not listed; needs may name a
 * forced one (the bug needs the scheme the variant always has). */
void knobs_list(const struct pm_variant *v, FILE *f);
/* Print "a,b" (or "none") for a mask, without the forced knobs. */
void knobs_format(const struct pm_variant *v, uint64_t mask, char *buf,
		  size_t n);

#endif
