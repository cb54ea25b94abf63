// SPDX-License-Identifier: GPL-2.0-only
/*
 * The deterministic engine.  Tasks are fibers on their own stacks and
 * switch straight to one another; the caller of det_run() (the "host")
 * is switched back to only when the run is over.
 *
 * Choice rule: at a scheduling point the candidates are the running task
 * (index 0) followed by the run queue in the order tasks became runnable.
 * When there are two or more, the next schedule byte b picks candidate
 * b % n.  When the bytes have run out, the running task goes on (tasks
 * are not preempted), and a task that blocks hands over to the task that
 * became runnable first.  Virtual time moves to the earliest sleeper only
 * when nothing can run; sleepers due at the same instant become runnable
 * in the order they went to sleep.
 */
#include "det.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fiber.h"
#include "../util/fifo.h"
#include "../util/str.h"
#include "../util/xalloc.h"

const struct dpm_engine *dpm_eng = &det_engine;
int dpm_interrupt;
void (*dpm_order_hook)(enum order_event ev, uint32_t a, uint32_t b);
void (*det_hook)(enum det_hook_ev ev, int a, int b);

enum tstate { T_UNSTARTED, T_RUNNABLE, T_RUNNING, T_BLOCKED, T_SLEEPING,
	      T_DONE };

/*
 * Stacks: at most this many tasks hold one at a time; a task spawned
 * beyond waits, unstarted and without a stack, until one is free (first
 * come, first served), as a job waits for a worker.  When nothing else
 * can run, the oldest waiting task gets a new stack anyway, so this
 * never makes a deadlock.  A run with fewer live tasks (every fuzzing
 * run) never notices; a million async devices need no million stacks.
 */
#define STACKED_MAX 4096

struct task {
	struct fiber fib;
	void (*fn)(void *);
	void *arg;
	int id;
	enum tstate state;
	enum wait_kind kind;
	const void *obj;
	struct task *wnext;	/* wait queue link */
	struct task *pnext;	/* pool / zombie link */
	uint64_t wake_at;
	uint64_t sleep_seq;
	char name[DPM_TASK_NAME_MAX];
};

static struct task host;
static struct task *cur;

static struct task **all;	/* every task of this run, by id */
static int nall, all_cap;
static int live;

static struct task **runq;
static int nrunq, runq_cap;

static struct task **sleepers;	/* binary heap on (wake_at, sleep_seq) */
static int nsleep, sleep_cap;
static uint64_t sleep_seq;

static struct task *pool;	/* finished tasks whose stacks can be reused */
static struct task *zombie;	/* finished, its stack maybe still in use */
static struct task *spare;	/* task structs without a stack */
static struct dpm_fifo unstarted;	/* waiting for a stack, oldest first */
static int stacked;		/* tasks holding a stack, not finished */

static void admit_unstarted(bool force);

static uint64_t now_ns;
static const uint8_t *sched_bytes;
static size_t sched_len, sched_pos;
static uint64_t step_limit;
static int (*strategy)(void *ctx, int n, const int *ids);
static void *strategy_ctx;
static struct det_stats stats;
static enum det_outcome outcome;

static void runq_push(struct task *t)
{
	t->state = T_RUNNABLE;
	DPM_ARRAY_PUSH(runq, nrunq, runq_cap, t);
}

static struct task *runq_take(int i)
{
	struct task *t = runq[i];

	memmove(&runq[i], &runq[i + 1], (nrunq - i - 1) * sizeof(*runq));
	nrunq--;
	return t;
}

static bool sleeps_before(const struct task *a, const struct task *b)
{
	return a->wake_at < b->wake_at ||
	       (a->wake_at == b->wake_at && a->sleep_seq < b->sleep_seq);
}

static void heap_push(struct task *t)
{
	DPM_ARRAY_RESERVE(sleepers, nsleep, sleep_cap);
	int i = nsleep++;

	while (i > 0) {
		int p = (i - 1) / 2;

		if (!sleeps_before(t, sleepers[p]))
			break;
		sleepers[i] = sleepers[p];
		i = p;
	}
	sleepers[i] = t;
}

static struct task *heap_pop(void)
{
	struct task *top = sleepers[0], *last = sleepers[--nsleep];
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= nsleep)
			break;
		if (c + 1 < nsleep && sleeps_before(sleepers[c + 1], sleepers[c]))
			c++;
		if (!sleeps_before(sleepers[c], last))
			break;
		sleepers[i] = sleepers[c];
		i = c;
	}
	if (nsleep)
		sleepers[i] = last;
	return top;
}

/* Pick one of n >= 2 candidates: the running task (when with_cur) and
 * then the run queue in order.  A strategy decides if there is one; else
 * a schedule byte; -1 when the bytes have run out. */
static int choose(int n, bool with_cur)
{
	stats.choices++;
	if (strategy) {
		int ids[64], k = 0;
		int *v = n <= 64 ? ids : dpm_xrealloc(NULL, (size_t)n, sizeof(int));

		if (with_cur)
			v[k++] = cur->id;
		for (int i = 0; k < n; i++)
			v[k++] = runq[i]->id;
		int c = strategy(strategy_ctx, n, v);

		if (v != ids)
			free(v);
		return c;
	}
	if (sched_pos >= sched_len)
		return -1;
	stats.sched_used++;
	return sched_bytes[sched_pos++] % n;
}

static void reap_zombies(void)
{
	while (zombie) {
		struct task *t = zombie;

		zombie = t->pnext;
		fiber_reclaim(&t->fib);
		t->pnext = pool;
		pool = t;
	}
}

static void switch_to(struct task *to, bool dying)
{
	struct task *from = cur;

	stats.switches++;
	cur = to;
	to->state = to == &host ? to->state : T_RUNNING;
	fiber_switch(&from->fib, &to->fib, dying);
	/* Back on from's stack. */
	reap_zombies();
}

static void finish(enum det_outcome o)
{
	outcome = o;
	switch_to(&host, cur->state == T_DONE);
}

/* The running task cannot go on: hand the CPU to somebody else. */
static void schedule(void)
{
	bool dying = cur->state == T_DONE;

	while (!nrunq) {
		/* Nothing can run but tasks waiting for a stack: time does
		 * not pass while they could. */
		if (unstarted.n) {
			admit_unstarted(true);
			continue;
		}
		if (!nsleep) {
			finish(live ? DET_DEADLOCK : DET_DONE);
			return;
		}
		struct task *t = heap_pop();

		now_ns = t->wake_at;
		runq_push(t);
		if (det_hook)
			det_hook(DH_TIMER, t->id, 0);
		while (nsleep && sleepers[0]->wake_at == now_ns) {
			t = heap_pop();
			runq_push(t);
			if (det_hook)
				det_hook(DH_TIMER, t->id, 0);
		}
	}
	int i = 0;

	if (nrunq > 1) {
		i = choose(nrunq, false);
		if (i < 0)
			i = 0;
	}
	struct task *next = runq_take(i);

	if (dpm_order_hook)
		dpm_order_hook(ORDER_CHOICE, next->id, nrunq + 1);
	if (det_hook)
		det_hook(DH_RUN, next->id, 0);
	if (next != cur)
		switch_to(next, dying);
	else
		next->state = T_RUNNING;
}

static bool count_step(void)
{
	if (++stats.steps > step_limit) {
		finish(DET_STEP_LIMIT);
		return false;
	}
	if (dpm_interrupted()) {
		finish(DET_INTERRUPTED);
		return false;
	}
	return true;
}

static void det_sched_point(void)
{
	if (!count_step())
		return;
	if (!nrunq) {
		if (det_hook)
			det_hook(DH_RUN, cur->id, 0);
		return;
	}
	int i = choose(nrunq + 1, true);

	if (i <= 0) {
		if (dpm_order_hook)
			dpm_order_hook(ORDER_CHOICE, cur->id, nrunq + 1);
		if (det_hook)
			det_hook(DH_RUN, cur->id, 0);
		return;
	}
	struct task *next = runq_take(i - 1);

	if (dpm_order_hook)
		dpm_order_hook(ORDER_CHOICE, next->id, nrunq + 2);
	if (det_hook)
		det_hook(DH_RUN, next->id, 0);
	runq_push(cur);
	switch_to(next, false);
}

static void det_wait(struct waitq *wq, enum wait_kind kind, const void *obj)
{
	if (!count_step())
		return;
	cur->state = T_BLOCKED;
	cur->kind = kind;
	cur->obj = obj;
	cur->wnext = NULL;
	if (wq->last)
		wq->last->wnext = cur;
	else
		wq->first = cur;
	wq->last = cur;
	if (dpm_order_hook)
		dpm_order_hook(ORDER_BLOCK, cur->id, kind);
	schedule();
	cur->kind = WAIT_NONE;
	cur->obj = NULL;
	if (dpm_order_hook)
		dpm_order_hook(ORDER_UNBLOCK, cur->id, kind);
}

const void *det_wait_obj(void)
{
	return cur->obj;
}

static void det_wake_all(struct waitq *wq)
{
	struct task *t = wq->first;

	wq->first = wq->last = NULL;
	while (t) {
		struct task *n = t->wnext;

		t->wnext = NULL;
		runq_push(t);
		if (dpm_order_hook)
			dpm_order_hook(ORDER_RELEASE, cur->id, t->id);
		t = n;
	}
}

static void det_delay(uint64_t ns)
{
	if (!ns) {
		det_sched_point();
		return;
	}
	if (!count_step())
		return;
	cur->state = T_SLEEPING;
	cur->wake_at = now_ns + ns;
	cur->sleep_seq = sleep_seq++;
	heap_push(cur);
	schedule();
}

static void task_body(void)
{
	struct task *t = cur;

	reap_zombies();
	t->fn(t->arg);
	t->state = T_DONE;
	live--;
	stacked--;
	t->pnext = zombie;
	zombie = t;
	admit_unstarted(false);
	schedule();
	abort();	/* a finished task is never switched back to */
}

/* A task struct: a finished one with its stack if there is one, else a
 * stackless one (and a new stack only when with_stack). */
static struct task *task_struct(bool with_stack)
{
	struct task *t = with_stack && pool ? pool : spare ? spare : NULL;

	if (t == pool && t)
		pool = t->pnext;
	else if (t)
		spare = t->pnext;
	else
		t = dpm_xcalloc(1, sizeof(*t));
	if (with_stack && !t->fib.stack && fiber_alloc(&t->fib)) {
		fprintf(stderr,
			"dpmfuzz: cannot allocate a task stack (%d tasks hold one; vm.max_map_count?)\n",
			stacked);
		abort();
	}
	return t;
}

/* Give t, stackless, a stack: a finished task's if one is free (its
 * struct keeps no stack then), else a new one. */
static void take_stack(struct task *t)
{
	struct task *s = pool;

	if (!s) {
		if (fiber_alloc(&t->fib)) {
			fprintf(stderr,
				"dpmfuzz: cannot allocate a task stack (%d tasks hold one; vm.max_map_count?)\n",
				stacked);
			abort();
		}
		return;
	}
	pool = s->pnext;
	t->fib = s->fib;
	memset(&s->fib, 0, sizeof(s->fib));
	s->pnext = spare;
	spare = s;
}

static void start(struct task *t)
{
	if (!t->fib.stack)
		take_stack(t);
	fiber_prepare(&t->fib, task_body);
	stacked++;
	runq_push(t);
}

/* The oldest task waiting for a stack, if one is free (or, with force,
 * whatever it costs). */
static void admit_unstarted(bool force)
{
	if (!unstarted.n || (!force && stacked >= STACKED_MAX))
		return;
	start(dpm_fifo_pop(&unstarted));
}

static void det_spawn(void (*fn)(void *), void *arg, const char *name)
{
	bool now = stacked < STACKED_MAX && !unstarted.n;
	struct task *t = task_struct(now);

	t->fn = fn;
	t->arg = arg;
	t->kind = WAIT_NONE;
	t->obj = NULL;
	t->wnext = t->pnext = NULL;
	dpm_strlcpy(t->name, name, sizeof(t->name));
	DPM_ARRAY_RESERVE(all, nall, all_cap);
	t->id = nall;
	all[nall++] = t;
	live++;
	stats.tasks++;
	if (det_hook && cur != &host)
		det_hook(DH_SPAWN, cur->id, t->id);
	if (now) {
		start(t);
		return;
	}
	t->state = T_UNSTARTED;
	dpm_fifo_push(&unstarted, t);
}

static void recycle_all(void)
{
	for (int i = 0; i < nall; i++) {
		struct task *t = all[i];

		/* A finished task's struct may have been reused by a later
		 * one; finished ones are on the pool or zombie list already. */
		if (t->id == i && t->state != T_DONE) {
			t->state = T_DONE;
			if (t->fib.stack) {
				fiber_reclaim(&t->fib);
				t->pnext = pool;
				pool = t;
			} else {
				t->pnext = spare;
				spare = t;
			}
		}
	}
	reap_zombies();
	nall = 0;
	stacked = 0;
	dpm_fifo_clear(&unstarted);
}

enum det_outcome det_run(void (*fn)(void *), void *arg,
			 const struct det_config *cfg, struct det_stats *st)
{
	recycle_all();
	nrunq = nsleep = 0;
	live = 0;
	now_ns = 0;
	sleep_seq = 0;
	sched_bytes = cfg->sched;
	sched_len = cfg->sched ? cfg->nsched : 0;
	sched_pos = 0;
	step_limit = cfg->step_limit ? cfg->step_limit : UINT64_MAX;
	strategy = cfg->choose;
	strategy_ctx = cfg->choose_ctx;
	memset(&stats, 0, sizeof(stats));
	dpm_eng = &det_engine;

	cur = &host;
	host.state = T_RUNNING;
	det_spawn(fn, arg, "pm");
	struct task *first = runq_take(0);

	if (det_hook)
		det_hook(DH_RUN, first->id, 0);
	switch_to(first, false);
	cur = &host;
	if (det_hook)
		det_hook(DH_END, 0, 0);
	if (st)
		*st = stats;
	return outcome;
}

bool det_own_stack(const void *p)
{
	const char *c = p, *lo;

	if (!cur || cur == &host || !cur->fib.stack)
		return false;
	lo = cur->fib.stack;
	return c >= lo && c < lo + cur->fib.stack_size;
}

int det_unfinished(struct det_task_info *out, int max)
{
	int n = 0;

	for (int i = 0; i < nall && n < max; i++) {
		struct task *t = all[i];

		if (t->id != i || t->state == T_DONE)
			continue;
		out[n].id = t->id;
		out[n].name = t->name;
		out[n].kind = t->state == T_BLOCKED ? t->kind : WAIT_NONE;
		out[n].obj = t->obj;
		out[n].sleeping = t->state == T_SLEEPING;
		n++;
	}
	return n;
}

const char *det_task_name(int id)
{
	return id >= 0 && id < nall ? all[id]->name : "?";
}

static int det_current_id(void)
{
	return cur->id;
}

static const char *det_current_name(void)
{
	return cur->name;
}

static uint64_t det_now(void)
{
	return now_ns;
}

static __attribute__((noreturn)) void det_stop(void)
{
	finish(DET_STOPPED);
	abort();	/* a stopped run is never resumed */
}

const struct dpm_engine det_engine = {
	.name = "det",
	.concurrent = false,
	.wait = det_wait,
	.wake_all = det_wake_all,
	.sched_point = det_sched_point,
	.spawn = det_spawn,
	.current_id = det_current_id,
	.current_name = det_current_name,
	.now = det_now,
	.delay = det_delay,
	.stop = det_stop,
};
