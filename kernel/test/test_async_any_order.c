// SPDX-License-Identifier: GPL-2.0-only
/*
 * async_config.any_order: with one worker, a job queued later may start
 * before one queued earlier when the schedule says so (the kernel's
 * async jobs on a workqueue), while the default keeps queue order.  One
 * worker at a time either way.
 */
#include <stdio.h>

#include "engine/det.h"
#include "kapi/kapi.h"

static int order[4], norder, running, max_running;

static void job(void *data, async_cookie_t cookie)
{
	running++;
	if (running > max_running)
		max_running = running;
	order[norder++] = (int)(long)data;
	dpm_eng->delay(100);
	running--;
}

static void jobs_main(void *arg)
{
	async_reset(arg);
	for (long i = 0; i < 4; i++)
		async_schedule(job, (void *)i);
	async_synchronize_full();
}

/* Whether some schedule starts the jobs out of queue order. */
static int out_of_order_seen(bool any_order)
{
	struct async_config c = { 0, 1, any_order };

	for (int s = 0; s < 256; s++) {
		uint8_t sched[64];
		struct det_config dc = { sched, sizeof(sched), 100000, NULL, NULL };
		uint64_t x = (uint64_t)s * 0x9e3779b97f4a7c15ULL + 1;

		for (size_t i = 0; i < sizeof(sched); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sched[i] = (uint8_t)x;
		}
		norder = running = max_running = 0;
		if (det_run(jobs_main, &c, &dc, NULL) != DET_DONE || norder != 4 ||
		    max_running != 1) {
			fprintf(stderr, "run %d: %d jobs, %d at once\n", s, norder, max_running);
			return -1;
		}
		for (int i = 1; i < 4; i++)
			if (order[i] < order[i - 1])
				return 1;
	}
	return 0;
}

int main(void)
{
	int fifo = out_of_order_seen(false), any = out_of_order_seen(true);

	printf("queue order kept: %s; any order seen: %s\n", fifo == 0 ? "yes" : "no",
	       any == 1 ? "yes" : "no");
	return fifo == 0 && any == 1 ? 0 : 1;
}
