// SPDX-License-Identifier: GPL-2.0-only
/* Completions, mutexes, semaphores and rw_semaphores on the engine. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "kapi.h"

void (*kapi_obj_check)(const void *obj, const char *op);
void (*kapi_access_hook)(const void *obj, long idx, enum kapi_acc acc);
void (*kapi_mem_hook)(const void *p, unsigned long size, int write);

void kapi_bug(const char *what)
{
	fprintf(stderr, "dpmfuzz: kapi misuse: %s\n", what);
	abort();
}

void init_completion(struct completion *x)
{
	x->done = 0;
	waitq_init(&x->wait);
}

void reinit_completion(struct completion *x)
{
	KAPI_CHECK(x, "reinit_completion");
	eng_lock(&x->wait.lk);
	KAPI_ACCESS(x, x->done ? KACC_DISABLE : KACC_WRITE);
	x->done = 0;
	eng_unlock(&x->wait.lk);
}

void complete(struct completion *x)
{
	KAPI_CHECK(x, "complete");
	eng_lock(&x->wait.lk);
	KAPI_ACCESS(x, x->done ? KACC_WRITE : KACC_WAKE);
	if (x->done != UINT_MAX)
		x->done++;
	dpm_eng->wake_all(&x->wait);
	eng_unlock(&x->wait.lk);
	eng_sched_point();
}

void complete_all(struct completion *x)
{
	KAPI_CHECK(x, "complete_all");
	eng_lock(&x->wait.lk);
	KAPI_ACCESS(x, x->done ? KACC_WRITE : KACC_WAKE);
	x->done = UINT_MAX;
	dpm_eng->wake_all(&x->wait);
	eng_unlock(&x->wait.lk);
	eng_sched_point();
}

void wait_for_completion(struct completion *x)
{
	KAPI_CHECK(x, "wait_for_completion");
	eng_sched_point();
	eng_lock(&x->wait.lk);
	while (!x->done) {
		dpm_eng->wait(&x->wait, WAIT_COMPLETION, x);
		/* Woken, the waiter reads x again: x may have been freed
		 * while it slept (the kernel's waiter touches x's lock and
		 * count then too). */
		KAPI_CHECK(x, "wait_for_completion");
	}
	/* Taking one count of a complete() writes; passing a complete_all()
	 * reads. */
	KAPI_ACCESS(x, x->done != UINT_MAX ? KACC_PASS_WRITE : KACC_PASS);
	if (x->done != UINT_MAX)
		x->done--;
	eng_unlock(&x->wait.lk);
}

bool completion_done(struct completion *x)
{
	KAPI_CHECK(x, "completion_done");
	eng_lock(&x->wait.lk);
	KAPI_ACCESS(x, KACC_READ);
	bool d = x->done != 0;

	eng_unlock(&x->wait.lk);
	return d;
}

void mutex_init(struct mutex *m)
{
	m->owner = 0;
	m->handoff = 0;
	waitq_init(&m->wait);
}

/* kapi_mutex_taken_by(): while fn runs, the first mutex it takes. */
static bool mutex_capture;
static struct mutex *mutex_captured;

void mutex_lock(struct mutex *m)
{
	KAPI_CHECK(m, "mutex_lock");
	int me = dpm_eng->current_id() + 1;

	KAPI_ACCESS(m, KACC_TAKE_NEXT);
	eng_sched_point();
	eng_lock(&m->wait.lk);
	/* A task taking a mutex it holds waits forever, as in the kernel:
	 * the engine reports the deadlock. */
	if (m->owner == me)
		for (;;)
			dpm_eng->wait(&m->wait, WAIT_MUTEX, m);
	bool woken = false;

	/* owner == me: an unlock handed the lock over (MUTEX_FLAG_HANDOFF). */
	while (m->owner && m->owner != me) {
		if (woken && !m->handoff) {
			m->handoff = me;
			KAPI_ACCESS(m, KACC_WRITE);
		}
		dpm_eng->wait(&m->wait, WAIT_MUTEX, m);
		woken = true;
	}
	KAPI_ACCESS(m, KACC_LOCK);
	m->owner = me;
	if (m->handoff == me)
		m->handoff = 0;
	eng_unlock(&m->wait.lk);
	if (__atomic_load_n(&mutex_capture, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&mutex_captured, __ATOMIC_RELAXED))
		__atomic_store_n(&mutex_captured, m, __ATOMIC_RELAXED);
}

void mutex_unlock(struct mutex *m)
{
	KAPI_CHECK(m, "mutex_unlock");
	eng_lock(&m->wait.lk);
	KAPI_ACCESS(m, KACC_UNLOCK);
	if (m->owner != dpm_eng->current_id() + 1)
		kapi_bug("mutex_unlock: not the owner");
	m->owner = m->handoff;
	dpm_eng->wake_all(&m->wait);
	eng_unlock(&m->wait.lk);
	eng_sched_point();
}

bool mutex_is_mine(struct mutex *m)
{
	eng_lock(&m->wait.lk);
	bool l = m->owner == dpm_eng->current_id() + 1;

	eng_unlock(&m->wait.lk);
	return l;
}


struct mutex *kapi_mutex_taken_by(void (*fn)(void))
{
	struct mutex *m;

	__atomic_store_n(&mutex_captured, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&mutex_capture, true, __ATOMIC_RELAXED);
	fn();
	__atomic_store_n(&mutex_capture, false, __ATOMIC_RELAXED);
	m = __atomic_load_n(&mutex_captured, __ATOMIC_RELAXED);
	return m;
}

bool mutex_is_locked(struct mutex *m)
{
	eng_lock(&m->wait.lk);
	bool l = m->owner != 0;

	eng_unlock(&m->wait.lk);
	return l;
}

void sema_init(struct semaphore *s, int count)
{
	s->count = count;
	waitq_init(&s->wait);
}

void down(struct semaphore *s)
{
	KAPI_CHECK(s, "down");
	KAPI_ACCESS(s, KACC_TAKE_NEXT);
	eng_sched_point();
	eng_lock(&s->wait.lk);
	while (s->count <= 0)
		dpm_eng->wait(&s->wait, WAIT_SEMAPHORE, s);
	KAPI_ACCESS(s, s->count == 1 ? KACC_PASS_DISABLE : KACC_PASS_WRITE);
	s->count--;
	eng_unlock(&s->wait.lk);
}

void up(struct semaphore *s)
{
	KAPI_CHECK(s, "up");
	eng_lock(&s->wait.lk);
	KAPI_ACCESS(s, s->count <= 0 ? KACC_WAKE : KACC_WRITE);
	s->count++;
	dpm_eng->wake_all(&s->wait);
	eng_unlock(&s->wait.lk);
	eng_sched_point();
}

void init_rwsem(struct rw_semaphore *s)
{
	s->readers = 0;
	s->writer = false;
	waitq_init(&s->wait);
}

void down_read(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "down_read");
	eng_sched_point();
	eng_lock(&s->wait.lk);
	while (s->writer)
		dpm_eng->wait(&s->wait, WAIT_RWSEM_READ, s);
	/* Readers only count themselves in: two down_read()s commute. */
	KAPI_ACCESS(s, KACC_PASS);
	s->readers++;
	eng_unlock(&s->wait.lk);
}

void up_read(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "up_read");
	eng_lock(&s->wait.lk);
	KAPI_ACCESS(s, KACC_WRITE);
	if (s->readers <= 0)
		kapi_bug("up_read: not read-locked");
	if (--s->readers == 0)
		dpm_eng->wake_all(&s->wait);
	eng_unlock(&s->wait.lk);
	eng_sched_point();
}

void down_write(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "down_write");
	eng_sched_point();
	eng_lock(&s->wait.lk);
	while (s->writer || s->readers)
		dpm_eng->wait(&s->wait, WAIT_RWSEM_WRITE, s);
	KAPI_ACCESS(s, KACC_PASS_DISABLE);
	s->writer = true;
	eng_unlock(&s->wait.lk);
}

void up_write(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "up_write");
	eng_lock(&s->wait.lk);
	/* Readers and writers wait for no writer: now there is none.  (An
	 * up_read() lets only writers through, who wait for no readers as
	 * well: a reader passing after it could have passed before.) */
	KAPI_ACCESS(s, KACC_WAKE);
	if (!s->writer)
		kapi_bug("up_write: not write-locked");
	s->writer = false;
	dpm_eng->wake_all(&s->wait);
	eng_unlock(&s->wait.lk);
	eng_sched_point();
}
