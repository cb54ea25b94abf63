// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_diff: differential fuzzing.  One scenario, restricted to what the
 * variants share, runs on the seed, the modern algorithm (and every
 * other variant in the table), each with every fix on, and what a user
 * can observe is compared:
 *   - every variant satisfies the oracle;
 *   - without errors and removals, every device runs each phase the seed
 *     has exactly once per cycle, and every cycle reports 0;
 *   - with one failing callback and no removals, every variant reports
 *     that error for the first cycle.
 * A difference aborts with both outcomes and the scenario as text.
 *
 * What the variants do not share is left out first (docs/fuzzing.md,
 * "fuzz_diff allow-list", says why each is an intended difference):
 *   A1 device links, rpm-suspended devices and pm-waits: modern only;
 *   A2 late and early callbacks: the seed has no such phases, so their
 *      durations and errors are dropped;
 *   A3 power/async writes the seed's parser and sysfs_streq() judge
 *      differently (text after the newline) are dropped;
 *   A4 modern with async-early runs without a worker limit (it can
 *      deadlock under one: docs/findings.md#modern-3).
 * Configurations: seed all, modern all (6.12), modern all,async-early
 * (6.16+), rwsem all.
 * Input: the bytes of fuzz_seed (core/scenario/decode.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "run/settings.h"

static struct scn_limits limits;
static const struct pm_variant *base_variant;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct dpm_env env;
	char err[256];

	(void)argc;
	(void)argv;
	if (dpm_env_read(&env, err, sizeof(err))) {
		fprintf(stderr, "dpmfuzz: %s\n", err);
		exit(2);
	}
	limits = env.limits;
	for (int i = 0; i < pm_nvariants && !base_variant; i++)
		if (pm_variants[i]->diff)
			base_variant = pm_variants[i];
	if (!base_variant) {
		fprintf(stderr, "dpmfuzz: fuzz_diff: no variant in the registry has a diff configuration\n");
		exit(2);
	}
	return 0;
}

/* The seed's reading of power/async (up to the first newline) and
 * sysfs_streq() (one trailing newline) agree on this text. */
static bool attr_agrees(const struct scn_action *a)
{
	const char *nl = memchr(a->attr, '\n', (size_t)a->attr_len);
	int upto = nl ? (int)(nl - a->attr) : a->attr_len;
	int strip = a->attr_len && a->attr[a->attr_len - 1] == '\n' ?
		    a->attr_len - 1 : a->attr_len;

	return upto == strip;
}

static void restrict_to_shared(struct scenario *s)
{
	for (int i = 0; i < s->ndev; i++) {
		struct scn_device *d = &s->dev[i];

		d->nsup = 0;				/* A1 */
		d->beh.rpm_suspended = false;
		d->beh.pm_wait_for = 0;
		for (int k = 0; k < 2; k++) {	/* A2 */
			int p = k ? PH_RESUME_EARLY : PH_SUSPEND_LATE;

			d->beh.dur_us[p] = 0;
			d->beh.err[p] = 0;
		}
	}
	int n = 0;

	for (int a = 0; a < s->nact; a++)
		if (s->act[a].kind != ACT_ASYNC_ATTR || attr_agrees(&s->act[a]))
			s->act[n++] = s->act[a];	/* A3 */
	s->nact = n;
}

struct outcome {
	int errors[RUN_ERRORS_KEPT];
	/* callbacks that ended, per device and phase */
	unsigned short *ran;
};

static unsigned short *counting;	/* the outcome being observed */
static int counting_ndev;

static void count_end(const struct dpm_event *ev, void *ctx)
{
	(void)ctx;
	if (ev->kind == EV_CB_END && ev->dev >= 0 && ev->dev < counting_ndev)
		counting[ev->dev * NR_PHASES + ev->phase]++;
}

static void observe(const struct scenario *s, const struct pm_variant *v,
		    const char *fixes, struct outcome *out)
{
	static struct run_result r;
	struct run_opts o = { .variant = v, .event_hook = count_end };
	const char *bad;
	size_t bl;

	if (knobs_parse(v, fixes, &o.fixes, &bad, &bl))
		abort();
	memset(out->ran, 0, sizeof(*out->ran) * (size_t)s->ndev * NR_PHASES);
	counting = out->ran;
	counting_ndev = s->ndev;
	dpm_run(s, &o, &r);
	if (r.violated) {
		fprintf(stderr, "dpmfuzz: fuzz_diff: variant %s (fixes %s) violates on the shared scenario\n",
			v->name, fixes);
		dpm_report(s, &o, stderr, 80, NULL);
		fprintf(stderr, "--- reproduce: dpmrepro FILE, FILE holding the scenario above\n");
		abort();
	}
	memcpy(out->errors, r.errors, sizeof(out->errors));
}

static bool seed_phase(int p)
{
	return p != PH_SUSPEND_LATE && p != PH_RESUME_EARLY;
}

static void differ(const struct scenario *s, const char *a, const char *b,
		   const char *what)
{
	char *text = scenario_print(s);

	fprintf(stderr, "dpmfuzz: fuzz_diff: %s and %s differ: %s\n--- scenario (shared part):\n%s",
		a, b, what, text);
	free(text);
	abort();
}

/* Run v in configuration c on s and compare what a user sees with the
 * baseline's outcome. */
static void compare(struct scenario *s, const struct pm_variant *v,
		    const struct diff_config *c, const struct outcome *base,
		    struct outcome *other, bool removals, int nerr, int err)
{
	const char *bname = base_variant->name;
	unsigned int wl = s->worker_limit;
	char what[256];

	if (c->no_worker_limit)
		s->worker_limit = 0;
	observe(s, v, c->fixes, other);
	s->worker_limit = wl;
	int cycles = s->cycles < RUN_ERRORS_KEPT ? s->cycles : RUN_ERRORS_KEPT;

	if (!removals && !nerr) {
		for (int k = 0; k < cycles; k++)
			if (base->errors[k] || other->errors[k]) {
				snprintf(what, sizeof(what),
					 "cycle %d reported %d and %d with no failing callback",
					 k, base->errors[k], other->errors[k]);
				differ(s, bname, v->name, what);
			}
		for (int i = 0; i < s->ndev; i++)
			for (int p = 0; p < NR_PHASES; p++) {
				int k = i * NR_PHASES + p;

				if (!seed_phase(p) || base->ran[k] == other->ran[k])
					continue;
				snprintf(what, sizeof(what),
					 "'%s' ran %s %u and %u times",
					 s->dev[i].name, pm_phase_name(p),
					 base->ran[k], other->ran[k]);
				differ(s, bname, v->name, what);
			}
	}
	if (!removals && nerr == 1 &&
	    (base->errors[0] != err || other->errors[0] != err)) {
		snprintf(what, sizeof(what),
			 "the one failing callback returns %d; cycle 0 reported %d and %d",
			 err, base->errors[0], other->errors[0]);
		differ(s, bname, v->name, what);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario s;

	scenario_decode(data, size, &limits, &s);
	restrict_to_shared(&s);

	bool removals = false;
	int nerr = 0, err = 0;

	for (int a = 0; a < s.nact; a++)
		removals |= s.act[a].kind == ACT_UNREGISTER;
	for (int i = 0; i < s.ndev; i++) {
		removals |= s.dev[i].beh.remove_phase >= 0;
		for (int p = 0; p < NR_PHASES; p++)
			if (s.dev[i].beh.err[p] && pm_phase_is_suspend(p)) {
				nerr++;
				err = s.dev[i].beh.err[p];
			}
	}
	struct outcome base, other;

	base.ran = dpm_xcalloc((size_t)s.ndev * NR_PHASES, sizeof(*base.ran));
	other.ran = dpm_xcalloc((size_t)s.ndev * NR_PHASES, sizeof(*other.ran));
	/* The baseline: the registry's first configuration (the seed with
	 * every fix); every other one is compared with it. */
	observe(&s, base_variant, base_variant->diff[0].fixes, &base);
	for (int vi = 0; vi < pm_nvariants; vi++) {
		const struct pm_variant *v = pm_variants[vi];

		for (const struct diff_config *c = v->diff; c && c->fixes; c++) {
			if (v == base_variant && c == v->diff)
				continue;
			compare(&s, v, c, &base, &other, removals, nerr, err);
		}
	}
	free(base.ran);
	free(other.ran);
	scenario_free(&s);
	return 0;
}

