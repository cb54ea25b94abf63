/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The engine interface: who runs the model's tasks and decides which one
 * goes next.  kapi's primitives are written against this interface only,
 * so the variants run unchanged on any engine.
 *
 * Every primitive's state is protected by the engine lock (a no-op on the
 * det engine, where one task runs at a time).  A task blocks by putting
 * itself on a wait queue with eng_wait() and is woken by eng_wake_all().
 */
#ifndef DPM_ENGINE_H
#define DPM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct task;

struct waitq {
	struct task *first;
	struct task *last;
};

#define WAITQ_INIT { NULL, NULL }

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

/* Ordering events, for interleaving feedback (see dpm_order_hook). */
enum order_event {
	ORDER_CHOICE,	/* a: chosen task id, b: number of candidates */
	ORDER_RELEASE,	/* a: waking task id, b: released task id */
};

struct dpm_engine {
	const char *name;
	void (*lock)(void);
	void (*unlock)(void);
	/* Called with the engine lock held; returns with it held. */
	void (*wait)(struct waitq *wq, enum wait_kind kind, const void *obj);
	/* Called with the engine lock held. */
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

static inline void eng_lock(void) { dpm_eng->lock(); }
static inline void eng_unlock(void) { dpm_eng->unlock(); }
static inline void eng_sched_point(void) { dpm_eng->sched_point(); }

#endif
