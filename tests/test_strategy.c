// SPDX-License-Identifier: GPL-2.0-only
/*
 * The schedule strategies (core/sched/strategy.h) and the generator
 * (core/scenario/generate.h):
 * - a scenario whose schedule is read by task replays: the same
 *   violation on every run, through its text, and as the choices it
 *   made by position (what the minimiser works on);
 * - random and PCT record their choices so that the scenario with those
 *   bytes, by position, shows the same violation (dpmstress saves it so);
 * - read by task, a schedule keeps a task's priority when the scenario
 *   around it grows (a device added at the end), where the same bytes
 *   by position hand the choices to other tasks;
 * - the generator gives scenario i of a seed the same every time.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "scenario/generate.h"
#include "scenario/scenario.h"
#include "sched/strategy.h"
#include "util/xalloc.h"
#include "util/xorshift.h"
#include "expect.h"

static uint64_t rng = 0x5eed5;

static struct run_opts seed_opts(void)
{
	struct run_opts o = { .variant = variant_find("seed") };

	return o;
}

static void same_violation(const struct scenario *s, const struct run_opts *o,
			   enum inv id, const char *how)
{
	static struct run_result r;

	dpm_run(s, o, &r);
	if (!r.violated || r.id != id)
		fprintf(stderr, "test_strategy: %s: expected %s, got %s\n", how,
			inv_name(id), r.violated ? inv_name(r.id) : "none");
	EXPECT_TRUE(r.violated && r.id == id);
}

static void test_by_task_replays(void)
{
	const struct scn_limits lim = { 16, 4, 3, false, SCHED_BY_TASK };
	struct run_opts o = seed_opts();
	static struct run_result r;
	uint8_t buf[256];
	int found = 0, with_bytes = 0, converted = 0;

	for (int k = 0; k < 20000 && found < 12; k++) {
		struct scenario s;
		size_t n = 16 + xorshift64(&rng) % (sizeof(buf) - 16);

		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)xorshift64(&rng);
		scenario_decode(buf, n, &lim, &s);
		EXPECT_TRUE(s.sched_by_task);
		dpm_run(&s, &o, &r);
		if (!r.violated) {
			scenario_free(&s);
			continue;
		}
		enum inv id = r.id;

		found++;
		/* Again, and again: each run starts the strategy afresh. */
		same_violation(&s, &o, id, "a second run");
		same_violation(&s, &o, id, "a third run");
		/* Through the text, which says how the bytes are read. */
		char *text = scenario_print(&s), err[256];
		struct scenario t;

		EXPECT_TRUE(strstr(text, "schedule-by task\n") != NULL);
		EXPECT_EQ(scenario_parse(text, strlen(text), &t, err, sizeof(err)), 0);
		EXPECT_TRUE(t.sched_by_task);
		same_violation(&t, &o, id, "the text");
		/* As its choices by position (bytes left after the
		 * devices and actions: else there is nothing to read). */
		with_bytes += t.nsched > 0;
		if (dpm_schedule_by_position(&t, &o)) {
			converted++;
			EXPECT_TRUE(!t.sched_by_task);
			same_violation(&t, &o, id, "by position");
		}
		free(text);
		scenario_free(&t);
		scenario_free(&s);
	}
	EXPECT_TRUE(found >= 12);
	EXPECT_TRUE(with_bytes >= 6);
	EXPECT_EQ(converted, with_bytes);
}

static void test_recorded(void)
{
	/* The seed with every fix but async-error-order: its violation
	 * needs the right interleaving, so a wrong record shows. */
	struct run_opts o = seed_opts();
	static struct run_result r;
	struct dpm_strategy st = { 0 };
	const char *bad;
	size_t bl;
	int found = 0, sensitive = 0;

	EXPECT_EQ(knobs_parse(o.variant, "completion-init,resume-deleted,async-error-once",
			      &o.fixes, &bad, &bl), 0);
	for (int kind = STRAT_RANDOM; kind <= STRAT_PCT; kind++) {
		int want = found + 8;

		for (uint64_t i = 1; i < 20000 && found < want; i++) {
			struct scn_generator g = { .seed = 7, .max_devices = 24 };
			struct scenario s;
			struct run_opts q = o;

			scenario_generate(&g, i, &s);
			q.choose = dpm_strategy_start(&st, kind, i, 3, &s);
			q.choose_ctx = &st;
			EXPECT_TRUE(q.choose != NULL);
			dpm_run(&s, &q, &r);
			if (r.violated && st.rec_exact) {
				enum inv id = r.id;
				uint8_t *mine = s.sched;
				size_t nmine = s.nsched;

				found++;
				s.sched = st.rec;
				s.nsched = st.nrec;
				same_violation(&s, &o, id, dpm_strategy_name(kind));
				/* Other choices: the scenario's own bytes, by
				 * position. */
				s.sched = mine;
				s.nsched = nmine;
				dpm_run(&s, &o, &r);
				sensitive += !r.violated;
			}
			scenario_free(&s);
		}
	}
	EXPECT_EQ(found, 16);
	EXPECT_TRUE(sensitive >= 4);
	dpm_strategy_free(&st);
}

/* A keyed run's tasks as it saw them: key and priority before any
 * drop, recorded at every choice (a task's name is its own only while
 * it lives: the engine reuses finished tasks). */
static struct seen {
	char key[64];
	int64_t base;
} seen[256];
static int nseen;
static int (*keyed_choose)(void *ctx, int n, const int *ids);

static int watch(void *ctx, int n, const int *ids)
{
	struct dpm_strategy *st = ctx;
	int c = keyed_choose(ctx, n, ids);

	for (int k = 0; k < n && nseen < 256; k++) {
		char key[64];
		int i;

		dpm_task_key(ids[k], key, sizeof(key));
		for (i = 0; i < nseen && strcmp(seen[i].key, key); i++)
			;
		if (i == nseen) {
			snprintf(seen[nseen].key, sizeof(seen[0].key), "%s", key);
			seen[nseen++].base = st->task[ids[k]].base;
		}
	}
	return c;
}

/* Runs s read by task; fills seen; returns its choices by position. */
static uint8_t *keyed_run(struct dpm_strategy *st, const struct scenario *s,
			  size_t *n)
{
	static struct run_result r;
	struct run_opts o = seed_opts();

	keyed_choose = dpm_strategy_start(st, STRAT_KEYED, 0, 0, s);
	o.choose_ctx = st;
	o.choose = watch;
	nseen = 0;
	dpm_run(s, &o, &r);
	*n = st->nrec;
	return dpm_xmemdup(st->rec, st->nrec, 1);
}

static void test_by_task_stable(void)
{
	struct dpm_strategy st = { 0 };
	int compared = 0, moved_by_position = 0;

	for (int trial = 0; trial < 200; trial++) {
		struct scenario a, b;

		/* Six async devices under one root, and the same with a
		 * seventh at the end: its job is queued first in suspend, so
		 * every other task's id and place among the candidates move. */
		scenario_init(&a);
		a.ndev = 6;
		a.dev = calloc(7, sizeof(*a.dev));
		for (int d = 0; d < 7; d++) {
			scn_device_init(&a.dev[d]);
			snprintf(a.dev[d].name, sizeof(a.dev[d].name), "dev%d", d);
			a.dev[d].parent = d ? 0 : -1;
			a.dev[d].async = true;
			a.dev[d].beh.dur_us[PH_SUSPEND] = 10 + 5 * (unsigned)d;
		}
		a.nsched = 48;
		a.sched = malloc(a.nsched);
		for (size_t i = 0; i < a.nsched; i++)
			a.sched[i] = (uint8_t)xorshift64(&rng);
		a.sched_by_task = true;
		b = a;
		b.ndev = 7;

		size_t na, nb;
		uint8_t *ra = keyed_run(&st, &a, &na);
		struct seen sa[256];
		int nsa = nseen;

		memcpy(sa, seen, sizeof(sa));
		uint8_t *rb = keyed_run(&st, &b, &nb);

		for (int i = 0; i < nsa; i++)
			for (int j = 0; j < nseen; j++)
				if (!strcmp(sa[i].key, seen[j].key)) {
					compared++;
					EXPECT_EQ(seen[j].base, sa[i].base);
				}
		if (na != nb || memcmp(ra, rb, na))
			moved_by_position++;
		free(ra);
		free(rb);
		free(a.dev);
		free(a.sched);
	}
	EXPECT_TRUE(compared >= 1000);
	/* While the choices, as positions among the candidates, moved: the
	 * same bytes read by position would have picked other tasks. */
	EXPECT_TRUE(moved_by_position >= 100);
	dpm_strategy_free(&st);
}

/* Mixed: read by task exactly when the count is odd; the encoder keeps a
 * schedule by position by position (a neutral 0 byte makes it even) and
 * a run of the bytes is the run of the scenario. */
static void test_mixed(void)
{
	const struct scn_limits mixed = { 16, 4, 3, false, SCHED_MIXED };
	struct run_opts o = seed_opts();
	static struct run_result r1, r2;
	uint8_t buf[200];
	int odd = 0, padded = 0;

	for (int k = 0; k < 400; k++) {
		struct scenario s, t;
		size_t n = 8 + xorshift64(&rng) % (sizeof(buf) - 8), m;
		bool lossy;

		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)xorshift64(&rng);
		scenario_decode(buf, n, &mixed, &s);
		EXPECT_EQ(s.sched_by_task, s.nsched & 1);
		odd += s.sched_by_task;
		/* The same scenario by position, whatever its length. */
		s.sched_by_task = false;
		uint8_t *e = scenario_encode(&s, SCHED_MIXED, &m, &lossy);

		EXPECT_TRUE(!lossy);
		scenario_decode(e, m, &mixed, &t);
		EXPECT_TRUE(!t.sched_by_task);
		padded += t.nsched == s.nsched + 1;
		dpm_run(&s, &o, &r1);
		dpm_run(&t, &o, &r2);
		/* The same run: the same steps and task switches. */
		EXPECT_EQ(r1.violated, r2.violated);
		EXPECT_EQ(r1.stats.steps, r2.stats.steps);
		EXPECT_EQ(r1.stats.switches, r2.stats.switches);
		/* By task, odd: exact; even: lossy. */
		s.sched_by_task = true;
		free(e);
		e = scenario_encode(&s, SCHED_MIXED, &m, &lossy);
		EXPECT_EQ(lossy, s.nsched && !(s.nsched & 1));
		free(e);
		scenario_free(&s);
		scenario_free(&t);
	}
	EXPECT_TRUE(odd >= 100 && odd <= 300);
	EXPECT_TRUE(padded >= 100);
}

static void test_generate(void)
{
	struct scn_generator g = { .seed = 3, .max_devices = 40 };
	int differ = 0;

	for (uint64_t i = 0; i < 50; i++) {
		struct scenario a, b, c;
		char err[256];

		scenario_generate(&g, i, &a);
		scenario_generate(&g, i, &b);
		scenario_generate(&g, i + 1, &c);
		char *ta = scenario_print(&a), *tb = scenario_print(&b), *tc = scenario_print(&c);

		EXPECT_STR_EQ(ta, tb);
		differ += strcmp(ta, tc) != 0;
		EXPECT_EQ(scenario_validate(&a, err, sizeof(err)), 0);
		EXPECT_TRUE(a.ndev >= 1 && a.ndev <= 40);
		free(ta);
		free(tb);
		free(tc);
		scenario_free(&a);
		scenario_free(&b);
		scenario_free(&c);
	}
	EXPECT_EQ(differ, 50);
}

int main(void)
{
	test_by_task_replays();
	test_recorded();
	test_by_task_stable();
	test_mixed();
	test_generate();
	return test_summary("test_strategy");
}
