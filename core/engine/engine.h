/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The engine interface: who runs the model's tasks and decides which one
 * goes next.  kapi's primitives are written against this interface only,
 * so the variants run unchanged on any engine.
 *
 * Every primitive's state is protected by the lock of its wait queue (a
 * no-op on the det engine, where one task runs at a time).  A task blocks
 * by putting itself on the wait queue with wait() and is woken by
 * wake_all(), both called with that lock held.
 */
#ifndef DPM_ENGINE_H
#define DPM_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct task;

/* Room for a task's name ("async/12:0000:00:1f.3"), ending NUL included. */
#define DPM_TASK_NAME_MAX 48

/* A lock for one primitive's state: a real mutex on the threads engine,
 * untouched on the det engine (one task runs at a time). */
struct eng_lock {
	pthread_mutex_t m;
};

#define ENG_LOCK_INIT { PTHREAD_MUTEX_INITIALIZER }

/* Tasks blocked on one primitive, and the lock of that primitive. */
struct waitq {
	struct task *first;
	struct task *last;
	struct eng_lock lk;
};

#define WAITQ_INIT { NULL, NULL, ENG_LOCK_INIT }

static inline void waitq_init(struct waitq *wq)
{
	wq->first = wq->last = NULL;
	pthread_mutex_init(&wq->lk.m, NULL);
}

/* What a blocked task waits for, for deadlock and watchdog reports. */
enum wait_kind {
	WAIT_NONE,
	WAIT_COMPLETION,
	WAIT_MUTEX,
	WAIT_SEMAPHORE,
	WAIT_RWSEM_READ,
	WAIT_RWSEM_WRITE,
	WAIT_ASYNC_DRAIN,	/* async_synchronize_full() */
	WAIT_ASYNC_WORKER,	/* a queued job waiting for a free worker */
};

/* Ordering events, for interleaving feedback and the event record of
 * a logged run (see dpm_order_hook). */
enum order_event {
	ORDER_CHOICE,	/* a: chosen task id, b: number of candidates */
	ORDER_RELEASE,	/* a: waking task id, b: released task id */
	ORDER_BLOCK,	/* a: the running task, which blocks now, b: enum
			 * wait_kind (det_wait_obj() tells on what) */
	ORDER_UNBLOCK,	/* a: the running task, back from that wait, b:
			 * enum wait_kind */
};

struct dpm_engine {
	const char *name;
	bool concurrent;	/* tasks really run in parallel: take locks */
	/* Called with wq->lk held; returns with it held. */
	void (*wait)(struct waitq *wq, enum wait_kind kind, const void *obj);
	/* Called with wq->lk held. */
	void (*wake_all)(struct waitq *wq);
	/* A point where another task may be run instead of the caller. */
	void (*sched_point)(void);
	/* Start a task running fn(arg); name is copied. */
	void (*spawn)(void (*fn)(void *), void *arg, const char *name);
	/* Small integer naming the running task (0 = the first task). */
	int (*current_id)(void);
	const char *(*current_name)(void);
	uint64_t (*now)(void);		/* nanoseconds */
	void (*delay)(uint64_t ns);	/* the running task is busy this long */
	/* A violation was found: end the run (does not return). */
	void (*stop)(void) __attribute__((noreturn));
};

/* The engine of the run in progress. */
extern const struct dpm_engine *dpm_eng;

/* Optional observer of ordering events; NULL when nobody listens. */
extern void (*dpm_order_hook)(enum order_event ev, uint32_t a, uint32_t b);

/*
 * A request to stop: the number of the signal (SIGINT, SIGTERM) that
 * asked, else 0.  A program's signal handler sets it (tools/cli.h,
 * cli_catch_signals()), with an atomic store, the one thing it does;
 * the det engine ends its run at the next scheduling point
 * (DET_INTERRUPTED), the threads engine's host thread looks every
 * THREADS_POLL_MS, and the programs at their own safe points.
 */
extern int dpm_interrupt;

static inline int dpm_interrupted(void)
{
	return __atomic_load_n(&dpm_interrupt, __ATOMIC_RELAXED);
}

static inline void eng_lock(struct eng_lock *l)
{
	if (dpm_eng->concurrent)
		pthread_mutex_lock(&l->m);
}

static inline void eng_unlock(struct eng_lock *l)
{
	if (dpm_eng->concurrent)
		pthread_mutex_unlock(&l->m);
}
static inline void eng_sched_point(void) { dpm_eng->sched_point(); }

/*
 * A lock for the suite's own bookkeeping (the oracle, the run log) that
 * ThreadSanitizer does not see: neither its accesses nor its
 * synchronisation, so the oracle never hides a race of the model by
 * ordering two callbacks that the kernel would not order.
 */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DPM_QUIET_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define DPM_QUIET_TSAN 1
#endif
#ifdef DPM_QUIET_TSAN
void AnnotateIgnoreReadsBegin(const char *f, int l);
void AnnotateIgnoreReadsEnd(const char *f, int l);
void AnnotateIgnoreWritesBegin(const char *f, int l);
void AnnotateIgnoreWritesEnd(const char *f, int l);
void AnnotateIgnoreSyncBegin(const char *f, int l);
void AnnotateIgnoreSyncEnd(const char *f, int l);
#endif

/* How many quiet locks this thread holds: a thread that ends the process
 * inside one (a violation found by the oracle) first tells TSan the
 * ignored regions are over (threads.c), or TSan reports them at exit. */
extern _Thread_local int dpm_quiet_depth;

static inline void quiet_lock(int *l)
{
	if (!dpm_eng->concurrent)
		return;
#ifdef DPM_QUIET_TSAN
	AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
	AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			;
	dpm_quiet_depth++;
}

static inline void quiet_unlock(int *l)
{
	if (!dpm_eng->concurrent)
		return;
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
	dpm_quiet_depth--;
#ifdef DPM_QUIET_TSAN
	AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
	AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
#endif
}

#endif
