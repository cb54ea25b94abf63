// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmrepro: replay one scenario on the det engine and explain it.
 *
 *   dpmrepro [OPTION]... FILE
 *
 * FILE is a fuzz crash input (raw bytes, decoded exactly as the fuzz
 * targets decode them) or a scenario text file (docs/scenario.md), told
 * apart by the text header.  A text scenario names its variant and knobs
 * in its header; --variant and --fix override them, and give them for
 * raw bytes (defaults: seed, none).  Raw bytes decode under the same
 * DPMFUZZ_MAX_DEVICES as the fuzz target that found them.  The reading,
 * parsing and model picking are core/run/replay.c's (tests/test_corrupt.c
 * feeds them 10,000 corrupt inputs).
 *
 * The options are the table below (dpmrepro --help prints it;
 * docs/fuzzing.md, "dpmrepro options", describes each).
 *
 * Files it writes (--encode, --trace-json, --html, --save-regression)
 * are written whole or not at all (cli_out_open()); --trace-json and
 * --html each say the path they wrote, one line on stderr (stdout is the
 * report).  SIGINT or SIGTERM stops a run, a schedule search or
 * --minimize at its next scheduling point: a line on stderr says so
 * (--minimize prints the smallest scenario so far first), exit 130 or
 * 143.
 *
 * Exit: 0 no violation (or the regression holds), 1 a violation (or the
 * regression does not hold), 2 bad usage or input, or a write error
 * (stdout, a file); 130 (143) interrupted by SIGINT (SIGTERM).  With
 * --vm the real kernel's run counts too: 1 for its violation or a
 * disagreement, 2 when it cannot run the file (tools/dpmvm says why).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "oracle/invariant.h"
#include "run/judge.h"
#include "run/replay.h"
#include "run/settings.h"
#include "util/esc.h"

enum {
	OPT_VARIANT = CLI_FIRST_KEY, OPT_FIX, OPT_TAIL, OPT_TEXT, OPT_ENCODE,
	OPT_SCHEDULES, OPT_CHECK_REGRESSION, OPT_TRACE_JSON, OPT_HTML,
	OPT_SUMMARY_JSON, OPT_MINIMIZE, OPT_SAVE_REGRESSION,
	OPT_REGRESSION_DIR, OPT_LIST_VARIANTS, OPT_LIST_INVARIANTS, OPT_BYTES, OPT_JUDGE,
	OPT_EVENTS, OPT_AS_RUN, OPT_VM,
};

static const struct cli_option options[] = {
	{ "variant", OPT_VARIANT, "NAME", "the model to run, a registered variant (--list-variants; default: the file's header, else seed)" },
	{ "fix", OPT_FIX, "LIST", "kernel fixes to turn on: knob,...|all|none (default: the file's header, else none); 'list' prints the variant's knobs" },
	{ "tail", OPT_TAIL, "N", "print the last N trace lines (default 0: the whole trace)" },
	{ "text", OPT_TEXT, NULL, "print the scenario as text and exit" },
	{ "as-run", OPT_AS_RUN, NULL, "print the scenario as text as the variant runs it (what its kernel lacks left out, what its rules settle settled) and exit" },
	{ "encode", OPT_ENCODE, "OUT", "write the scenario as fuzz target input bytes to OUT and exit" },
	{ "schedules", OPT_SCHEDULES, "N", "run the file's schedule, then up to N others until one shows its 'expect' (without one: any violation); with --check-regression the expected finding holds if one does" },
	{ "check-regression", OPT_CHECK_REGRESSION, NULL, "the outcome must be the file's 'expect', and with every fix on the run must be clean (with --schedules, on those schedules too)" },
	{ "trace-json", OPT_TRACE_JSON, "FILE", "also write the run as Chrome trace-event JSON to FILE" },
	{ "html", OPT_HTML, "FILE", "also write the run as a self-contained timeline page to FILE" },
	{ "summary-json", OPT_SUMMARY_JSON, NULL, "print one line of JSON instead of the report (its fields: docs/fuzzing.md)" },
	{ "minimize", OPT_MINIMIZE, NULL, "shrink the scenario while the same invariant still fires; print it as text" },
	{ "save-regression", OPT_SAVE_REGRESSION, "NAME", "write the scenario with its outcome as 'expect' to corpus/regressions/<variant>/NAME.scenario" },
	{ "regression-dir", OPT_REGRESSION_DIR, "DIR", "where --save-regression writes instead" },
	{ "list-variants", OPT_LIST_VARIANTS, NULL, "print the registered variants, one per line, tab-separated, and exit" },
	{ "list-invariants", OPT_LIST_INVARIANTS, NULL, "print the oracle's invariants, one per line: the ID a report names, a tab, what it means; and exit" },
	{ "bytes", OPT_BYTES, NULL, "read FILE as fuzz input bytes, even if it looks like text (docs/fuzzing.md, \"Text or bytes\")" },
	{ "judge", OPT_JUDGE, "RECORD", "judge RECORD, a real kernel's run of FILE (tools/dpmvm; docs/vm.md), with the oracle instead of running the variant" },
	{ "vm", OPT_VM, NULL, "after the report, run FILE on Debian's real kernel of the variant's version too (tools/dpmvm; docs/vm.md): both verdicts and whether they agree" },
	{ "events", OPT_EVENTS, "OUT", "also write the run's events (or with --judge the record's) to OUT, one a line (docs/vm.md)" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_program program = {
	.name = "dpmrepro",
	.usage = "[OPTION]... FILE\n--fix list [--variant NAME]\n--list-variants\n--list-invariants",
	.about = "Replay a fuzz crash file or a scenario text on the det engine and explain it.",
	.options = options,
	.footer =
		"FILE is a crash file (raw bytes, decoded as the fuzz targets decode them) or a\n"
		"scenario text (docs/scenario.md).  DPMFUZZ_MAX_DEVICES and DPMFUZZ_NO_WORKER_LIMIT\n"
		"decode a crash file as under the fuzz target that found it (docs/fuzzing.md).\n"
		"Files are written whole or not at all (a temporary name, renamed).\n"
		"Exit: 0 no violation (or the regression holds; with --vm, and the real kernel agrees and is clean), 1 a violation (or the regression does not hold; with --vm, or a violation or a disagreement on the real kernel), 2 bad usage or input, or a write error (one line on stderr; with --vm, what the real kernel cannot run, or missing set-up); 130 (143) interrupted by SIGINT (SIGTERM).\n",
};

/* What a run of dpmrepro does, from its command line. */
struct repro_options {
	const char *variant, *fix;	/* NULL: the file's header */
	const char *file;
	int tail;
	long schedules;
	bool text, as_run, check_regression, summary_json, minimize, list_variants;
	bool list_invariants;
	bool bytes;
	const char *encode, *save_regression, *regression_dir;
	const char *trace_json, *html;
	const char *judge, *events;
	bool vm;
};

/* 0 to run, 1 to exit 0 (--help, --version), -1 bad usage (err). */
static int parse_args(int argc, char **argv, struct repro_options *o,
		      char *err, size_t errlen)
{
	const char *arg;
	long long n;
	int c, modes = 0;

	memset(o, 0, sizeof(*o));
	while ((c = cli_next(&program, argc, argv, &arg, err, errlen)) != CLI_END) {
		switch (c) {
		case CLI_ERROR:
			return -1;
		case CLI_PRINTED:
			return 1;
		case OPT_VARIANT:
			o->variant = arg;
			break;
		case OPT_FIX:
			o->fix = arg;
			break;
		case OPT_TAIL:
			if (cli_number("--tail", arg, 0, INT_MAX, &n, err, errlen))
				return -1;
			o->tail = (int)n;
			break;
		case OPT_SCHEDULES:
			if (cli_number("--schedules", arg, 0, 1LL << 40, &n, err, errlen))
				return -1;
			o->schedules = (long)n;
			break;
		case OPT_TEXT:
			o->text = true;
			modes++;
			break;
		case OPT_AS_RUN:
			o->as_run = true;
			modes++;
			break;
		case OPT_VM:
			o->vm = true;
			break;
		case OPT_ENCODE:
			if (cli_path("--encode", arg, err, errlen))
				return -1;
			o->encode = arg;
			modes++;
			break;
		case OPT_CHECK_REGRESSION:
			o->check_regression = true;
			modes++;
			break;
		case OPT_TRACE_JSON:
			if (cli_path("--trace-json", arg, err, errlen))
				return -1;
			o->trace_json = arg;
			break;
		case OPT_HTML:
			if (cli_path("--html", arg, err, errlen))
				return -1;
			o->html = arg;
			break;
		case OPT_SUMMARY_JSON:
			o->summary_json = true;
			modes++;
			break;
		case OPT_MINIMIZE:
			o->minimize = true;
			modes++;
			break;
		case OPT_SAVE_REGRESSION:
			if (!*arg || strpbrk(arg, "/ \t\n")) {
				snprintf(err, errlen, "--save-regression wants a plain name, not '%s'",
					 DPM_ESC(arg));
				return -1;
			}
			o->save_regression = arg;
			modes++;
			break;
		case OPT_REGRESSION_DIR:
			if (cli_path("--regression-dir", arg, err, errlen))
				return -1;
			o->regression_dir = arg;
			break;
		case OPT_LIST_VARIANTS:
			o->list_variants = true;
			modes++;
			break;
		case OPT_LIST_INVARIANTS:
			o->list_invariants = true;
			modes++;
			break;
		case OPT_BYTES:
			o->bytes = true;
			break;
		case OPT_JUDGE:
			if (cli_path("--judge", arg, err, errlen))
				return -1;
			o->judge = arg;
			modes++;
			break;
		case OPT_EVENTS:
			if (cli_path("--events", arg, err, errlen))
				return -1;
			o->events = arg;
			break;
		}
	}
	if (modes > 1) {
		snprintf(err, errlen, "--text, --as-run, --encode, --check-regression, --summary-json, --minimize, --save-regression, --judge, --list-variants and --list-invariants go one at a time");
		return -1;
	}
	if (o->vm && (modes || o->schedules)) {
		snprintf(err, errlen, "--vm goes with the report of the file's own schedule only");
		return -1;
	}
	if (o->events && modes && !o->judge) {
		snprintf(err, errlen, "--events goes with the report or --judge only");
		return -1;
	}
	if (optind < argc - 1) {
		snprintf(err, errlen, "one file at a time ('%s' and '%s')",
			 DPM_ESC(argv[optind]), DPM_ESC(argv[optind + 1]));
		return -1;
	}
	o->file = optind < argc ? argv[optind] : NULL;
	if (o->list_variants || o->list_invariants ||
	    (o->fix && !strcmp(o->fix, "list"))) {
		if (o->file) {
			snprintf(err, errlen, "%s takes no FILE", o->list_variants ?
				 "--list-variants" : o->list_invariants ?
				 "--list-invariants" : "--fix list");
			return -1;
		}
		return 0;
	}
	if (!o->file) {
		snprintf(err, errlen, "no FILE given (dpmrepro --help)");
		return -1;
	}
	return 0;
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

/* The trace lines of the task that broke the invariant, for the summary. */
#define SUMMARY_TASK_LINES 8

/* A run log line "[   s.us] TASK    what": TASK's start and length,
 * and where what starts; false for a line of another form. */
static bool log_fields(const char *l, size_t len, size_t *task, size_t *tlen,
		       size_t *what)
{
	const char *close = memchr(l, ']', len);
	size_t at;

	if (len < 2 || l[0] != '[' || !close || (size_t)(close - l) + 2 > len)
		return false;
	at = (size_t)(close - l) + 2;
	*task = at;
	*tlen = l[at] == ' ' ? 0 : strcspn(l + at, " \n");
	at += *tlen;
	at += strspn(l + at, " ");
	*what = at;
	return true;
}

/*
 * "task" and "task_trace": the task the violation was reported in and
 * its last lines of the run log before that report, without time and
 * task name (the engine's own reports have no task: "task" is "").  The
 * campaign groups findings by these (scripts/campaign, docs/fuzzing.md).
 */
static void summary_task_trace(void)
{
	const char *log = dpm_log_text(), *viol = NULL, *l;
	size_t vt = 0, vtlen = 0, t, tlen, w, len;
	const char *lines[SUMMARY_TASK_LINES];
	int n = 0;

	/* The last report of the violation. */
	for (l = log; *l; l += len + (l[len] == '\n')) {
		len = strcspn(l, "\n");
		if (log_fields(l, len, &t, &tlen, &w) &&
		    !strncmp(l + w, "dpmfuzz: VIOLATION", 18)) {
			viol = l;
			vt = t;
			vtlen = tlen;
		}
	}
	printf(",\"task\":");
	if (!viol) {
		printf("null,\"task_trace\":[]");
		return;
	}
	char task[128];

	snprintf(task, sizeof(task), "%.*s", (int)vtlen, viol + vt);
	dpm_json_str(stdout, task, false);
	printf(",\"task_trace\":[");
	for (l = log; vtlen && l < viol; l += len + (l[len] == '\n')) {
		len = strcspn(l, "\n");
		if (log_fields(l, len, &t, &tlen, &w) && tlen == vtlen &&
		    !strncmp(l + t, viol + vt, vtlen))
			lines[n++ % SUMMARY_TASK_LINES] = l;
	}
	int first = n > SUMMARY_TASK_LINES ? n - SUMMARY_TASK_LINES : 0;

	for (int k = first; k < n; k++) {
		char line[512];

		l = lines[k % SUMMARY_TASK_LINES];
		len = strcspn(l, "\n");
		log_fields(l, len, &t, &tlen, &w);
		snprintf(line, sizeof(line), "%.*s", (int)(len - w), l + w);
		printf("%s", k > first ? "," : "");
		dpm_json_str(stdout, line, false);
	}
	putchar(']');
}

/*
 * --summary-json: one line, the fields docs/fuzzing.md lists.  A run that
 * breaks an invariant runs again with the log on, for the task and its
 * trace (the same run: runs are deterministic).
 */
static int summary_json(struct scenario *s, const struct run_opts *o)
{
	static struct run_result r;
	uint64_t sus = 0, res = 0;

	dpm_run(s, o, &r);
	if (r.violated) {
		struct run_opts lo = *o;

		lo.log = true;
		dpm_run(s, &lo, &r);
	}
	if (r.interrupted)
		return 0;
	for (int p = 0; p < NR_PHASES; p++) {
		if (pm_phase_is_suspend(p))
			sus += r.phase_ns[p];
		else
			res += r.phase_ns[p];
	}
	printf("{\"variant\":");
	dpm_json_str(stdout, o->variant->name, false);
	printf(",\"knobs\":[");
	for (int k = 0, n = 0; k < o->variant->nknobs; k++) {
		if (!(o->fixes & (1ULL << k)))
			continue;
		printf("%s", n++ ? "," : "");
		dpm_json_str(stdout, o->variant->knobs[k].name, false);
	}
	printf("],\"devices\":%d,\"cycles\":%d,\"violation\":", s->ndev,
	       s->cycles);
	if (r.violated)
		dpm_json_str(stdout, inv_name(r.id), false);
	else
		printf("null");
	printf(",\"message\":");
	dpm_json_str(stdout, r.violated ? r.msg : "", false);
	/* The message's lines after the first: a hang's blocked tasks. */
	printf(",\"details\":[");
	for (const char *l = r.violated ? strchr(r.msg, '\n') : NULL, *sep = "";
	     l; l = strchr(l, '\n'), sep = ",") {
		char line[sizeof(r.msg)];
		size_t len;

		l += strspn(l, "\n ");
		len = strcspn(l, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		printf("%s", sep);
		dpm_json_str(stdout, line, false);
		l += len;
	}
	printf("]");
	if (r.violated)
		summary_task_trace();
	else
		printf(",\"task\":null,\"task_trace\":[]");
	printf(",\"suspend_ms\":%.3f,\"resume_ms\":%.3f,\"suspend_error\":%d}\n",
	       (double)sus / 1e6, (double)res / 1e6, r.errors[0]);
	return r.violated ? 1 : 0;
}

static int save_regression(struct scenario *s, const struct run_opts *o,
			   const struct repro_options *ro, char *err,
			   size_t errlen)
{
	static struct run_result r;
	static const char guards[] = "# Guards: (say which knob and docs/findings.md entry)\n";
	char path[4096];
	int rc;

	dpm_run(s, o, &r);
	if (r.interrupted)
		return 0;	/* nothing to save: main() says why */
	if (ro->regression_dir)
		snprintf(path, sizeof(path), "%.2000s/%.200s.scenario",
			 ro->regression_dir, ro->save_regression);
	else
		snprintf(path, sizeof(path), "corpus/regressions/%s/%.200s.scenario",
			 o->variant->name, ro->save_regression);
	char *t = text_with_header(s, o, r.violated ? inv_name(r.id) : "clean");
	size_t n = strlen(t);
	char *all = dpm_xrealloc(NULL, sizeof(guards) + n, 1);

	memcpy(all, guards, sizeof(guards) - 1);
	memcpy(all + sizeof(guards) - 1, t, n + 1);
	/* Never over an existing regression. */
	rc = cli_write_file(path, all, strlen(all), true, err, errlen);
	free(all);
	free(t);
	if (rc)
		return -1;
	printf("dpmrepro: wrote %s (expect %s)\n", path,
	       r.violated ? inv_name(r.id) : "clean");
	return 0;
}

static int encode(const struct scenario *s, enum scn_sched_mode mode,
		  const char *path, char *err, size_t errlen)
{
	/* Bytes this mode would read otherwise than s says: the mode that
	 * reads them so. */
	bool hint = !scenario_sched_fits(s, mode);
	size_t n;
	bool lossy;
	uint8_t *b = scenario_encode(s, mode, &n, &lossy);
	int rc = cli_write_file(path, b, n, false, err, errlen);

	free(b);
	if (rc)
		return -1;
	fprintf(stderr, "dpmrepro: wrote %zu bytes%s%s\n", n,
		lossy ? " (some settings do not fit the byte format and were rounded)" : "",
		!hint ? "" : s->sched_by_task ?
		" (the schedule is read by task: decode them with DPMFUZZ_SCHEDULE_BY=task)" :
		" (the schedule is read by position: decode them with DPMFUZZ_SCHEDULE_BY=position)");
	return 0;
}

static int check_regression(struct scenario *s, const struct run_opts *o,
			    const struct repro_options *ro, char *err,
			    size_t errlen)
{
	static struct run_result r;
	const char *path = ro->file;

	if (!s->expect[0]) {
		snprintf(err, errlen, "%s: a regression needs an 'expect' line",
			 DPM_ESC(path));
		return -1;
	}
	bool want_clean = !strcmp(s->expect, "clean");

	if (!want_clean && inv_parse(s->expect) < 0) {
		snprintf(err, errlen, "%s: expect '%s' is neither 'clean' nor an invariant ID",
			 DPM_ESC(path), DPM_ESC(s->expect));
		return -1;
	}
	dpm_run(s, o, &r);
	if (r.interrupted)
		return 0;
	const char *got = r.violated ? inv_name(r.id) : "clean";

	/* --schedules: the finding holds if the file's schedule or one of N
	 * others shows it (a kernel tree's own schedule differs). */
	if (strcmp(got, s->expect) && !want_clean && ro->schedules) {
		long k = dpm_schedule_search(s, o, ro->schedules,
					     inv_parse(s->expect), &r);

		if (r.interrupted)
			return 0;
		if (k > 0) {
			printf("%s: schedule %ld of the search shows %s\n",
			       path, k, s->expect);
			got = s->expect;
		}
	}
	if (strcmp(got, s->expect)) {
		printf("%s: expected %s, got %s\n", path, s->expect, got);
		dpm_report(s, o, stdout, ro->tail, NULL);
		return 1;
	}
	struct run_opts all = *o;
	const char *bad;
	size_t bl;
	uint64_t features = 0;

	for (int k = 0; k < o->variant->nknobs; k++)
		if (o->variant->knobs[k].feature)
			features |= 1ULL << k;
	/* Every fix, and the newer schemes the file runs. */
	knobs_parse(o->variant, "all", &all.fixes, &bad, &bl);
	all.fixes |= o->fixes & features;
	if (all.fixes == o->fixes) {
		/* Every fix on already: a finding no fix addresses. */
		printf(want_clean ? "%s: %s as expected, every fix on\n" :
		       "%s: %s as expected (a finding with every fix on: docs/findings.md)\n",
		       path, got);
		return 0;
	}
	/* With --schedules, clean on the N others too: a waiver that holds
	 * on one interleaving only is a false positive on the next. */
	long k = 0;

	if (ro->schedules) {
		k = dpm_schedule_search(s, &all, ro->schedules, -1, &r);
	} else {
		dpm_run(s, &all, &r);
	}
	if (r.interrupted)
		return 0;
	if (r.violated) {
		if (k > 0)
			printf("%s: with every fix on, schedule %ld of the search shows %s\n",
			       path, k, inv_name(r.id));
		printf("%s: with every fix on, expected clean, got %s\n",
		       path, inv_name(r.id));
		dpm_report(s, &all, stdout, ro->tail, NULL);
		return 1;
	}
	printf("%s: %s as expected; clean with every fix on\n", path, got);
	return 0;
}

/* --minimize printed the smallest scenario it had when interrupted. */
static bool minimize_partial;

static int minimize(struct scenario *s, const struct run_opts *o)
{
	static struct run_result r;

	dpm_run(s, o, &r);
	if (r.interrupted)
		return 0;
	if (!r.violated) {
		printf("dpmrepro: no violation to minimize\n");
		return 0;
	}
	int before = s->ndev;
	long runs = dpm_minimize(s, o, r.id);
	char *t = text_with_header(s, o, inv_name(r.id));

	/* Interrupted: the smallest so far, which still fails. */
	minimize_partial = dpm_interrupted();
	printf("# minimized from %d to %d devices in %ld runs%s; still %s\n%s",
	       before, s->ndev, runs, dpm_interrupted() ? " (interrupted)" : "",
	       inv_name(r.id), t);
	free(t);
	return 1;
}

/* --events: the file the run's events go to, and their listener. */
struct events_file {
	struct cli_out out;
	struct events_out ev;
	const char **names;
};

static bool events_open(struct events_file *e, const struct scenario *s,
			const char *path, char *err, size_t errlen)
{
	if (!cli_out_open(&e->out, path, false, err, errlen))
		return false;
	e->names = dpm_xcalloc((size_t)(s->ndev ? s->ndev : 1), sizeof(char *));
	for (int i = 0; i < s->ndev; i++)
		e->names[i] = s->dev[i].name;
	e->ev = (struct events_out){ e->out.f, e->names, s->ndev };
	return true;
}

static int events_close(struct events_file *e, bool keep, char *err,
			size_t errlen)
{
	int rc = 0;

	free(e->names);
	if (keep)
		rc = cli_out_commit(&e->out, err, errlen);
	else
		cli_out_abort(&e->out);
	return rc;
}

/*
 * --judge: the oracle on a real kernel's record of FILE's run, as the
 * report prints a run: the verdict, the scenario, the trace (the
 * record's events and what the oracle said of them).
 */
static int judge(struct scenario *s, const struct run_opts *o,
		 const struct repro_options *ro, char *err, size_t errlen)
{
	static struct run_result r;
	struct events_file ef;
	struct judge_opts jo = { .log = true };
	char fixes[KNOBS_TEXT_MAX];
	FILE *f = fopen(ro->judge, "r");
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: %s", DPM_ESC(ro->judge), strerror(errno));
		return -1;
	}
	if (ro->events) {
		if (!events_open(&ef, s, ro->events, err, errlen)) {
			fclose(f);
			return -1;
		}
		jo.hook = dpm_events_write;
		jo.hook_ctx = &ef.ev;
	}
	rc = dpm_judge_record(s, o, f, &jo, &r, err, errlen);
	fclose(f);
	if (rc) {
		size_t n = strlen(err);

		/* "RECORD: line N: ..." */
		if (n + strlen(ro->judge) + 3 < errlen) {
			memmove(err + strlen(ro->judge) + 2, err, n + 1);
			memcpy(err, ro->judge, strlen(ro->judge));
			memcpy(err + strlen(ro->judge), ": ", 2);
		}
		if (ro->events)
			events_close(&ef, false, NULL, 0);
		return -1;
	}
	if (ro->events && events_close(&ef, true, err, errlen))
		return -1;
	knobs_format(o->variant, o->fixes, fixes, sizeof(fixes));
	if (r.violated)
		printf("dpmfuzz: VIOLATION %s: %s\n", inv_name(r.id), r.msg);
	else
		printf("dpmfuzz: no violation on the real kernel\n");
	run_print_known(stdout, o->variant, &r);
	printf("--- real kernel's record %s, judged as variant %s sees the scenario, waivers: %s\n--- scenario:\n",
	       ro->judge, o->variant->name, fixes);
	char *t = scenario_print(s);

	fputs(t, stdout);
	free(t);
	printf("--- trace (all):\n%s", dpm_log_text());
	return r.violated ? 1 : 0;
}

/* The report, after --schedules' search if asked; --trace-json, --html,
 * --events. */
static int report(struct scenario *s, const struct run_opts *o0,
		  const struct repro_options *ro, char *err, size_t errlen)
{
	static struct run_result r;
	struct run_opts ev_opts = *o0;
	const struct run_opts *o = &ev_opts;
	struct events_file ef;

	if (ro->schedules) {
		int want = dpm_expected(s);
		long k = dpm_schedule_search(s, o, ro->schedules, want, &r);

		if (r.interrupted)
			return 0;
		if (k < 0) {
			if (want < 0)
				printf("dpmrepro: no violation in %ld schedules\n",
				       ro->schedules);
			else
				printf("dpmrepro: neither the file's schedule nor %ld others show %s (its 'expect')\n",
				       ro->schedules, inv_name(want));
			return 0;
		}
		if (k)
			printf("dpmrepro: schedule %ld of the search shows %s\n", k,
			       inv_name(r.id));
	}
	if (ro->events) {
		if (!events_open(&ef, s, ro->events, err, errlen))
			return -1;
		ev_opts.event_hook = dpm_events_write;
		ev_opts.event_ctx = &ef.ev;
	}
	bool v = dpm_report(s, o, stdout, ro->tail, &r);

	if (ro->events && events_close(&ef, !r.interrupted, err, errlen))
		return -1;
	/* The report's replay recorded the events the exporters use. */
	const char *outs[2] = { ro->trace_json, ro->html };

	for (int k = 0; k < 2 && !r.interrupted; k++) {
		struct cli_out out;

		if (!outs[k])
			continue;
		if (!cli_out_open(&out, outs[k], false, err, errlen))
			return -1;
		/* A write error stays in the stream: the commit says it. */
		if (k)
			export_html(s, &r, out.f);
		else
			export_trace_json(s, out.f);
		if (cli_out_commit(&out, err, errlen))
			return -1;
		/* On stderr: stdout is the report, which scripts parse. */
		cli_say(program.name, "%s written to %s",
			k ? "timeline" : "trace-event JSON", outs[k]);
	}
	return v ? 1 : 0;
}

/*
 * --vm: tools/dpmvm on FILE with the guest kernel of the variant's
 * version, on this build (DPMFUZZ_BUILD: the directory above this
 * program's).  dpmvm's exit (0 agree and clean, 1 a violation or a
 * disagreement, 2 not expressible or no set-up), or -1 with err.
 */
static int run_on_vm(const struct repro_options *ro, const struct run_opts *o,
		     char *err, size_t errlen)
{
	char exe[PATH_MAX], dpmvm[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int status;
	pid_t pid;

	snprintf(dpmvm, sizeof(dpmvm), "%s/tools/dpmvm", DPMFUZZ_SOURCE_DIR);
	if (access(dpmvm, X_OK)) {
		snprintf(err, errlen, "--vm: %s: %s", dpmvm, strerror(errno));
		return -1;
	}
	if (n > 0) {
		exe[n] = '\0';
		/* BUILD/tools/dpmrepro -> BUILD */
		for (int k = 0; k < 2; k++) {
			char *slash = strrchr(exe, '/');

			if (slash)
				*slash = '\0';
		}
		setenv("DPMFUZZ_BUILD", exe, 1);
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "--vm: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* kernel-6.1.192 -> -k 6.1.192 */
		execl(dpmvm, dpmvm, "-k", o->variant->name + strlen("kernel-"),
		      ro->file, (char *)NULL);
		fprintf(stderr, "dpmrepro: --vm: %s: %s\n", dpmvm, strerror(errno));
		_exit(2);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "--vm: waitpid: %s", strerror(errno));
			return -1;
		}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* Load, pick the model, run the mode: 0 or 1, or -1 with err. */
static int replay_file(const struct repro_options *ro, char *err, size_t errlen)
{
	struct scenario s;
	struct run_opts o = { 0 };
	struct dpm_env env;
	bool is_text;
	int rc;

	if (dpm_env_read(&env, err, errlen))
		return -1;
	/* Fuzz input decodes as the variant's fuzz target decoded it. */
	if (ro->variant)
		dpm_env_variant(&env, variant_find(ro->variant));
	if (dpm_load_file(ro->file, &env.limits, ro->bytes, &s, &is_text, err,
			  errlen))
		return -1;
	if (ro->check_regression && !is_text) {
		scenario_free(&s);
		snprintf(err, errlen, "%s: a regression must be a scenario text file",
			 ro->file);
		return -1;
	}
	if (dpm_pick(&s, ro->variant, ro->fix, &o, err, errlen)) {
		scenario_free(&s);
		if (!strncmp(err, "no knob", 7) && strlen(err) + 40 < errlen)
			strcat(err, " (dpmrepro --fix list shows them)");
		return -1;
	}
	if (ro->text) {
		char *t = scenario_print(&s);

		fputs(t, stdout);
		free(t);
		rc = 0;
	} else if (ro->as_run) {
		char *t = dpm_scenario_as_run(&s, &o);

		fputs(t, stdout);
		free(t);
		rc = 0;
	} else if (ro->encode) {
		rc = encode(&s, env.limits.sched_mode, ro->encode, err, errlen);
	} else if (ro->check_regression) {
		rc = check_regression(&s, &o, ro, err, errlen);
	} else if (ro->summary_json) {
		rc = summary_json(&s, &o);
	} else if (ro->minimize) {
		rc = minimize(&s, &o);
	} else if (ro->save_regression) {
		rc = save_regression(&s, &o, ro, err, errlen);
	} else if (ro->judge) {
		rc = judge(&s, &o, ro, err, errlen);
	} else if (ro->vm && strncmp(o.variant->name, "kernel-", 7)) {
		snprintf(err, errlen, "--vm: variant %s is a model; only the kernel-* variants run on a real kernel",
			 o.variant->name);
		rc = -1;
	} else {
		rc = report(&s, &o, ro, err, errlen);
		if (rc >= 0 && ro->vm && !cli_interrupt_status()) {
			int vm = run_on_vm(ro, &o, err, errlen);

			/* Not expressible, or no set-up: dpmvm said why. */
			rc = vm < 0 ? -1 : vm == 2 ? 3 : vm > rc ? vm : rc;
		}
	}
	scenario_free(&s);
	return rc;
}

/* What main() does; its result is main()'s, less the end (cli_finish()). */
static int run_main(int argc, char **argv)
{
	struct repro_options ro;
	char err[1024];
	int rc = parse_args(argc, argv, &ro, err, sizeof(err));

	if (rc > 0)
		return 0;
	if (rc == 0 && ro.list_variants) {
		variants_list(stdout);
		return 0;
	}
	if (rc == 0 && ro.list_invariants) {
		for (int i = 0; i < oracle_ninvariants; i++)
			printf("%s\t%s\n", oracle_invariants[i]->name,
			       oracle_invariants[i]->meaning);
		return 0;
	}
	if (rc == 0 && ro.fix && !strcmp(ro.fix, "list")) {
		const struct pm_variant *v = variant_find(ro.variant ? ro.variant : "seed");

		if (v) {
			knobs_list(v, stdout);
			return 0;
		}
		snprintf(err, sizeof(err), "no variant '%s' (variants: %s)",
			 DPM_ESC(ro.variant), variant_names());
		rc = -1;
	}
	if (rc == 0)
		rc = replay_file(&ro, err, sizeof(err));
	if (rc < 0) {
		cli_say(program.name, "%s", err);
		return 2;
	}
	if (cli_interrupt_status()) {
		/* What it has went to stdout already (--minimize: the
		 * smallest scenario so far). */
		fflush(stdout);
		cli_say(program.name, "interrupted by %s%s",
			cli_signal_name(dpm_interrupted()),
			minimize_partial ? ": --minimize stopped; the smallest scenario so far, which still fails, is above" :
			ro.schedules ? ": the schedule search stopped" :
			": the run stopped");
		return cli_interrupt_status();
	}
	return rc == 3 ? 2 : rc;	/* 3: --vm's dpmvm refused, and said why */
}

int main(int argc, char **argv)
{
	cli_catch_signals(program.name, CLI_SIG_STOP);
	return cli_finish(program.name, run_main(argc, argv));
}
