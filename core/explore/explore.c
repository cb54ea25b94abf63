// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stateless model checking of one scenario (explore.h): a depth-first
 * search over the det engine's choices, re-running the scenario from the
 * start for every schedule.
 *
 * A run is a sequence of steps ("events"): what one task does between
 * two scheduling decisions of the engine (det_hook DH_RUN).  Each step
 * has a footprint, the objects it read (R), wrote (W) or only counted
 * into (A: increments commute), from kapi_access_hook and from the
 * events it published (the oracle's state: below).  The search keeps a
 * stack of the run's choice points ("nodes"): the tasks that could run
 * there, the one chosen, the backtrack set (tasks still to try), the
 * tasks done, and the sleep set it arrived with.
 *
 * After every run the happens-before order of its steps is computed with
 * vector clocks (program order, task creation, dependence, and a time
 * advance as a barrier: a sleeper wakes only when no task can run), and
 * every race (two dependent steps of different tasks with no other path
 * between them) adds a task to the backtrack set of the node before the
 * first step, as source-set DPOR does.  A run that a violation stops
 * ends with a step that, had it run to completion, every other task's
 * next step would depend on; so each task that could run before the
 * violating step is added there (docs/exhaustive.md argues why this
 * keeps every invariant each schedule class breaks first).
 */
#include "explore.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../device/device.h"
#include "../engine/det.h"
#include "../kapi/access.h"
#include "../kapi/kapi.h"
#include "../util/xalloc.h"
#include "kabi.h"

/* The end of the program's data and bss (glibc, every Unix linker):
 * objects below it are static and keep their address from run to run;
 * heap and stacks (above it) do not. */
extern char end;

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

/* ---- object keys, the same in every run of a scenario ---- */

enum { K_R = 1, K_A = 2, K_W = 3 };	/* R|A = W: a read and a count */

#define KEY_SPACE(k)	((uint64_t)(k) << 60)
#define KEY_STATIC	KEY_SPACE(0)	/* address | index << 47 */
#define KEY_DEV		KEY_SPACE(1)	/* device << 40 | offset */
#define KEY_ORACLE	KEY_SPACE(2)	/* the oracle's state of a device */
#define KEY_MEM		KEY_SPACE(3)	/* a device's memory, freed or not */
#define KEY_OGLOBAL	KEY_SPACE(4)	/* the oracle's global state */
#define KEY_HEAP	KEY_SPACE(5)	/* any heap or stack object */
#define KEY_OPAQUE	KEY_SPACE(6)	/* whatever an opaque step touches */

/* F_WAKE: when the step began, a waiter on the object could not pass;
 * F_DISABLE: when it began, one could; F_PASS: the step passes a wait
 * on the object (before changing it). */
enum { F_WAKE = 1, F_PASS = 2, F_DISABLE = 4 };

struct acc {
	uint64_t key;
	uint8_t kind;
	uint8_t flags;
};

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

/* ---- the run being recorded ---- */

#define LOCKSET_MAX 4

struct event {
	int tid;
	int nlocks;		/* mutexes its task held during it */
	uint64_t locks[LOCKSET_MAX];
	int local;		/* its index among the task's steps */
	int node;		/* the choice point that chose it, -1: forced */
	int fp, nfp;		/* footprint: accs[fp .. fp + nfp) */
	int spawn_ev;		/* a task's first step: the step creating it */
	bool barrier;		/* first step after a time advance woke it */
};

/* A task in a sleep set or done at a node: the footprint of its next
 * step there. */
struct sleeper {
	int tid;
	int fp, nfp;		/* in the owner's pool */
};

struct fpset {
	struct sleeper *s;
	int n, cap;
	struct acc *pool;
	int npool, cappool;
};

struct node {
	int ncand;
	int *cand;
	int nen;
	int *en;		/* the candidates whose step would not block */
	int *held;		/* per candidate: the step that took the lock
				 * its next step would block on, or -1 */
	int nclosed;		/* locks taken here, and the steps that took them */
	uint64_t *closed_key;
	int *closed_ev;
	int chosen;
	int ev;			/* the step chosen here, this run */
	int *bt, nbt, capbt;	/* backtrack: tasks to run here (done too) */
	struct fpset done;	/* tasks run here, with their first step */
	struct fpset sleep;	/* the sleep set on arrival */
	struct acc *chosen_fp;	/* the chosen task's first step */
	int nchosen_fp;
	int capn, capclosed, capfp;	/* allocated: cand/en/held, closed_*, chosen_fp */
};

static struct {
	const struct explore_opts *eo;
	const struct scenario *s;
	/* Device memory, for keys: base address by scenario id. */
	const char **dev_base;
	int ndev_base, dev_cached;
	int dev_hit;		/* the device obj_key() found last */
	size_t dev_size;
	bool static_ok;		/* &end separates static from heap */
	/* A kernel tree's explorable copy (kernel/rt/footprint.c): its
	 * every load and store comes through on_mem(), its devices' memory
	 * is named by its locate(). */
	const struct dpmk_tree *kern;
	/* This step's plain-memory accesses so far (on_mem), to add each
	 * word once: open addressing, an entry valid for step .gen only
	 * (steps are numbered across runs by step_gen). */
	struct memseen { uint64_t key; uint64_t gen; uint8_t kind; } *seen;
	uint64_t step_gen;
	/* Oracle relations: related[d] lists the devices whose oracle
	 * state an event of d reads. */
	int **related;
	int *nrelated;
	int *pm_wait;
	bool async_possible;
	/* The run. */
	bool in_run;
	struct event *ev;
	int nev, capev;
	struct acc *accs;
	int naccs, capaccs;
	int cur;		/* open event, -1 none */
	/* Steps [0, keep) replay the last run's to the branch: the model
	 * runs them again, but their records (footprint, locks held) are
	 * the last run's, kept; only what later steps need of them (who
	 * holds which lock, whose next step takes which, step counts) is
	 * followed again. */
	int keep;
	/* The devices whose memory the open step touched (< 64; the rest
	 * are added at once): close_event() adds a read of each. */
	uint64_t step_mem;
	int *task_nev, *task_spawn_ev;
	bool *task_timer;
	uint64_t *task_take;	/* the lock its next step takes, 0: none */
	uint64_t (*task_locks)[LOCKSET_MAX];	/* mutexes each task holds */
	int *task_nlocks;
	/* Locks taken (a mutex, a semaphore at 0): key, and the step. */
	struct { uint64_t key; int ev; } *closed;
	int nclosed, capclosed;
	int ntask, captask;
	int pending_node;
	int depth;
	uint8_t *sb;		/* the run's schedule bytes */
	int nsb, capsb;
	bool blocked, nondet;
	uint64_t outcome;	/* this run's, explore_outcome_event() summed */
	char nondet_msg[160];
	/* The search. */
	struct node *nodes;
	int nnodes, capnodes;
	uint64_t acc_gen;	/* the open step's accslot[] generation */
	bool acc_unmerged;	/* it has accesses accslot[] did not merge */
	int nodes_init;		/* slots whose arrays are allocated (kept for reuse) */
	int branch;		/* node where this run leaves the last one */
	int filter_from;	/* first step that may wake sleepers */
	struct fpset cur_sleep;
	bool sleep_on;
} X;

static void fpset_clear(struct fpset *f)
{
	f->n = 0;
	f->npool = 0;
}

static void fpset_free(struct fpset *f)
{
	free(f->s);
	free(f->pool);
	memset(f, 0, sizeof(*f));
}

static void fpset_add(struct fpset *f, int tid, const struct acc *a, int n)
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

static bool fpset_has(const struct fpset *f, int tid)
{
	for (int i = 0; i < f->n; i++)
		if (f->s[i].tid == tid)
			return true;
	return false;
}

static void fpset_copy(struct fpset *dst, const struct fpset *src)
{
	fpset_clear(dst);
	for (int i = 0; i < src->n; i++)
		fpset_add(dst, src->s[i].tid, src->pool + src->s[i].fp,
			  src->s[i].nfp);
}

/* Drop the sleepers that step e wakes: its own task, or a conflict. */
static void fpset_filter(struct fpset *f, const struct event *e)
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
static void node_reset(struct node *nd)
{
	nd->ncand = nd->nen = nd->nclosed = nd->nbt = nd->nchosen_fp = 0;
	fpset_clear(&nd->done);
	fpset_clear(&nd->sleep);
}

/* A free slot on top of the stack for a node of n candidates and
 * nclosed locks, its arrays allocated (not yet pushed). */
static struct node *node_slot(int n, int nclosed)
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

static bool int_has(const int *a, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (a[i] == v)
			return true;
	return false;
}

static void bt_add(struct node *nd, int tid)
{
	if (int_has(nd->bt, nd->nbt, tid))
		return;
	DPM_ARRAY_PUSH(nd->bt, nd->nbt, nd->capbt, tid);
}

/* ---- keys ---- */

static void devices_cache(void)
{
	int n = device_registry_size();

	if (X.dev_cached == n)
		return;
	if (n > X.ndev_base) {
		X.dev_base = dpm_xrealloc(X.dev_base, (size_t)n, sizeof(*X.dev_base));
		for (int i = X.ndev_base; i < n; i++)
			X.dev_base[i] = NULL;
		X.ndev_base = n;
	}
	int cached = 0;

	for (int i = 0; i < n; i++) {
		if (!X.dev_base[i])
			X.dev_base[i] = (const char *)device_by_id(i);
		cached += X.dev_base[i] != NULL;
	}
	X.dev_cached = cached;
}

static uint64_t obj_key(const void *obj, long idx)
{
	const char *p = obj;

	/* Devices are on the heap: a static is none. */
	if (X.static_ok && p < &end)
		return KEY_STATIC | (uint64_t)(uintptr_t)p | (uint64_t)idx << 47;
	if (dpm_model) {
		devices_cache();
		/* The device of the last hit first: accesses come in runs. */
		for (int k = -1; k < X.ndev_base; k++) {
			int i = k < 0 ? X.dev_hit : k;
			const char *b = i < X.ndev_base ? X.dev_base[i] : NULL;

			if (b && p >= b && p < b + X.dev_size) {
				X.dev_hit = i;
				return KEY_DEV | (uint64_t)i << 40 |
				       (uint64_t)(p - b) << 8 | (uint64_t)(idx & 0xff);
			}
		}
	}
	if (X.kern) {
		unsigned long off;
		long id = X.kern->locate(p, &off);

		if (id >= 0)
			return KEY_DEV | (uint64_t)(id >> 2) << 40 |
			       ((uint64_t)(id & 3) << 28 | (off & 0xfffffff)) << 8 |
			       (uint64_t)(idx & 0xff);
	}
	return KEY_HEAP;
}

static int dev_of_key(uint64_t key)
{
	return (key >> 60) == 1 ? (int)((key >> 40) & 0xfffff) : -1;
}

/* The open step's accesses so far, by key: a repeated access merges
 * into the first at once (close_event() merges what did not fit). */
#define ACC_SLOTS 512
static struct accslot {
	uint64_t gen;		/* the step's X.acc_gen: in use */
	uint64_t key;
	int idx;		/* into the step's accesses */
} accslot[ACC_SLOTS];

/* a, an access of the open step, took b too: what the step found when
 * it began is what its first change says. */
static void acc_merge(struct acc *a, const struct acc *b)
{
	if (!(a->kind & K_A) && !(a->kind == K_W))
		a->flags = (a->flags & F_PASS) | b->flags;
	a->kind |= b->kind;
}

static void push_acc(uint64_t key, uint8_t kind, uint8_t flags)
{
	struct event *e = &X.ev[X.cur];
	struct acc a = { key, kind, flags };
	unsigned h = (unsigned)((key * 0x9e3779b97f4a7c15ULL) >> 55);

	for (int probe = 0; probe < 8; probe++) {
		struct accslot *sl = &accslot[(h + (unsigned)probe) & (ACC_SLOTS - 1)];

		if (sl->gen != X.acc_gen) {
			*sl = (struct accslot){ X.acc_gen, key, e->nfp };
			break;
		}
		if (sl->key == key) {
			acc_merge(&X.accs[e->fp + sl->idx], &a);
			return;
		}
		if (probe == 7)
			X.acc_unmerged = true;
	}
	DPM_ARRAY_PUSH(X.accs, X.naccs, X.capaccs, a);
	e->nfp++;
}

/* The open step read device d's memory (d < 0: none). */
static void mem_read(int d)
{
	if (d >= 64)
		push_acc(KEY_MEM | (uint64_t)d, K_R, 0);
	else if (d >= 0)
		X.step_mem |= (uint64_t)1 << d;
}

static void add_acc_flags(uint64_t key, uint8_t kind, uint8_t flags)
{
	if (X.cur < X.keep)	/* none open, or a kept step */
		return;
	push_acc(key, kind, flags);
	/* Anything in a device's memory: a read of that memory, which its
	 * release (EV_FREED) writes: a use after free depends on it. */
	mem_read(dev_of_key(key));
}

static void add_acc(uint64_t key, uint8_t kind)
{
	add_acc_flags(key, kind, 0);
}

static int closed_find(uint64_t key)
{
	for (int i = 0; i < X.nclosed; i++)
		if (X.closed[i].key == key)
			return i;
	return -1;
}

/* A lock is taken (in the current step) or given back. */
static void closed_set(uint64_t key, bool closed)
{
	int i = closed_find(key);

	if (closed && i < 0) {
		DPM_ARRAY_RESERVE(X.closed, X.nclosed, X.capclosed);
		X.closed[X.nclosed].key = key;
		X.closed[X.nclosed++].ev = X.cur;
	} else if (!closed && i >= 0) {
		X.closed[i] = X.closed[--X.nclosed];
	}
}

/* The step that took the lock the task's next step would block on, or
 * -1 when that step would not block. */
static int doomed(int tid)
{
	int i;

	if (tid >= X.captask || !X.task_take[tid] ||
	    (i = closed_find(X.task_take[tid])) < 0)
		return -1;
	return X.closed[i].ev >= 0 ? X.closed[i].ev : 0;
}

/* Task tid takes or releases mutex key; the open step records every
 * mutex its task held in it. */
static void lockset_update(int tid, uint64_t key, bool take)
{
	int *n = &X.task_nlocks[tid];
	struct event *e = &X.ev[X.cur];

	if (take) {
		if (*n < LOCKSET_MAX)
			X.task_locks[tid][(*n)++] = key;
		if (X.cur >= X.keep && e->nlocks < LOCKSET_MAX)
			e->locks[e->nlocks++] = key;
		return;
	}
	for (int i = 0; i < *n; i++)
		if (X.task_locks[tid][i] == key) {
			X.task_locks[tid][i] = X.task_locks[tid][--*n];
			break;
		}
}

static __attribute__((noinline)) void access_record(const void *obj, long idx,
						    enum kapi_acc acc);

/* What a kept step still follows: locks, ways closed and opened, and the
 * lock a task takes next. */
#define KEPT_FOLLOWS	(1u << KACC_TAKE_NEXT | 1u << KACC_LOCK | 1u << KACC_UNLOCK | \
			 1u << KACC_WAKE | 1u << KACC_ADD_WAKE | 1u << KACC_DISABLE | \
			 1u << KACC_PASS_DISABLE)

/* kapi_access_hook: the model's every access, so the common case (a
 * kept step's plain access) returns at once. */
static void on_access(const void *obj, long idx, enum kapi_acc acc)
{
	if (!X.in_run || (X.cur < X.keep && !(KEPT_FOLLOWS >> acc & 1)))
		return;
	access_record(obj, idx, acc);
}

static void access_record(const void *obj, long idx, enum kapi_acc acc)
{
	uint64_t key = obj_key(obj, idx);

	if (acc == KACC_TAKE_NEXT) {
		if (X.cur >= 0)
			X.task_take[X.ev[X.cur].tid] = key;
		return;
	}
	if (acc == KACC_LOCK || acc == KACC_UNLOCK) {
		/*
		 * A mutex: who holds it decides who can run (doomed()),
		 * and what its sections touch is reported inside them;
		 * the lock itself orders nothing: two sections that share
		 * nothing commute.  A race a taken lock keeps from being
		 * reversed is taken back to before the lock was taken
		 * (race()).  The state of an opaque step is unknown: its
		 * locks order it as the kernel's do.
		 */
		closed_set(key, acc == KACC_LOCK);
		if (X.cur >= 0)
			lockset_update(X.ev[X.cur].tid, key, acc == KACC_LOCK);
		if (X.eo->opaque)
			add_acc_flags(key, K_W, acc == KACC_LOCK ?
				      F_PASS | F_DISABLE : F_WAKE);
		return;
	}
	if (acc == KACC_MEM) {	/* an open step, not kept (on_access()) */
		mem_read(dev_of_key(key));
		return;
	}
	uint8_t k, f = 0;

	switch (acc) {
	case KACC_READ:
		k = K_R;
		break;
	case KACC_ADD:
		k = K_A;
		break;
	case KACC_WAKE:
		k = K_W;
		f = F_WAKE;
		break;
	case KACC_ADD_WAKE:
		k = K_A;
		f = F_WAKE;
		break;
	case KACC_DISABLE:
		k = K_W;
		f = F_DISABLE;
		break;
	case KACC_PASS_DISABLE:
		k = K_W;
		f = F_PASS | F_DISABLE;
		break;
	case KACC_PASS:
		k = K_R;
		f = F_PASS;
		break;
	case KACC_PASS_WRITE:
		k = K_W;
		f = F_PASS;
		break;
	default:
		k = K_W;
		break;
	}
	if (f & F_DISABLE)
		closed_set(key, true);
	if (f & F_WAKE)
		closed_set(key, false);
	if (X.eo->brk == EXB_COMPLETION_READ && k == K_W && dev_of_key(key) >= 0)
		k = K_R;
	add_acc_flags(key, k, f);
}

/* ---- the oracle's state as objects ---- */

#define MEMSEEN 1024
/* Plain memory is keyed by words of this many bytes: two accesses that
 * overlap share a word whatever their sizes (a bit-field's wider load
 * included); small, so that neighbouring variables stay apart. */
#define MEM_WORD 4

/*
 * A plain load or store of the explorable kernel copy (kapi_mem_hook):
 * each word it touches, keyed like any object (a device's memory
 * by device and offset, a static by address, the rest of the heap as one
 * object), once per step.  The running task's own stack is its own.
 */
static void on_mem(const void *p, unsigned long size, int write)
{
	if (!X.in_run || X.cur < X.keep || !size || det_own_stack(p))
		return;
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(MEM_WORD - 1);
	uintptr_t last = ((uintptr_t)p + size - 1) & ~(uintptr_t)(MEM_WORD - 1);
	uint8_t kind = write && X.eo->brk != EXB_MEM_READ ? K_W : K_R;

	for (; a <= last; a += MEM_WORD) {
		uint64_t key = obj_key((const void *)a, 0);
		uint64_t h = key * 0x9e3779b97f4a7c15ULL;
		struct memseen *m = NULL;

		for (int i = 0; i < 8; i++) {
			struct memseen *t = &X.seen[((h >> 50) + (uint64_t)i) & (MEMSEEN - 1)];

			if (t->gen != X.step_gen || t->key == key) {
				m = t;
				break;
			}
		}
		if (m && m->gen == X.step_gen && m->key == key) {
			if ((m->kind | kind) == m->kind)
				continue;
			m->kind |= kind;
		} else if (m) {
			*m = (struct memseen){ key, X.step_gen, kind };
		}
		add_acc(key, kind);
		if (a + MEM_WORD < a)
			break;
	}
}

static void oracle_rel_free(void)
{
	for (int i = 0; X.related && i < X.s->ndev; i++)
		free(X.related[i]);
	free(X.related);
	free(X.nrelated);
	free(X.pm_wait);
	X.related = NULL;
	X.nrelated = NULL;
	X.pm_wait = NULL;
}

static void rel_add(int a, int b)
{
	if (a < 0 || b < 0 || a == b || int_has(X.related[a], X.nrelated[a], b))
		return;
	X.related[a] = dpm_xrealloc(X.related[a], (size_t)X.nrelated[a] + 1,
				    sizeof(int));
	X.related[a][X.nrelated[a]++] = b;
}

/*
 * What an event's checks read: the oracle judges a callback of D against
 * D's superiors and subordinates (parent, children, suppliers, consumers)
 * and the device D's driver waits for; everything else it judges reads
 * or writes its global state (phase, transition, counts of running
 * callbacks) or every device's.  Both sides of each relation, whatever
 * the phase: a superset is sound.
 */
static void oracle_rel_build(const struct scenario *s)
{
	int n = s->ndev;

	X.related = dpm_xcalloc((size_t)n + 1, sizeof(*X.related));
	X.nrelated = dpm_xcalloc((size_t)n + 1, sizeof(int));
	X.pm_wait = dpm_xcalloc((size_t)n + 1, sizeof(int));
	X.async_possible = false;
	for (int i = 0; i < n; i++) {
		const struct scn_device *d = &s->dev[i];

		rel_add(i, d->parent);
		rel_add(d->parent, i);
		for (int k = 0; k < d->nsup; k++) {
			rel_add(i, d->sup[k]);
			rel_add(d->sup[k], i);
		}
		X.pm_wait[i] = d->beh.pm_wait_for - 1;
		rel_add(i, X.pm_wait[i]);
		X.async_possible |= d->async || d->pci;
	}
	for (int i = 0; i < s->nact; i++)
		X.async_possible &= s->act[i].kind != ACT_ASYNC_ATTR;
	X.async_possible &= s->pm_async;
}

/*
 * The oracle's state of a device in two parts: what its relatives' checks
 * read (how deep it is suspended, gone, direct_complete: KEY_ORACLE),
 * and what only its own events and the phase and transition ends read
 * (which callback runs, which phases ran or took it in hand, prepared,
 * freed: KEY_OOWN).
 */
#define KEY_OOWN	KEY_SPACE(7)

static void oracle_all(uint8_t kind)
{
	for (int d = 0; d < X.s->ndev; d++) {
		add_acc(KEY_ORACLE | (uint64_t)d, kind);
		add_acc(KEY_OOWN | (uint64_t)d, kind);
	}
}

static void oracle_related(int d)
{
	for (int k = 0; k < X.nrelated[d]; k++)
		add_acc(KEY_ORACLE | (uint64_t)X.related[d][k], K_R);
}

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

static int u64_cmp(const void *a, const void *b)
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

static void on_event(const struct dpm_event *ev, void *ctx)
{
	(void)ctx;
	if (X.in_run && X.eo->outcomes)	/* a check's, not the search's */
		X.outcome += explore_outcome_event(ev);
	if (!X.in_run || X.eo->brk == EXB_NO_ORACLE || X.cur < X.keep)
		return;
	int d = ev->dev;
	bool dev_ok = d >= 0 && d < X.s->ndev;
	uint64_t own = KEY_OOWN | (uint64_t)d, order = KEY_ORACLE | (uint64_t)d;
	/* With async impossible, or pm_trace in a resume phase, the oracle
	 * checks callbacks one at a time in list order (SYNC-ORDER): every
	 * callback event reads and writes its global state. */
	bool sync = !X.async_possible ||
		    (X.s->pm_trace && ev->phase >= 0 &&
		     !pm_phase_is_suspend(ev->phase) && ev->phase != PH_COMPLETE);

	switch (dev_ok ? ev->kind : -1) {
	case EV_CB_START:
		/* Reads the phase, its own and its relatives' depth; its
		 * own busy, ran, prepared. */
		if (sync)
			break;
		add_acc(KEY_OGLOBAL, K_R);
		add_acc(own, K_W);
		add_acc(order, K_R);
		oracle_related(d);
		return;
	case EV_CB_END:
		/* Its depth or prepared; the device its driver waited for;
		 * the transition's failures (read at phase and transition
		 * ends). */
		if (sync)
			break;
		add_acc(KEY_OGLOBAL, K_R);
		add_acc(own, K_W);
		add_acc(order, K_W);
		if (X.pm_wait[d] >= 0)
			add_acc(KEY_ORACLE | (uint64_t)X.pm_wait[d], K_R);
		return;
	case EV_DIRECT_COMPLETE:
		if (sync)
			break;
		add_acc(KEY_OGLOBAL, K_R);
		add_acc(own, K_R);
		add_acc(order, K_W);
		oracle_related(d);
		return;
	case EV_DIRECT_RESUME:
		add_acc(KEY_OGLOBAL, K_R);
		add_acc(order, K_W);
		return;
	case EV_HANDLED:
		add_acc(own, K_W);
		return;
	case EV_GONE:
		add_acc(order, K_W);
		return;
	case EV_FREED:
		add_acc(own, K_W);
		add_acc(KEY_MEM | (uint64_t)d, K_W);
		return;
	case -1:
		if (ev->kind == EV_PHASE_BEGIN) {
			/* The phase in progress only. */
			add_acc(KEY_OGLOBAL, K_W);
			return;
		}
		if (ev->kind == EV_PHASE_END) {
			/* And whether any device is still running, or
			 * (SLEEP-COMPLETE) not suspended. */
			add_acc(KEY_OGLOBAL, K_W);
			oracle_all(K_R);
			return;
		}
		break;
	default:
		break;
	}
	add_acc(KEY_OGLOBAL, K_W);
	oracle_all(K_W);
}

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

/* Merge the open event's accesses per object, then let it wake
 * sleepers. */
static void close_event(void)
{
	if (X.cur < 0)
		return;
	while (X.step_mem) {
		int d = __builtin_ctzll(X.step_mem);

		X.step_mem &= X.step_mem - 1;
		push_acc(KEY_MEM | (uint64_t)d, K_R, 0);
	}
	struct event *e = &X.ev[X.cur];
	struct acc *a = X.accs + e->fp;
	int n = e->nfp;

	if (X.acc_unmerged) {
		n = 0;
		for (int i = 0; i < e->nfp; i++) {
			int j;

			for (j = 0; j < n; j++)
				if (a[j].key == a[i].key) {
					acc_merge(&a[j], &a[i]);
					break;
				}
			if (j == n)
				a[n++] = a[i];
		}
		X.acc_unmerged = false;
	}
	X.naccs = e->fp + n;
	e->nfp = n;
	if (X.sleep_on && X.cur >= X.filter_from)
		fpset_filter(&X.cur_sleep, e);
	X.cur = -1;
}

static void on_det(enum det_hook_ev ev, int a, int b)
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

static int choose(void *ctx, int n, const int *ids)
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

/* ---- race analysis ---- */

struct objrec {
	uint64_t key;
	int *last;	/* [ntask][3]: last R, A, W step per task */
	uint64_t tasks[3];	/* the tasks with an R, A, W step in last[]
				 * (when ntask <= 64) */
	int last_disable;	/* the last step that closed the way (F_DISABLE) */
};

static struct {
	int *vc;		/* [nev * ntask] */
	int cap_vc;
	int *acc_vc, *task_last, *firstv;
	int *seen;		/* [nev]: the step whose candidates hold it */
	int cap_seen;
	int cap_t;
	struct objrec *obj;	/* open addressing */
	int cap_obj;
	int *objlast;
	int cap_objlast, nobj;
	int *cands;
	int cap_cands;
	int *w0;		/* per access with F_WAKE: the F_DISABLE before */
	int cap_w0;
	struct objrec **eobj;	/* the open step's objects, per access */
	/* What the analysis of events from from[i] on changed, to take the
	 * objects back to where they were before step i (the next run
	 * shares the steps before its branch with this one). */
	struct undo { void *p; int64_t old; int old2; int what; } *undo;
	int nundo, capundo;
	int *undo_from;		/* [nev]: the first entry of step i */
	int cap_undo_from;
	bool kept;		/* the objects are those after the last run's steps */
	int kept_nev, kept_T;
	int *needed, *needed_acc;	/* this step's non-reversible partners */
	int cap_needed;
	uint64_t nonrev;
} A;

static int *vc_of(int e)
{
	return A.vc + (size_t)e * (size_t)X.ntask;
}

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
		if (X.eo->brk != EXB_NO_RACE)
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
static void analyse(int first_new)
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

/* ---- classes of schedules, for checking the search ---- */

/*
 * A run's class (its Mazurkiewicz trace under the dependence above): the
 * order of its steps that always takes, among the steps whose
 * predecessors have all been taken, the one of the lowest task.  Two runs
 * are in one class exactly when that order, without the steps that touch
 * nothing (a wait that blocked), is the same.
 */
static uint64_t class_hash(bool violated)
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

struct hset {
	uint64_t *v;
	size_t n, cap;
};

static bool hset_add(struct hset *s, uint64_t h)
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
