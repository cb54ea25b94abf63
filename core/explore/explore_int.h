// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the files of the exhaustive search (explore.h) share; not an API.
 *
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
#ifndef DPM_EXPLORE_INT_H
#define DPM_EXPLORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "explore.h"

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

struct explore_state {
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
};

/* The run and the search (search.c); X in these files. */
extern struct explore_state explore_x;
#define X explore_x

struct objrec {
	uint64_t key;
	int *last;	/* [ntask][3]: last R, A, W step per task */
	uint64_t tasks[3];	/* the tasks with an R, A, W step in last[]
				 * (when ntask <= 64) */
	int last_disable;	/* the last step that closed the way (F_DISABLE) */
};

struct explore_analysis {
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
};

/* The race analysis (dpor.c); A in these files. */
extern struct explore_analysis explore_a;
#define A explore_a

/*
 * The planted faults of explore_opts.brk (tests/test_explore.c --break)
 * are compiled in only with DPM_EXPLORE_FAULTS, in test_explore_faults'
 * own copy of these files (tests/CMakeLists.txt); the library's search
 * has no check of them, and refuses a brk.
 */
#ifdef DPM_EXPLORE_FAULTS
#define EXPLORE_BREAK(b)	(X.eo->brk == (b))
#else
#define EXPLORE_BREAK(b)	false
#endif

/* Entries of the per-step table of plain-memory accesses (X.seen). */
#define MEMSEEN 1024

static inline bool int_has(const int *a, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (a[i] == v)
			return true;
	return false;
}

static inline int *vc_of(int e)
{
	return A.vc + (size_t)e * (size_t)X.ntask;
}

/* footprint.c: what a step touches */
void add_acc(uint64_t key, uint8_t kind);
int doomed(int tid);
void close_event(void);
void on_access(const void *obj, long idx, enum kapi_acc acc);
void on_mem(const void *p, unsigned long size, int write);
void on_event(const struct dpm_event *ev, void *ctx);
void oracle_rel_build(const struct scenario *s);
void oracle_rel_free(void);

/* trace.c: the run as it is recorded, and replayed to a branch */
void on_det(enum det_hook_ev ev, int a, int b);
int choose(void *ctx, int n, const int *ids);

/* dpor.c: sleep and backtrack sets, the race analysis */
void fpset_clear(struct fpset *f);
void fpset_free(struct fpset *f);
void fpset_add(struct fpset *f, int tid, const struct acc *a, int n);
bool fpset_has(const struct fpset *f, int tid);
void fpset_copy(struct fpset *dst, const struct fpset *src);
void fpset_filter(struct fpset *f, const struct event *e);
void node_reset(struct node *nd);
struct node *node_slot(int n, int nclosed);
void bt_add(struct node *nd, int tid);
void analyse(int first_new);

/* classes.c: classes and outcomes of runs, to check the search */
struct hset {
	uint64_t *v;
	size_t n, cap;
};

bool hset_add(struct hset *s, uint64_t h);
uint64_t class_hash(bool violated);
int u64_cmp(const void *a, const void *b);

#endif
