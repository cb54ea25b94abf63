// SPDX-License-Identifier: GPL-2.0-only
/*
 * kapi on the det engine: lists, completions, mutexes, semaphores,
 * rw_semaphores, async_schedule and its fallbacks, device references and
 * the klist-like child walk.
 */
#include <stdlib.h>

#include "oracle/oracle.h"
#include "device/device.h"
#include "engine/det.h"
#include "kapi/kapi.h"
#include "variants/variant.h"
#include "expect.h"

static enum det_outcome run(void (*fn)(void *), void *arg, const uint8_t *s,
			    size_t n)
{
	struct det_config c = { s, n, 100000 };

	return det_run(fn, arg, &c, NULL);
}

/* ---- lists ---- */
struct item {
	int v;
	struct list_head node;
};

static void test_list(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item it[4];
	struct item *p;
	int order[8], n = 0;

	for (int i = 0; i < 4; i++) {
		it[i].v = i;
		list_add_tail(&it[i].node, i < 2 ? &a : &b);
	}
	list_move(&it[3].node, &a);		/* a: 3 0 1 */
	list_splice(&b, &a);			/* a: 2 3 0 1 */
	list_for_each_entry(p, &a, node)
		order[n++] = p->v;
	EXPECT_EQ(n, 4);
	EXPECT_EQ(order[0], 2);
	EXPECT_EQ(order[1], 3);
	EXPECT_EQ(order[2], 0);
	EXPECT_EQ(order[3], 1);
	n = 0;
	list_for_each_entry_reverse(p, &a, node)
		order[n++] = p->v;
	EXPECT_EQ(order[0], 1);
	EXPECT_EQ(order[3], 2);
	list_del_init(&it[0].node);
	EXPECT_TRUE(list_empty(&it[0].node));
	list_move_tail(&it[2].node, &a);	/* a: 3 1 2 */
	EXPECT_EQ(list_entry(a.prev, struct item, node)->v, 2);
}

/* ---- completions ---- */
static struct completion comp;
static int log_[16], nlog;

static void waiter(void *arg)
{
	wait_for_completion(&comp);
	log_[nlog++] = (int)(long)arg;
}

static void completer_all(void *arg)
{
	(void)arg;
	init_completion(&comp);
	dpm_eng->spawn(waiter, (void *)1L, "w1");
	dpm_eng->spawn(waiter, (void *)2L, "w2");
	dpm_eng->delay(1000);		/* both waiters block first */
	EXPECT_EQ(nlog, 0);
	EXPECT_TRUE(!completion_done(&comp));
	log_[nlog++] = 0;
	complete_all(&comp);
	dpm_eng->delay(1000);
	EXPECT_TRUE(completion_done(&comp));
	reinit_completion(&comp);
	EXPECT_TRUE(!completion_done(&comp));
}

static void completer_one(void *arg)
{
	(void)arg;
	init_completion(&comp);
	dpm_eng->spawn(waiter, (void *)1L, "w1");
	dpm_eng->spawn(waiter, (void *)2L, "w2");
	dpm_eng->delay(1000);
	complete(&comp);		/* releases exactly one waiter */
	dpm_eng->delay(1000);
	EXPECT_EQ(nlog, 1);
	complete(&comp);
}

static void test_completion(void)
{
	nlog = 0;
	EXPECT_EQ(run(completer_all, NULL, NULL, 0), DET_DONE);
	EXPECT_EQ(nlog, 3);
	EXPECT_EQ(log_[0], 0);	/* no waiter ran before complete_all */
	nlog = 0;
	EXPECT_EQ(run(completer_one, NULL, NULL, 0), DET_DONE);
	EXPECT_EQ(nlog, 2);
}

/* ---- mutual exclusion: a task inside must never see another inside ---- */
static struct mutex mtx;
static struct semaphore sem;
static struct rw_semaphore rw;
static int inside, readers_inside, max_readers, overlap;

static void mutex_worker(void *arg)
{
	for (int i = 0; i < 3; i++) {
		if (arg)
			down(&sem);
		else
			mutex_lock(&mtx);
		overlap += inside;
		inside++;
		eng_sched_point();
		dpm_eng->delay(10);
		inside--;
		if (arg)
			up(&sem);
		else
			mutex_unlock(&mtx);
	}
}

static void exclusion_main(void *arg)
{
	mutex_init(&mtx);
	sema_init(&sem, 1);
	for (int i = 0; i < 3; i++)
		dpm_eng->spawn(mutex_worker, arg, "worker");
}

static void reader(void *arg)
{
	down_read(&rw);
	readers_inside++;
	if (readers_inside > max_readers)
		max_readers = readers_inside;
	overlap += inside;
	dpm_eng->delay(100);
	readers_inside--;
	up_read(&rw);
}

static void writer(void *arg)
{
	down_write(&rw);
	overlap += inside + readers_inside;
	inside++;
	dpm_eng->delay(100);
	inside--;
	up_write(&rw);
}

static void rwsem_main(void *arg)
{
	init_rwsem(&rw);
	dpm_eng->spawn(reader, NULL, "r1");
	dpm_eng->spawn(reader, NULL, "r2");
	dpm_eng->spawn(writer, NULL, "w");
	dpm_eng->spawn(reader, NULL, "r3");
}

static void test_exclusion(void)
{
	static const uint8_t sched[] = { 1, 2, 1, 0, 2, 1, 2, 2, 1, 0, 1, 2, 1 };

	for (long kind = 0; kind < 2; kind++) {
		inside = overlap = 0;
		EXPECT_EQ(run(exclusion_main, (void *)kind, sched, sizeof(sched)),
			  DET_DONE);
		EXPECT_EQ(overlap, 0);
		EXPECT_EQ(inside, 0);
	}
	inside = overlap = readers_inside = max_readers = 0;
	EXPECT_EQ(run(rwsem_main, NULL, sched, sizeof(sched)), DET_DONE);
	EXPECT_EQ(overlap, 0);
	EXPECT_TRUE(max_readers >= 2);	/* readers do share */
}

/* ---- async ---- */
static int jobs_done, job_task[8], max_running, running_now;

static void job(void *data, async_cookie_t cookie)
{
	int i = (int)(long)data;

	running_now++;
	if (running_now > max_running)
		max_running = running_now;
	job_task[i] = dpm_eng->current_id();
	dpm_eng->delay(100 * (uint64_t)(4 - i % 4));
	log_[nlog++] = i;
	running_now--;
	jobs_done++;
}

static void async_main(void *arg)
{
	const struct async_config *c = arg;

	async_reset(c);
	for (long i = 0; i < 4; i++)
		async_schedule(job, (void *)i);
	async_synchronize_full();
	EXPECT_EQ(jobs_done, 4);
}

static void test_async(void)
{
	struct async_config unlimited = { 0, 0 }, inl = { 2, 0 }, one = { 0, 1 };

	jobs_done = nlog = max_running = running_now = 0;
	EXPECT_EQ(run(async_main, &unlimited, NULL, 0), DET_DONE);
	EXPECT_EQ(max_running, 4);
	EXPECT_EQ(log_[0], 3);		/* the shortest job ends first */
	/* Every second call finds no memory and runs in the caller. */
	jobs_done = nlog = max_running = running_now = 0;
	EXPECT_EQ(run(async_main, &inl, NULL, 0), DET_DONE);
	EXPECT_EQ(job_task[1], 0);
	EXPECT_EQ(job_task[3], 0);
	EXPECT_TRUE(job_task[0] != 0);
	/* One worker: jobs run one at a time, in queue order. */
	jobs_done = nlog = max_running = running_now = 0;
	static const uint8_t sched[] = { 3, 2, 1, 3, 2, 1, 3, 2, 1 };

	EXPECT_EQ(run(async_main, &one, sched, sizeof(sched)), DET_DONE);
	EXPECT_EQ(max_running, 1);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(log_[i], i);
}

/* ---- devices: references, release, child walk ---- */
static int visited[8], nvisited;

static int visit(struct device *dev, void *data)
{
	visited[nvisited++] = dev->id;
	if (dev->id == 1)	/* delete a later sibling mid-walk */
		device_unregister(device_by_id(2));
	return 0;
}

static void device_main(void *arg)
{
	struct device *d[4];

	pm_variant = variant_find("seed");
	dpm_model = pm_variant->model;
	dpm_model->reset();
	for (int i = 0; i < 4; i++) {
		d[i] = device_create_model(i, i ? "child" : "parent");
		d[i]->parent = i ? d[0] : NULL;
		device_initialize(d[i]);
		device_add(d[i]);
	}
	EXPECT_EQ(d[0]->refcount, 4);	/* itself and three children */
	device_for_each_child(d[0], NULL, visit);
	EXPECT_EQ(nvisited, 2);
	EXPECT_EQ(visited[0], 1);
	EXPECT_EQ(visited[1], 3);	/* deleted child 2 was skipped */
	EXPECT_TRUE(device_by_id(2) == NULL);	/* freed on its last put */
	EXPECT_EQ(d[0]->refcount, 3);
	get_device(d[3]);
	device_unregister(d[3]);
	EXPECT_TRUE(device_by_id(3) != NULL);	/* we still hold it */
	put_device(d[3]);
	EXPECT_TRUE(device_by_id(3) == NULL);
	EXPECT_TRUE(device_unregister_subtree(d[0]));
	EXPECT_TRUE(device_by_id(0) == NULL);
	EXPECT_TRUE(device_by_id(1) == NULL);
}

static void test_device(void)
{
	const char *names[4] = { "parent", "child", "child", "child" };
	int parent[4] = { -1, 0, 0, 0 };
	struct oracle_config cc = { 4, parent, names, false, false };

	oracle_reset(&cc);
	dpm_listen_none();
	dpm_listen(oracle_listener, NULL);
	device_layer_reset(4);
	EXPECT_EQ(run(device_main, NULL, NULL, 0), DET_DONE);
	EXPECT_TRUE(!oracle_result()->violated);
}

/* A kapi operation on a freed device's completion is a use after free. */
static void uaf_main(void *arg)
{
	pm_variant = variant_find("seed");
	dpm_model = pm_variant->model;
	dpm_model->reset();
	struct device *d = device_create_model(0, "gone");

	device_initialize(d);
	device_add(d);
	device_quarantine(true);
	device_unregister(d);
	complete_all(&d->removed);
}

static void test_use_after_free(void)
{
	const char *names[1] = { "gone" };
	int parent[1] = { -1 };
	struct oracle_config cc = { 1, parent, names, false, false };

	oracle_reset(&cc);
	dpm_listen_none();
	dpm_listen(oracle_listener, NULL);
	device_layer_reset(1);
	EXPECT_EQ(run(uaf_main, NULL, NULL, 0), DET_STOPPED);
	EXPECT_TRUE(oracle_result()->violated);
	EXPECT_EQ(oracle_result()->id, INV_REMOVED);
	EXPECT_CONTAINS(oracle_result()->msg, "complete_all() on memory of 'gone'");
	device_registry_free_all();
}

int main(void)
{
	test_list();
	test_completion();
	test_exclusion();
	test_async();
	test_device();
	test_use_after_free();
	return test_summary("test_kapi");
}
