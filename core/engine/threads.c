// SPDX-License-Identifier: GPL-2.0-only
#include "threads.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../util/fifo.h"
#include "../util/str.h"
#include "../util/xalloc.h"

enum tstate { TS_RUNNING, TS_BLOCKED, TS_SLEEPING, TS_DONE, TS_UNSTARTED };

/*
 * At most this many tasks run on threads at a time; later ones wait,
 * unstarted, first come first served, for a thread to finish its task
 * (as jobs wait for a worker).  When every running task is blocked and
 * some wait, one more thread starts, so this never makes a deadlock; a
 * run with fewer tasks (every stress run) never notices.
 */
#define THREADS_MAX 256

struct task {
	int id;
	char name[DPM_TASK_NAME_MAX];
	pthread_cond_t cv;
	bool woken;			/* under the wait queue's lock */
	struct task *wnext;
	void (*fn)(void *);
	void *arg;
	uint64_t rng;
	/* Read by the watchdog from another thread: atomics. */
	int state;
	int kind;
	const void *obj;
};

/* A pool worker: runs one task after another. */
struct worker {
	pthread_t th;
	pthread_cond_t cv;
	struct task *job;
	struct worker *next;
};

static pthread_mutex_t pool_mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static struct worker *idle;
static struct task **tasks;	/* this run's tasks, by id; under pool_mtx */
static int ntasks, tasks_cap, live;
static struct threads_config cfg;
static struct det_stats stats;
static struct timespec t0;
static __thread struct task *cur;
static struct task host = { .id = -1, .name = "host" };
/* Under pool_mtx: tasks on threads; the unstarted, oldest first. */
static int running;		/* written under pool_mtx, read atomically */
static struct dpm_fifo unstarted;
static int nunstarted;		/* unstarted.n, for th_wait(): atomic */
static int nblocked;		/* running tasks in th_wait(), not woken: atomic */
static bool host_asleep;	/* under pool_mtx: the host waits on done_cv */

/* The oldest unstarted task, or NULL; under pool_mtx. */
static struct task *next_unstarted(void)
{
	struct task *t = dpm_fifo_pop(&unstarted);

	__atomic_store_n(&nunstarted, unstarted.n, __ATOMIC_RELAXED);
	return t;
}

/* Every running task blocked while some wait unstarted: the host starts
 * one more (under pool_mtx). */
static bool all_blocked(void)
{
	return unstarted.n &&
	       __atomic_load_n(&nblocked, __ATOMIC_RELAXED) >= running;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static struct task *me(void)
{
	return cur ? cur : &host;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_mutex_lock(&pool_mtx);
	for (;;) {
		while (!w->job)
			pthread_cond_wait(&w->cv, &pool_mtx);
		struct task *t = w->job;

		pthread_mutex_unlock(&pool_mtx);
		cur = t;
		__atomic_store_n(&t->state, TS_RUNNING, __ATOMIC_RELAXED);
		t->fn(t->arg);
		__atomic_store_n(&t->state, TS_DONE, __ATOMIC_RELAXED);
		cur = NULL;
		pthread_mutex_lock(&pool_mtx);
		if (--live == 0)
			pthread_cond_broadcast(&done_cv);
		/* The thread takes the oldest waiting task, if any. */
		w->job = next_unstarted();
		if (!w->job) {
			__atomic_store_n(&running, running - 1, __ATOMIC_RELAXED);
			w->next = idle;
			idle = w;
		}
	}
	return NULL;
}

static void run_on_thread(struct task *t);

static void th_spawn(void (*fn)(void *), void *arg, const char *name)
{
	struct task *t = dpm_xcalloc(1, sizeof(*t));

	t->fn = fn;
	t->arg = arg;
	dpm_strlcpy(t->name, name, sizeof(t->name));
	pthread_cond_init(&t->cv, NULL);
	pthread_mutex_lock(&pool_mtx);
	if (ntasks == tasks_cap) {
		tasks_cap = tasks_cap ? 2 * tasks_cap : 64;
		tasks = dpm_xrealloc(tasks, tasks_cap, sizeof(*tasks));
	}
	t->id = ntasks;
	t->rng = cfg.seed * 0x9e3779b97f4a7c15ULL + (uint64_t)t->id + 1;
	tasks[ntasks++] = t;
	live++;
	stats.tasks++;
	if (running >= THREADS_MAX || unstarted.n) {
		t->state = TS_UNSTARTED;
		dpm_fifo_push(&unstarted, t);
		__atomic_store_n(&nunstarted, unstarted.n, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&pool_mtx);
		return;
	}
	run_on_thread(t);
	pthread_mutex_unlock(&pool_mtx);
}

/* Start t on an idle thread, or a new one; under pool_mtx. */
static void run_on_thread(struct task *t)
{
	struct worker *w = idle;

	if (w) {
		idle = w->next;
	} else {
		w = dpm_xcalloc(1, sizeof(*w));
		pthread_cond_init(&w->cv, NULL);
		pthread_attr_t a;

		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&a, 1 << 20);
		if (pthread_create(&w->th, &a, worker_main, w)) {
			fputs("dpmfuzz: cannot create a thread\n", stderr);
			abort();
		}
		pthread_attr_destroy(&a);
	}
	w->job = t;
	__atomic_store_n(&running, running + 1, __ATOMIC_RELAXED);
	if (running > stats.peak_running)
		stats.peak_running = running;
	pthread_cond_signal(&w->cv);
}

static void th_sched_point(void)
{
	struct task *t = me();

	__atomic_fetch_add(&stats.steps, 1, __ATOMIC_RELAXED);
	if (!cfg.perturb)
		return;
	uint64_t r = xorshift(&t->rng);

	if (r % cfg.perturb)
		return;
	if ((r >> 20) % 8 == 0) {
		struct timespec d = { 0, (long)((r >> 32) % 50000) };

		nanosleep(&d, NULL);
	} else {
		sched_yield();
	}
}

static void th_wait(struct waitq *wq, enum wait_kind kind, const void *obj)
{
	struct task *t = me();

	t->woken = false;
	t->wnext = NULL;
	if (wq->last)
		wq->last->wnext = t;
	else
		wq->first = t;
	wq->last = t;
	__atomic_store_n(&t->obj, obj, __ATOMIC_RELAXED);
	__atomic_store_n(&t->kind, kind, __ATOMIC_RELAXED);
	__atomic_store_n(&t->state, TS_BLOCKED, __ATOMIC_RELAXED);
	/* The last running task to block while tasks wait unstarted wakes
	 * the host, which starts the next one (the host's poll is only the
	 * fallback: a chain of a million async devices queues one behind
	 * each blocked one, and one start per poll made it quadratic).
	 * The engine's own lock, taken only then, orders nothing the
	 * kernel would not: a queued work item starts on a worker under
	 * the pool's lock there too. */
	if (__atomic_add_fetch(&nblocked, 1, __ATOMIC_RELAXED) >=
	    __atomic_load_n(&running, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&nunstarted, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&pool_mtx);
		if (host_asleep)
			pthread_cond_signal(&done_cv);
		pthread_mutex_unlock(&pool_mtx);
	}
	while (!t->woken)
		pthread_cond_wait(&t->cv, &wq->lk.m);
	/* th_wake_all() counted the task as running again. */
	__atomic_store_n(&t->state, TS_RUNNING, __ATOMIC_RELAXED);
	__atomic_store_n(&t->kind, WAIT_NONE, __ATOMIC_RELAXED);
}

static void th_wake_all(struct waitq *wq)
{
	struct task *t = wq->first;

	wq->first = wq->last = NULL;
	while (t) {
		struct task *n = t->wnext;

		t->woken = true;
		/* Running from now on: while a thousand woken waiters of
		 * one mutex queue for its lock, the host must not count them
		 * blocked and start more threads. */
		__atomic_fetch_sub(&nblocked, 1, __ATOMIC_RELAXED);
		pthread_cond_signal(&t->cv);
		t = n;
	}
}

static uint64_t th_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000ULL +
	       (uint64_t)t.tv_nsec - (uint64_t)t0.tv_nsec;
}

static void th_delay(uint64_t ns)
{
	uint64_t real = ns / 1000 * cfg.ns_per_virtual_us;

	if (real < 1000) {
		th_sched_point();
		return;
	}
	struct timespec d = { (time_t)(real / 1000000000ULL),
			      (long)(real % 1000000000ULL) };

	__atomic_store_n(&me()->state, TS_SLEEPING, __ATOMIC_RELAXED);
	while (nanosleep(&d, &d) && errno == EINTR)
		;
	__atomic_store_n(&me()->state, TS_RUNNING, __ATOMIC_RELAXED);
}

static int th_current_id(void)
{
	return me()->id;
}

static const char *th_current_name(void)
{
	return me()->name;
}

_Thread_local int dpm_quiet_depth;

static __attribute__((noreturn)) void th_stop(void)
{
	if (cfg.on_violation)
		cfg.on_violation();
#ifdef DPM_QUIET_TSAN
	/* The oracle stops the run from inside its quiet lock. */
	for (; dpm_quiet_depth > 0; dpm_quiet_depth--) {
		AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
		AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
		AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
	}
#endif
	fflush(stdout);
	fflush(stderr);
	_exit(DPM_EXIT_VIOLATION);
}

const struct dpm_engine threads_engine = {
	.name = "threads",
	.concurrent = true,
	.wait = th_wait,
	.wake_all = th_wake_all,
	.sched_point = th_sched_point,
	.spawn = th_spawn,
	.current_id = th_current_id,
	.current_name = th_current_name,
	.now = th_now,
	.delay = th_delay,
	.stop = th_stop,
};

static const char *const kind_names[] = {
	[WAIT_NONE] = "nothing",
	[WAIT_COMPLETION] = "a completion",
	[WAIT_MUTEX] = "a mutex",
	[WAIT_SEMAPHORE] = "a semaphore",
	[WAIT_RWSEM_READ] = "an rwsem (read)",
	[WAIT_RWSEM_WRITE] = "an rwsem (write)",
	[WAIT_ASYNC_DRAIN] = "async_synchronize_full()",
	[WAIT_ASYNC_WORKER] = "a free async worker",
};

/* The watchdog's report: every unfinished task and what it waits on. */
static void watchdog_fire(void)
{
	static char rep[16384];
	size_t at = 0;

	at += snprintf(rep + at, sizeof(rep) - at,
		       "the run outlived its %u ms deadline; unfinished tasks:",
		       cfg.watchdog_ms);
	for (int i = 0; i < ntasks && at < sizeof(rep) - 200; i++) {
		struct task *t = tasks[i];
		int st = __atomic_load_n(&t->state, __ATOMIC_RELAXED);
		int k = __atomic_load_n(&t->kind, __ATOMIC_RELAXED);

		if (st == TS_DONE)
			continue;
		at += snprintf(rep + at, sizeof(rep) - at,
			       "\n    task '%s' %s%s", t->name,
			       st == TS_BLOCKED ? "waits for " :
			       st == TS_SLEEPING ? "sleeps" : "runs",
			       st == TS_BLOCKED ? kind_names[k] : "");
		if (st == TS_BLOCKED)
			at += snprintf(rep + at, sizeof(rep) - at, " %p",
				       __atomic_load_n(&t->obj, __ATOMIC_RELAXED));
	}
	if (cfg.on_watchdog)
		cfg.on_watchdog();
	else
		fprintf(stderr, "dpmfuzz: VIOLATION LIVENESS: %s\n", rep);
	fflush(stdout);
	fflush(stderr);
	_exit(DPM_EXIT_LIVENESS);
}

/* Stop asked for while tasks run: they cannot be unwound, so the
 * process ends. */
static __attribute__((noreturn)) void interrupted(int sig)
{
	if (cfg.on_interrupt)
		cfg.on_interrupt(sig);
	fflush(stdout);
	fflush(stderr);
	_exit(128 + sig);
}

/* For the wait-for report: what blocked task i waits on. */
int threads_unfinished(struct det_task_info *out, int max)
{
	int n = 0;

	for (int i = 0; i < ntasks && n < max; i++) {
		struct task *t = tasks[i];
		int st = __atomic_load_n(&t->state, __ATOMIC_RELAXED);

		if (st == TS_DONE)
			continue;
		out[n].id = t->id;
		out[n].name = t->name;
		out[n].kind = st == TS_BLOCKED ?
			      (enum wait_kind)__atomic_load_n(&t->kind, __ATOMIC_RELAXED) :
			      WAIT_NONE;
		out[n].obj = __atomic_load_n(&t->obj, __ATOMIC_RELAXED);
		out[n].sleeping = st == TS_SLEEPING;
		n++;
	}
	return n;
}

enum det_outcome threads_run(void (*fn)(void *), void *arg,
			     const struct threads_config *c,
			     struct det_stats *st)
{
	cfg = *c;
	if (!cfg.ns_per_virtual_us)
		cfg.ns_per_virtual_us = 1;
	if (!cfg.watchdog_ms)
		cfg.watchdog_ms = 10000;
	memset(&stats, 0, sizeof(stats));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	dpm_eng = &threads_engine;

	pthread_mutex_lock(&pool_mtx);
	for (int i = 0; i < ntasks; i++) {
		pthread_cond_destroy(&tasks[i]->cv);
		free(tasks[i]);
	}
	ntasks = 0;
	dpm_fifo_clear(&unstarted);
	__atomic_store_n(&nunstarted, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&pool_mtx);
	th_spawn(fn, arg, "pm");

	struct timespec dl;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += cfg.watchdog_ms / 1000;
	dl.tv_nsec += (long)(cfg.watchdog_ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&pool_mtx);
	while (live) {
		struct timespec w;
		int sig = dpm_interrupted();

		if (sig) {
			pthread_mutex_unlock(&pool_mtx);
			interrupted(sig);
		}
		/* Look again in THREADS_POLL_MS at the latest: a signal may
		 * ask to stop (th_wait() wakes the host when every running
		 * task blocks while some wait unstarted). */
		clock_gettime(CLOCK_REALTIME, &w);
		w.tv_nsec += THREADS_POLL_MS * 1000000L;
		if (w.tv_nsec >= 1000000000L) {
			w.tv_sec++;
			w.tv_nsec -= 1000000000L;
		}
		if (w.tv_sec > dl.tv_sec ||
		    (w.tv_sec == dl.tv_sec && w.tv_nsec > dl.tv_nsec))
			w = dl;
		int rc = 0;

		if (!all_blocked()) {
			host_asleep = true;
			rc = pthread_cond_timedwait(&done_cv, &pool_mtx, &w);
			host_asleep = false;
		}
		if (all_blocked()) {
			if (rc == ETIMEDOUT)
				stats.late_starts++;
			run_on_thread(next_unstarted());
		}
		if (rc == ETIMEDOUT && live) {
			struct timespec now;

			clock_gettime(CLOCK_REALTIME, &now);
			if (now.tv_sec > dl.tv_sec ||
			    (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec))
				watchdog_fire();
		}
	}
	pthread_mutex_unlock(&pool_mtx);
	if (st)
		*st = stats;
	return DET_DONE;
}
