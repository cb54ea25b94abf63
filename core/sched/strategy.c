// SPDX-License-Identifier: GPL-2.0-only
/* The det engine's schedule strategies (strategy.h). */
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

#include "../engine/det.h"
#include "../engine/engine.h"
#include "../util/str.h"
#include "../util/xalloc.h"

const char *const dpm_strategy_names[] = { "input", "random", "pct", "keyed", NULL };

void dpm_task_key(int id, char *buf, size_t n)
{
	const char *name = det_task_name(id), *colon = strchr(name, ':');

	if (!strncmp(name, "async/", 6) && colon) {
		dpm_strlcpy(buf, "async:", n);
		size_t l = strlen(buf);

		dpm_strlcpy(buf + l, colon + 1, n - l);
	} else if (!strncmp(name, "hotplug/", 8)) {
		dpm_strlcpy(buf, "hotplug", n);	/* numbered by action */
	} else {
		dpm_strlcpy(buf, name, n);
	}
}

static int record(struct dpm_strategy *st, int c, int n)
{
	DPM_ARRAY_RESERVE(st->rec, st->nrec, st->rec_cap);
	st->rec[st->nrec++] = (uint8_t)c;
	st->rec_exact &= n <= 256;
	return c;
}

static int random_choose(void *ctx, int n, const int *ids)
{
	struct dpm_strategy *st = ctx;

	(void)ids;
	return record(st, (int)dpm_rng_below(&st->rng, (uint64_t)n), n);
}

/* FNV-1a of a task's key. */
static uint64_t key_hash(int id)
{
	char k[DPM_TASK_NAME_MAX];
	uint64_t h = 0xcbf29ce484222325ULL;

	dpm_task_key(id, k, sizeof(k));
	for (const char *p = k; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	return h;
}

static struct dpm_task_prio *task_of(struct dpm_strategy *st, int id)
{
	if (id >= st->ntask) {
		int n = id + 64;

		st->task = dpm_xrealloc(st->task, (size_t)n, sizeof(*st->task));
		memset(st->task + st->ntask, 0, sizeof(*st->task) * (size_t)(n - st->ntask));
		st->ntask = n;
	}
	struct dpm_task_prio *t = &st->task[id];

	if (!t->known) {
		t->known = true;
		if (st->kind == STRAT_KEYED) {
			/* Two bytes of priority and one of change point, each
			 * at its own place of the bytes. */
			uint64_t h = key_hash(id);
			const uint8_t *b = st->bytes;
			size_t n = st->nbytes;

			t->prio = (1LL << 40) + ((int64_t)b[h % n] << 8) +
				  b[(h >> 21) % n];
			t->drop_at = b[(h >> 42) % n] % 8;
		} else {
			t->prio = (1LL << 40) + (int64_t)dpm_rng_below(&st->rng, 1ULL << 39);
		}
		t->base = t->prio;
	}
	return t;
}

/* The highest priority runs; ties go to the lower index (the running
 * task first, then the run queue in order). */
static int highest(struct dpm_strategy *st, int n, const int *ids)
{
	int best = 0;

	for (int k = 1; k < n; k++)
		if (task_of(st, ids[k])->prio > task_of(st, ids[best])->prio)
			best = k;
	return record(st, best, n);
}

static int pct_choose(void *ctx, int n, const int *ids)
{
	struct dpm_strategy *st = ctx;

	st->step++;
	for (int k = 0; k < st->nchange; k++)
		if (st->change[k] == st->step)
			task_of(st, ids[0])->prio = --st->low;
	return highest(st, n, ids);
}

/* keyed: the running task drops below every task not yet dropped when
 * it has been the running candidate of as many choices as its byte
 * says. */
static int keyed_choose(void *ctx, int n, const int *ids)
{
	struct dpm_strategy *st = ctx;
	int cur = dpm_eng->current_id();

	for (int k = 0; k < n; k++) {
		if (ids[k] != cur)
			continue;
		struct dpm_task_prio *t = task_of(st, cur);

		if (t->drop_at && ++t->seen == t->drop_at)
			t->prio = --st->low;
		break;
	}
	return highest(st, n, ids);
}

dpm_choose_fn dpm_strategy_start(struct dpm_strategy *st, enum dpm_strategy_kind kind,
				 uint64_t seed, int depth, const struct scenario *s)
{
	st->kind = kind;
	st->rng = seed;
	st->step = 0;
	st->nrec = 0;
	st->rec_exact = true;
	st->low = 1LL << 30;
	if (st->task)
		memset(st->task, 0, sizeof(*st->task) * (size_t)st->ntask);
	st->bytes = s->sched;
	st->nbytes = s->sched ? s->nsched : 0;
	st->nchange = 0;
	if (kind == STRAT_PCT) {
		st->nchange = depth - 1 > 16 ? 16 : depth - 1 < 0 ? 0 : depth - 1;
		/* Change points spread over the expected number of choices. */
		uint64_t k = 50 + 20 * (uint64_t)s->ndev * (uint64_t)s->cycles;

		for (int c = 0; c < st->nchange; c++)
			st->change[c] = 1 + dpm_rng_below(&st->rng, k);
	}
	switch (kind) {
	case STRAT_RANDOM:
		return random_choose;
	case STRAT_PCT:
		return pct_choose;
	case STRAT_KEYED:
		return st->nbytes ? keyed_choose : NULL;
	default:
		return NULL;
	}
}

void dpm_strategy_free(struct dpm_strategy *st)
{
	free(st->task);
	free(st->rec);
	memset(st, 0, sizeof(*st));
}
