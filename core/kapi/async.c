// SPDX-License-Identifier: GPL-2.0-only
/*
 * async_schedule() and async_synchronize_full(): every job runs as its
 * own engine task.  With a worker limit, jobs start in the order they
 * were queued, as the kernel's async worker pool takes its entries.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kapi.h"
#include "../util/xalloc.h"

const char *(*async_label)(void *data);

struct async_entry {
	async_func_t func;
	void *data;
	async_cookie_t cookie;
	unsigned long ticket;	/* queue position among queued jobs */
	struct async_entry *next;
	struct list_head in_use;
};

/* Entries of jobs not finished; an abandoned run's are reclaimed.  Only
 * async_reset() reads it: the exhaustive search need not see it. */
static LIST_HEAD(in_use);

static struct async_config cfg;
static unsigned long calls;
static async_cookie_t next_cookie;
static unsigned long next_ticket, next_to_start;	/* queue order */
static unsigned int running;
static unsigned int pending;
/* One wait queue, whose lock guards all the state here, for both kinds of
 * waiters: they recheck their condition when woken. */
static struct waitq aq = WAITQ_INIT;
static struct async_entry *free_entries;

void async_reset(const struct async_config *c)
{
	cfg = *c;
	while (!list_empty(&in_use)) {
		struct async_entry *e = list_entry(in_use.next,
						   struct async_entry, in_use);

		list_del_init(&e->in_use);
		e->next = free_entries;
		free_entries = e;
	}
	calls = 0;
	next_cookie = 1;
	next_ticket = 0;
	next_to_start = 0;
	running = 0;
	pending = 0;
	waitq_init(&aq);
}

/* A job queued or finished: without a worker limit or injected failures
 * only the count of pending jobs changes, which only
 * async_synchronize_full() reads (a job's start touches nothing then);
 * with them, the order of calls and starts matters. */
static void async_access(void)
{
	KAPI_ACCESS(&aq, cfg.worker_limit || cfg.inline_every ? KACC_WRITE :
							       KACC_ADD);
}

static void async_run_entry(void *arg)
{
	struct async_entry *e = arg;

	eng_lock(&aq.lk);
	if (cfg.worker_limit) {
		while (e->ticket != next_to_start ||
		       running >= cfg.worker_limit)
			dpm_eng->wait(&aq, WAIT_ASYNC_WORKER, e);
		KAPI_ACCESS(&aq, KACC_WRITE);
		next_to_start++;
		dpm_eng->wake_all(&aq);
	}
	running++;
	eng_unlock(&aq.lk);

	e->func(e->data, e->cookie);

	eng_lock(&aq.lk);
	/* Before any job ends, async_synchronize_full() cannot pass. */
	if (!cfg.worker_limit && !cfg.inline_every)
		KAPI_ACCESS(&aq, KACC_ADD_WAKE);
	else
		async_access();
	running--;
	pending--;
	dpm_eng->wake_all(&aq);
	list_del_init_quiet(&e->in_use);
	e->next = free_entries;
	free_entries = e;
	eng_unlock(&aq.lk);
}

/* Queue a job; false (nothing queued) when the injected allocation
 * failure hits this call. */
static bool async_queue(async_func_t func, void *data, async_cookie_t *ck)
{
	eng_lock(&aq.lk);
	async_access();
	async_cookie_t cookie = next_cookie++;

	*ck = cookie;
	calls++;
	if (cfg.inline_every && calls % cfg.inline_every == 0) {
		eng_unlock(&aq.lk);
		return false;
	}
	struct async_entry *e = free_entries;

	if (e) {
		free_entries = e->next;
	} else {
		e = dpm_xrealloc(NULL, 1, sizeof(*e));
	}
	e->func = func;
	e->data = data;
	e->cookie = cookie;
	e->ticket = next_ticket++;
	list_add_tail_quiet(&e->in_use, &in_use);
	pending++;
	eng_unlock(&aq.lk);

	char name[DPM_TASK_NAME_MAX];
	const char *label = async_label ? async_label(data) : NULL;

	if (label)
		snprintf(name, sizeof(name), "async/%llu:%s",
			 (unsigned long long)cookie, label);
	else
		snprintf(name, sizeof(name), "async/%llu",
			 (unsigned long long)cookie);
	dpm_eng->spawn(async_run_entry, e, name);
	eng_sched_point();
	return true;
}

async_cookie_t async_schedule(async_func_t func, void *data)
{
	async_cookie_t cookie;

	/* No memory for an entry: the kernel runs the job right here. */
	if (!async_queue(func, data, &cookie))
		func(data, cookie);
	return cookie;
}

bool async_schedule_dev_nocall(async_func_t func, void *data)
{
	async_cookie_t cookie;

	return async_queue(func, data, &cookie);
}

void async_synchronize_full(void)
{
	eng_sched_point();
	eng_lock(&aq.lk);
	while (pending)
		dpm_eng->wait(&aq, WAIT_ASYNC_DRAIN, &aq);
	KAPI_ACCESS(&aq, KACC_PASS);
	eng_unlock(&aq.lk);
}
