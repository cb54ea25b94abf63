// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmrepro: replay one scenario on the det engine and explain it.
 *
 *   dpmrepro [options] FILE
 *
 * FILE is a fuzz crash input (raw bytes, decoded exactly as fuzz_seed
 * decodes them) or a scenario text file (docs/scenario.md), told apart
 * by the text header.  A text scenario names its variant and knobs in
 * its header; --variant and --fix override them, and give them for raw
 * bytes (defaults: seed, none).  Raw bytes decode under the same
 * DPMFUZZ_MAX_DEVICES as the fuzz target that found them.  The reading,
 * parsing and model picking are core/run/replay.c's (tests/test_corrupt.c
 * feeds them 10,000 corrupt inputs).
 *
 * Options:
 *   --variant NAME     the model to run (seed, rwsem; default: the
 *                      scenario header's, else seed)
 *   --fix LIST|all|none  kernel fixes to turn on
 *   --tail N           trace lines to print (default 0: the whole trace)
 *   --text             print the scenario as text and exit
 *   --encode OUT       write the scenario as fuzz_seed input bytes to OUT
 *   --schedules N      run the scenario as written, then up to N other
 *                      schedules (seeded: the same ones every time) until
 *                      one shows the invariant of the file's 'expect'
 *                      line (any violation if it names none); report
 *                      that run, its schedule in the text (exit 1), or
 *                      say none did (exit 0).  dpmstress prints
 *                      "--schedules K" commands for threads findings.
 *   --check-regression the file's 'expect' line must match the outcome,
 *                      and with every fix on it must run clean
 *   --trace-json FILE  also write the run as Chrome trace-event JSON
 *   --html FILE        also write a self-contained timeline page
 *   --summary-json     one line of JSON: variant, knobs, devices,
 *                      violation (ID or null), message, and the virtual
 *                      suspend and resume times of the first transition
 *   --minimize         shrink the scenario while the same invariant still
 *                      fires; print the minimal scenario as text
 *   --save-regression NAME  write corpus/regressions/<variant>/NAME.scenario
 *                      (under --regression-dir DIR if given) with the
 *                      outcome as its 'expect' line
 *
 * Exit: 0 no violation (or the regression holds), 1 a violation (or the
 * regression does not hold), 2 bad usage or input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/replay.h"
#include "run/settings.h"

static const char *prog = "dpmrepro";

static void die(const char *fmt, const char *a, const char *b)
	__attribute__((noreturn));

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(2);
}

/* The scenario as text with its variant, knobs and expected outcome. */
static char *text_with_header(const struct scenario *s, const struct run_opts *o,
			      const char *expect)
{
	struct scenario c = *s;
	char fixes[KNOBS_TEXT_MAX];

	knobs_format(o->variant, o->fixes, fixes, sizeof(fixes));
	snprintf(c.variant, sizeof(c.variant), "%s", o->variant->name);
	snprintf(c.fixes, sizeof(c.fixes), "%s", o->fixes ? fixes : "");
	snprintf(c.expect, sizeof(c.expect), "%s", expect ? expect : "");
	return scenario_print(&c);
}

static void json_string(const char *t)
{
	putchar('"');
	for (; *t; t++) {
		unsigned char ch = (unsigned char)*t;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch == '\n')
			printf("\\n");
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static int print_summary_json(struct scenario *s, const struct run_opts *o)
{
	static struct run_result r;
	uint64_t sus = 0, res = 0;

	dpm_run(s, o, &r);
	for (int p = 0; p < NR_PHASES; p++) {
		if (pm_phase_is_suspend(p))
			sus += r.phase_ns[p];
		else
			res += r.phase_ns[p];
	}
	printf("{\"variant\":");
	json_string(o->variant->name);
	printf(",\"knobs\":[");
	for (int k = 0, n = 0; k < o->variant->nknobs; k++) {
		if (!(o->fixes & (1ULL << k)))
			continue;
		printf("%s", n++ ? "," : "");
		json_string(o->variant->knobs[k].name);
	}
	printf("],\"devices\":%d,\"cycles\":%d,\"violation\":", s->ndev,
	       s->cycles);
	if (r.violated)
		json_string(inv_name(r.id));
	else
		printf("null");
	printf(",\"message\":");
	json_string(r.violated ? r.msg : "");
	printf(",\"suspend_ms\":%.3f,\"resume_ms\":%.3f,\"suspend_error\":%d}\n",
	       (double)sus / 1e6, (double)res / 1e6, r.errors[0]);
	scenario_free(s);
	return r.violated ? 1 : 0;
}

static int save_regression(struct scenario *s, const struct run_opts *o,
			   const char *name, const char *dir)
{
	static struct run_result r;
	char path[4096], d[4096];

	dpm_run(s, o, &r);
	if (dir)
		snprintf(d, sizeof(d), "%s", dir);
	else
		snprintf(d, sizeof(d), "corpus/regressions/%s", o->variant->name);
	snprintf(path, sizeof(path), "%s/%s.scenario", d, name);
	char *t = text_with_header(s, o, r.violated ? inv_name(r.id) : "clean");
	FILE *f = fopen(path, "wx");

	if (!f) {
		free(t);
		scenario_free(s);
		die("cannot create %s: %s", path,
		    errno == EEXIST ? "it exists already" : strerror(errno));
	}
	fprintf(f, "# Guards: (say which knob and docs/findings.md entry)\n%s", t);
	if (fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
	printf("dpmrepro: wrote %s (expect %s)\n", path,
	       r.violated ? inv_name(r.id) : "clean");
	free(t);
	scenario_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	const char *variant = NULL, *fix = NULL, *encode = NULL, *path = NULL;
	int tail = 0;
	long schedules = 0;
	bool text_only = false, check_regression = false, summary = false;
	bool minimize = false;
	const char *save_name = NULL, *reg_dir = NULL;
	const char *trace_json = NULL, *html = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (!strcmp(a, "--variant") && more) {
			variant = argv[++i];
		} else if (!strcmp(a, "--fix") && more) {
			fix = argv[++i];
		} else if (!strcmp(a, "--tail") && more) {
			char *e;

			tail = (int)strtol(argv[++i], &e, 10);
			if (*e || tail < 0)
				die("--tail wants a number, not '%s'%s", argv[i], "");
		} else if (!strcmp(a, "--schedules") && more) {
			char *e;

			schedules = strtol(argv[++i], &e, 10);
			if (*e || schedules < 0)
				die("--schedules wants a number, not '%s'%s", argv[i], "");
		} else if (!strcmp(a, "--encode") && more) {
			encode = argv[++i];
		} else if (!strcmp(a, "--text")) {
			text_only = true;
		} else if (!strcmp(a, "--check-regression")) {
			check_regression = true;
		} else if (!strcmp(a, "--trace-json") && more) {
			trace_json = argv[++i];
		} else if (!strcmp(a, "--html") && more) {
			html = argv[++i];
		} else if (!strcmp(a, "--summary-json")) {
			summary = true;
		} else if (!strcmp(a, "--minimize")) {
			minimize = true;
		} else if (!strcmp(a, "--save-regression") && more) {
			save_name = argv[++i];
			if (!*save_name || strpbrk(save_name, "/ \t\n"))
				die("--save-regression wants a plain name, not '%s'%s", save_name, "");
		} else if (!strcmp(a, "--regression-dir") && more) {
			reg_dir = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			die("unknown option '%s' (see the header of tools/dpmrepro.c%s)", a, "");
		} else if (path) {
			die("one file at a time ('%s' and '%s')", path, a);
		} else {
			path = a;
		}
	}
	if (fix && !strcmp(fix, "list")) {
		const struct pm_variant *v = variant_find(variant ? variant : "seed");

		if (!v)
			die("no variant '%s' (variants: %s)", variant ? variant : "seed",
			    variant_names());
		knobs_list(v, stdout);
		return 0;
	}
	if (!path)
		die("usage: dpmrepro [--variant V] [--fix LIST] [--tail N] [--text] [--encode OUT] [--schedules N] [--check-regression] FILE%s%s", "", "");

	struct scenario s;
	struct run_opts o = { 0 };
	bool is_text;
	char err[512];

	struct dpm_env env;

	if (dpm_env_read(&env, err, sizeof(err)))
		die("%s%s", err, "");
	if (dpm_load_file(path, &env.limits, false, &s, &is_text, err, sizeof(err)))
		die("%s%s", err, "");
	if (check_regression && !is_text) {
		scenario_free(&s);
		die("%s: a regression must be a scenario text file%s", path, "");
	}
	if (dpm_pick(&s, variant, fix, &o, err, sizeof(err))) {
		scenario_free(&s);
		die("%s%s", err, strncmp(err, "no knob", 7) ? "" :
		    " (dpmrepro --fix list shows them)");
	}
	if (text_only) {
		char *t = scenario_print(&s);

		fputs(t, stdout);
		free(t);
		scenario_free(&s);
		return 0;
	}
	if (encode) {
		size_t n;
		bool lossy;
		uint8_t *b = scenario_encode(&s, &n, &lossy);
		FILE *f = fopen(encode, "wb");

		if (!f || fwrite(b, 1, n, f) != n || fclose(f))
			die("cannot write %s: %s", encode, strerror(errno));
		fprintf(stderr, "%s: wrote %zu bytes%s\n", prog, n,
			lossy ? " (some settings do not fit the byte format and were rounded)" : "");
		free(b);
		scenario_free(&s);
		return 0;
	}
	if (check_regression) {
		static struct run_result r;

		if (!s.expect[0])
			die("%s: a regression needs an 'expect' line%s", path, "");
		bool want_clean = !strcmp(s.expect, "clean");

		if (!want_clean && inv_parse(s.expect) < 0)
			die("%s: expect '%s' is neither 'clean' nor an invariant ID", path, s.expect);
		dpm_run(&s, &o, &r);
		const char *got = r.violated ? inv_name(r.id) : "clean";

		if (strcmp(got, s.expect)) {
			printf("%s: expected %s, got %s\n", path, s.expect, got);
			dpm_report(&s, &o, stdout, tail, NULL);
			scenario_free(&s);
			return 1;
		}
		struct run_opts all = o;
		const char *bad;
		size_t bl;
		uint64_t features = 0;

		for (int k = 0; k < o.variant->nknobs; k++)
			if (o.variant->knobs[k].feature)
				features |= 1ULL << k;
		/* Every fix, and the newer schemes the file runs. */
		knobs_parse(o.variant, "all", &all.fixes, &bad, &bl);
		all.fixes |= o.fixes & features;
		if (all.fixes == o.fixes) {
			/* Every fix on already: a finding no fix addresses. */
			printf(want_clean ? "%s: %s as expected, every fix on\n" :
			       "%s: %s as expected (a finding with every fix on: docs/findings.md)\n",
			       path, got);
			scenario_free(&s);
			return 0;
		}
		dpm_run(&s, &all, &r);
		if (r.violated) {
			printf("%s: with every fix on, expected clean, got %s\n",
			       path, inv_name(r.id));
			dpm_report(&s, &all, stdout, tail, NULL);
			scenario_free(&s);
			return 1;
		}
		printf("%s: %s as expected; clean with every fix on\n", path,
		       got);
		scenario_free(&s);
		return 0;
	}
	if (summary)
		return print_summary_json(&s, &o);
	if (minimize) {
		static struct run_result r;

		dpm_run(&s, &o, &r);
		if (!r.violated) {
			printf("dpmrepro: no violation to minimize\n");
			scenario_free(&s);
			return 0;
		}
		int before = s.ndev;
		long runs = dpm_minimize(&s, &o, r.id);
		char *t = text_with_header(&s, &o, inv_name(r.id));

		printf("# minimized from %d to %d devices in %ld runs; still %s\n%s",
		       before, s.ndev, runs, inv_name(r.id), t);
		free(t);
		scenario_free(&s);
		return 1;
	}
	if (save_name)
		return save_regression(&s, &o, save_name, reg_dir);
	if (schedules) {
		static struct run_result r;
		int want = dpm_expected(&s);
		long k = dpm_schedule_search(&s, &o, schedules, want, &r);

		if (k < 0) {
			if (want < 0)
				printf("dpmrepro: no violation in %ld schedules\n",
				       schedules);
			else
				printf("dpmrepro: neither the file's schedule nor %ld others show %s (its 'expect')\n",
				       schedules, inv_name(want));
			scenario_free(&s);
			return 0;
		}
		if (k)
			printf("dpmrepro: schedule %ld of the search shows %s\n", k,
			       inv_name(r.id));
	}
	static struct run_result r;
	bool v = dpm_report(&s, &o, stdout, tail, &r);

	if (trace_json || html) {
		/* The report's replay recorded the events the exporters use. */
		const char *outs[2] = { trace_json, html };

		for (int k = 0; k < 2; k++) {
			if (!outs[k])
				continue;
			FILE *f = fopen(outs[k], "w");
			int rc = f ? (k ? export_html(&s, &r, f) :
				      export_trace_json(&s, f)) : -1;

			if (!f || rc || fclose(f)) {
				scenario_free(&s);
				die("cannot write %s: %s", outs[k], strerror(errno));
			}
		}
	}

	scenario_free(&s);
	return v ? 1 : 0;
}
