// SPDX-License-Identifier: GPL-2.0-only
/*
 * The structure-aware mutator (core/scenario/mutate.h): the encoder is
 * exact on every decoded scenario (decode(encode(s)) == s), every
 * mutation and crossover keeps the scenario valid and exactly encodable,
 * every operator changes scenarios, and the byte entry points the fuzz
 * targets call give inputs within the size limit that decode to a
 * changed scenario.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario/mutate.h"
#include "scenario/scenario.h"
#include "util/xorshift.h"
#include "expect.h"

static uint64_t rng = 0x5eed;

static uint8_t rbyte(void)
{
	return (uint8_t)xorshift64(&rng);
}

static size_t random_input(uint8_t *buf, size_t cap)
{
	size_t n = rbyte() % 2 ? cap : (size_t)(xorshift64(&rng) % cap);

	for (size_t i = 0; i < n; i++)
		buf[i] = rbyte();
	return n;
}

/* s encodes exactly and decodes back to itself; 1 if so. */
static int round_trip(const struct scenario *s, const struct scn_limits *lim)
{
	struct scenario t;
	size_t n;
	bool lossy;
	uint8_t *e = scenario_encode(s, lim->sched_mode, &n, &lossy);
	char *a, *b, err[256] = "";
	int ok;

	EXPECT_TRUE(!lossy);
	EXPECT_EQ(scenario_validate(s, err, sizeof(err)), 0);
	EXPECT_STR_EQ(err, "");
	scenario_decode(e, n, lim, &t);
	free(e);
	a = scenario_print(s);
	b = scenario_print(&t);
	ok = !lossy && !strcmp(a, b);
	if (!ok)
		EXPECT_STR_EQ(a, b);
	free(a);
	free(b);
	scenario_free(&t);
	return ok;
}

static const struct scn_limits limits[] = {
	{ 16, 4, 3, false },
	{ 160, 4, 3, false },
	{ 8, 4, 3, true },
};

static void test_encode_exact(void)
{
	uint8_t buf[900];
	int good = 0, total = 0;

	for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++)
		for (int i = 0; i < 1000; i++) {
			struct scenario s;

			scenario_decode(buf, random_input(buf, sizeof(buf)),
					&limits[l], &s);
			good += round_trip(&s, &limits[l]);
			total++;
			scenario_free(&s);
		}
	EXPECT_EQ(good, total);
}

static void test_mutate(void)
{
	static const unsigned int masks[] = { SCN_MUT_ALL, 0 };
	int changed[NR_MUT_OPS] = { 0 }, tried[NR_MUT_OPS] = { 0 };
	int good = 0, total = 0, diff = 0;
	uint8_t buf[400];	/* schedules of at most 512 bytes */

	for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++)
		for (int i = 0; i < 300; i++) {
			struct scenario s;
			unsigned int mask = masks[i % 2];

			scenario_decode(buf, random_input(buf, sizeof(buf)),
					&limits[l], &s);
			for (int m = 0; m < 12; m++) {
				char *before = scenario_print(&s), *after;
				enum scn_mut_op op = scenario_mutate(&s, &limits[l],
								     mask, 512, &rng);

				EXPECT_TRUE((unsigned)op < NR_MUT_OPS);
				after = scenario_print(&s);
				tried[op]++;
				if (strcmp(before, after)) {
					changed[op]++;
					diff++;
				}
				free(before);
				free(after);
				EXPECT_TRUE(s.ndev >= 1 && s.ndev <= limits[l].max_devices);
				EXPECT_TRUE(s.nact <= limits[l].max_actions);
				EXPECT_TRUE(s.nsched <= 512);
				good += round_trip(&s, &limits[l]);
				total++;
			}
			scenario_free(&s);
		}
	EXPECT_EQ(good, total);
	/* Most mutations change the scenario, and each operator does. */
	EXPECT_TRUE(diff > total * 8 / 10);
	for (int op = 0; op < NR_MUT_OPS; op++) {
		if (changed[op] < 20)
			fprintf(stderr, "operator %s: %d changes in %d tries\n",
				scn_mut_op_name(op), changed[op], tried[op]);
		EXPECT_TRUE(changed[op] >= 20);
	}
}

static void test_crossover(void)
{
	uint8_t buf[600];
	int good = 0, total = 0, diff = 0;

	for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++)
		for (int i = 0; i < 1000; i++) {
			struct scenario s, o;
			char *before, *after;

			scenario_decode(buf, random_input(buf, sizeof(buf)),
					&limits[l], &s);
			scenario_decode(buf, random_input(buf, sizeof(buf)),
					&limits[l], &o);
			before = scenario_print(&s);
			scenario_crossover(&s, &o, &limits[l], 512, &rng);
			after = scenario_print(&s);
			diff += !!strcmp(before, after);
			free(before);
			free(after);
			EXPECT_TRUE(s.ndev <= limits[l].max_devices);
			good += round_trip(&s, &limits[l]);
			total++;
			scenario_free(&s);
			scenario_free(&o);
		}
	EXPECT_EQ(good, total);
	EXPECT_TRUE(diff > total / 2);
}

/* What LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver get: at
 * most max bytes, which decode to a scenario that re-encodes to those
 * very bytes (bar a schedule cut to fit) and differs from the input. */
static void test_bytes(void)
{
	const struct scn_limits *lim = &limits[0];
	uint8_t in[700], other[700], out[700];
	int fit = 0, total = 0, diff = 0;

	for (int i = 0; i < 3000; i++) {
		size_t n = random_input(in, 300), m = random_input(other, 300);
		size_t max = 1 + xorshift64(&rng) % 600, k;
		struct scenario s, t;
		char *a, *b;

		k = i % 3 ? scenario_mutate_bytes(in, n, out, max, lim, SCN_MUT_ALL,
						  xorshift64(&rng)) :
			    scenario_crossover_bytes(in, n, other, m, out, max, lim,
						     xorshift64(&rng));
		total++;
		EXPECT_TRUE(k <= max);
		if (!k)
			continue;
		fit++;
		scenario_decode(in, n, lim, &s);
		scenario_decode(out, k, lim, &t);
		a = scenario_print(&s);
		b = scenario_print(&t);
		diff += !!strcmp(a, b);
		free(a);
		free(b);
		round_trip(&t, lim);
		scenario_free(&s);
		scenario_free(&t);
	}
	/* Inputs of at most 300 bytes fit unless max is small. */
	EXPECT_TRUE(fit > total * 6 / 10);
	EXPECT_TRUE(diff > fit * 7 / 10);
}

int main(void)
{
	test_encode_exact();
	test_mutate();
	test_crossover();
	test_bytes();
	return test_summary("test_mutate");
}
