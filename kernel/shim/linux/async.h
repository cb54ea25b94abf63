/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: async jobs are dpmfuzz's own (core/kapi/async.c),
 * linked by name: each job is an engine task; the scenario's worker limit
 * and injected allocation failures apply.
 */
#ifndef _DPMSHIM_LINUX_ASYNC_H
#define _DPMSHIM_LINUX_ASYNC_H

#include <linux/types.h>
#include <dpmshim/host.h>

struct device;

typedef u64 async_cookie_t;
typedef void (*async_func_t)(void *data, async_cookie_t cookie);

async_cookie_t async_schedule(async_func_t func, void *data);
bool async_schedule_dev_nocall(async_func_t func, struct device *dev);
void async_synchronize_full(void);

/* LOCKS: main.c waits only without dpm_list_mtx. */
#ifdef DPMK_IN_MAIN_C
#define async_synchronize_full()					\
	(DPMK_MAIN_UNLOCKED("waits in async_synchronize_full()"),	\
	 (async_synchronize_full)())
#endif

/* Before 6.8 main.c queued its jobs with this: when no entry can be
 * allocated the job runs right here, in the caller (kapi's
 * async_schedule() does that every inline_every-th call). */
static inline async_cookie_t async_schedule_dev(async_func_t func,
						struct device *dev)
{
	return async_schedule(func, dev);
}

#endif
