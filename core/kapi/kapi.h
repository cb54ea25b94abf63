/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel primitives in user space, with the kernel's names, signatures
 * and meanings: completions, mutexes, semaphores, rw_semaphores, the
 * async_schedule() family, ktime and printk.  They are built on the
 * engine interface, so the same model code runs on every engine.
 *
 * Scheduling points sit where the kernel's primitive may block or makes
 * state visible to other tasks: before a wait, after a release.
 */
#ifndef DPM_KAPI_H
#define DPM_KAPI_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/engine.h"
#include "access.h"
#include "list.h"

typedef int64_t ktime_t;
typedef uint64_t async_cookie_t;
typedef void (*async_func_t)(void *data, async_cookie_t cookie);

#define EINVAL 22
#define EIO 5
#define EBUSY 16
#define EAGAIN 11
#define ENOMEM 12
#define ENODEV 19

/* ---- completion ---- */
struct completion {
	unsigned int done;
	struct waitq wait;
};

void init_completion(struct completion *x);
void reinit_completion(struct completion *x);
/* 2.6.33 spelling of reinit_completion(). */
#define INIT_COMPLETION(x) reinit_completion(&(x))
void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

/* ---- mutex: owned, released by its owner only.  As the kernel's, it
 * does not starve a waiter: one that was woken and still lost the lock
 * asks for a handoff, and the next unlock gives it the lock directly. ---- */
struct mutex {
	int owner;		/* engine task id + 1, 0 when free */
	int handoff;		/* task id + 1 the next unlock hands it to */
	struct waitq wait;
};

#define DEFINE_MUTEX(m) struct mutex m = { 0, 0, WAITQ_INIT }
void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_locked(struct mutex *m);
/* Held by the calling task. */
bool mutex_is_mine(struct mutex *m);
/* Runs fn and returns the first mutex it took (NULL: none): how the
 * kernel variants find main.c's static dpm_list_mtx (device_pm_lock()). */
struct mutex *kapi_mutex_taken_by(void (*fn)(void));

/* ---- counting semaphore (2.6.33's dev->sem) ---- */
struct semaphore {
	int count;
	struct waitq wait;
};

void sema_init(struct semaphore *s, int count);
void down(struct semaphore *s);
void up(struct semaphore *s);

/* ---- rw_semaphore: may be released by another task, like the kernel's
 * non-owner variants that Linus's proposal needs ---- */
struct rw_semaphore {
	int readers;
	bool writer;
	struct waitq wait;
};

void init_rwsem(struct rw_semaphore *s);
void down_read(struct rw_semaphore *s);
void up_read(struct rw_semaphore *s);
void down_write(struct rw_semaphore *s);
void up_write(struct rw_semaphore *s);

/* ---- async ---- */
struct async_config {
	/* Every Nth async_schedule() call finds no memory for its entry and
	 * runs the job synchronously, as the kernel does (0: never). */
	unsigned int inline_every;
	/* At most this many jobs run at once; later ones wait in queue
	 * order (0: no limit). */
	unsigned int worker_limit;
};

void async_reset(const struct async_config *cfg);
async_cookie_t async_schedule(async_func_t func, void *data);
/* Queue the job, or return false without running it (no memory). */
bool async_schedule_dev_nocall(async_func_t func, void *data);
void async_synchronize_full(void);
/* Names async tasks after their data (set by the device layer). */
extern const char *(*async_label)(void *data);

/* ---- time and printing ---- */
ktime_t ktime_get(void);
static inline ktime_t ktime_sub(ktime_t a, ktime_t b) { return a - b; }
static inline int64_t ktime_to_ns(ktime_t t) { return t; }
#define USEC_PER_MSEC 1000ULL
#define NSEC_PER_USEC 1000ULL

/* The run log: off in fuzzing (the hot path), on when a run is replayed
 * for a report. */
extern bool dpm_log_enabled;
void dpm_log_reset(void);
const char *dpm_log_text(void);
void pm_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define pr_info(...) do { if (dpm_log_enabled) pm_printk(__VA_ARGS__); } while (0)
#define pr_debug(...) pr_info(__VA_ARGS__)


/*
 * Set by the device layer: called with every object a primitive is about
 * to touch, so a completion or lock inside freed memory is reported
 * (use after free) instead of silently read.
 */
extern void (*kapi_obj_check)(const void *obj, const char *op);
#define KAPI_CHECK(obj, op)                              \
	do {                                             \
		void (*_c)(const void *, const char *) = \
			__atomic_load_n(&kapi_obj_check, \
					__ATOMIC_ACQUIRE); \
		if (_c)                                  \
			_c((obj), (op));                 \
		KAPI_ACCESS((obj), KACC_MEM);            \
	} while (0)

/* A broken rule of a kapi primitive is a model bug: say so and abort. */
void kapi_bug(const char *what) __attribute__((noreturn));

#endif
