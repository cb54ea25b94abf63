// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel variants' side of a run (struct variant_ops): the scenario
 * handed to the tree's code as kernel/kabi.h spells it, and its entry
 * points called as the run asks.  Project world: the tree's own headers
 * never meet these.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kabi.h"
#include "variant.h"
#include "kapi/kapi.h"
#include "oracle/oracle.h"
#include "scenario/scenario.h"
#include "util/xalloc.h"

/* (int): two enums, compared as the numbers they are. */
_Static_assert((int)DPMK_MEM == (int)TR_MEM && (int)DPMK_S2IDLE == (int)TR_S2IDLE &&
	       (int)DPMK_FREEZE == (int)TR_FREEZE && (int)DPMK_POWEROFF == (int)TR_POWEROFF &&
	       (int)DPMK_RESTORE == (int)TR_RESTORE, "kabi: transitions as the scenario's");
_Static_assert((int)DPMK_LVL_NONE == (int)LVL_NONE && (int)DPMK_LVL_DOMAIN == (int)LVL_DOMAIN &&
	       (int)DPMK_LVL_TYPE == (int)LVL_TYPE && (int)DPMK_LVL_CLASS == (int)LVL_CLASS &&
	       (int)DPMK_LVL_BUS == (int)LVL_BUS && (int)DPMK_LVL_LEGACY_BUS == (int)LVL_LEGACY_BUS,
	       "kabi: levels as the scenario's");
_Static_assert(DPMK_DPM_NO_DIRECT_COMPLETE == SCN_DPM_NO_DIRECT_COMPLETE &&
	       DPMK_DPM_SMART_PREPARE == SCN_DPM_SMART_PREPARE &&
	       DPMK_DPM_SMART_SUSPEND == SCN_DPM_SMART_SUSPEND &&
	       DPMK_DPM_MAY_SKIP_RESUME == SCN_DPM_MAY_SKIP_RESUME,
	       "kabi: DPM flags as the scenario's");

/* fuzz_diff: a 6.12 tree with its known findings accepted (the knobs
 * below), beside modern with every fix. */
const struct diff_config kernel_diff[] = { { .fixes = "all" }, { 0 } };

static const struct dpmk_tree *tree(void)
{
	if (pm_variant_explore_copy && pm_variant->kernel_explore)
		return pm_variant->kernel_explore;
	return pm_variant->kernel;
}

static struct dpmk_device *kdev;
static struct dpmk_link *klink;
static int kdev_cap, klink_cap;
static struct dpmk_scenario ks;

static unsigned int link_flags(unsigned int f)
{
	return (f & SCN_LINK_STATELESS ? DPMK_LINK_STATELESS : 0) |
	       (f & SCN_LINK_PM_RUNTIME ? DPMK_LINK_PM_RUNTIME : 0) |
	       (f & SCN_LINK_RPM_ACTIVE ? DPMK_LINK_RPM_ACTIVE : 0) |
	       (f & SCN_LINK_SYNC_STATE_ONLY ? DPMK_LINK_SYNC_STATE_ONLY : 0);
}

/* The harness's stand-ins for the fixes whose knobs are on. */
static unsigned int stand_ins(void)
{
	unsigned int fixes = 0;

	for (int k = 0; k < pm_variant->nknobs; k++)
		if (dpm_fixes >> k & 1)
			fixes |= pm_variant->knobs[k].stand_in;
	return fixes;
}

/* The scenario (cut to the kernel variants' features by the run) as the
 * tree's code reads it. */
static void convert(const struct scenario *s)
{
	int nlinks = 0;

	if (s->ndev > kdev_cap) {
		kdev_cap = s->ndev;
		kdev = dpm_xrealloc(kdev, (size_t)kdev_cap, sizeof(*kdev));
	}
	for (int i = 0; i < s->ndev; i++)
		nlinks += s->dev[i].nsup;
	if (nlinks > klink_cap) {
		klink_cap = nlinks;
		klink = dpm_xrealloc(klink, (size_t)klink_cap, sizeof(*klink));
	}
	nlinks = 0;
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *sd = &s->dev[i];
		const struct scn_kernel *k = &sd->k;
		struct dpmk_device *d = &kdev[i];

		memset(d, 0, sizeof(*d));
		d->name = sd->name;
		d->parent = sd->parent;
		d->flags = (sd->async || sd->pci ? DPMK_DEV_ASYNC : 0) |
			   (k->flags & SCN_NO_DRIVER ? DPMK_DEV_NO_DRIVER : 0) |
			   (k->flags & SCN_NO_PM ? DPMK_DEV_NO_PM : 0) |
			   (k->flags & SCN_SYSCORE ? DPMK_DEV_SYSCORE : 0) |
			   (k->flags & SCN_WAKEUP ? DPMK_DEV_WAKEUP : 0) |
			   (k->flags & SCN_WAKEUP_PATH_LATE ? DPMK_DEV_WAKEUP_PATH_LATE : 0) |
			   (k->flags & SCN_RPM_RESUME_PENDING ? DPMK_DEV_RPM_RESUME_PENDING : 0) |
			   (k->flags & SCN_RPM_RESUME_RACING ? DPMK_DEV_RPM_RESUME_RACING : 0) |
			   (sd->beh.rpm_suspended ?
			    DPMK_DEV_RPM_SUSPENDED | DPMK_DEV_PREPARE_POS : 0) |
			   (k->late_phase >= 0 ? DPMK_DEV_LATE : 0);
		d->dpm_flags = k->dpm_flags;
		d->level = k->level;
		d->level_phases = k->level_cbs;
		d->driver_phases = k->driver_cbs;
		memcpy(d->dur_us, sd->beh.dur_us, sizeof(d->dur_us));
		memcpy(d->err, sd->beh.err, sizeof(d->err));
		d->remove_phase = sd->beh.remove_phase;
		d->remove_target = sd->beh.remove_target;
		d->add_phase = -1;
		d->add_target = -1;
		d->pm_wait_for = sd->beh.pm_wait_for - 1;
		d->release_unregisters = k->release_unregisters;
		for (int j = 0; j < sd->nsup; j++)
			klink[nlinks++] = (struct dpmk_link){
				sd->sup[j], i, link_flags(k->link_flags[j]) };
	}
	/* A late device is its parent's to register (one per parent). */
	for (int i = 0; i < s->ndev; i++)
		if (s->dev[i].k.late_phase >= 0) {
			kdev[s->dev[i].parent].add_phase = s->dev[i].k.late_phase;
			kdev[s->dev[i].parent].add_target = i;
		}
	ks = (struct dpmk_scenario){
		.transition = s->transition,
		.fixes = stand_ins(),
		.pm_async = s->pm_async,
		.pm_trace = s->pm_trace,
		.wakeup_at_us = s->wakeup_at_us,
		.suspend_again = s->suspend_again,
		.ndev = s->ndev,
		.dev = kdev,
		.nlinks = nlinks,
		.link = klink,
	};
}

static void kernel_setup(const struct scenario *s)
{
	char why[128];
	int err;

	convert(s);
	dpmk_host_check_mutant(tree());
	err = tree()->setup(&ks);
	if (err) {
		snprintf(why, sizeof(why),
			 "kernel %s refused the scenario (%d): the run's cut let through what kernel/rt does not take",
			 tree()->version, err);
		kapi_bug(why);
	}
}

static int kernel_transition(int cycle)
{
	return tree()->cycle(cycle);
}

static void kernel_unregister(int id, bool unfrozen)
{
	tree()->unregister(id, unfrozen);
}

static ssize_t kernel_async_store(int id, const char *buf, size_t n)
{
	long r = tree()->async_store(id, buf, n);

	if (r != -ENODEV)
		pr_info("echo > %s/power/async: %ld", ks.dev[id].name, r);
	return r;
}

static void kernel_teardown(void)
{
	tree()->teardown();
}

static void kernel_abandon(void)
{
	tree()->abandon();
}

static const char *kernel_describe(const void *obj, char *buf, size_t n,
				   int *why)
{
	*why = -1;
	return tree()->describe(obj, buf, n) > 0 ? buf : NULL;
}

const struct variant_ops kernel_variant_ops = {
	.setup = kernel_setup,
	.transition = kernel_transition,
	.unregister = kernel_unregister,
	.async_store = kernel_async_store,
	.teardown = kernel_teardown,
	.abandon = kernel_abandon,
	.describe = kernel_describe,
};
