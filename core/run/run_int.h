/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What core/run's files share among themselves: the oracle's view of a
 * scenario as a variant runs it.  run.c judges a run of the det or
 * threads engine with it, judge.c a real kernel's record.
 */
#ifndef DPM_RUN_INT_H
#define DPM_RUN_INT_H

#include "run.h"

/* What the oracle needs to know of a scenario, in arrays it reads. */
struct oracle_view {
	struct oracle_config cfg;
	int *parent, *link_sup, *link_con, *pm_wait;
	const char **names;
	bool *may_dc;
	/* The kernel variants' (NULL for the models). */
	bool *exempt, *syscore, *late, *wakeup, *wakeup_late, *may_async;
	int *scn_sup, *scn_con;
	unsigned int *cb_layer, *cb_driver;
	unsigned int *dpm_flags;
};

/* The variant's features (VF_*), less those its knobs on leave out. */
unsigned int run_features(const struct run_opts *o);
/* dpm_cut() into a buffer reused from call to call. */
struct scenario *cut_to_features(const struct scenario *s, unsigned int feat);
/* s as o's variant runs it (cut to its features feat), with the
 * findings o's knobs tolerate waived (ORACLE_TOL_*). */
void oracle_view_build(struct oracle_view *v, const struct scenario *s,
		       const struct run_opts *o, unsigned int feat);
/* The oracle's verdict into r (violated, id, msg, phase times). */
void run_take_verdict(struct run_result *r);
void oracle_view_free(struct oracle_view *v);

#endif
