// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmcheck: exhaustive small-scope checking.  For one variant and knobs,
 * every scenario up to a bound (core/explore/space.h) and, for each,
 * every schedule of the det engine up to partial-order reduction
 * (core/explore/explore.h); a table of what was explored and the
 * smallest scenario breaking each invariant, with the dpmrepro command
 * that replays it.  docs/exhaustive.md says what is enumerated and why
 * the reduction is sound.
 *
 *   dpmcheck [OPTION]...
 *
 * The options are the table below (dpmcheck --help prints it;
 * docs/exhaustive.md, "dpmcheck options", describes each).
 *
 * The work is cut into chunks (one device forest and async flag
 * assignment each); -j runs them in worker processes; with -o DIR every
 * finished chunk goes to DIR/state, and the same command resumes there.
 * SIGINT or SIGTERM ends the run after the chunks in progress.
 * Exit: 0 no violation, 1 violations, 2 bad usage or an error, 3 not
 * exhaustive (a time limit, a schedule cap) or a replay that failed;
 * 130 (143) interrupted by SIGINT (SIGTERM), the table printed first.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "pool.h"
#include "explore/chunk.h"
#include "run/replay.h"
#include "util/esc.h"

enum {
	OPT_VARIANT = CLI_FIRST_KEY, OPT_FIX, OPT_LIST_VARIANTS, OPT_HOTPLUG,
	OPT_LINKS, OPT_RPM, OPT_PM_WAITS, OPT_INLINE, OPT_WORKERS, OPT_PM_TRACE,
	OPT_PM_ASYNC_OFF, OPT_ERRNOS, OPT_MODE, OPT_MAX_SCHED, OPT_SAMPLE,
	OPT_NAIVE_CAP, OPT_JSON,
};

static const struct cli_option options[] = {
	{ "variant", OPT_VARIANT, "NAME", "a registered variant (default seed; --list-variants)" },
	{ "fix", OPT_FIX, "LIST", "kernel fixes on: knob names, all, none (default none: the kernel as posted, whose bugs the search is for); 'list' prints the knobs" },
	{ "list-variants", OPT_LIST_VARIANTS, NULL, "print the registry and exit" },
	{ "devices", 'n', "N", "1 to N devices (default 3)" },
	{ "errors", 'e', "E", "at most E injected callback errors (default 1)" },
	{ "removals", 'r', "R", "at most R unregistrations, by a callback or a hotplug task (default 1)" },
	{ "hotplug", OPT_HOTPLUG, "H", "of which at most H by a hotplug task (default 0; each multiplies the schedules: docs/exhaustive.md)" },
	{ "cycles", 'c', "C", "1 to C transitions per run (default 1)" },
	{ "links", OPT_LINKS, "L", "at most L device links (default 0)" },
	{ "rpm", OPT_RPM, "K", "at most K runtime-suspended devices (default 0)" },
	{ "pm-waits", OPT_PM_WAITS, "P", "at most P drivers waiting for another device (default 0)" },
	{ "inline", OPT_INLINE, "I", "inline_every 0 to I (default 0)" },
	{ "workers", OPT_WORKERS, "W", "worker_limit 0 to W (default 0)" },
	{ "pm-trace", OPT_PM_TRACE, NULL, "pm_trace 1 as well as 0" },
	{ "pm-async-off", OPT_PM_ASYNC_OFF, NULL, "pm_async 0 as well as 1" },
	{ "errnos", OPT_ERRNOS, "one|all", "-EIO only, or -EIO -EBUSY -ENODEV -ENOMEM (default: one for the hand-written models, all for the others)" },
	{ "mode", OPT_MODE, "M", "the search: naive, sleep or dpor (default dpor)" },
	{ "max-schedules", OPT_MAX_SCHED, "S", "at most S schedules per scenario (default 0: all; a scenario cut short makes the run not exhaustive)" },
	{ "naive-sample", OPT_SAMPLE, "K", "every K-th scenario also with the naive search, for the reduction factor (default 0: none)" },
	{ "naive-cap", OPT_NAIVE_CAP, "S", "at most S naive schedules per sampled scenario (default 20000)" },
	{ "jobs", 'j', "N", "N worker processes (default 1; 0: every core)" },
	{ "time", 't', "TIME", "stop after TIME: seconds, or with s, m or h (default: no limit; with -o, the state resumes)" },
	{ "out", 'o', "DIR", "keep the state file (resumes) and the smallest scenario per invariant in DIR" },
	{ "json", OPT_JSON, NULL, "a JSON summary on stdout instead of the table" },
	{ "quiet", 'q', NULL, "no progress on stderr" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_alias aliases[] = {
	{ "time-limit", "time" },
	{ "output", "out" },
	{ NULL, NULL }
};

static const struct cli_program program = {
	.name = "dpmcheck",
	.usage = "[OPTION]...\n--fix list [--variant NAME]\n--list-variants",
	.about = "Every scenario up to a bound, every schedule of each (up to partial-order reduction); the smallest scenario breaking each invariant.",
	.options = options,
	.footer =
		"The model: --variant, --fix.  The bound: -n, -e, -r, --hotplug, -c, --links, --rpm,\n"
		"--pm-waits, --inline, --workers, --pm-trace, --pm-async-off, --errnos (features the\n"
		"variant's kernel lacks are left out).  The search: --mode, --max-schedules,\n"
		"--naive-sample, --naive-cap, -j, -t.  docs/exhaustive.md says what is enumerated.\n"
		"SIGINT or SIGTERM ends the run after the chunks in progress (with -o, the state resumes).\n"
		"Exit: 0 no violation, 1 violations, 2 bad usage or an error (one line on stderr), 3 not exhaustive (time limit, schedule cap) or a find that did not replay; 130 (143) interrupted by SIGINT (SIGTERM).\n",
	.aliases = aliases,
};

/* What a run of dpmcheck does, from its command line. */
struct check_args {
	struct space_bound b;
	const char *variant, *fix, *errnos, *dir;
	enum explore_mode mode;
	uint64_t max_schedules, naive_cap;
	long sample, limit;
	int jobs;
	bool json, list, quiet;
};

/* Numbers of an option into a field: cli_number() or return -1. */
#define NUMBER(opt, lo, hi, to)						\
	do {								\
		long long n_;						\
		if (cli_number(opt, arg, lo, hi, &n_, err, errlen))	\
			return -1;					\
		(to) = n_;						\
	} while (0)

/* 0 to run, 1 to exit 0 (--help, --version), -1 bad usage (err). */
static int parse_args(int argc, char **argv, struct check_args *a,
		      char *err, size_t errlen)
{
	static const char *const modes[] = { "naive", "sleep", "dpor", NULL };
	static const char *const errnos[] = { "one", "all", NULL };
	const char *arg;
	long long n;
	int c;

	*a = (struct check_args){
		.b = { .devices = 3, .errors = 1, .removals = 1, .cycles = 1 },
		.variant = "seed", .fix = "none", .mode = EX_DPOR,
		.naive_cap = 20000, .jobs = 1,
	};
	while ((c = cli_next(&program, argc, argv, &arg, err, errlen)) != CLI_END) {
		switch (c) {
		case CLI_ERROR:
			return -1;
		case CLI_PRINTED:
			return 1;
		case OPT_VARIANT: a->variant = arg; break;
		case OPT_FIX: a->fix = arg; break;
		case OPT_LIST_VARIANTS: a->list = true; break;
		case 'n': NUMBER("--devices", 1, 12, a->b.devices); break;
		case 'e': NUMBER("--errors", 0, 8, a->b.errors); break;
		case 'r': NUMBER("--removals", 0, 4, a->b.removals); break;
		case OPT_HOTPLUG: NUMBER("--hotplug", 0, 4, a->b.hotplug); break;
		case 'c': NUMBER("--cycles", 1, 4, a->b.cycles); break;
		case OPT_LINKS: NUMBER("--links", 0, 16, a->b.links); break;
		case OPT_RPM: NUMBER("--rpm", 0, 12, a->b.rpm); break;
		case OPT_PM_WAITS: NUMBER("--pm-waits", 0, 12, a->b.pm_waits); break;
		case OPT_INLINE: NUMBER("--inline", 0, 16, a->b.inline_every); break;
		case OPT_WORKERS: NUMBER("--workers", 0, 16, a->b.workers); break;
		case OPT_PM_TRACE: a->b.pm_trace = true; break;
		case OPT_PM_ASYNC_OFF: a->b.pm_async_off = true; break;
		case OPT_ERRNOS:
			if (cli_choice("--errnos", arg, errnos, err, errlen) < 0)
				return -1;
			a->errnos = arg;
			break;
		case OPT_MODE:
			if (cli_choice("--mode", arg, modes, err, errlen) < 0)
				return -1;
			a->mode = explore_mode_parse(arg);
			break;
		case OPT_MAX_SCHED: NUMBER("--max-schedules", 0, 1LL << 40, a->max_schedules); break;
		case OPT_SAMPLE: NUMBER("--naive-sample", 0, 1LL << 40, a->sample); break;
		case OPT_NAIVE_CAP: NUMBER("--naive-cap", 1, 1LL << 40, a->naive_cap); break;
		case 'j': NUMBER("--jobs", 0, 1024, a->jobs); break;
		case 't':
			if (cli_duration("--time", arg, 1, 720 * 3600, &n, err, errlen))
				return -1;
			a->limit = n;
			break;
		case 'o':
			if (cli_path("--out", arg, err, errlen))
				return -1;
			a->dir = arg;
			break;
		case OPT_JSON: a->json = true; break;
		case 'q': a->quiet = true; break;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "no arguments besides options ('%s') (dpmcheck --help)",
			 DPM_ESC(argv[optind]));
		return -1;
	}
	return 0;
}

/* ---- the run ---- */

struct check {
	struct space sp;
	struct check_opts co;
	struct run_opts ro;
	const char *dir;
	char fixes[KNOBS_TEXT_MAX];
	char bound[512];
	long nchunks;
	long *first;		/* global index of each chunk's first scenario */
	long *count;		/* scenarios per chunk */
	bool *done;
	struct check_totals total;
	struct check_totals *by_n;	/* [devices + 1] */
	FILE *state;
	double t0;
	bool quiet;
	long chunks_done, scenarios_all;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The finds go to DIR/<variant>-<INV>.scenario, replaced atomically. */
static void save_find(struct check *k, int id)
{
	char path[4096], tmp[4200];
	FILE *f;

	if (!k->dir || !k->total.find[id].set)
		return;
	snprintf(path, sizeof(path), "%s/%s-%s.scenario", k->dir,
		 k->ro.variant->name, inv_name(id));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "# dpmcheck: the smallest scenario breaking %s (bound %s)\n%s",
			  inv_name(id), k->bound, k->total.find[id].text) < 0 ||
	    fclose(f) || rename(tmp, path))
		cli_die(program.name, "cannot write %s: %s", path, strerror(errno));
}

static void state_header(struct check *k, FILE *f)
{
	fprintf(f, "dpmcheck-state 1\nvariant %s\nfixes %s\nbound %s\nmode %s\n",
		k->ro.variant->name, k->fixes, k->bound,
		explore_mode_name(k->co.explore.mode));
}

static void take(struct check *k, long c, struct check_totals *t)
{
	k->done[c] = true;
	k->chunks_done++;
	check_totals_add(&k->total, t);
	check_totals_add(&k->by_n[space_chunk_devices(&k->sp, c)], t);
}

/* Resume from DIR/state: the same header, then finished chunks; a record
 * cut by a kill is dropped (its chunk runs again). */
static void state_open(struct check *k)
{
	char path[4096], *want = NULL, line[1024];
	size_t wl;
	FILE *mem, *f;

	if (!k->dir)
		return;
	mem = open_memstream(&want, &wl);
	if (!mem)
		cli_die(program.name, "out of memory");
	if (mkdir(k->dir, 0777) && errno != EEXIST)
		cli_die(program.name, "cannot create %s: %s", k->dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/state", k->dir);
	state_header(k, mem);
	fclose(mem);
	f = fopen(path, "r");
	if (f) {
		size_t at = 0;
		long good;

		while (at < wl && fgets(line, sizeof(line), f)) {
			size_t l = strlen(line);

			if (strncmp(want + at, line, l))
				cli_die(program.name, "%s is the state of another run (its '%.*s'); give another -o DIR",
				    path, (int)strcspn(line, "\n"), line);
			at += l;
		}
		good = ftell(f);
		for (;;) {
			struct check_totals t;
			long c;
			int rc = check_totals_read(f, &c, &t);

			if (rc || c < 0 || c >= k->nchunks || k->done[c]) {
				check_totals_free(&t);
				break;
			}
			take(k, c, &t);
			check_totals_free(&t);
			good = ftell(f);
		}
		fclose(f);
		if (at == wl && truncate(path, good))
			cli_die(program.name, "cannot truncate %s: %s", path, strerror(errno));
	}
	k->state = fopen(path, k->chunks_done ? "a" : "w");
	if (!k->state)
		cli_die(program.name, "cannot write %s: %s", path, strerror(errno));
	if (!k->chunks_done) {
		fputs(want, k->state);
		fflush(k->state);
	}
	free(want);
	for (int i = 0; i < NR_INV; i++)
		save_find(k, i);
}

static void record(struct check *k, long c, struct check_totals *t)
{
	bool better[NR_INV];

	for (int i = 0; i < NR_INV; i++)
		better[i] = check_find_less(&t->find[i], &k->total.find[i]);
	take(k, c, t);
	if (k->state && (check_totals_write(k->state, c, t) ||
			 fsync(fileno(k->state))))
		cli_die(program.name, "cannot write the state in %s: %s", k->dir, strerror(errno));
	for (int i = 0; i < NR_INV; i++)
		if (better[i])
			save_find(k, i);
}

/* ---- progress ---- */

static void fmt_time(double s, char *buf, size_t n)
{
	if (s < 60)
		snprintf(buf, n, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
	else if (s < 86400 * 3)
		snprintf(buf, n, "%dh%02dm", (int)s / 3600, (int)s / 60 % 60);
	else
		snprintf(buf, n, "%.0f days", s / 86400);
}

/*
 * Time left: the scenarios left at each device count, at the CPU time
 * per scenario measured there; a count not started yet at the last
 * measured one's, times the growth from the one before it (x10 with no
 * two to compare), over the workers.
 */
static double eta(const struct check *k, int jobs)
{
	double per[64] = { 0 }, left = 0, growth = 10;
	int last = 0;

	for (int n = 1; n <= k->sp.b.devices && n < 64; n++) {
		const struct check_totals *t = &k->by_n[n];

		if (t->scenarios) {
			per[n] = t->seconds / (double)t->scenarios;
			if (last && per[last] > 0 && per[n] > per[last])
				growth = per[n] / per[last];
			last = n;
		}
	}
	for (long c = 0; c < k->nchunks; c++) {
		int n = space_chunk_devices(&k->sp, c);

		if (k->done[c] || n >= 64)
			continue;
		double p = per[n];

		if (!p && last)
			for (int m = last; m < n; m++)
				p = (p ? p : per[last]) * growth;
		left += p * (double)k->count[c];
	}
	return left / (jobs > 0 ? jobs : 1);
}

static void progress(struct check *k, int jobs, bool final)
{
	static double last;
	double t = now() - k->t0;
	char el[32], et[32];

	if (k->quiet || (!final && t - last < 2))
		return;
	last = t;
	fmt_time(t, el, sizeof(el));
	fmt_time(eta(k, jobs), et, sizeof(et));
	fprintf(stderr, "%s: %ld/%ld chunks, %llu/%ld scenarios, %llu schedules, %.0f schedules/s, %s elapsed, ~%s left%s",
		program.name, k->chunks_done, k->nchunks,
		(unsigned long long)k->total.scenarios, k->scenarios_all,
		(unsigned long long)(k->total.schedules + k->total.blocked),
		t > 0 ? (double)(k->total.schedules + k->total.blocked) / t : 0.0,
		el, et, isatty(2) && !final ? "   \r" : "\n");
}

/* ---- workers ---- */

/* The signal that asked to stop, or 0. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static bool out_of_time(const struct check *k, double limit)
{
	return limit > 0 && now() - k->t0 >= limit;
}

/* The pool's view of a check: its chunks are the tasks. */
struct pool_ctx {
	struct check *k;
	double limit;
	int jobs;
};

static int chunk_run(long c, FILE *out, void *ctx)
{
	struct check *k = ((struct pool_ctx *)ctx)->k;
	struct check_totals t;
	int rc;

	check_chunk(&k->sp, c, k->first[c], &k->co, &t);
	rc = check_totals_write(out, c, &t) ? 1 : 0;
	check_totals_free(&t);
	return rc ? 128 + SIGPIPE : 0;
}

static int chunk_collect(long want, FILE *in, void *ctx)
{
	struct check *k = ((struct pool_ctx *)ctx)->k;
	struct check_totals t;
	long c;

	if (check_totals_read(in, &c, &t) || c != want)
		return 1;
	record(k, c, &t);
	check_totals_free(&t);
	progress(k, ((struct pool_ctx *)ctx)->jobs, false);
	return 0;
}

static bool chunk_done(long c, void *ctx)
{
	return ((struct pool_ctx *)ctx)->k->done[c];
}

static bool chunk_stop(void *ctx)
{
	const struct pool_ctx *pc = ctx;

	return interrupted || out_of_time(pc->k, pc->limit);
}

/* Every chunk not done, until done, a signal or the time limit.  Returns
 * whether every chunk was done. */
static bool run_all(struct check *k, int jobs, double limit)
{
	if (jobs <= 1) {
		for (long c = 0; c < k->nchunks && !interrupted &&
				 !out_of_time(k, limit); c++) {
			struct check_totals t;

			if (k->done[c])
				continue;
			check_chunk(&k->sp, c, k->first[c], &k->co, &t);
			record(k, c, &t);
			check_totals_free(&t);
			progress(k, 1, false);
		}
		return k->chunks_done == k->nchunks;
	}
	struct pool_ctx pc = { k, limit, jobs };
	const struct worker_pool pool = {
		.prog = program.name, .jobs = jobs, .ntasks = k->nchunks,
		.run = chunk_run, .collect = chunk_collect, .skip = chunk_done,
		.stop = chunk_stop, .ctx = &pc,
	};
	int sig;

	if (pool_run(&pool, &sig) && k->chunks_done < k->nchunks &&
	    !chunk_stop(&pc))
		cli_die(program.name, "the workers stopped with %ld of %ld chunks done",
			k->chunks_done, k->nchunks);
	return k->chunks_done == k->nchunks;
}

/* ---- the report ---- */

static void repro_cmd(const struct check *k, int id, const char *argv0,
		      char *buf, size_t n)
{
	const char *slash = strrchr(argv0, '/');
	char path[4096];

	if (k->dir)
		snprintf(path, sizeof(path), "%s/%s-%s.scenario", k->dir,
			 k->ro.variant->name, inv_name(id));
	else
		snprintf(path, sizeof(path), "FILE");
	if (slash)
		snprintf(buf, n, "%.*sdpmrepro %s", (int)(slash - argv0 + 1),
			 argv0, path);
	else
		snprintf(buf, n, "dpmrepro %s", path);
}

static void reduction(const struct check_totals *t, char *buf, size_t n)
{
	if (!t->sample_scenarios || !t->sample_reduced)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%s%.1fx", t->sample_capped ? ">=" : "",
			 (double)t->sample_naive / (double)t->sample_reduced);
}

static bool any_violation(const struct check_totals *t)
{
	for (int i = 0; i < NR_INV; i++)
		if (t->violating[i])
			return true;
	return false;
}

static void verdict(const struct check *k, bool complete, char *buf, size_t n)
{
	int top = 0;

	for (int d = 1; d <= k->sp.b.devices; d++)
		if (k->by_n[d].chunks == (long)0)
			break;
		else
			top = d;
	if (any_violation(&k->total)) {
		size_t at = (size_t)snprintf(buf, n, "violations:");

		for (int i = 0; i < NR_INV && at < n; i++)
			if (k->total.violating[i])
				at += (size_t)snprintf(buf + at, n - at, " %s (from %d devices)",
						       inv_name(i), k->total.find[i].devices);
	} else if (complete && !k->total.capped && !k->total.nondet) {
		snprintf(buf, n, "no violation up to %d devices", k->sp.b.devices);
	} else {
		snprintf(buf, n, "no violation found; not exhaustive%s", top ?
			 "" : " (nothing finished)");
	}
}

static void report_table(const struct check *k, bool complete, const char *argv0)
{
	char red[32], tm[32], v[1024];

	printf("dpmcheck: variant %s, fixes %s, %s search\nbound: %s\n",
	       k->ro.variant->name, k->fixes, explore_mode_name(k->co.explore.mode),
	       k->bound);
	printf("%-8s %10s %12s %10s %10s %9s %9s %s\n", "devices", "scenarios",
	       "schedules", "blocked", "reduction", "sched/s", "cpu", "violating");
	for (int d = 1; d <= k->sp.b.devices + 1; d++) {
		const struct check_totals *t = d <= k->sp.b.devices ? &k->by_n[d] :
					       &k->total;
		uint64_t viol = 0;

		if (d <= k->sp.b.devices && !t->chunks)
			continue;
		for (int i = 0; i < NR_INV; i++)
			viol += t->violating[i];
		reduction(t, red, sizeof(red));
		fmt_time(t->seconds, tm, sizeof(tm));
		char dn[16];

		snprintf(dn, sizeof(dn), d <= k->sp.b.devices ? "%d" : "all", d);
		printf("%-8s %10llu %12llu %10llu %10s %9.0f %9s %llu\n", dn,
		       (unsigned long long)t->scenarios,
		       (unsigned long long)t->schedules,
		       (unsigned long long)t->blocked, red,
		       t->seconds > 0 ? (double)(t->schedules + t->blocked) / t->seconds : 0.0,
		       tm, (unsigned long long)viol);
	}
	if (k->total.sample_scenarios)
		printf("reduction: naive/%s schedules on %llu sampled scenarios (naive capped at %llu in %llu)\n",
		       explore_mode_name(k->co.explore.mode),
		       (unsigned long long)k->total.sample_scenarios,
		       (unsigned long long)k->co.naive_cap,
		       (unsigned long long)k->total.sample_capped);
	for (int i = 0; i < NR_INV; i++) {
		const struct check_find *f = &k->total.find[i];
		char cmd[4500];

		if (!k->total.violating[i])
			continue;
		repro_cmd(k, i, argv0, cmd, sizeof(cmd));
		printf("\n%s: %llu scenarios; the smallest (%d devices, %d settings beyond the tree):\n%s--- reproduce: %s\n",
		       inv_name(i), (unsigned long long)k->total.violating[i],
		       f->devices, f->features, k->dir ? "" : f->text, cmd);
	}
	if (k->total.capped)
		printf("\n%llu scenarios had more schedules than --max-schedules: not exhaustive\n",
		       (unsigned long long)k->total.capped);
	if (k->total.nondet)
		printf("\n%llu scenarios did not replay (an engine or search bug)\n",
		       (unsigned long long)k->total.nondet);
	verdict(k, complete, v, sizeof(v));
	printf("\nverdict: %s\n", v);
}

static void report_json(const struct check *k, bool complete, double wall,
			const char *argv0)
{
	char v[1024], cmd[4500];

	verdict(k, complete, v, sizeof(v));
	printf("{\"variant\":");
	dpm_json_str(stdout, k->ro.variant->name, false);
	printf(",\"fixes\":");
	dpm_json_str(stdout, k->fixes, false);
	printf(",\"mode\":\"%s\",\"bound\":", explore_mode_name(k->co.explore.mode));
	dpm_json_str(stdout, k->bound, false);
	printf(",\"max_devices\":%d,\"complete\":%s,\"wall_seconds\":%.3f,\"rows\":[",
	       k->sp.b.devices, complete ? "true" : "false", wall);
	const char *sep = "";

	for (int d = 1; d <= k->sp.b.devices + 1; d++) {
		const struct check_totals *t = d <= k->sp.b.devices ? &k->by_n[d] :
					       &k->total;

		if (d <= k->sp.b.devices && !t->chunks)
			continue;
		printf("%s{\"devices\":", sep);
		if (d <= k->sp.b.devices)
			printf("%d", d);
		else
			printf("\"all\"");
		printf(",\"chunks\":%ld,\"scenarios\":%llu,\"schedules\":%llu,\"blocked\":%llu,\"events\":%llu,\"cpu_seconds\":%.3f,\"capped\":%llu,\"nondet\":%llu,\"sample\":{\"scenarios\":%llu,\"naive\":%llu,\"reduced\":%llu,\"naive_capped\":%llu},\"violating\":{",
		       t->chunks, (unsigned long long)t->scenarios,
		       (unsigned long long)t->schedules,
		       (unsigned long long)t->blocked, (unsigned long long)t->events,
		       t->seconds, (unsigned long long)t->capped,
		       (unsigned long long)t->nondet,
		       (unsigned long long)t->sample_scenarios,
		       (unsigned long long)t->sample_naive,
		       (unsigned long long)t->sample_reduced,
		       (unsigned long long)t->sample_capped);
		const char *s2 = "";

		for (int i = 0; i < NR_INV; i++)
			if (t->violating[i]) {
				printf("%s\"%s\":%llu", s2, inv_name(i),
				       (unsigned long long)t->violating[i]);
				s2 = ",";
			}
		printf("}}");
		sep = ",";
	}
	printf("],\"smallest\":{");
	sep = "";
	for (int i = 0; i < NR_INV; i++) {
		const struct check_find *f = &k->total.find[i];

		if (!f->set)
			continue;
		repro_cmd(k, i, argv0, cmd, sizeof(cmd));
		printf("%s\"%s\":{\"devices\":%d,\"features\":%d,\"schedule_bytes\":%zu,\"command\":",
		       sep, inv_name(i), f->devices, f->features, f->nsched);
		dpm_json_str(stdout, cmd, false);
		printf(",\"scenario\":");
		dpm_json_str(stdout, f->text, false);
		printf("}");
		sep = ",";
	}
	printf("},\"verdict\":");
	dpm_json_str(stdout, v, false);
	printf("}\n");
}

/* The variant and its knobs of a, into k: 0, 1 to exit 0 (--list-variants,
 * --fix list), -1 bad usage (err). */
static int pick_model(const struct check_args *a, struct check *k, char *err,
		      size_t errlen)
{
	const struct pm_variant *v;
	const char *bad;
	size_t bl;

	if (a->list) {
		variants_list(stdout);
		return 1;
	}
	v = variant_find(a->variant);
	if (!v) {
		snprintf(err, errlen, "no variant '%s' (variants: %s)",
			 DPM_ESC(a->variant), variant_names());
		return -1;
	}
	if (!strcmp(a->fix, "list")) {
		knobs_list(v, stdout);
		return 1;
	}
	if (knobs_parse(v, a->fix, &k->ro.fixes, &bad, &bl) < 0) {
		snprintf(err, errlen, "no knob '%s' in variant %s (dpmcheck --fix list --variant %s)",
			 DPM_ESCN(bad, bl < 100 ? bl : 100), v->name, v->name);
		return -1;
	}
	k->ro.variant = v;
	return 0;
}

/* What main() does; its result is main()'s, less the end (cli_finish()). */
static int run_main(int argc, char **argv)
{
	struct check k = { 0 };
	struct check_args a;
	char err[1024];
	int rc = parse_args(argc, argv, &a, err, sizeof(err));

	if (rc == 0)
		rc = pick_model(&a, &k, err, sizeof(err));
	if (rc < 0) {
		cli_say(program.name, "%s", err);
		return 2;
	}
	if (rc > 0)
		return 0;

	const struct pm_variant *v = k.ro.variant;
	struct space_bound b = a.b;
	int jobs = a.jobs;

	k.dir = a.dir;
	k.quiet = a.quiet;
	k.co.explore.mode = a.mode;
	k.co.explore.max_schedules = a.max_schedules;
	k.co.sample = a.sample;
	k.co.naive_cap = a.naive_cap;
	if (jobs == 0)
		jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	b.features = v->features;
	b.all_errnos = a.errnos ? !strcmp(a.errnos, "all") : v->kernel != NULL;
	k.co.explore.opaque = !explore_variant_visible(v);
	/* A kernel tree without its explorable copy (a sanitizer, fuzzer
	 * or gcc build) is searched as opaque: far slower (minutes for one
	 * device).  Say so, and where the fast search is. */
	if (k.co.explore.opaque && v->kernel && !a.quiet)
		cli_say("dpmcheck", "%s has no explorable copy in this build (a sanitizer, fuzzer or gcc build), so every step depends on every other and the search is far slower; the dev preset has it: cmake --preset dev && cmake --build --preset dev, then build/dev/tools/dpmcheck",
			v->name);
	k.co.run = &k.ro;
	knobs_format(v, k.ro.fixes, k.fixes, sizeof(k.fixes));
	space_init(&k.sp, &b);
	space_bound_format(&b, k.bound, sizeof(k.bound));
	k.nchunks = space_chunks(&k.sp);
	k.first = dpm_xcalloc((size_t)k.nchunks + 1, sizeof(long));
	k.count = dpm_xcalloc((size_t)k.nchunks + 1, sizeof(long));
	k.done = dpm_xcalloc((size_t)k.nchunks + 1, sizeof(bool));
	k.by_n = dpm_xcalloc((size_t)b.devices + 2, sizeof(*k.by_n));
	for (long i = 0; i < k.nchunks; i++) {
		k.first[i] = k.scenarios_all;
		k.count[i] = space_chunk_count(&k.sp, i);
		k.scenarios_all += k.count[i];
	}
	k.t0 = now();
	state_open(&k);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (!k.quiet)
		fprintf(stderr, "%s: variant %s, fixes %s, bound %s: %ld scenarios in %ld chunks%s\n",
			program.name, v->name, k.fixes, k.bound, k.scenarios_all, k.nchunks,
			k.chunks_done ? " (resumed)" : "");
	bool complete = run_all(&k, jobs, (double)a.limit);

	progress(&k, jobs, true);
	if (k.state)
		fclose(k.state);
	if (a.json)
		report_json(&k, complete, now() - k.t0, argv[0]);
	else
		report_table(&k, complete, argv[0]);
	rc = interrupted ? 128 + interrupted : any_violation(&k.total) ? 1 :
		 complete && !k.total.capped && !k.total.nondet ? 0 : 3;

	check_totals_free(&k.total);
	for (int n = 0; n < b.devices + 2; n++)
		check_totals_free(&k.by_n[n]);
	free(k.first);
	free(k.count);
	free(k.done);
	free(k.by_n);
	return rc;
}

int main(int argc, char **argv)
{
	return cli_finish(program.name, run_main(argc, argv));
}
