// SPDX-License-Identifier: GPL-2.0-only
/*
 * The det engine: exact deadlock detection with what each task waits for,
 * deterministic runs, schedule bytes that pick the next task, virtual
 * time, the step limit, and ordering events.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/det.h"
#include "engine/threads.h"
#include "kapi/kapi.h"
#include "expect.h"

static enum det_outcome run(void (*fn)(void *), void *arg, const uint8_t *s,
			    size_t n, struct det_stats *st)
{
	struct det_config c = { s, n, 10000 };

	return det_run(fn, arg, &c, st);
}

/* Two tasks, each waiting for the other's completion. */
static struct completion ca, cb;

static void side_a(void *arg)
{
	wait_for_completion(&cb);
	complete_all(&ca);
}

static void side_b(void *arg)
{
	wait_for_completion(&ca);
	complete_all(&cb);
}

static void deadlock_main(void *arg)
{
	init_completion(&ca);
	init_completion(&cb);
	dpm_eng->spawn(side_a, NULL, "a");
	dpm_eng->spawn(side_b, NULL, "b");
}

static void test_deadlock(void)
{
	struct det_task_info ti[8];

	EXPECT_EQ(run(deadlock_main, NULL, NULL, 0, NULL), DET_DEADLOCK);
	int n = det_unfinished(ti, 8);

	EXPECT_EQ(n, 2);
	EXPECT_STR_EQ(ti[0].name, "a");
	EXPECT_EQ(ti[0].kind, WAIT_COMPLETION);
	EXPECT_TRUE(ti[0].obj == &cb);
	EXPECT_STR_EQ(ti[1].name, "b");
	EXPECT_TRUE(ti[1].obj == &ca);
}

/* Three tasks append their letter at each step; the order is the trace. */
static char trace[64];
static int ntrace;

static void stepper(void *arg)
{
	for (int i = 0; i < 3; i++) {
		trace[ntrace++] = *(const char *)arg;
		eng_sched_point();
	}
}

static void steps_main(void *arg)
{
	dpm_eng->spawn(stepper, "x", "x");
	dpm_eng->spawn(stepper, "y", "y");
	dpm_eng->spawn(stepper, "z", "z");
}

static const char *steps(const uint8_t *s, size_t n)
{
	ntrace = 0;
	run(steps_main, NULL, s, n, NULL);
	trace[ntrace] = '\0';
	return trace;
}

static void test_schedule(void)
{
	static const uint8_t s1[] = { 2, 1, 0, 1, 1, 1, 2, 0, 1, 1 };
	char first[64];

	/* No bytes: a task runs until it blocks or ends, then FIFO. */
	EXPECT_STR_EQ(steps(NULL, 0), "xxxyyyzzz");
	/* The same bytes give the same interleaving, twice. */
	snprintf(first, sizeof(first), "%s", steps(s1, sizeof(s1)));
	EXPECT_STR_EQ(steps(s1, sizeof(s1)), first);
	/* Bytes change the interleaving. */
	EXPECT_TRUE(strcmp(first, "xxxyyyzzz") != 0);
	/* Byte b picks candidate b % n.  When the first task ends, the
	 * candidates are x, y, z (queue order): 1 picks y, which then runs
	 * on (no bytes left), then x and z in queue order. */
	static const uint8_t pick_y[] = { 1 };

	EXPECT_STR_EQ(steps(pick_y, 1), "yyyxxxzzz");
	/* At a scheduling point the running task is candidate 0.  Here 0
	 * picks x first, 0 keeps it running at its first point, 2 (of x, y,
	 * z) switches to z at its second; x, preempted, queues behind y. */
	static const uint8_t keep_then_z[] = { 0, 0, 2 };

	EXPECT_STR_EQ(steps(keep_then_z, 3), "xxzzzyyyx");
}

/* Virtual time: the shorter sleeper wakes first, time jumps. */
static uint64_t woke[2];

static void sleeper(void *arg)
{
	long i = (long)arg;

	dpm_eng->delay(i ? 5000 : 9000);
	woke[i] = dpm_eng->now();
	trace[ntrace++] = (char)('0' + i);
}

static void time_main(void *arg)
{
	dpm_eng->spawn(sleeper, (void *)0L, "s0");
	dpm_eng->spawn(sleeper, (void *)1L, "s1");
}

static void test_time(void)
{
	ntrace = 0;
	EXPECT_EQ(run(time_main, NULL, NULL, 0, NULL), DET_DONE);
	EXPECT_EQ(woke[1], 5000);
	EXPECT_EQ(woke[0], 9000);
	EXPECT_EQ(trace[0], '1');
}

static void spinner(void *arg)
{
	for (;;)
		eng_sched_point();
}

static void test_step_limit(void)
{
	struct det_stats st;

	EXPECT_EQ(run(spinner, NULL, NULL, 0, &st), DET_STEP_LIMIT);
	EXPECT_EQ(st.steps, 10001);
}

/* Ordering events: who released whom. */
static int releases[4][2], nrel;

static void hook(enum order_event ev, uint32_t a, uint32_t b)
{
	if (ev == ORDER_RELEASE && nrel < 4) {
		releases[nrel][0] = (int)a;
		releases[nrel][1] = (int)b;
		nrel++;
	}
}

static void rel_waiter(void *arg)
{
	wait_for_completion(&ca);
}

static void rel_main(void *arg)
{
	init_completion(&ca);
	dpm_eng->spawn(rel_waiter, NULL, "w");
	dpm_eng->delay(10);
	complete_all(&ca);
}

static void test_order_events(void)
{
	nrel = 0;
	dpm_order_hook = hook;
	EXPECT_EQ(run(rel_main, NULL, NULL, 0, NULL), DET_DONE);
	dpm_order_hook = NULL;
	EXPECT_EQ(nrel, 1);
	EXPECT_EQ(releases[0][0], 0);	/* the first task released */
	EXPECT_EQ(releases[0][1], 1);	/* the waiter */
}

/* Many tasks and runs reuse fibers without leaking or mixing them up. */
static int finished;

static void tiny(void *arg)
{
	eng_sched_point();
	finished++;
}

static void many_main(void *arg)
{
	for (int i = 0; i < 200; i++)
		dpm_eng->spawn(tiny, NULL, "t");
}

static void test_reuse(void)
{
	static const uint8_t s[] = { 7, 3, 9, 1, 4, 4, 8, 2 };

	finished = 0;
	for (int r = 0; r < 50; r++)
		EXPECT_EQ(run(many_main, NULL, s, sizeof(s), NULL), DET_DONE);
	EXPECT_EQ(finished, 50 * 200);
}

/*
 * Admission control: more tasks than the engine runs at once (4096 det
 * stacks, 256 threads) all wait for one completion that the last one
 * spawned completes.  Every one finishes (when nothing else can run, one
 * more starts), and on det they start in the order they were spawned.
 */
#define CROWD 5000
static int started[CROWD], nstarted;
static struct completion gate;

static void crowd_member(void *arg)
{
	int i = (int)(intptr_t)arg;

	__atomic_store_n(&started[__atomic_fetch_add(&nstarted, 1, __ATOMIC_RELAXED)],
			 i, __ATOMIC_RELAXED);
	if (i == CROWD - 1)
		complete_all(&gate);
	else
		wait_for_completion(&gate);
	__atomic_fetch_add(&finished, 1, __ATOMIC_RELAXED);
}

static void crowd_main(void *arg)
{
	int n = (int)(intptr_t)arg;

	init_completion(&gate);
	for (int i = 0; i < n; i++)
		dpm_eng->spawn(crowd_member, (void *)(intptr_t)(i + CROWD - n), "c");
}

static bool in_spawn_order(int n)
{
	for (int k = 1; k < n; k++)
		if (started[k] < started[k - 1])
			return false;
	return true;
}

static void test_admission(void)
{
	struct det_config dc = { NULL, 0, 10000000 };
	struct threads_config tc = { .watchdog_ms = 60000 };

	finished = nstarted = 0;
	EXPECT_EQ(det_run(crowd_main, (void *)(intptr_t)CROWD, &dc, NULL), DET_DONE);
	EXPECT_EQ(finished, CROWD);
	EXPECT_TRUE(in_spawn_order(CROWD));
	/* On threads: 300 (256 at once).  All 300 wait for the gate, so
	 * the host starts the last 44 when every running one is blocked:
	 * the last to block wakes it (one start per THREADS_POLL_MS look
	 * made a million-device async chain quadratic).  A look may race
	 * with a wake now and then (more often on a loaded machine, where
	 * the last task to block can be preempted before it wakes the host);
	 * half the starts may not wait for one (all 44 did). */
	struct det_stats st;

	finished = nstarted = 0;
	EXPECT_EQ(threads_run(crowd_main, (void *)(intptr_t)300, &tc, &st), DET_DONE);
	EXPECT_EQ(finished, 300);
	EXPECT_EQ(st.peak_running, 300);
	EXPECT_TRUE(st.late_starts <= 22);
}

/*
 * 300 tasks take one mutex in turn: each unlock wakes every waiter, and
 * while they queue for the lock they are running, not blocked, so the
 * host starts no thread beyond the 256 (a woken waiter counted blocked
 * until it had the lock made the host start ever more threads, and
 * every unlock woke them all).  The first task holds the mutex while it
 * spawns them, so 255 of them are on threads beside it, waiting, however
 * slowly the machine runs: exactly 256 at the peak.
 */
static struct mutex herd_mtx;

static void herd_member(void *arg)
{
	(void)arg;
	mutex_lock(&herd_mtx);
	dpm_eng->delay(20000);
	mutex_unlock(&herd_mtx);
	__atomic_fetch_add(&finished, 1, __ATOMIC_RELAXED);
}

static void herd_main(void *arg)
{
	mutex_init(&herd_mtx);
	mutex_lock(&herd_mtx);
	for (int i = 0; i < 300; i++)
		dpm_eng->spawn(herd_member, NULL, "h");
	mutex_unlock(&herd_mtx);
}

static void test_herd(void)
{
	struct threads_config tc = { .watchdog_ms = 60000, .ns_per_virtual_us = 1000 };
	struct det_stats st;

	finished = 0;
	EXPECT_EQ(threads_run(herd_main, NULL, &tc, &st), DET_DONE);
	EXPECT_EQ(finished, 300);
	EXPECT_EQ(st.peak_running, 256);
}

int main(void)
{
	test_deadlock();
	test_schedule();
	test_time();
	test_step_limit();
	test_order_events();
	test_reuse();
	test_admission();
	test_herd();
	return test_summary("test_engine");
}
