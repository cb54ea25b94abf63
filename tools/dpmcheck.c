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
 *   dpmcheck [options]
 *
 * The work is cut into chunks (one device forest and async flag
 * assignment each); -j runs them in worker processes; with -o DIR every
 * finished chunk goes to DIR/state, and the same command resumes there.
 * Exit: 0 no violation, 1 violations, 2 bad usage, 3 not exhaustive (a
 * time limit, a schedule cap) or a replay that failed.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "explore/chunk.h"
#include "run/replay.h"

static const char *prog = "dpmcheck";

static void usage_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help)\n", prog);
	exit(2);
}

static void help(void)
{
	printf(
"usage: dpmcheck [options]\n"
"Every scenario up to a bound, every schedule of each (up to partial-order\n"
"reduction); the smallest scenario breaking each invariant.\n"
"\n"
"Model:\n"
"  --variant NAME      a registered variant (default seed; --list-variants)\n"
"  --fix LIST          kernel fixes on: knob names, all, none (default none;\n"
"                      'list' prints the knobs)\n"
"  --list-variants     print the registry and exit\n"
"Bound (features the variant's kernel lacks are left out):\n"
"  -n, --devices N     1 to N devices (default 3)\n"
"  -e, --errors E      at most E injected callback errors (default 1)\n"
"  -r, --removals R    at most R unregistrations, by a callback or a hotplug\n"
"                      task (default 1)\n"
"      --hotplug H     of which at most H by a hotplug task (default 0; each\n"
"                      multiplies the schedules: docs/exhaustive.md)\n"
"  -c, --cycles C      1 to C transitions per run (default 1)\n"
"      --links L       at most L device links (default 0)\n"
"      --rpm K         at most K runtime-suspended devices (default 0)\n"
"      --pm-waits P    at most P drivers waiting for another device (default 0)\n"
"      --inline I      inline_every 0 to I (default 0)\n"
"      --workers W     worker_limit 0 to W (default 0)\n"
"      --pm-trace      pm_trace 1 as well as 0\n"
"      --pm-async-off  pm_async 0 as well as 1\n"
"      --errnos one|all  -EIO only, or -EIO -EBUSY -ENODEV -ENOMEM (default:\n"
"                      one for the hand-written models, all for the others)\n"
"Search:\n"
"      --mode M        naive, sleep or dpor (default dpor)\n"
"      --max-schedules S  at most S schedules per scenario (default 0: all;\n"
"                      a scenario cut short makes the run not exhaustive)\n"
"      --naive-sample K  every K-th scenario also with the naive search, for the\n"
"                      reduction factor (default 0: none)\n"
"      --naive-cap S   at most S naive schedules per sampled scenario (default 20000)\n"
"  -j, --jobs N        N worker processes (default 1; 0: every core)\n"
"  -t, --time-limit S  stop after S seconds (with -o, the state resumes)\n"
"Output:\n"
"  -o, --output DIR    state file (resumes), smallest scenario per invariant\n"
"      --json          a JSON summary on stdout instead of the table\n"
"  -q, --quiet         no progress on stderr\n"
"  -h, --help          this text\n"
"  -V, --version       the version\n"
"\n"
"Exit: 0 no violation, 1 violations, 2 bad usage, 3 not exhaustive (time\n"
"limit, schedule cap) or a find that did not replay.\n");
}

enum {
	OPT_VARIANT = 256, OPT_FIX, OPT_LIST_VARIANTS, OPT_LINKS, OPT_RPM,
	OPT_PM_WAITS, OPT_INLINE, OPT_WORKERS, OPT_PM_TRACE, OPT_PM_ASYNC_OFF,
	OPT_ERRNOS, OPT_MODE, OPT_MAX_SCHED, OPT_SAMPLE, OPT_NAIVE_CAP, OPT_JSON,
	OPT_HOTPLUG,
};

static const struct option longopts[] = {
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "fix", required_argument, NULL, OPT_FIX },
	{ "list-variants", no_argument, NULL, OPT_LIST_VARIANTS },
	{ "devices", required_argument, NULL, 'n' },
	{ "errors", required_argument, NULL, 'e' },
	{ "removals", required_argument, NULL, 'r' },
	{ "cycles", required_argument, NULL, 'c' },
	{ "hotplug", required_argument, NULL, OPT_HOTPLUG },
	{ "links", required_argument, NULL, OPT_LINKS },
	{ "rpm", required_argument, NULL, OPT_RPM },
	{ "pm-waits", required_argument, NULL, OPT_PM_WAITS },
	{ "inline", required_argument, NULL, OPT_INLINE },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "pm-trace", no_argument, NULL, OPT_PM_TRACE },
	{ "pm-async-off", no_argument, NULL, OPT_PM_ASYNC_OFF },
	{ "errnos", required_argument, NULL, OPT_ERRNOS },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "max-schedules", required_argument, NULL, OPT_MAX_SCHED },
	{ "naive-sample", required_argument, NULL, OPT_SAMPLE },
	{ "naive-cap", required_argument, NULL, OPT_NAIVE_CAP },
	{ "jobs", required_argument, NULL, 'j' },
	{ "time-limit", required_argument, NULL, 't' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static long num(const char *opt, const char *v, long lo, long hi)
{
	char *e;
	long n;

	errno = 0;
	n = strtol(v, &e, 10);
	if (errno || e == v || *e || n < lo || n > hi)
		usage_error("%s wants a number from %ld to %ld, not '%s'", opt, lo,
			    hi, v);
	return n;
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

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
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
		die("cannot write %s: %s", path, strerror(errno));
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
	FILE *mem = open_memstream(&want, &wl);
	FILE *f;

	if (!k->dir)
		return;
	if (mkdir(k->dir, 0777) && errno != EEXIST)
		die("cannot create %s: %s", k->dir, strerror(errno));
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
				die("%s is the state of another run (its '%.*s'); give another -o DIR",
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
			die("cannot truncate %s: %s", path, strerror(errno));
	}
	k->state = fopen(path, k->chunks_done ? "a" : "w");
	if (!k->state)
		die("cannot write %s: %s", path, strerror(errno));
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
		die("cannot write the state in %s: %s", k->dir, strerror(errno));
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
		prog, k->chunks_done, k->nchunks,
		(unsigned long long)k->total.scenarios, k->scenarios_all,
		(unsigned long long)(k->total.schedules + k->total.blocked),
		t > 0 ? (double)(k->total.schedules + k->total.blocked) / t : 0.0,
		el, et, isatty(2) && !final ? "   \r" : "\n");
}

/* ---- workers ---- */

struct worker {
	pid_t pid;
	FILE *to, *from;
	long chunk;		/* in progress, -1: idle */
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* A worker: chunk numbers in, records out. */
static void worker_loop(struct check *k, FILE *in, FILE *out)
{
	long c;

	while (fscanf(in, "%ld", &c) == 1) {
		struct check_totals t;

		check_chunk(&k->sp, c, k->first[c], &k->co, &t);
		if (check_totals_write(out, c, &t))
			_exit(1);
		check_totals_free(&t);
	}
	_exit(0);
}

static void start_worker(struct check *k, struct worker *w)
{
	int down[2], up[2];

	if (pipe(down) || pipe(up))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0)
		die("fork: %s", strerror(errno));
	if (!w->pid) {
		close(down[1]);
		close(up[0]);
		signal(SIGINT, SIG_IGN);
		worker_loop(k, fdopen(down[0], "r"), fdopen(up[1], "w"));
	}
	close(down[0]);
	close(up[1]);
	w->to = fdopen(down[1], "w");
	w->from = fdopen(up[0], "r");
	w->chunk = -1;
}

static long next_chunk(struct check *k, long *cursor)
{
	while (*cursor < k->nchunks && k->done[*cursor])
		(*cursor)++;
	return *cursor < k->nchunks ? (*cursor)++ : -1;
}

/* Every chunk not done, until done, a signal or the time limit.  Returns
 * whether every chunk was done. */
static bool run_all(struct check *k, int jobs, double limit)
{
	long cursor = 0;

	if (jobs <= 1) {
		long c;

		while (!interrupted && (limit <= 0 || now() - k->t0 < limit) &&
		       (c = next_chunk(k, &cursor)) >= 0) {
			struct check_totals t;

			check_chunk(&k->sp, c, k->first[c], &k->co, &t);
			record(k, c, &t);
			check_totals_free(&t);
			progress(k, 1, false);
		}
		return k->chunks_done == k->nchunks;
	}
	struct worker *w = dpm_xcalloc((size_t)jobs, sizeof(*w));
	int busy = 0;

	for (int i = 0; i < jobs; i++)
		start_worker(k, &w[i]);
	for (;;) {
		bool stop = interrupted || (limit > 0 && now() - k->t0 >= limit);

		for (int i = 0; i < jobs && !stop; i++) {
			long c;

			if (w[i].chunk >= 0 || (c = next_chunk(k, &cursor)) < 0)
				continue;
			w[i].chunk = c;
			fprintf(w[i].to, "%ld\n", c);
			fflush(w[i].to);
			busy++;
		}
		if (!busy)
			break;
		fd_set rd;
		int maxfd = -1;

		FD_ZERO(&rd);
		for (int i = 0; i < jobs; i++)
			if (w[i].chunk >= 0) {
				FD_SET(fileno(w[i].from), &rd);
				if (fileno(w[i].from) > maxfd)
					maxfd = fileno(w[i].from);
			}
		struct timeval tv = { 1, 0 };

		if (select(maxfd + 1, &rd, NULL, NULL, &tv) < 0) {
			if (errno == EINTR)
				continue;
			die("select: %s", strerror(errno));
		}
		for (int i = 0; i < jobs; i++) {
			if (w[i].chunk < 0 || !FD_ISSET(fileno(w[i].from), &rd))
				continue;
			struct check_totals t;
			long c;

			if (check_totals_read(w[i].from, &c, &t) || c != w[i].chunk)
				die("worker %d died on chunk %ld", (int)w[i].pid, w[i].chunk);
			record(k, c, &t);
			check_totals_free(&t);
			w[i].chunk = -1;
			busy--;
			progress(k, jobs, false);
		}
		if (stop && !busy)
			break;
	}
	for (int i = 0; i < jobs; i++) {
		fclose(w[i].to);
		fclose(w[i].from);
		waitpid(w[i].pid, NULL, 0);
	}
	free(w);
	return k->chunks_done == k->nchunks;
}

/* ---- the report ---- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

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
	json_str(stdout, k->ro.variant->name);
	printf(",\"fixes\":");
	json_str(stdout, k->fixes);
	printf(",\"mode\":\"%s\",\"bound\":", explore_mode_name(k->co.explore.mode));
	json_str(stdout, k->bound);
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
		json_str(stdout, cmd);
		printf(",\"scenario\":");
		json_str(stdout, f->text);
		printf("}");
		sep = ",";
	}
	printf("},\"verdict\":");
	json_str(stdout, v);
	printf("}\n");
}

int main(int argc, char **argv)
{
	struct check k = { 0 };
	struct space_bound b = { .devices = 3, .errors = 1, .removals = 1,
				 .cycles = 1 };
	const char *variant = "seed", *fix = "none", *errnos = NULL;
	bool json = false, list = false;
	int jobs = 1, c;
	long limit = 0;

	k.co.explore.mode = EX_DPOR;
	k.co.naive_cap = 20000;
	while ((c = getopt_long(argc, argv, "n:e:r:c:j:t:o:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_VARIANT: variant = optarg; break;
		case OPT_FIX: fix = optarg; break;
		case OPT_LIST_VARIANTS: list = true; break;
		case 'n': b.devices = (int)num("--devices", optarg, 1, 12); break;
		case 'e': b.errors = (int)num("--errors", optarg, 0, 8); break;
		case 'r': b.removals = (int)num("--removals", optarg, 0, 4); break;
		case 'c': b.cycles = (int)num("--cycles", optarg, 1, 4); break;
		case OPT_HOTPLUG: b.hotplug = (int)num("--hotplug", optarg, 0, 4); break;
		case OPT_LINKS: b.links = (int)num("--links", optarg, 0, 16); break;
		case OPT_RPM: b.rpm = (int)num("--rpm", optarg, 0, 12); break;
		case OPT_PM_WAITS: b.pm_waits = (int)num("--pm-waits", optarg, 0, 12); break;
		case OPT_INLINE: b.inline_every = (int)num("--inline", optarg, 0, 16); break;
		case OPT_WORKERS: b.workers = (int)num("--workers", optarg, 0, 16); break;
		case OPT_PM_TRACE: b.pm_trace = true; break;
		case OPT_PM_ASYNC_OFF: b.pm_async_off = true; break;
		case OPT_ERRNOS:
			if (strcmp(optarg, "one") && strcmp(optarg, "all"))
				usage_error("--errnos wants one or all, not '%s'", optarg);
			errnos = optarg;
			break;
		case OPT_MODE: {
			int m = explore_mode_parse(optarg);

			if (m < 0)
				usage_error("--mode wants naive, sleep or dpor, not '%s'", optarg);
			k.co.explore.mode = m;
			break;
		}
		case OPT_MAX_SCHED:
			k.co.explore.max_schedules = (uint64_t)num("--max-schedules", optarg, 0, 1L << 40);
			break;
		case OPT_SAMPLE: k.co.sample = num("--naive-sample", optarg, 0, 1L << 40); break;
		case OPT_NAIVE_CAP:
			k.co.naive_cap = (uint64_t)num("--naive-cap", optarg, 1, 1L << 40);
			break;
		case 'j': jobs = (int)num("--jobs", optarg, 0, 1024); break;
		case 't': limit = num("--time-limit", optarg, 1, 1L << 30); break;
		case 'o': k.dir = optarg; break;
		case OPT_JSON: json = true; break;
		case 'q': k.quiet = true; break;
		case 'h': help(); return 0;
		case 'V': printf("dpmcheck (dpmfuzz) %s\n", DPMFUZZ_VERSION); return 0;
		default: usage_error("bad option");
		}
	}
	if (optind < argc)
		usage_error("no arguments besides options ('%s')", argv[optind]);
	if (list) {
		variants_list(stdout);
		return 0;
	}
	const struct pm_variant *v = variant_find(variant);
	const char *bad;
	size_t bl;

	if (!v)
		usage_error("no variant '%s' (variants: %s)", variant, variant_names());
	if (!strcmp(fix, "list")) {
		knobs_list(v, stdout);
		return 0;
	}
	if (knobs_parse(v, fix, &k.ro.fixes, &bad, &bl) < 0)
		usage_error("no knob '%.*s' in variant %s", (int)(bl < 100 ? bl : 100),
			    bad, v->name);
	if (jobs == 0)
		jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	k.ro.variant = v;
	b.features = v->features;
	b.all_errnos = errnos ? !strcmp(errnos, "all") : !explore_variant_visible(v);
	k.co.explore.opaque = !explore_variant_visible(v);
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
			prog, v->name, k.fixes, k.bound, k.scenarios_all, k.nchunks,
			k.chunks_done ? " (resumed)" : "");
	bool complete = run_all(&k, jobs, (double)limit);

	progress(&k, jobs, true);
	if (k.state)
		fclose(k.state);
	if (json)
		report_json(&k, complete, now() - k.t0, argv[0]);
	else
		report_table(&k, complete, argv[0]);
	if (any_violation(&k.total))
		return 1;
	return complete && !k.total.capped && !k.total.nondet ? 0 : 3;
}
