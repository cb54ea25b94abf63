// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run (explore_int.h): the det engine's hooks record its steps, and
 * its choice points, new ones chosen, the ones before the branch
 * replayed from the last run's.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

/* ---- the engine's hooks ---- */

static void task_grow(int tid)
{
	while (tid >= X.captask) {
		int old = X.captask;

		X.captask = X.captask ? 2 * X.captask : 64;
		X.task_nev = dpm_xrealloc(X.task_nev, (size_t)X.captask, sizeof(int));
		X.task_spawn_ev = dpm_xrealloc(X.task_spawn_ev, (size_t)X.captask,
					       sizeof(int));
		X.task_timer = dpm_xrealloc(X.task_timer, (size_t)X.captask,
					    sizeof(bool));
		X.task_take = dpm_xrealloc(X.task_take, (size_t)X.captask,
					   sizeof(uint64_t));
		X.task_locks = dpm_xrealloc(X.task_locks, (size_t)X.captask,
					    sizeof(*X.task_locks));
		X.task_nlocks = dpm_xrealloc(X.task_nlocks, (size_t)X.captask,
					     sizeof(int));
		for (int i = old; i < X.captask; i++) {
			X.task_nev[i] = 0;
			X.task_spawn_ev[i] = -1;
			X.task_timer[i] = false;
			X.task_take[i] = 0;
			X.task_nlocks[i] = 0;
		}
	}
	if (tid >= X.ntask)
		X.ntask = tid + 1;
}

static inline void task_reserve(int tid)
{
	if (tid >= X.captask)
		task_grow(tid);
	else if (tid >= X.ntask)
		X.ntask = tid + 1;
}
void on_det(enum det_hook_ev ev, int a, int b)
{
	if (!X.in_run)
		return;
	switch (ev) {
	case DH_RUN: {
		close_event();
		X.step_gen++;
		X.acc_gen++;	/* a new step: accslot[] empty */
		task_reserve(a);
		int local = X.task_nev[a]++, node = X.pending_node;
		int spawn_ev = local == 0 ? X.task_spawn_ev[a] : -1;
		bool barrier = X.task_timer[a];

		X.task_timer[a] = false;
		X.task_take[a] = 0;
		X.pending_node = -1;
		if (X.nev < X.keep) {
			const struct event *k = &X.ev[X.nev];

			if (k->tid == a && k->local == local && k->node == node &&
			    k->spawn_ev == spawn_ev && k->barrier == barrier) {
				/* The kept step again: its footprint is the
				 * last run's (close_event() sets X.naccs
				 * past it). */
				X.cur = X.nev++;
				if (node >= 0)
					X.nodes[node].ev = X.cur;
				break;
			}
			snprintf(X.nondet_msg, sizeof(X.nondet_msg),
				 "step %d: task %d ran, task %d on the run before",
				 X.nev, a, k->tid);
			X.nondet = true;
			X.keep = X.nev;	/* record from here; the run is void */
		}
		struct event e = {
			.tid = a, .local = local, .node = node,
			.fp = X.naccs, .nfp = 0, .spawn_ev = spawn_ev,
			.barrier = barrier, .nlocks = X.task_nlocks[a],
		};

		memcpy(e.locks, X.task_locks[a], sizeof(e.locks));
		DPM_ARRAY_PUSH(X.ev, X.nev, X.capev, e);
		X.cur = X.nev - 1;
		if (e.node >= 0) {
			X.nodes[e.node].ev = X.cur;
			if (e.node == X.branch)
				X.filter_from = X.cur;
		}
		if (X.eo->opaque)
			add_acc(KEY_OPAQUE, K_W);
		break;
	}
	case DH_SPAWN:
		task_reserve(b);
		X.task_spawn_ev[b] = X.cur;
		break;
	case DH_TIMER:
		task_reserve(a);
		X.task_timer[a] = true;
		break;
	case DH_END:
		close_event();
		X.in_run = false;
		break;
	}
}

/* ---- choosing ---- */

static int index_of(const int *ids, int n, int tid)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == tid)
			return i;
	return -1;
}

static void record_choice(int k, int idx)
{
	while (k >= X.capsb) {
		X.capsb = X.capsb ? 2 * X.capsb : 256;
		X.sb = dpm_xrealloc(X.sb, (size_t)X.capsb, 1);
	}
	X.sb[k] = (uint8_t)idx;
	X.nsb = k + 1;
}

static __attribute__((noreturn)) void stop_run(void)
{
	dpm_eng->stop();
}

int choose(void *ctx, int n, const int *ids)
{
	(void)ctx;
	int k = X.depth++;
	int prev = X.cur >= 0 ? X.ev[X.cur].tid : -1;

	/* The step that ends here may wake sleepers before anyone picks. */
	close_event();

	if (n > 255) {
		snprintf(X.nondet_msg, sizeof(X.nondet_msg),
			 "%d tasks could run at once: a schedule byte names at most 256",
			 n);
		X.nondet = true;
		stop_run();
	}
	if (k < X.nnodes) {
		struct node *nd = &X.nodes[k];

		bool same = nd->ncand == n;

		for (int i = 0; same && i < n; i++)	/* (n is small: no memcmp) */
			same = nd->cand[i] == ids[i];
		if (!same) {
			snprintf(X.nondet_msg, sizeof(X.nondet_msg),
				 "choice point %d: %d tasks could run, %d on the run that found it",
				 k, n, nd->ncand);
			X.nondet = true;
			stop_run();
		}
		if (k == X.branch && X.sleep_on) {
			fpset_copy(&X.cur_sleep, &nd->sleep);
			for (int i = 0; i < nd->done.n; i++)
				fpset_add(&X.cur_sleep, nd->done.s[i].tid,
					  nd->done.pool + nd->done.s[i].fp,
					  nd->done.s[i].nfp);
		}
		int idx = index_of(ids, n, nd->chosen);

		X.pending_node = k;
		record_choice(k, idx);
		return idx;
	}
	/* A new choice point.  Tasks whose step would only block on a taken
	 * lock are left for later, unless all are (naive: none is).  The
	 * task that ran last goes on if it can, else the first in the
	 * engine's order, skipping sleepers. */
	struct node *nd = node_slot(n, X.nclosed);
	int *en = nd->en, nen = 0;
	int *held = nd->held;

	for (int i = 0; i < n; i++) {
		held[i] = X.eo->mode == EX_NAIVE ? -1 : doomed(ids[i]);
		if (held[i] < 0)
			en[nen++] = ids[i];
	}
	if (!nen) {
		memcpy(en, ids, sizeof(int) * (size_t)n);
		nen = n;
	}
	int pick = -1;

	for (int i = 0; i < n && pick < 0; i++)
		if (ids[i] == prev && int_has(en, nen, prev) &&
		    !fpset_has(&X.cur_sleep, prev))
			pick = i;
	for (int i = 0; i < n && pick < 0; i++)
		if (int_has(en, nen, ids[i]) && !fpset_has(&X.cur_sleep, ids[i]))
			pick = i;
	if (pick < 0) {
		/* Every task that could run is asleep: an equivalent
		 * schedule was run already. */
		X.blocked = true;
		stop_run();
	}
	X.nnodes++;
	nd->ncand = n;
	memcpy(nd->cand, ids, sizeof(int) * (size_t)n);
	nd->nen = nen;
	nd->nclosed = X.nclosed;
	for (int i = 0; i < X.nclosed; i++) {
		nd->closed_key[i] = X.closed[i].key;
		nd->closed_ev[i] = X.closed[i].ev;
	}
	nd->chosen = ids[pick];
	nd->ev = -1;
	if (X.sleep_on)
		fpset_copy(&nd->sleep, &X.cur_sleep);
	if (X.eo->mode == EX_DPOR) {
		bt_add(nd, ids[pick]);
	} else {
		for (int i = 0; i < nen; i++)
			bt_add(nd, en[i]);
	}
	X.pending_node = k;
	record_choice(k, pick);
	return pick;
}

