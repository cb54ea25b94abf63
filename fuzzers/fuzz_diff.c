// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_diff: differential fuzzing.  Every registered variant that names
 * a partner (struct pm_variant.diff_with: rwsem and modern the seed, the
 * kernel trees modern) runs one scenario, restricted to what the two
 * share, in each of its configurations, beside its partner's first one,
 * and what a user can observe is compared:
 *   - every variant satisfies the oracle;
 *   - without errors and removals, every device runs each phase both
 *     variants have exactly once per cycle, and every cycle reports 0;
 *   - with one failing callback and no removals, it runs as often in
 *     both, and both report its error for the first cycle if it ran
 *     (direct_complete or a DPM flag may skip it), else 0.
 * A difference aborts with both outcomes and the scenario as text.
 *
 * What the two do not share is left out first (docs/fuzzing.md,
 * "fuzz_diff allow-list", says why each is an intended difference):
 *   A1 the scenario features one of them lacks (the registry's VF_*:
 *      device links, rpm-suspended devices, pm-waits, the kernel
 *      variants' transitions, DPM flags ...), cut as dpm_run() cuts them;
 *   A2 late and early callbacks when one has no such phases (the seed):
 *      their durations and errors are cut (VF_LATE_EARLY), and they are
 *      not counted;
 *   A3 power/async writes the seed's parser and sysfs_streq() judge
 *      differently (text after the newline) are dropped, when one reads
 *      it with sysfs_streq() and the other not (VF_SYSFS_STREQ);
 *   A4 a configuration may run without a worker limit (modern with
 *      async-early deadlocks under one: docs/findings.md#modern-3).
 * Input: the bytes of the variant targets (core/scenario/decode.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "run/settings.h"

static struct scn_limits limits;

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
	/* The configurations name knobs by their old spelling (modern's
	 * async-early): no note about it. */
	knobs_moved_noted = true;
	for (int i = 0; i < pm_nvariants; i++) {
		const struct pm_variant *v = pm_variants[i], *w;

		if (!v->diff || !v->diff_with)
			continue;
		w = variant_find(v->diff_with);
		if (!w || !w->diff) {
			fprintf(stderr, "dpmfuzz: fuzz_diff: %s is compared with '%s', which has no diff configuration\n",
				v->name, v->diff_with);
			exit(2);
		}
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

/* A3: keep the power/async writes both parsers read alike. */
static void drop_disagreeing_writes(struct scenario *s)
{
	int n = 0;

	for (int a = 0; a < s->nact; a++)
		if (s->act[a].kind != ACT_ASYNC_ATTR || attr_agrees(&s->act[a]))
			s->act[n++] = s->act[a];
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

/* A2: the phases a comparison counts. */
static bool counted(int p, unsigned int shared)
{
	return (shared & VF_LATE_EARLY) ||
	       (p != PH_SUSPEND_LATE && p != PH_RESUME_EARLY);
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
		    const struct pm_variant *partner, unsigned int shared,
		    const struct diff_config *c, const struct outcome *base,
		    struct outcome *other, bool removals, int nerr, int err,
		    int err_at, int err_phase)
{
	const char *bname = partner->name;
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

				if (!counted(p, shared) || base->ran[k] == other->ran[k])
					continue;
				snprintf(what, sizeof(what),
					 "'%s' ran %s %u and %u times",
					 s->dev[i].name, pm_phase_name(p),
					 base->ran[k], other->ran[k]);
				differ(s, bname, v->name, what);
			}
	}
	if (!removals && nerr == 1) {
		int k = err_at * NR_PHASES + err_phase;

		if (base->ran[k] != other->ran[k]) {
			snprintf(what, sizeof(what),
				 "the failing %s callback of '%s' ran %u and %u times",
				 pm_phase_name(err_phase), s->dev[err_at].name,
				 base->ran[k], other->ran[k]);
			differ(s, bname, v->name, what);
		}
		/* It fails the cycle if it ran (direct_complete or a DPM flag
		 * may skip it: then neither reports it). */
		int want = base->ran[k] ? err : 0;

		if (base->errors[0] != want || other->errors[0] != want) {
			snprintf(what, sizeof(what),
				 "the one failing callback returns %d and ran %u times; cycle 0 reported %d and %d",
				 err, base->ran[k], base->errors[0], other->errors[0]);
			differ(s, bname, v->name, what);
		}
	}
}

/* Whether the shared scenario has removals, and its failing callbacks
 * (how many, and the last one's error, device and phase). */
static void survey(const struct scenario *s, bool *removals, int *nerr,
		   int *err, int *err_at, int *err_phase)
{
	*removals = false;
	*nerr = 0;
	*err = 0;
	*err_at = 0;
	*err_phase = 0;
	for (int a = 0; a < s->nact; a++)
		*removals |= s->act[a].kind == ACT_UNREGISTER;
	for (int i = 0; i < s->ndev; i++) {
		*removals |= s->dev[i].beh.remove_phase >= 0 ||
			     s->dev[i].k.release_unregisters >= 0;
		for (int p = 0; p < NR_PHASES; p++)
			if (s->dev[i].beh.err[p] && pm_phase_is_suspend(p)) {
				(*nerr)++;
				*err = s->dev[i].beh.err[p];
				*err_at = i;
				*err_phase = p;
			}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cut_buf cut;
	/* The partner's outcome, kept while the next variant shares the
	 * same partner and restriction. */
	const struct pm_variant *base_of = NULL;
	unsigned int base_shared = 0;
	struct scenario s, shared;
	struct outcome base, other;

	scenario_decode(data, size, &limits, &s);
	base.ran = dpm_xcalloc((size_t)s.ndev * NR_PHASES, sizeof(*base.ran));
	other.ran = dpm_xcalloc((size_t)s.ndev * NR_PHASES, sizeof(*other.ran));
	for (int vi = 0; vi < pm_nvariants; vi++) {
		const struct pm_variant *v = pm_variants[vi], *w;

		if (!v->diff || !v->diff_with)
			continue;
		w = variant_find(v->diff_with);
		unsigned int feat = v->features & w->features;
		bool removals;
		int nerr, err, err_at, err_phase;

		dpm_cut(&s, feat, &shared, &cut);	/* A1, A2 */
		bool dropped = (v->features ^ w->features) & VF_SYSFS_STREQ;

		if (dropped)	/* A3: in cut's copy of the actions */
			drop_disagreeing_writes(&shared);
		survey(&shared, &removals, &nerr, &err, &err_at, &err_phase);
		if (base_of != w || base_shared != (feat | (dropped ? 1u << 31 : 0))) {
			observe(&shared, w, w->diff[0].fixes, &base);
			base_of = w;
			base_shared = feat | (dropped ? 1u << 31 : 0);
		}
		for (const struct diff_config *c = v->diff; c->fixes; c++)
			compare(&shared, v, w, feat, c, &base, &other, removals,
				nerr, err, err_at, err_phase);
	}
	free(base.ran);
	free(other.ran);
	scenario_free(&s);
	return 0;
}
