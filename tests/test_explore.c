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
 *  - on scenarios of up to --naive-devices devices, the naive search
 *    (every choice at every point, no reduction) breaks exactly the
 *    invariants DPOR breaks; a naive search cut short by --naive-cap
 *    schedules may break fewer, never another;
 *  - with --outcomes, every outcome (explore.h: the multiset of a run's
 *    events) that a random or naive schedule ending without a violation
 *    reaches, some DPOR run reaches too, and the naive (when it ends) and
 *    sleep-set searches reach exactly DPOR's: a class DPOR missed shows
 *    even where no invariant breaks;
 *  - every schedule DPOR reports replays (chunk.c checks it);
 *  - on scenarios of up to --record-devices devices, DPOR with every
 *    step of every run recorded anew (explore_opts.record_all) runs the
 *    same search: the same schedules, runs cut short, steps, classes,
 *    invariants and outcomes as with the steps before each branch kept
 *    from the run before.
 *
 * A variant the hooks do not see whole (a kernel tree in a build without
 * its explorable copy, docs/exhaustive.md: opaque, every step depends on
 * every other) has far more schedules: it is checked on
 * scenarios of up to --opaque-devices devices, DPOR and naive both cut
 * at --opaque-cap schedules; a scenario either search did not finish is
 * counted, not compared.
 *
 * A hotplug removal is in the bound on scenarios of up to
 * --hotplug-devices devices (default 1).  The bound has a link, a
 * runtime-suspended device and a pm-wait where the variant has them;
 * --plain leaves them and the hotplug task out (the bound of the
 * verdicts, docs/exhaustive.md), for the larger N.  The knob settings
 * are none, all and all with each feature knob, or those --fix names
 * (repeatable; --variant needed).
 *
 * With --break KIND a fault is planted in the dependence relation and the
 * test passes only if some check above catches it: the checks can fail.
 *
 *   test_explore [-n N] [--sleep-devices M] [--naive-devices M]
 *                [--naive-cap S] [--random K] [--variant V]
 *                [--opaque-devices M] [--opaque-cap S] [--fixes-none]
 *                [--hotplug-devices M] [--plain] [--fix LIST ...] [--outcomes]
 *                [--record-devices M]
 *                [--break race]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore.h"
#include "explore/space.h"
#include "util/xorshift.h"

struct rnd {
	uint64_t xs;
};

static int random_choose(void *ctx, int n, const int *ids)
{
	struct rnd *r = ctx;

	(void)ids;
	return (int)(xorshift64(&r->xs) % (uint64_t)n);
}

/* The bound and the checks (the options). */
static struct {
	int devices, sleep_devices, naive_devices, random;
	int opaque_devices, hotplug_devices, record_devices;
	bool fixes_none, plain, outcomes;
	long naive_cap, opaque_cap;
	const char *only;
	const char *fix[8];	/* --fix: the knob settings */
	int nfix;
} cfg = {
	.devices = 3, .sleep_devices = 2, .naive_devices = 3, .random = 48,
	.opaque_devices = 1, .hotplug_devices = 1,
	.naive_cap = 100000, .opaque_cap = 1000,
};

struct ctx {
	const struct run_opts *ro;
	struct explore_opts eo;
	int sleep_devices, naive_devices, random, record_devices;
	uint64_t naive_cap;
	long scenarios, mismatches, checked_sleep, random_runs;
	long by_naive, by_sleep, by_random, by_record;	/* mismatches per check */
	long checked_record;
	long violating;		/* scenarios where DPOR breaks something */
	unsigned int violated;	/* what it breaks in all */
	long checked_naive, naive_capped, skipped;
	uint64_t dpor_schedules, naive_schedules;
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

/* How many of b's outcomes a lacks. */
static size_t outcomes_missing(const struct explore_result *a,
			       const struct explore_result *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->noutcomes; i++)
		n += !explore_has_outcome(a, b->outcomes[i]);
	return n;
}

static void sum_outcome(const struct dpm_event *ev, void *ctx)
{
	*(uint64_t *)ctx += explore_outcome_event(ev);
}

/* One search of s; an error is a mismatch of its own. */
static bool search(struct ctx *x, const struct scenario *s,
		   const struct explore_opts *eo, struct explore_result *r)
{
	char err[256];

	if (explore_scenario(s, x->ro, eo, r, err, sizeof(err))) {
		printf("MISMATCH: %s\n", err);
		x->mismatches++;
		return false;
	}
	return true;
}

static void one(const struct scenario *s, void *arg)
{
	struct ctx *x = arg;
	struct explore_result d, sl;

	x->scenarios++;
	if (!search(x, s, &x->eo, &d))
		return;
	if (d.capped) {
		/* Opaque variants only: not exhaustive, nothing to compare. */
		x->skipped++;
		explore_result_free(&d);
		return;
	}
	x->dpor_schedules += d.schedules;
	if (d.violated) {
		x->violating++;
		x->violated |= d.violated;
	}
	if (s->ndev <= x->record_devices) {
		struct explore_opts eo = x->eo;
		struct explore_result ra;

		eo.record_all = true;
		if (search(x, s, &eo, &ra)) {
			x->checked_record++;
			if (ra.schedules != d.schedules || ra.blocked != d.blocked ||
			    ra.events != d.events || ra.classes != d.classes ||
			    ra.violated != d.violated || ra.noutcomes != d.noutcomes ||
			    outcomes_missing(&d, &ra)) {
				char what[160];

				x->by_record++;
				snprintf(what, sizeof(what),
					 "recording every step: %llu schedules, %llu cut short, %llu steps; kept: %llu, %llu, %llu",
					 (unsigned long long)ra.schedules,
					 (unsigned long long)ra.blocked,
					 (unsigned long long)ra.events,
					 (unsigned long long)d.schedules,
					 (unsigned long long)d.blocked,
					 (unsigned long long)d.events);
				if (x->mismatches++ < 3)
					show(what, s, x->ro, d.violated, ra.violated);
			}
		}
		explore_result_free(&ra);
	}
	if (s->ndev <= x->naive_devices) {
		struct explore_opts eo = x->eo;
		struct explore_result nv;

		eo.mode = EX_NAIVE;
		eo.classes = false;
		eo.max_schedules = x->naive_cap;
		if (search(x, s, &eo, &nv)) {
			x->naive_schedules += nv.schedules;
			if (nv.capped)
				x->naive_capped++;
			else
				x->checked_naive++;
			if (nv.capped ? (nv.violated & ~d.violated) != 0 :
					nv.violated != d.violated) {
				x->by_naive++;
				if (x->mismatches++ < 3)
					show(nv.capped ? "naive (cut short) breaks more" :
						 "naive breaks other invariants",
					     s, x->ro, d.violated, nv.violated);
			} else if (outcomes_missing(&d, &nv) ||
				   (!nv.capped && nv.noutcomes != d.noutcomes)) {
				char what[128];

				x->by_naive++;
				snprintf(what, sizeof(what),
					 "naive: %zu outcomes (%zu not DPOR's), dpor %zu",
					 nv.noutcomes, outcomes_missing(&d, &nv),
					 d.noutcomes);
				if (x->mismatches++ < 3)
					show(what, s, x->ro, d.violated, nv.violated);
			}
		}
		explore_result_free(&nv);
	}
	if (s->ndev <= x->sleep_devices) {
		struct explore_opts eo = x->eo;

		eo.mode = EX_SLEEP;
		if (search(x, s, &eo, &sl)) {
			x->checked_sleep++;
			/* With a device freed during the run, which of two
			 * commuting put_device()s frees it is part of a step's
			 * footprint: two schedules the search rightly takes as
			 * one count as two classes; then DPOR may count fewer. */
			bool frees = s->nact;

			for (int i = 0; i < s->ndev; i++)
				frees |= s->dev[i].beh.remove_phase >= 0;
			if (sl.violated != d.violated ||
			    (frees ? sl.classes < d.classes : sl.classes != d.classes) ||
			    sl.noutcomes != d.noutcomes || outcomes_missing(&d, &sl)) {
				char what[128];

				x->by_sleep++;
				snprintf(what, sizeof(what),
					 "sleep sets: %llu classes, %zu outcomes; dpor %llu, %zu",
					 (unsigned long long)sl.classes, sl.noutcomes,
					 (unsigned long long)d.classes, d.noutcomes);
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

	uint64_t outcome;
	int strange = 0;

	ro.choose = random_choose;
	ro.choose_ctx = &r;
	ro.event_hook = sum_outcome;
	ro.event_ctx = &outcome;
	for (int k = 0; k < x->random; k++) {
		outcome = 0;
		dpm_run(s, &ro, rr);
		x->random_runs++;
		if (rr->violated)
			seen |= 1u << rr->id;
		else if (x->eo.outcomes && !explore_has_outcome(&d, outcome))
			strange++;
	}
	free(rr);
	if (seen & ~d.violated) {
		x->by_random++;
		if (x->mismatches++ < 3)
			show("random schedules break more", s, x->ro, d.violated, seen);
	} else if (strange) {
		char what[128];

		x->by_random++;
		snprintf(what, sizeof(what),
			 "%d random schedules end with an outcome no DPOR run had",
			 strange);
		if (x->mismatches++ < 3)
			show(what, s, x->ro, d.violated, seen);
	}
	explore_result_free(&d);
}

/* The knob settings a variant is checked with: --fix's, or none, all,
 * and all with each feature knob. */
static int settings(const struct pm_variant *v, uint64_t *out)
{
	const char *bad;
	size_t bl;
	uint64_t all;
	int n = 0;

	if (cfg.nfix) {
		for (int i = 0; i < cfg.nfix; i++)
			if (knobs_parse(v, cfg.fix[i], &out[n++], &bad, &bl)) {
				fprintf(stderr, "test_explore: %s: no knob %.*s\n",
					v->name, (int)bl, bad);
				exit(2);
			}
		return n;
	}
	out[n++] = 0;
	knobs_parse(v, "all", &all, &bad, &bl);
	out[n++] = all;
	for (int k = 0; k < v->nknobs && n < 8; k++)
		if (v->knobs[k].feature)
			out[n++] = all | 1ULL << k;
	return n;
}

/* Every variant (or --variant's) with its knob settings over the bound;
 * returns the mismatches. */
static long check_all(enum explore_break pb)
{
	long mismatches = 0;

	for (int vi = 0; vi < pm_nvariants; vi++) {
		const struct pm_variant *v = pm_variants[vi];
		uint64_t set[8];

		if (cfg.only && strcmp(cfg.only, v->name))
			continue;
		int ns = settings(v, set);
		bool opaque = !explore_variant_visible(v);
		int nd = opaque && cfg.opaque_devices < cfg.devices ?
			 cfg.opaque_devices : cfg.devices;

		/* An opaque variant: its tree as it is (fixes none) only. */
		if (opaque || cfg.fixes_none)
			ns = 1;
		for (int k = 0; k < ns; k++) {
			struct run_opts ro = { .variant = v, .fixes = set[k] };
			struct space_bound b = {
				.devices = nd, .errors = 1, .removals = 1,
				.hotplug = !cfg.plain && nd <= cfg.hotplug_devices ? 1 : 0,
				.cycles = 1, .links = !cfg.plain, .rpm = !cfg.plain,
				.pm_waits = !cfg.plain,
				.features = v->features,
				.all_errnos = v->kernel != NULL,
			};
			struct space sp;
			struct ctx x = {
				.ro = &ro, .sleep_devices = opaque ? 0 : cfg.sleep_devices,
				.naive_devices = cfg.naive_devices,
				.record_devices = cfg.record_devices,
				.naive_cap = (uint64_t)(opaque ? cfg.opaque_cap : cfg.naive_cap),
				.random = opaque ? 0 : cfg.random,
				.eo = { .mode = EX_DPOR, .classes = !opaque,
					.outcomes = !opaque && cfg.outcomes, .brk = pb,
					.opaque = opaque,
					.max_schedules = opaque ? (uint64_t)cfg.opaque_cap : 0 },
			};
			char fixes[KNOBS_TEXT_MAX];

			space_init(&sp, &b);
			for (long ch = 0; ch < space_chunks(&sp); ch++)
				space_chunk_foreach(&sp, ch, one, &x);
			knobs_format(v, set[k], fixes, sizeof(fixes));
			char broken[256] = "";
			size_t bn = 0;

			for (int i = 0; i < NR_INV; i++)
				if (x.violated & (1u << i))
					bn += (size_t)snprintf(broken + bn, sizeof(broken) - bn,
							       " %s", inv_name(i));
			printf("%s (%s), devices <= %d: %ld scenarios, %llu DPOR schedules; naive on %ld (%llu schedules; %ld more cut short), sleep sets on %ld, %ld random schedules, every step recorded on %ld; %ld skipped (over %ld schedules); %ld violating (%s); %ld mismatches (naive %ld, sleep sets %ld, random %ld, recording %ld)\n",
			       v->name, fixes, nd, x.scenarios,
			       (unsigned long long)x.dpor_schedules, x.checked_naive,
			       (unsigned long long)x.naive_schedules, x.naive_capped,
			       x.checked_sleep, x.random_runs, x.checked_record, x.skipped,
			       opaque ? cfg.opaque_cap : 0L, x.violating,
			       bn ? broken + 1 : "none", x.mismatches,
			       x.by_naive, x.by_sleep, x.by_random, x.by_record);
			fflush(stdout);
			mismatches += x.mismatches;
		}
	}
	return mismatches;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "devices", required_argument, NULL, 'n' },
		{ "sleep-devices", required_argument, NULL, 's' },
		{ "random", required_argument, NULL, 'r' },
		{ "naive-devices", required_argument, NULL, 'N' },
		{ "naive-cap", required_argument, NULL, 'C' },
		{ "opaque-devices", required_argument, NULL, 'o' },
		{ "opaque-cap", required_argument, NULL, 'O' },
		{ "fixes-none", no_argument, NULL, 'z' },
		{ "variant", required_argument, NULL, 'v' },
		{ "break", required_argument, NULL, 'b' },
		{ "hotplug-devices", required_argument, NULL, 'H' },
		{ "plain", no_argument, NULL, 'p' },
		{ "fix", required_argument, NULL, 'f' },
		{ "outcomes", no_argument, NULL, 'u' },
		{ "record-devices", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	enum explore_break brk = EXB_NONE;
	int c;

	while ((c = getopt_long(argc, argv, "n:s:r:v:b:N:C:o:O:zH:pf:uR:", lo, NULL)) != -1) {
		switch (c) {
		case 'n': cfg.devices = atoi(optarg); break;
		case 's': cfg.sleep_devices = atoi(optarg); break;
		case 'r': cfg.random = atoi(optarg); break;
		case 'N': cfg.naive_devices = atoi(optarg); break;
		case 'C': cfg.naive_cap = atol(optarg); break;
		case 'o': cfg.opaque_devices = atoi(optarg); break;
		case 'O': cfg.opaque_cap = atol(optarg); break;
		case 'z': cfg.fixes_none = true; break;
		case 'H': cfg.hotplug_devices = atoi(optarg); break;
		case 'p': cfg.plain = true; break;
		case 'u': cfg.outcomes = true; break;
		case 'R': cfg.record_devices = atoi(optarg); break;
		case 'f':
			if (cfg.nfix == 8) {
				fprintf(stderr, "test_explore: at most 8 --fix\n");
				return 2;
			}
			cfg.fix[cfg.nfix++] = optarg;
			break;
		case 'v': cfg.only = optarg; break;
		case 'b':
#ifndef DPM_EXPLORE_FAULTS
			/* The library's search has no planted faults: its
			 * refusal would pass for a fault caught. */
			fprintf(stderr, "test_explore: --break needs test_explore_faults\n");
			return 2;
#endif
			brk = !strcmp(optarg, "race") ? EXB_NO_RACE : EXB_NONE;
			if (brk == EXB_NONE) {
				fprintf(stderr, "test_explore: --break race\n");
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	/* With a planted fault the bound runs first without it: it must be
	 * clean there, or a mismatch of the search itself (not the fault's)
	 * would pass for the fault caught. */
	if (brk != EXB_NONE) {
		printf("without the planted fault:\n");
		long clean = check_all(EXB_NONE);

		if (clean) {
			printf("FAIL: %ld mismatches without the planted fault\n", clean);
			return 1;
		}
		printf("with the planted fault:\n");
		long m = check_all(brk);

		printf(m ? "the planted fault was caught\n" :
			   "FAIL: the planted fault went unnoticed\n");
		return m ? 0 : 1;
	}
	return check_all(EXB_NONE) ? 1 : 0;
}
