// SPDX-License-Identifier: GPL-2.0-only
/*
 * Classes and outcomes of runs (explore_int.h), for checking the
 * search: a run's class hashed, sets of hashes, a run's outcome.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

uint64_t explore_outcome_event(const struct dpm_event *ev)
{
	uint64_t h = (uint64_t)(unsigned int)ev->kind;

	h = h * 0x100000001b3ULL ^ (uint64_t)(unsigned int)ev->dev;
	h = h * 0x100000001b3ULL ^ (uint64_t)(unsigned int)ev->phase;
	h = h * 0x100000001b3ULL ^ (uint64_t)(unsigned int)ev->err;
	h = h * 0x100000001b3ULL ^ (uint64_t)ev->a;
	h = h * 0x100000001b3ULL ^ (uint64_t)ev->b;
	/* splitmix64's finaliser: sums of these stay apart */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

bool explore_has_outcome(const struct explore_result *r, uint64_t h)
{
	if (!h)
		h = 1;		/* as hset_add() keeps it */
	return r->noutcomes &&
	       bsearch(&h, r->outcomes, r->noutcomes, sizeof(h), u64_cmp);
}

/* ---- classes of schedules, for checking the search ---- */

/*
 * A run's class (its Mazurkiewicz trace under the dependence above): the
 * order of its steps that always takes, among the steps whose
 * predecessors have all been taken, the one of the lowest task.  Two runs
 * are in one class exactly when that order, without the steps that touch
 * nothing (a wait that blocked), is the same.
 */
uint64_t class_hash(bool violated)
{
	int T = X.ntask;
	int *done = A.task_last;	/* steps taken, per task */
	int *next = A.firstv;		/* next step index, per task */
	static int *limit;		/* steps of the class, per task */
	static int caplimit;
	uint64_t h = 1469598103934665603ULL;
	int left = 0;

	/* A run a violation ended: the class is the violating step's causal
	 * past only.  Steps that do not happen before it could have come
	 * before it or not (another run stopped earlier); each such run
	 * shows the same violation, so they are one class. */
	const int *vl = violated && X.nev ? vc_of(X.nev - 1) : NULL;

	if (T > caplimit) {
		caplimit = T;
		limit = dpm_xrealloc(limit, (size_t)T, sizeof(int));
	}
	for (int t = 0; t < T; t++) {
		done[t] = 0;
		next[t] = -1;
		limit[t] = 0;
	}
	for (int i = 0; i < X.nev; i++) {
		const struct event *e = &X.ev[i];

		if (!vl || e->tid == X.ev[X.nev - 1].tid || vl[e->tid] > e->local) {
			limit[e->tid]++;
			left++;
		}
	}
	/* The steps of each task in order: the first, then by scanning. */
	while (left > 0) {
		int pick = -1;

		for (int t = 0; t < T && pick < 0; t++) {
			int k = next[t] + 1;

			if (done[t] >= limit[t])
				continue;
			while (k < X.nev && X.ev[k].tid != t)
				k++;
			if (k >= X.nev)
				continue;
			int *v = vc_of(k);
			bool ready = true;

			for (int u = 0; u < T && ready; u++)
				if (u != t && v[u] > done[u])
					ready = false;
			if (ready)
				pick = k;
		}
		if (pick < 0)
			return 0;	/* cannot happen: hb is acyclic */
		next[X.ev[pick].tid] = pick;
		done[X.ev[pick].tid]++;
		left--;
		if (X.ev[pick].nfp) {
			h ^= (uint64_t)X.ev[pick].tid + 1;
			h *= 1099511628211ULL;
		}
	}
	return h;
}


bool hset_add(struct hset *s, uint64_t h)
{
	if (!h)
		h = 1;
	if (2 * (s->n + 1) > s->cap) {
		struct hset t = { NULL, 0, s->cap ? 2 * s->cap : 1024 };

		t.v = dpm_xcalloc(t.cap, sizeof(uint64_t));
		for (size_t i = 0; i < s->cap; i++)
			if (s->v[i])
				hset_add(&t, s->v[i]);
		free(s->v);
		*s = t;
	}
	for (size_t i = h % s->cap;; i = (i + 1) % s->cap) {
		if (s->v[i] == h)
			return false;
		if (!s->v[i]) {
			s->v[i] = h;
			s->n++;
			return true;
		}
	}
}

