// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a step touches (explore_int.h): object keys, the same in every
 * run of a scenario; the accesses the model and a kernel tree's copy
 * report (kapi_access_hook, kapi_mem_hook), the locks taken and held;
 * the oracle's state as objects (event_hook); a step's footprint merged
 * when it ends.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explore_int.h"
#include "../oracle/invariant.h"

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

void add_acc(uint64_t key, uint8_t kind)
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
int doomed(int tid)
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
void on_access(const void *obj, long idx, enum kapi_acc acc)
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
	add_acc_flags(key, k, f);
}

/* ---- the oracle's state as objects ---- */

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
void on_mem(const void *p, unsigned long size, int write)
{
	if (!X.in_run || X.cur < X.keep || !size || det_own_stack(p))
		return;
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(MEM_WORD - 1);
	uintptr_t last = ((uintptr_t)p + size - 1) & ~(uintptr_t)(MEM_WORD - 1);
	uint8_t kind = write ? K_W : K_R;

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

void oracle_rel_free(void)
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
void oracle_rel_build(const struct scenario *s)
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

static void oracle_related(int d, uint8_t kind)
{
	for (int k = 0; k < X.nrelated[d]; k++)
		add_acc(KEY_ORACLE | (uint64_t)X.related[d][k], kind);
}

/* The oracle's state an access scope (OS_*, core/oracle/invariant.h)
 * names, as objects: kind K_R or K_W. */
static void oracle_scope(unsigned int scope, int d, uint8_t kind)
{
	if (scope & OS_GLOBAL)
		add_acc(KEY_OGLOBAL, kind);
	if (scope & OS_ALL)
		oracle_all(kind);
	if (d < 0 || d >= X.s->ndev)
		return;
	if (scope & OS_SELF)
		add_acc(KEY_OOWN | (uint64_t)d, kind);
	if (scope & OS_DEPTH)
		add_acc(KEY_ORACLE | (uint64_t)d, kind);
	if (scope & OS_RELATED)
		oracle_related(d, kind);
	if (scope & OS_WAITED && X.pm_wait[d] >= 0)
		add_acc(KEY_ORACLE | (uint64_t)X.pm_wait[d], kind);
	if (scope & OS_MEMORY)
		add_acc(KEY_MEM | (uint64_t)d, kind);
}

/*
 * What an event touches of the oracle's state, as the oracle declares it
 * (oracle_footprint(): the record's access and every invariant's that
 * consumes the event).  With async impossible, or pm_trace in a resume
 * phase, the oracle checks callbacks one at a time in list order
 * (SYNC-ORDER): such events read and write all of it.
 */
void on_event(const struct dpm_event *ev, void *ctx)
{
	(void)ctx;
	if (X.in_run && X.eo->outcomes)	/* a check's, not the search's */
		X.outcome += explore_outcome_event(ev);
	if (!X.in_run || X.cur < X.keep)
		return;
	bool serial = !X.async_possible ||
		      (X.s->pm_trace && ev->phase >= 0 &&
		       !pm_phase_is_suspend(ev->phase) && ev->phase != PH_COMPLETE);
	unsigned int reads, writes;

	oracle_footprint(ev, serial, &reads, &writes);
	oracle_scope(reads, ev->dev, K_R);
	oracle_scope(writes, ev->dev, K_W);
}


/* Merge the open event's accesses per object, then let it wake
 * sleepers. */
void close_event(void)
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

