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
};

/* Scenario features a variant's kernel has; the run leaves out the
 * others (docs/scenario.md says what each means). */
enum {
	VF_LINKS = 1 << 0,		/* device links: suppliers, consumers */
	VF_DIRECT_COMPLETE = 1 << 1,	/* rpm-suspended devices may skip */
	VF_PM_WAIT = 1 << 2,		/* device_pm_wait_for_dev() */
};

struct pm_variant {
	const char *name;
	unsigned int features;
	/* Late and early callbacks run without the device lock, relying on
	 * no hotplug then (the tasks that do it are frozen): the window
	 * without hotplug starts at suspend_late, not suspend_noirq. */
	bool late_early_quiet;
	const struct knob *knobs;
	int nknobs;
	/* Reset the variant's globals before a run. */
	void (*reset)(void);
	/* Driver-core hooks (device_initialize, device_add, device_del). */
	void (*device_pm_init)(struct device *dev);
	void (*device_pm_add)(struct device *dev);
	void (*device_pm_remove)(struct device *dev);
	/* One system sleep transition: every device suspended, then
	 * resumed (or rolled back); returns the error the caller of
	 * dpm_suspend_start()/dpm_suspend_noirq() saw, 0 on success. */
	int (*suspend_resume)(void);
	/* What drivers call (and PCI does for all its devices). */
	void (*device_enable_async_suspend)(struct device *dev, bool enable);
	/* A user-space write to the device's power/async attribute. */
	ssize_t (*async_store)(struct device *dev, const char *buf, size_t n);
	/* A driver waits for another device (VF_PM_WAIT); returns the
	 * error the kernel's function returns. */
	int (*device_pm_wait_for_dev)(struct device *sub, struct device *dev);
};

/* dbd4bccd9662's READ_ONCE()/WRITE_ONCE() of async_error: a knob of every
 * completion-era variant. */
#define DPM_KNOB_ASYNC_ERROR_ONCE {                                             \
	"async-error-once", "dbd4bccd9662",                                   \
	"read and write async_error with READ_ONCE()/WRITE_ONCE(): no data race between the threads", \
	.bug = "data race", .needs = "", .detector = "tsan",                  \
}

extern const struct pm_variant *pm_variant;	/* of the current run */
extern uint64_t dpm_fixes;			/* bit i: knob i is on */

static inline bool fix_on(int knob)
{
	return dpm_fixes & (1ULL << knob);
}

extern const struct pm_variant variant_seed;
extern const struct pm_variant variant_modern;
extern const struct pm_variant variant_rwsem;

const struct pm_variant *variant_find(const char *name);
/* "seed, rwsem, ...": the names variant_find() knows, for messages. */
const char *variant_names(void);
/* Parse "a,b" or "all" or "" into a knob mask; -1 on an unknown name
 * (with its text in *bad).  "all" is every fix but not the feature
 * knobs, which are named ("all,async-early"). */
int knobs_parse(const struct pm_variant *v, const char *spec, uint64_t *mask,
		const char **bad, size_t *badlen);
/* One line per knob, tab-separated: name, kernel commit, reason, then
 * kind (fix or feature), bug, needs, detector (see struct knob). */
void knobs_list(const struct pm_variant *v, FILE *f);
/* Print "a,b" (or "none") for a mask. */
void knobs_format(const struct pm_variant *v, uint64_t mask, char *buf,
		  size_t n);

#endif
