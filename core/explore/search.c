// SPDX-License-Identifier: GPL-2.0-only
/*
 * The search (explore.h, explore_int.h): modes, the loop over runs of a
 * scenario, each replayed to its branch and analysed, until no node
 * has a task left to try or the cap is reached.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

struct explore_state explore_x;


static const char *const mode_names[NR_EXPLORE_MODES] = {
	"naive", "sleep", "dpor",
};

const char *explore_mode_name(enum explore_mode m)
{
	return (unsigned)m < NR_EXPLORE_MODES ? mode_names[m] : "?";
}

int explore_mode_parse(const char *s)
{
	for (int i = 0; i < NR_EXPLORE_MODES; i++)
		if (!strcmp(s, mode_names[i]))
			return i;
	return -1;
}

bool explore_variant_visible(const struct pm_variant *v)
{
	return v->model != NULL || v->kernel_explore != NULL;
}

/* ---- the search ---- */

static void run_reset(void)
{
	X.nev = 0;
	X.naccs = 0;
	X.cur = -1;
	for (int i = 0; i < X.captask; i++) {
		X.task_nev[i] = 0;
		X.task_spawn_ev[i] = -1;
		X.task_timer[i] = false;
		X.task_take[i] = 0;
		X.task_nlocks[i] = 0;
	}
	X.nclosed = 0;
	X.step_mem = 0;
	X.ntask = 0;
	X.pending_node = -1;
	X.depth = 0;
	X.nsb = 0;
	X.blocked = false;
	X.outcome = 0;
	X.filter_from = X.branch == 0 && X.nnodes == 0 ? 0 : 1 << 30;
	fpset_clear(&X.cur_sleep);
	for (int i = 0; i < X.nnodes; i++)
		X.nodes[i].ev = -1;
	for (int i = 0; i < X.ndev_base; i++)
		X.dev_base[i] = NULL;
	X.dev_cached = -1;
}

static void keep_schedule(struct explore_result *r, enum inv id)
{
	if (r->sched[id] && r->nsched[id] <= (size_t)X.nsb)
		return;
	free(r->sched[id]);
	r->sched[id] = dpm_xrealloc(NULL, (size_t)X.nsb + 1, 1);
	memcpy(r->sched[id], X.sb, (size_t)X.nsb);
	r->nsched[id] = (size_t)X.nsb;
}

/* The node to branch at next, with its new choice; false when done. */
static bool next_branch(void)
{
	while (X.nnodes > 0) {
		struct node *nd = &X.nodes[X.nnodes - 1];

		if (!fpset_has(&nd->done, nd->chosen))
			fpset_add(&nd->done, nd->chosen, nd->chosen_fp,
				  nd->nchosen_fp);
		for (int i = 0; i < nd->nbt; i++) {
			int q = nd->bt[i];

			if (fpset_has(&nd->done, q) ||
			    (X.sleep_on && fpset_has(&nd->sleep, q)))
				continue;
			nd->chosen = q;
			nd->nchosen_fp = 0;
			X.branch = X.nnodes - 1;
			return true;
		}
		node_reset(nd);
		X.nnodes--;
	}
	return false;
}

static void search_free(void)
{
	for (int i = 0; i < X.nnodes; i++)
		node_reset(&X.nodes[i]);
	X.nnodes = 0;
	fpset_free(&X.cur_sleep);
	oracle_rel_free();
}

int explore_scenario(const struct scenario *s, const struct run_opts *o0,
		     const struct explore_opts *eo, struct explore_result *r,
		     char *err, size_t errlen)
{
#ifndef DPM_EXPLORE_FAULTS
	if (eo->brk != EXB_NONE) {
		memset(r, 0, sizeof(*r));
		snprintf(err, errlen,
			 "a planted fault needs the search built with DPM_EXPLORE_FAULTS (test_explore_faults)");
		return -1;
	}
#endif
	struct run_opts o = *o0;
	struct run_result *rr = dpm_xrealloc(NULL, 1, sizeof(*rr));
	int rc = 0;

	memset(r, 0, sizeof(*r));
	X.eo = eo;
	X.s = s;
	X.sleep_on = eo->mode != EX_NAIVE;
	X.dev_size = sizeof(struct device) +
		     (o.variant->model ? o.variant->model->dev_state_size : 0);
	{
		void *probe = malloc(1);

		X.static_ok = (const char *)probe > &end;
		free(probe);
	}
	oracle_rel_build(s);
	o.choose = choose;
	o.choose_ctx = NULL;
	o.event_hook = on_event;
	o.event_ctx = NULL;
	o.order_counters = NULL;
	o.log = false;
	struct hset classes = { 0 }, outcomes = { 0 };

	X.nnodes = 0;
	X.branch = 0;
	A.kept = false;		/* another scenario's steps */
	X.kern = !eo->opaque && o.variant->kernel_explore &&
		 o.variant->kernel_explore->locate ? o.variant->kernel_explore : NULL;
	if (X.kern) {
		if (!X.seen)
			X.seen = dpm_xcalloc(MEMSEEN, sizeof(*X.seen));
		pm_variant_explore_copy = true;
		kapi_mem_hook = on_mem;
	}
	kapi_access_hook = on_access;
	det_hook = on_det;
	for (;;) {
		/* The steps before the branch's are the last run's. */
		int keep = (r->schedules || r->blocked) && X.branch < X.nnodes &&
			   X.nodes[X.branch].ev >= 0 ? X.nodes[X.branch].ev : 0;

		run_reset();
		X.keep = X.eo->record_all ? 0 : keep;
		/* Replayed choices are the nodes' until the branch. */
		X.in_run = true;
		dpm_run(s, &o, rr);
		X.in_run = false;
		close_event();
		if (!X.nondet && X.nev < X.keep) {
			snprintf(X.nondet_msg, sizeof(X.nondet_msg),
				 "the run ended after %d steps, the one before had %d before the branch",
				 X.nev, X.keep);
			X.nondet = true;
		}
		X.keep = 0;
		if (X.nondet) {
			snprintf(err, errlen, "the engine did not replay a schedule: %s",
				 X.nondet_msg);
			X.nondet = false;
			rc = -1;
			break;
		}
		r->events += (uint64_t)X.nev;
		int first_new = X.branch < X.nnodes && X.nodes[X.branch].ev >= 0 ?
				X.nodes[X.branch].ev : 0;

		if (r->schedules == 0 && r->blocked == 0)
			first_new = 0;
		if (X.blocked) {
			r->blocked++;
		} else {
			r->schedules++;
			if (rr->violated) {
				r->violated |= 1u << rr->id;
				keep_schedule(r, rr->id);
				/* The violating step stops every other task:
				 * each one that could run before it races with
				 * it. */
				int last = X.nev - 1;
				int nd_i = last >= 0 ? X.ev[last].node : -1;

				if (nd_i >= 0) {
					struct node *nd = &X.nodes[nd_i];

					for (int i = 0; i < nd->nen; i++)
						bt_add(nd, nd->en[i]);
				}
			}
		}
		analyse(first_new);
		if (eo->classes && !X.blocked)
			hset_add(&classes, class_hash(rr->violated));
		if (eo->outcomes && !X.blocked && !rr->violated)
			hset_add(&outcomes, X.outcome);
		/* The first step of each branch taken this run. */
		for (int k = X.branch; k < X.nnodes; k++) {
			struct node *nd = &X.nodes[k];

			if (nd->ev < 0 || nd->nchosen_fp)
				continue;
			struct event *e = &X.ev[nd->ev];

			if (e->nfp + 1 > nd->capfp) {
				nd->capfp = e->nfp + 1;
				nd->chosen_fp = dpm_xrealloc(nd->chosen_fp,
							     (size_t)nd->capfp,
							     sizeof(struct acc));
			}
			memcpy(nd->chosen_fp, X.accs + e->fp,
			       sizeof(struct acc) * (size_t)e->nfp);
			nd->nchosen_fp = e->nfp;
		}
		if (eo->max_schedules && r->schedules + r->blocked >= eo->max_schedules) {
			r->capped = true;
			break;
		}
		if (!next_branch())
			break;
	}
	kapi_access_hook = NULL;
	kapi_mem_hook = NULL;
	pm_variant_explore_copy = false;
	X.kern = NULL;
	det_hook = NULL;
	r->classes = classes.n;
	free(classes.v);
	if (outcomes.n) {
		r->outcomes = dpm_xcalloc(outcomes.n, sizeof(uint64_t));
		for (size_t i = 0; i < outcomes.cap; i++)
			if (outcomes.v[i])
				r->outcomes[r->noutcomes++] = outcomes.v[i];
		qsort(r->outcomes, r->noutcomes, sizeof(uint64_t), u64_cmp);
	}
	free(outcomes.v);
	search_free();
	free(rr);
	return rc;
}

void explore_result_free(struct explore_result *r)
{
	for (int i = 0; i < NR_INV; i++)
		free(r->sched[i]);
	free(r->outcomes);
	memset(r, 0, sizeof(*r));
}
