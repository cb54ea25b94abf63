// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exhaustive search is sound: for every scenario of a small bound,
 * on every variant of the registry with its fixes off and on,
 *
 *  - DPOR and the sleep-set search (every choice, no race analysis) find
 *    the same invariants broken and the same number of schedule classes
 *    (explore.h): the race analysis loses nothing (up to --sleep-devices
 *    devices, as the sleep-set search is slow);
 *  - every invariant that some of --random naive schedules (a uniformly
 *    random task at every choice, the engine's own behaviour: waits that
 *    block, lock handoffs) breaks, DPOR finds too: the dependence the
 *    hooks report misses no conflict that changes an outcome;
 *  - every schedule DPOR reports replays (chunk.c checks it).
 *
 * With --break KIND a fault is planted in the dependence relation and the
 * test passes only if some check above catches it: the checks can fail.
 *
 *   test_explore [-n N] [--sleep-devices M] [--random K] [--variant V]
 *                [--break oracle|completion]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore.h"
#include "explore/space.h"
#include "run/xorshift.h"

struct rnd {
	uint64_t xs;
};

static int random_choose(void *ctx, int n, const int *ids)
{
	struct rnd *r = ctx;

	(void)ids;
	return (int)(xorshift64(&r->xs) % (uint64_t)n);
}

struct ctx {
	const struct run_opts *ro;
	struct explore_opts eo;
	int sleep_devices, random;
	long scenarios, mismatches, checked_sleep, random_runs;
	uint64_t dpor_schedules;
};

static void show(const char *what, const struct scenario *s,
		 const struct run_opts *o, unsigned int a, unsigned int b)
{
	char *t = scenario_print(s);

	printf("MISMATCH (%s, fixes %#llx): %s: dpor", o->variant->name,
	       (unsigned long long)o->fixes, what);
	for (int i = 0; i < NR_INV; i++)
		if (a & (1u << i))
			printf(" %s", inv_name(i));
	printf(", other");
	for (int i = 0; i < NR_INV; i++)
		if (b & (1u << i))
			printf(" %s", inv_name(i));
	printf("\n%s", t);
	free(t);
}

static void one(const struct scenario *s, void *arg)
{
	struct ctx *x = arg;
	struct explore_result d, sl;
	char err[256];

	x->scenarios++;
	if (explore_scenario(s, x->ro, &x->eo, &d, err, sizeof(err))) {
		printf("MISMATCH: %s\n", err);
		x->mismatches++;
		return;
	}
	x->dpor_schedules += d.schedules;
	if (s->ndev <= x->sleep_devices) {
		struct explore_opts eo = x->eo;

		eo.mode = EX_SLEEP;
		if (explore_scenario(s, x->ro, &eo, &sl, err, sizeof(err))) {
			printf("MISMATCH: %s\n", err);
			x->mismatches++;
		} else {
			x->checked_sleep++;
			/* With a device freed during the run, which of two
			 * commuting put_device()s frees it is part of a step's
			 * footprint: two schedules the search rightly takes as
			 * one count as two classes; then DPOR may count fewer. */
			bool frees = s->nact;

			for (int i = 0; i < s->ndev; i++)
				frees |= s->dev[i].beh.remove_phase >= 0;
			if (sl.violated != d.violated ||
			    (frees ? sl.classes < d.classes : sl.classes != d.classes)) {
				char what[128];

				snprintf(what, sizeof(what),
					 "sleep sets: %llu classes, dpor %llu",
					 (unsigned long long)sl.classes,
					 (unsigned long long)d.classes);
				if (x->mismatches++ < 3)
					show(what, s, x->ro, d.violated, sl.violated);
			}
		}
		explore_result_free(&sl);
	}
	unsigned int seen = 0;
	struct rnd r = { 0x9e3779b97f4a7c15ULL ^ (uint64_t)x->scenarios };
	struct run_opts ro = *x->ro;
	struct run_result *rr = malloc(sizeof(*rr));

	ro.choose = random_choose;
	ro.choose_ctx = &r;
	for (int k = 0; k < x->random; k++) {
		dpm_run(s, &ro, rr);
		x->random_runs++;
		if (rr->violated)
			seen |= 1u << rr->id;
	}
	free(rr);
	if (seen & ~d.violated) {
		if (x->mismatches++ < 3)
			show("random schedules break more", s, x->ro, d.violated, seen);
	}
	explore_result_free(&d);
}

/* The knob settings a variant is checked with: none, all, and all with
 * each feature knob. */
static int settings(const struct pm_variant *v, uint64_t *out)
{
	const char *bad;
	size_t bl;
	uint64_t all;
	int n = 0;

	out[n++] = 0;
	knobs_parse(v, "all", &all, &bad, &bl);
	out[n++] = all;
	for (int k = 0; k < v->nknobs && n < 8; k++)
		if (v->knobs[k].feature)
			out[n++] = all | 1ULL << k;
	return n;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "devices", required_argument, NULL, 'n' },
		{ "sleep-devices", required_argument, NULL, 's' },
		{ "random", required_argument, NULL, 'r' },
		{ "variant", required_argument, NULL, 'v' },
		{ "break", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	int devices = 3, sleep_devices = 2, random = 48, c;
	const char *only = NULL;
	enum explore_break brk = EXB_NONE;

	while ((c = getopt_long(argc, argv, "n:s:r:v:b:", lo, NULL)) != -1) {
		switch (c) {
		case 'n': devices = atoi(optarg); break;
		case 's': sleep_devices = atoi(optarg); break;
		case 'r': random = atoi(optarg); break;
		case 'v': only = optarg; break;
		case 'b':
			brk = !strcmp(optarg, "oracle") ? EXB_NO_ORACLE :
			      !strcmp(optarg, "completion") ? EXB_COMPLETION_READ :
			      EXB_NONE;
			if (brk == EXB_NONE) {
				fprintf(stderr, "test_explore: --break oracle|completion\n");
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	long mismatches = 0;

	for (int vi = 0; vi < pm_nvariants; vi++) {
		const struct pm_variant *v = pm_variants[vi];
		uint64_t set[8];
		int ns = settings(v, set);

		if (only && strcmp(only, v->name))
			continue;
		for (int k = 0; k < ns; k++) {
			struct run_opts ro = { .variant = v, .fixes = set[k] };
			struct space_bound b = {
				.devices = devices, .errors = 1, .removals = 1,
				.hotplug = devices <= 1 ? 1 : 0, .cycles = 1,
				.links = 1, .rpm = 1, .pm_waits = 1,
				.features = v->features,
				.all_errnos = !explore_variant_visible(v),
			};
			struct space sp;
			struct ctx x = {
				.ro = &ro, .sleep_devices = sleep_devices,
				.random = random,
				.eo = { .mode = EX_DPOR, .classes = true, .brk = brk,
					.opaque = !explore_variant_visible(v) },
			};
			char fixes[KNOBS_TEXT_MAX];

			space_init(&sp, &b);
			for (long ch = 0; ch < space_chunks(&sp); ch++)
				space_chunk_foreach(&sp, ch, one, &x);
			knobs_format(v, set[k], fixes, sizeof(fixes));
			printf("%s (%s): %ld scenarios, %llu DPOR schedules; %ld also with sleep sets, %ld random schedules; %ld mismatches\n",
			       v->name, fixes, x.scenarios,
			       (unsigned long long)x.dpor_schedules, x.checked_sleep,
			       x.random_runs, x.mismatches);
			mismatches += x.mismatches;
		}
	}
	if (brk != EXB_NONE) {
		printf(mismatches ? "the planted fault was caught\n" :
				    "FAIL: the planted fault went unnoticed\n");
		return mismatches ? 0 : 1;
	}
	return mismatches ? 1 : 0;
}
