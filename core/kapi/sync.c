// SPDX-License-Identifier: GPL-2.0-only
/* Completions, mutexes, semaphores and rw_semaphores on the engine. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "kapi.h"

void (*kapi_obj_check)(const void *obj, const char *op);

void kapi_bug(const char *what)
{
	fprintf(stderr, "dpmfuzz: kapi misuse: %s\n", what);
	abort();
}

void init_completion(struct completion *x)
{
	x->done = 0;
	x->wait.first = x->wait.last = NULL;
}

void reinit_completion(struct completion *x)
{
	KAPI_CHECK(x, "reinit_completion");
	eng_lock();
	x->done = 0;
	eng_unlock();
}

void complete(struct completion *x)
{
	KAPI_CHECK(x, "complete");
	eng_lock();
	if (x->done != UINT_MAX)
		x->done++;
	dpm_eng->wake_all(&x->wait);
	eng_unlock();
	eng_sched_point();
}

void complete_all(struct completion *x)
{
	KAPI_CHECK(x, "complete_all");
	eng_lock();
	x->done = UINT_MAX;
	dpm_eng->wake_all(&x->wait);
	eng_unlock();
	eng_sched_point();
}

void wait_for_completion(struct completion *x)
{
	KAPI_CHECK(x, "wait_for_completion");
	eng_sched_point();
	eng_lock();
	while (!x->done)
		dpm_eng->wait(&x->wait, WAIT_COMPLETION, x);
	if (x->done != UINT_MAX)
		x->done--;
	eng_unlock();
}

bool completion_done(struct completion *x)
{
	KAPI_CHECK(x, "completion_done");
	eng_lock();
	bool d = x->done != 0;

	eng_unlock();
	return d;
}

void mutex_init(struct mutex *m)
{
	m->owner = 0;
	m->wait.first = m->wait.last = NULL;
}

void mutex_lock(struct mutex *m)
{
	KAPI_CHECK(m, "mutex_lock");
	int me = dpm_eng->current_id() + 1;

	eng_sched_point();
	eng_lock();
	if (m->owner == me)
		kapi_bug("mutex_lock: recursive locking");
	while (m->owner)
		dpm_eng->wait(&m->wait, WAIT_MUTEX, m);
	m->owner = me;
	eng_unlock();
}

void mutex_unlock(struct mutex *m)
{
	KAPI_CHECK(m, "mutex_unlock");
	eng_lock();
	if (m->owner != dpm_eng->current_id() + 1)
		kapi_bug("mutex_unlock: not the owner");
	m->owner = 0;
	dpm_eng->wake_all(&m->wait);
	eng_unlock();
	eng_sched_point();
}

bool mutex_is_locked(struct mutex *m)
{
	eng_lock();
	bool l = m->owner != 0;

	eng_unlock();
	return l;
}

void sema_init(struct semaphore *s, int count)
{
	s->count = count;
	s->wait.first = s->wait.last = NULL;
}

void down(struct semaphore *s)
{
	KAPI_CHECK(s, "down");
	eng_sched_point();
	eng_lock();
	while (s->count <= 0)
		dpm_eng->wait(&s->wait, WAIT_SEMAPHORE, s);
	s->count--;
	eng_unlock();
}

void up(struct semaphore *s)
{
	KAPI_CHECK(s, "up");
	eng_lock();
	s->count++;
	dpm_eng->wake_all(&s->wait);
	eng_unlock();
	eng_sched_point();
}

void init_rwsem(struct rw_semaphore *s)
{
	s->readers = 0;
	s->writer = false;
	s->wait.first = s->wait.last = NULL;
}

void down_read(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "down_read");
	eng_sched_point();
	eng_lock();
	while (s->writer)
		dpm_eng->wait(&s->wait, WAIT_RWSEM_READ, s);
	s->readers++;
	eng_unlock();
}

void up_read(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "up_read");
	eng_lock();
	if (s->readers <= 0)
		kapi_bug("up_read: not read-locked");
	if (--s->readers == 0)
		dpm_eng->wake_all(&s->wait);
	eng_unlock();
	eng_sched_point();
}

void down_write(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "down_write");
	eng_sched_point();
	eng_lock();
	while (s->writer || s->readers)
		dpm_eng->wait(&s->wait, WAIT_RWSEM_WRITE, s);
	s->writer = true;
	eng_unlock();
}

void up_write(struct rw_semaphore *s)
{
	KAPI_CHECK(s, "up_write");
	eng_lock();
	if (!s->writer)
		kapi_bug("up_write: not write-locked");
	s->writer = false;
	dpm_eng->wake_all(&s->wait);
	eng_unlock();
	eng_sched_point();
}
