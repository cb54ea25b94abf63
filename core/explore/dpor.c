// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reduction (explore_int.h): footprints that conflict, sleep sets
 * and the nodes' backtrack sets, and the race analysis of a run
 * (happens-before by vector clocks, source-set DPOR's races).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"

struct explore_analysis explore_a;

static bool conflict(uint8_t a, uint8_t b)
{
	return (a | b) == K_W || (a == K_W || b == K_W);
}

static bool fp_conflict(const struct acc *a, int na, const struct acc *b,
			int nb)
{
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			if (a[i].key == b[j].key && conflict(a[i].kind, b[j].kind))
				return true;
	return false;
}

void fpset_clear(struct fpset *f)
{
	f->n = 0;
	f->npool = 0;
}

void fpset_free(struct fpset *f)
{
	free(f->s);
	free(f->pool);
	memset(f, 0, sizeof(*f));
}

void fpset_add(struct fpset *f, int tid, const struct acc *a, int n)
{
	DPM_ARRAY_RESERVE(f->s, f->n, f->cap);
	while (!f->pool || f->npool + n > f->cappool) {	/* never NULL once used */
		f->cappool = f->cappool ? 2 * f->cappool : 16;
		f->pool = dpm_xrealloc(f->pool, (size_t)f->cappool, sizeof(*f->pool));
	}
	memcpy(f->pool + f->npool, a, sizeof(*a) * (size_t)n);
	f->s[f->n++] = (struct sleeper){ tid, f->npool, n };
	f->npool += n;
}

bool fpset_has(const struct fpset *f, int tid)
{
	for (int i = 0; i < f->n; i++)
		if (f->s[i].tid == tid)
			return true;
	return false;
}

void fpset_copy(struct fpset *dst, const struct fpset *src)
{
	fpset_clear(dst);
	for (int i = 0; i < src->n; i++)
		fpset_add(dst, src->s[i].tid, src->pool + src->s[i].fp,
			  src->s[i].nfp);
}

/* Drop the sleepers that step e wakes: its own task, or a conflict. */
void fpset_filter(struct fpset *f, const struct event *e)
{
	int k = 0;

	for (int i = 0; i < f->n; i++) {
		struct sleeper *sl = &f->s[i];

		if (sl->tid == e->tid ||
		    fp_conflict(f->pool + sl->fp, sl->nfp, X.accs + e->fp, e->nfp))
			continue;
		f->s[k++] = *sl;
	}
	f->n = k;
}

/* A node leaves the stack: its arrays stay for the next node there. */
void node_reset(struct node *nd)
{
	nd->ncand = nd->nen = nd->nclosed = nd->nbt = nd->nchosen_fp = 0;
	fpset_clear(&nd->done);
	fpset_clear(&nd->sleep);
}

/* A free slot on top of the stack for a node of n candidates and
 * nclosed locks, its arrays allocated (not yet pushed). */
struct node *node_slot(int n, int nclosed)
{
	DPM_ARRAY_RESERVE(X.nodes, X.nnodes, X.capnodes);
	if (X.nnodes >= X.nodes_init) {
		memset(&X.nodes[X.nnodes], 0, sizeof(X.nodes[0]));
		X.nodes_init = X.nnodes + 1;
	}
	struct node *nd = &X.nodes[X.nnodes];

	node_reset(nd);
	if (n > nd->capn) {
		nd->capn = n;
		nd->cand = dpm_xrealloc(nd->cand, (size_t)n, sizeof(int));
		nd->en = dpm_xrealloc(nd->en, (size_t)n, sizeof(int));
		nd->held = dpm_xrealloc(nd->held, (size_t)n, sizeof(int));
	}
	if (nclosed + 1 > nd->capclosed) {
		nd->capclosed = nclosed + 1;
		nd->closed_key = dpm_xrealloc(nd->closed_key, (size_t)nclosed + 1,
					      sizeof(uint64_t));
		nd->closed_ev = dpm_xrealloc(nd->closed_ev, (size_t)nclosed + 1,
					     sizeof(int));
	}
	return nd;
}

void bt_add(struct node *nd, int tid)
{
	if (int_has(nd->bt, nd->nbt, tid))
		return;
	DPM_ARRAY_PUSH(nd->bt, nd->nbt, nd->capbt, tid);
}

/* ---- race analysis ---- */

enum { UNDO_INT, UNDO_MASK, UNDO_NEW, UNDO_LAST3 };

static void undo_int(int *p)
{
	DPM_ARRAY_PUSH(A.undo, A.nundo, A.capundo,
		       ((struct undo){ p, *p, 0, UNDO_INT }));
}

/* A task's last R, A, W steps on an object, in one entry. */
static void undo_last3(int *l)
{
	DPM_ARRAY_PUSH(A.undo, A.nundo, A.capundo,
		       ((struct undo){ l, (int64_t)((uint64_t)(uint32_t)l[0] |
						    (uint64_t)(uint32_t)l[1] << 32),
				       l[2], UNDO_LAST3 }));
}

static void undo_mask(uint64_t *p)
{
	DPM_ARRAY_PUSH(A.undo, A.nundo, A.capundo,
		       ((struct undo){ p, (int64_t)*p, 0, UNDO_MASK }));
}

/* Take the objects back to before step i (entries are undone newest
 * first, so an object created later leaves its slot before any object
 * whose probe may have passed it). */
static void undo_to(int i)
{
	int stop = A.undo_from[i];

	while (A.nundo > stop) {
		struct undo *u = &A.undo[--A.nundo];

		if (u->what == UNDO_INT) {
			*(int *)u->p = (int)u->old;
		} else if (u->what == UNDO_LAST3) {
			int *l = u->p;

			l[0] = (int)(uint32_t)(uint64_t)u->old;
			l[1] = (int)(uint32_t)((uint64_t)u->old >> 32);
			l[2] = u->old2;
		} else if (u->what == UNDO_MASK) {
			*(uint64_t *)u->p = (uint64_t)u->old;
		} else {
			((struct objrec *)u->p)->last = NULL;
			A.nobj--;
		}
	}
}

static struct objrec *obj_find(uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;
	int mask = A.cap_obj - 1;

	for (int i = (int)(h >> 40) & mask;; i = (i + 1) & mask) {
		struct objrec *o = &A.obj[i];

		if (o->last && o->key == key)
			return o;
		if (!o->last) {
			DPM_ARRAY_PUSH(A.undo, A.nundo, A.capundo,
				       ((struct undo){ o, 0, 0, UNDO_NEW }));
			o->key = key;
			o->last = A.objlast + (size_t)A.nobj++ * 3 * (size_t)X.ntask;
			for (int t = 0; t < 3 * X.ntask; t++)
				o->last[t] = -1;
			o->tasks[0] = o->tasks[1] = o->tasks[2] = 0;
			o->last_disable = -1;
			return o;
		}
	}
}

/* Room for this run's analysis; whether the objects can be kept from
 * the last run's (true) or must be built from the first step. */
static bool analysis_reserve(int first_new)
{
	int T = X.ntask;
	size_t nvc = (size_t)X.nev * (size_t)T;
	bool keep = A.kept && first_new > 0 && T == A.kept_T &&
		    first_new <= A.kept_nev;

	if (nvc > (size_t)A.cap_vc) {
		A.cap_vc = (int)nvc;
		A.vc = dpm_xrealloc(A.vc, nvc, sizeof(int));
	}
	if (X.nev > A.cap_seen) {
		A.cap_seen = X.nev;
		A.seen = dpm_xrealloc(A.seen, (size_t)X.nev, sizeof(int));
	}
	if (X.nev + 1 > A.cap_undo_from) {
		A.cap_undo_from = X.nev + 1;
		A.undo_from = dpm_xrealloc(A.undo_from, (size_t)X.nev + 1,
					   sizeof(int));
	}
	if (T > A.cap_t) {
		A.cap_t = T;
		A.acc_vc = dpm_xrealloc(A.acc_vc, (size_t)T, sizeof(int));
		A.task_last = dpm_xrealloc(A.task_last, (size_t)T, sizeof(int));
		A.firstv = dpm_xrealloc(A.firstv, (size_t)T, sizeof(int));
	}
	/* At most one object per access. */
	int want = 16;

	while (want < 2 * X.naccs + 2)
		want *= 2;
	size_t nl = (size_t)(X.naccs + 1) * 3 * (size_t)T;

	/* The objects point into objlast: kept only if neither moves. */
	if (want > A.cap_obj || nl > (size_t)A.cap_objlast)
		keep = false;
	if (X.naccs * T + 1 > A.cap_cands) {
		A.cap_cands = X.naccs * T + 1;
		A.cands = dpm_xrealloc(A.cands, (size_t)A.cap_cands, sizeof(int));
		A.needed = dpm_xrealloc(A.needed, (size_t)A.cap_cands, sizeof(int));
		A.needed_acc = dpm_xrealloc(A.needed_acc, (size_t)A.cap_cands,
					    sizeof(int));
	}
	if (X.naccs + 1 > A.cap_w0) {
		A.cap_w0 = X.naccs + 1;
		A.w0 = dpm_xrealloc(A.w0, (size_t)A.cap_w0, sizeof(int));
		A.eobj = dpm_xrealloc(A.eobj, (size_t)A.cap_w0, sizeof(*A.eobj));
	}
	if (keep) {
		undo_to(first_new);
		return true;
	}
	if (want > A.cap_obj) {
		free(A.obj);
		A.cap_obj = want;
		A.obj = dpm_xcalloc((size_t)want, sizeof(*A.obj));
	} else {
		memset(A.obj, 0, sizeof(*A.obj) * (size_t)A.cap_obj);
	}
	if (nl > (size_t)A.cap_objlast) {
		A.cap_objlast = (int)nl;
		A.objlast = dpm_xrealloc(A.objlast, nl, sizeof(int));
	}
	A.nobj = 0;
	A.nundo = 0;
	return false;
}

/* Step f passes a wait on an object that step e changed while no waiter
 * could pass: f cannot come before e (kapi.h, KACC_WAKE).  Returns the
 * access of e that let f through (an index into accs), or -1. */
static int needs(int f, int e)
{
	const struct event *a = &X.ev[f], *b = &X.ev[e];

	for (int i = 0; i < a->nfp; i++) {
		const struct acc *x = &X.accs[a->fp + i];

		if (!(x->flags & F_PASS))
			continue;
		for (int j = 0; j < b->nfp; j++) {
			const struct acc *y = &X.accs[b->fp + j];

			if (y->key == x->key && (y->flags & F_WAKE))
				return b->fp + j;
		}
	}
	return -1;
}

static bool hb(int e, const int *vc)
{
	return vc[X.ev[e].tid] > X.ev[e].local;
}

static void vc_join(int *v, const int *w)
{
	for (int t = 0; t < X.ntask; t++)
		if (w[t] > v[t])
			v[t] = w[t];
}

/* Step c happens before a write the current step needed: the current
 * step cannot come before c either (its race is the closing write's). */
static bool before_needed(int c, int nneeded)
{
	for (int y = 0; y < nneeded; y++)
		if (A.needed[y] == c || hb(c, vc_of(A.needed[y])))
			return true;
	return false;
}

/* Race e before f: backtrack at e's node with an initial of
 * v = notdep(e).f, unless one is there already.  When the initials
 * could only block there, on a lock another task took before e, the
 * backtrack goes to before that lock was taken (the race is then with
 * the whole critical section). */
static void race(int e, int f)
{
	int nd_i = X.ev[e].node;

	if (nd_i < 0) {
		A.nonrev++;	/* no other task could run: f needs e */
		return;
	}
	struct node *nd = &X.nodes[nd_i];
	int T = X.ntask;
	int hoist = -1;

	/* f, or a step of its task that must come before it (one not
	 * after e), holds a mutex that another task held before e and
	 * still holds there: f can come first only before that task took
	 * it. */
	for (int j = e + 1; j <= f; j++) {
		if (X.ev[j].tid != X.ev[f].tid || (j < f && hb(e, vc_of(j))))
			continue;
		for (int l = 0; l < X.ev[j].nlocks; l++)
			for (int c = 0; c < nd->nclosed; c++) {
				int a = nd->closed_ev[c];

				if (nd->closed_key[c] == X.ev[j].locks[l] && a >= 0 &&
				    a < e && X.ev[a].tid != X.ev[f].tid &&
				    (hoist < 0 || a < hoist))
					hoist = a;
			}
	}
	if (hoist >= 0) {
		race(hoist, f);
		return;
	}
	for (int t = 0; t < T; t++)
		A.firstv[t] = -1;
	int pick = -1;
	bool have = false;

	for (int j = e + 1; j <= f && !have; j++) {
		int *vj = vc_of(j);
		int t = X.ev[j].tid;

		if (j < f && hb(e, vj))
			continue;	/* happens after e: not in v */
		if (A.firstv[t] >= 0)
			continue;
		bool initial = true;

		for (int u = 0; u < T && initial; u++)
			if (A.firstv[u] >= 0 && vj[u] > A.firstv[u])
				initial = false;
		A.firstv[t] = X.ev[j].local;
		if (!initial)
			continue;
		if (int_has(nd->bt, nd->nbt, t))
			have = true;
		else if (pick < 0 && int_has(nd->en, nd->nen, t))
			pick = t;
		for (int c = 0; c < nd->ncand; c++)
			if (nd->cand[c] == t && nd->held[c] >= 0 &&
			    nd->held[c] < e && nd->held[c] > hoist)
				hoist = nd->held[c];
	}
	if (have)
		return;
	if (pick >= 0) {
		if (!EXPLORE_BREAK(EXB_NO_RACE))
			bt_add(nd, pick);
		return;
	}
	if (hoist >= 0) {
		race(hoist, f);
		return;
	}
	A.nonrev++;	/* the initials could not run there */
}

/* Task t's latest step on o that conflicts with an access of this kind,
 * or -1. */
static int latest_conflict(const struct objrec *o, int t, uint8_t kind)
{
	const int *l = o->last + 3 * t;
	/* A read conflicts with counts and writes, a count with reads and
	 * writes, a write with all (conflict()). */
	int x = kind == K_R ? l[1] : kind == K_A ? l[0] : l[0] > l[1] ? l[0] : l[1];

	return x > l[2] ? x : l[2];
}

/* Happens-before of the run's steps, and its races from step first_new
 * on (earlier pairs were looked at by the run that first had them). */
void analyse(int first_new)
{
	int T = X.ntask;

	/* The steps before first_new are the last run's: their clocks
	 * and the objects as they left them are kept (undo_to()). */
	int from = analysis_reserve(first_new) ? first_new : 0;

	for (int t = 0; t < T; t++)
		A.task_last[t] = -1;
	for (int i = 0; i < from; i++)
		A.task_last[X.ev[i].tid] = i;
	for (int i = 0; i < X.nev; i++)
		A.seen[i] = -1;
	for (int i = from; i < X.nev; i++) {
		struct event *e = &X.ev[i];
		int *v = vc_of(i);

		A.undo_from[i] = A.nundo;

		if (e->barrier) {
			/* After every step so far: each task's component is
			 * its count of steps (no step knows more of a task
			 * than its latest step). */
			for (int t = 0; t < T; t++)
				v[t] = A.task_last[t] >= 0 ?
				       X.ev[A.task_last[t]].local + 1 : 0;
		} else if (A.task_last[e->tid] >= 0)
			memcpy(v, vc_of(A.task_last[e->tid]), sizeof(int) * (size_t)T);
		else if (e->spawn_ev >= 0)
			memcpy(v, vc_of(e->spawn_ev), sizeof(int) * (size_t)T);
		else
			memset(v, 0, sizeof(int) * (size_t)T);
		if (e->barrier && A.task_last[e->tid] >= 0) {
			int *p = vc_of(A.task_last[e->tid]);

			for (int t = 0; t < T; t++)
				if (p[t] > v[t])
					v[t] = p[t];
		}
		/* The latest conflicting step of each other task, per object. */
		int nc = 0;

		for (int k = 0; k < e->nfp; k++) {
			struct acc *a = &X.accs[e->fp + k];
			struct objrec *o = A.eobj[k] = obj_find(a->key);

			if (T <= 64) {
				/* Only the tasks whose steps on the object
				 * conflict with this access. */
				uint64_t m = (a->kind == K_R ? o->tasks[1] | o->tasks[2] :
					      a->kind == K_A ? o->tasks[0] | o->tasks[2] :
					      o->tasks[0] | o->tasks[1] | o->tasks[2]) &
					     ~((uint64_t)1 << e->tid);

				while (m) {
					int t = __builtin_ctzll(m), best;

					m &= m - 1;
					if ((best = latest_conflict(o, t, a->kind)) >= 0 &&
					    A.seen[best] != i) {
						A.seen[best] = i;
						A.cands[nc++] = best;
					}
				}
				continue;
			}
			for (int t = 0; t < T; t++) {
				int best;

				if (t != e->tid &&
				    (best = latest_conflict(o, t, a->kind)) >= 0 &&
				    A.seen[best] != i) {
					A.seen[best] = i;
					A.cands[nc++] = best;
				}
			}
		}
		/* Latest first: a step ordered before a later racing one is
		 * not a race of its own. */
		for (int x = 1; x < nc; x++)
			for (int y = x; y > 0 && A.cands[y] > A.cands[y - 1]; y--) {
				int tmp = A.cands[y];

				A.cands[y] = A.cands[y - 1];
				A.cands[y - 1] = tmp;
			}
		/* The writes this step needed to pass a wait (it cannot
		 * come before them, nor before anything they needed). */
		int nneeded = 0;

		for (int x = 0; x < nc; x++) {
			int c = A.cands[x], na;

			if ((x && c == A.cands[x - 1]) || hb(c, v))
				continue;
			if ((na = needs(i, c)) >= 0) {
				A.needed[nneeded] = c;
				A.needed_acc[nneeded++] = na;
			}
		}
		for (int x = 0; x < nc; x++) {
			int c = A.cands[x];

			if ((x && c == A.cands[x - 1]) || hb(c, v) ||
			    before_needed(c, nneeded))
				continue;
			if (i >= first_new && X.eo->mode == EX_DPOR)
				race(c, i);
			vc_join(v, vc_of(c));
		}
		/*
		 * A wait that passed after the write that let it through
		 * races with the write that had closed the way before (a
		 * lock, a reinit_completion()): it could have passed before
		 * that one, unless it happens after it some other way than
		 * through what the closing write led to.
		 */
		for (int x = 0; x < nneeded; x++) {
			int w0 = A.w0[A.needed_acc[x]];

			A.nonrev++;
			if (w0 < 0 || X.ev[w0].tid == e->tid || i < first_new ||
			    X.eo->mode != EX_DPOR)
				continue;
			memcpy(A.acc_vc, v, sizeof(int) * (size_t)T);
			for (int y = 0; y < nneeded; y++)
				if (y != x)
					vc_join(A.acc_vc, vc_of(A.needed[y]));
			if (!hb(w0, A.acc_vc))
				race(w0, i);
		}
		for (int x = 0; x < nneeded; x++)
			vc_join(v, vc_of(A.needed[x]));
		v[e->tid] = e->local + 1;
		for (int k = 0; k < e->nfp; k++) {
			struct acc *a = &X.accs[e->fp + k];
			struct objrec *o = A.eobj[k];

			if (a->flags & F_WAKE)
				A.w0[e->fp + k] = o->last_disable;
			if (a->flags & F_DISABLE) {
				undo_int(&o->last_disable);
				o->last_disable = i;
			}
			uint64_t bit = e->tid < 64 ? (uint64_t)1 << e->tid : 0;

			int *l = &o->last[3 * e->tid];

			undo_last3(l);
			for (int kind = 0; kind < 3; kind++) {
				if (!(kind == 0 ? a->kind & K_R : kind == 1 ?
				      a->kind & K_A : a->kind == K_W))
					continue;
				l[kind] = i;
				if ((o->tasks[kind] & bit) != bit) {
					undo_mask(&o->tasks[kind]);
					o->tasks[kind] |= bit;
				}
			}
		}
		A.task_last[e->tid] = i;
	}
	A.undo_from[X.nev] = A.nundo;
	A.kept = true;
	A.kept_nev = X.nev;
	A.kept_T = T;
}

