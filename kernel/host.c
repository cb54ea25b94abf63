// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host side of kernel/kabi.h: what a kernel tree's code may ask of
 * dpmfuzz, on core/engine's running engine and core/kapi's run log.
 * Built in the project world; the kernel side calls kapi's mutexes,
 * completions and async jobs by their kernel names, through opaque
 * objects whose size this file checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kapi/kapi.h"
#include "util/nocov.h"
#include "util/quarantine.h"
#include "../kernel/kabi.h"

/* The shim's struct mutex and struct completion are blobs of these sizes
 * (kernel/shim/linux/mutex.h, completion.h); their alignment is 8. */
_Static_assert(sizeof(struct mutex) == DPMK_SIZEOF_MUTEX,
	       "kabi: DPMK_SIZEOF_MUTEX is not kapi's struct mutex");
_Static_assert(sizeof(struct completion) == DPMK_SIZEOF_COMPLETION,
	       "kabi: DPMK_SIZEOF_COMPLETION is not kapi's struct completion");
_Static_assert(_Alignof(struct mutex) <= 8 && _Alignof(struct completion) <= 8,
	       "kabi: the shim's blobs are 8-byte aligned");
/* All zero bytes must be an unlocked mutex and a completion not done:
 * main.c's DEFINE_MUTEX is zero in the shim.  The owner, handoff and
 * done fields are checked here; the wait queue's lock is
 * PTHREAD_MUTEX_INITIALIZER, checked below once at start-up. */
_Static_assert(offsetof(struct mutex, owner) == 0 &&
	       offsetof(struct mutex, handoff) == sizeof(int),
	       "kabi: kapi's mutex layout changed (owner 0 = unlocked)");
_Static_assert(offsetof(struct completion, done) == 0,
	       "kabi: kapi's completion layout changed (done 0 = not done)");

static const DEFINE_MUTEX(zero_mutex_model);

__attribute__((constructor)) static void dpmk_host_check_zero_objects(void)
{
	static const char zero[DPMK_SIZEOF_MUTEX];
	struct completion c = { 0, WAITQ_INIT };

	if (memcmp(&zero_mutex_model, zero, sizeof(zero_mutex_model)) ||
	    memcmp(&c, zero, sizeof(c))) {
		fputs("dpmfuzz: kapi's unlocked mutex or fresh completion is not all zero bytes (kernel/kabi.h)\n",
		      stderr);
		abort();
	}
}

void dpmk_host_delay_us(unsigned long long us)
{
	dpm_eng->delay(us * NSEC_PER_USEC);
}

void dpmk_host_sched_point(void)
{
	eng_sched_point();
}

int dpmk_host_task_id(void)
{
	return dpm_eng->current_id();
}

void *dpmk_host_mutex_taken_by(void (*fn)(void))
{
	return kapi_mutex_taken_by(fn);
}

int dpmk_host_mutex_mine(void *m)
{
	return mutex_is_mine(m);
}

const char *dpmk_host_task_name(void)
{
	return dpm_eng->current_name();
}

unsigned long long dpmk_host_now_ns(void)
{
	return dpm_eng->now();
}

int dpmk_host_concurrent(void)
{
	return dpm_eng->concurrent;
}

int dpmk_host_log_enabled(void)
{
	return dpm_log_enabled;
}

void dpmk_host_log(const char *line)
{
	if (dpm_log_enabled)
		pm_printk("%s", line);
}

void dpmk_host_bug(const char *what)
{
	fprintf(stderr, "dpmfuzz: kernel shim bug: %s\n", what);
	abort();
}

void dpmk_host_spawn(void (*fn)(void *), void *arg, const char *name)
{
	dpm_eng->spawn(fn, arg, name);
}

static int mutant_id;

/* DPMFUZZ_MUTANT: a whole number (a schemata build's mutant id); anything
 * else is a mistake that would silently test the unmutated code. */
__attribute__((constructor)) static void dpmk_host_read_mutant(void)
{
	const char *s = getenv("DPMFUZZ_MUTANT");
	char *end;
	long v;

	if (!s || !*s)
		return;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 1000000) {
		fprintf(stderr, "dpmfuzz: DPMFUZZ_MUTANT wants a mutant id (a whole number), not '%s'\n", s);
		exit(2);
	}
	mutant_id = (int)v;
}

int dpmk_host_mutant(void)
{
	return mutant_id;
}

void dpmk_host_set_mutant(int id)
{
	mutant_id = id;
}

int dpmk_tree_mutants(const struct dpmk_tree *tree)
{
	return tree->schemata_last ? *tree->schemata_last : 0;
}

void dpmk_host_check_mutant(const struct dpmk_tree *tree)
{
	int last = dpmk_tree_mutants(tree);

	if (mutant_id == 0 || mutant_id <= last)
		return;
	if (last)
		fprintf(stderr, "dpmfuzz: mutant %d: kernel %s's schemata hold mutants 1 to %d only\n",
			mutant_id, tree->version, last);
	else
		fprintf(stderr, "dpmfuzz: mutant %d: kernel %s was built from a plain main.c, not the schemata\n",
			mutant_id, tree->version);
	/* Mid-run: what the run holds is not a leak for LeakSanitizer. */
	fflush(stderr);
	_exit(2);
}

/* ---- the run's freed devices ---- */

static struct quarantine freed;

void dpmk_host_quarantine_init(unsigned long size, int n)
{
	quarantine_release(&freed);
	quarantine_init(&freed, size, n);
}

void dpmk_host_quarantine_add(int idx, void *obj)
{
	quarantine_add(&freed, idx, obj);
}

DPM_NO_COVERAGE
int dpmk_host_quarantine_find(const void *p)
{
	int idx;

	return quarantine_find(&freed, p, &idx) ? idx : -1;
}

void *dpmk_host_quarantine_at(int idx)
{
	return quarantine_at(&freed, idx);
}

void dpmk_host_quarantine_release(void)
{
	quarantine_release(&freed);
}
