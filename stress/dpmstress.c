// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmstress: generate scenarios from a seed, run each on an engine, and
 * let the oracle judge every run.
 *
 *   dpmstress [--variant seed|modern|rwsem] [--seed S] [--iterations N] [--duration SEC]
 *             [--devices MAX] [--fixed-size] [--engine det|threads]
 *             [--fix K,...|all|none] [--jobs J]
 *             [--strategy input|random|pct] [--pct D]
 *             [--perturb N] [--time-scale NS] [--watchdog MS]
 *             [--out DIR] [--replay FILE] [--schedules N] [--search N]
 *   dpmstress [--variant V] [--fix K,...] [--search N] --find-schedule FILE
 *
 * Defaults: the threads engine, seed 1, 200 scenarios of up to 32
 * devices, no fixes (the code as posted).
 *
 * Scenario 0 is directed (generate_directed()) unless --fixed-size, which
 * is for measuring scale; every other scenario i of seed S
 * is the same on every run and engine: a tree of up
 * to MAX devices (exactly MAX with --fixed-size) shaped like a real
 * machine (about 10% async, a few PCI, depth growing with size, a few
 * callbacks slow or failing), up to two concurrent removals, one to three
 * cycles.  On the det engine its schedule comes from the strategy: the
 * generated schedule bytes (input), seeded random choices (random), or
 * PCT with D priority change points (pct).  On the threads engine the
 * schedule is the machine's, perturbed at scheduling points (1 in N
 * yields or sleeps, --perturb, default 4), with callback durations
 * scaled (--time-scale real ns per virtual us, default 1).
 *
 * The end invariant, checked after every run: the oracle of
 * docs/oracle.md holds (ordering, rollback, removal, references,
 * liveness).  On a violation the scenario is written to DIR (default
 * the current directory), and the report ends with the command that
 * reproduces it, variant and knobs spelled out:
 *   --- reproduce: dpmrepro --variant V --fix K,... [--schedules K] FILE
 * On det that is the same run.  On threads a fresh dpmstress
 * (--find-schedule) first runs dpmrepro's det schedule search, the
 * scenario's own schedule and then --search N others (default 20000),
 * for the same invariant; if one shows it the command names it, else the
 * report says no dpmrepro command reproduces it and ends with the
 * threads replay (dpmstress --engine threads ... --replay FILE).  A data
 * race that ThreadSanitizer reports is saved the same way; the det
 * engine cannot show one, and the report says so.
 *
 * --replay FILE runs one scenario (text or fuzz bytes): on det, as is,
 * then with up to --schedules N other schedules (the strategy's) until
 * one breaks an invariant; on threads, --iterations times until one does.
 * The variant a text's header names is run, unless --variant says other.
 *
 * Exit: 0 every run clean, 1 a violation, 2 bad usage or input,
 * 3 the watchdog ended a run that outlived its deadline (LIVENESS).
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/replay.h"
#include "run/settings.h"

#define EXIT_USAGE 2

static void usage_error(const char *fmt, const char *a)
{
	fprintf(stderr, "dpmstress: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static long long num(const char *flag, const char *v, long long lo,
		     long long hi)
{
	char *end;

	errno = 0;
	long long x = strtoll(v, &end, 10);

	if (errno || !*v || *end || x < lo || x > hi) {
		char b[160];

		snprintf(b, sizeof(b), "%s wants a number from %lld to %lld, not '%s'",
			 flag, lo, hi, v);
		usage_error("%s", b);
	}
	return x;
}

/* ---- options ---- */
static const struct pm_variant *variant;
/* The DPMFUZZ_* environment (core/run/settings.h). */
static struct dpm_env env;
static bool variant_given;
static const char *fix_spec = "none";
static uint64_t seed = 1;
static long long iterations = 200;
static long long duration;
static int max_devices = 32;
static bool no_worker_limit;
static bool fixed_size;
static enum engine_kind engine = ENGINE_THREADS;
static int jobs = 1;
static enum { STRAT_INPUT, STRAT_RANDOM, STRAT_PCT } strategy = STRAT_INPUT;
static int pct_depth = 3;
static unsigned int perturb = 4;
static uint64_t time_scale = 1;
static unsigned int watchdog_ms = 10000;
static const char *out_dir = ".";
static const char *replay;
static long long schedules;
static long long search = 20000;
static const char *find_schedule;
static struct run_opts opts;

/* ---- randomness ---- */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t *r, uint64_t n)
{
	return n ? splitmix(r) % n : 0;
}

/* ---- scenario generation ---- */
static const unsigned int slow[] = { 100000, 500000, 800000, 2000000 };
static const int errs[] = { -EIO, -EBUSY, -ENODEV, -ENOMEM };

/*
 * Scenario 0 of every seed is directed: sync roots walked one by one
 * while an async device, walked first, fails its suspend.  Whatever the
 * fixes, it never breaks an ordering rule, and it is the shape in which
 * the walk's reads of async_error meet the async thread's write (the
 * data race ThreadSanitizer reports in the seed as posted).
 */
static void generate_directed(struct scenario *s)
{
	scenario_init(s);
	s->ndev = max_devices < 33 ? max_devices : 33;
	s->dev = calloc((size_t)s->ndev, sizeof(*s->dev));
	s->act = calloc(1, sizeof(*s->act));
	if (!s->dev || !s->act)
		abort();
	for (int d = 0; d < s->ndev; d++) {
		struct scn_device *v = &s->dev[d];

		scn_device_init(v);
		snprintf(v->name, sizeof(v->name), "dev%d", d);
		v->beh.dur_us[PH_SUSPEND] = 50000;
	}
	struct scn_device *last = &s->dev[s->ndev - 1];

	last->async = true;
	last->beh.dur_us[PH_SUSPEND] = 200000;
	last->beh.err[PH_SUSPEND] = -EIO;
}

static void generate(uint64_t i, struct scenario *s)
{
	uint64_t r = seed * 0x100000001b3ULL ^ (i + 1) * 0x9e3779b97f4a7c15ULL;

	if (i == 0 && !fixed_size) {
		generate_directed(s);
		return;
	}
	scenario_init(s);
	s->pm_async = below(&r, 10) != 0;
	s->pm_trace = below(&r, 20) == 0;
	s->cycles = 1 + (int)below(&r, 3);
	s->inline_every = below(&r, 8) == 0 ? 2 + (unsigned)below(&r, 4) : 0;
	s->worker_limit = below(&r, 8) == 0 ? 1 + (unsigned)below(&r, 4) : 0;
	if (no_worker_limit)	/* DPMFUZZ_NO_WORKER_LIMIT=1, as the fuzz targets */
		s->worker_limit = 0;
	s->ndev = fixed_size ? max_devices : 1 + (int)below(&r, max_devices);
	s->dev = calloc((size_t)s->ndev, sizeof(*s->dev));
	if (!s->dev)
		abort();
	for (int d = 0; d < s->ndev; d++) {
		struct scn_device *v = &s->dev[d];

		scn_device_init(v);
		snprintf(v->name, sizeof(v->name), "dev%d", d);
		/* Roots are rare; a parent is usually recent, so depth grows
		 * slowly with size, as on real machines. */
		if (d == 0 || below(&r, 50) == 0)
			v->parent = -1;
		else
			v->parent = d - 1 - (int)below(&r, d < 16 ? d : 16);
		v->async = below(&r, 10) == 0;
		v->pci = below(&r, 20) == 0;
		for (int p = 0; p < NR_PHASES; p++)
			v->beh.dur_us[p] = (unsigned)below(&r, 20);
		if (below(&r, 100) < 2)
			v->beh.dur_us[PH_SUSPEND] = slow[below(&r, 4)];
		if (below(&r, 100) < 2)
			v->beh.dur_us[PH_RESUME] = slow[below(&r, 4)];
		/* Failures: rare, more so in sync devices; an async device's
		 * failure is the path that touches async_error. */
		if (below(&r, v->async ? 6 : 60) == 0)
			v->beh.err[v->async ? PH_SUSPEND : below(&r, 4)] =
				errs[below(&r, 4)];
	}
	/* The variant's kernel features (modern): device links to earlier
	 * devices, runtime-suspended leaves of the tree, pm-waits.  Drawn
	 * only for such a variant, so the others' scenarios stay as they
	 * were. */
	for (int d = 0; variant->features && d < s->ndev; d++) {
		struct scn_device *v = &s->dev[d];

		if ((variant->features & VF_LINKS) && d && below(&r, 8) == 0)
			v->sup[v->nsup++] = (int)below(&r, (uint64_t)d);
		if ((variant->features & VF_DIRECT_COMPLETE) && below(&r, 4) == 0)
			v->beh.rpm_suspended = true;
		if ((variant->features & VF_PM_WAIT) && below(&r, 30) == 0) {
			int t = (int)below(&r, (uint64_t)s->ndev);

			if (t != d)
				v->beh.pm_wait_for = t + 1;
		}
	}
	for (int d = 0; d < s->ndev; d++) {
		/* A resume callback now and then unregisters a child. */
		if (below(&r, 100))
			continue;
		for (int c = d + 1; c < s->ndev && c < d + 64; c++) {
			if (s->dev[c].parent == d) {
				s->dev[d].beh.remove_phase = PH_RESUME;
				s->dev[d].beh.remove_target = c;
				break;
			}
		}
	}
	s->nact = (int)below(&r, 3);
	s->act = calloc((size_t)s->nact + 1, sizeof(*s->act));
	if (!s->act)
		abort();
	for (int a = 0; a < s->nact; a++) {
		s->act[a].kind = ACT_UNREGISTER;
		s->act[a].dev = (int)below(&r, s->ndev);
		s->act[a].at = below(&r, 3000000);
	}
	s->nsched = 64 + (size_t)below(&r, 192);
	s->sched = malloc(s->nsched);
	if (!s->sched)
		abort();
	for (size_t k = 0; k < s->nsched; k++)
		s->sched[k] = (uint8_t)splitmix(&r);
}

/* ---- det strategies ---- */
struct strat {
	uint64_t rng;
	/* PCT: a priority per task id, change points by step number. */
	uint64_t *prio;
	int nprio;
	uint64_t step, change[16];
	int nchange;
	uint64_t low;
	/* The choices made, as schedule bytes, so that a violation found
	 * by a strategy replays from its saved scenario alone. */
	uint8_t *rec;
	size_t nrec, rec_cap;
	bool rec_exact;		/* every choice had at most 256 candidates */
};

static struct strat st;

static int record(struct strat *s, int c, int n)
{
	if (s->nrec == s->rec_cap) {
		s->rec_cap = s->rec_cap ? 2 * s->rec_cap : 4096;
		s->rec = realloc(s->rec, s->rec_cap);
		if (!s->rec)
			abort();
	}
	s->rec[s->nrec++] = (uint8_t)c;
	s->rec_exact &= n <= 256;
	return c;
}

static int random_choose(void *ctx, int n, const int *ids)
{
	(void)ids;
	return record(ctx, (int)below(&((struct strat *)ctx)->rng, (uint64_t)n), n);
}

static uint64_t prio_of(struct strat *s, int id)
{
	while (id >= s->nprio) {
		s->prio = realloc(s->prio, sizeof(*s->prio) * (size_t)(s->nprio + 64));
		if (!s->prio)
			abort();
		for (int k = 0; k < 64; k++)
			s->prio[s->nprio + k] = 0;
		s->nprio += 64;
	}
	if (!s->prio[id])
		s->prio[id] = (1ULL << 40) + below(&s->rng, 1ULL << 39);
	return s->prio[id];
}

/* PCT (Burckhardt et al.): run the highest-priority candidate; at each of
 * d - 1 random points, drop the running task below every other. */
static int pct_choose(void *ctx, int n, const int *ids)
{
	struct strat *s = ctx;
	int best = 0;

	s->step++;
	for (int k = 0; k < s->nchange; k++) {
		if (s->change[k] == s->step) {
			prio_of(s, ids[0]);
			s->prio[ids[0]] = --s->low;
		}
	}
	for (int k = 1; k < n; k++)
		if (prio_of(s, ids[k]) > prio_of(s, ids[best]))
			best = k;
	return record(s, best, n);
}

static void strategy_reset(uint64_t key, const struct scenario *s)
{
	st.rng = key;
	st.step = 0;
	st.nrec = 0;
	st.rec_exact = true;
	st.low = 1ULL << 30;
	if (st.prio)
		memset(st.prio, 0, sizeof(*st.prio) * (size_t)st.nprio);
	st.nchange = pct_depth - 1 > 16 ? 16 : pct_depth - 1;
	/* Change points spread over the expected number of choices. */
	uint64_t k = 50 + 20 * (uint64_t)s->ndev * (uint64_t)s->cycles;

	for (int c = 0; c < st.nchange; c++)
		st.change[c] = 1 + below(&st.rng, k);
	opts.choose = strategy == STRAT_RANDOM ? random_choose :
		      strategy == STRAT_PCT ? pct_choose : NULL;
	opts.choose_ctx = &st;
}

/* ---- reporting ---- */
static struct {
	long long scenarios, transitions, violations, race_scenarios;
	long long by_id[NR_INV];
	double seconds;
} sum;

static char last_file[4096];

static const char *strategy_name(void)
{
	return strategy == STRAT_RANDOM ? "random" :
	       strategy == STRAT_PCT ? "pct" : "input";
}

/* The knobs on, as --fix takes them ("none" for none). */
static const char *fixes_spelled(void)
{
	static char fixes[KNOBS_TEXT_MAX];

	knobs_format(variant, opts.fixes, fixes, sizeof(fixes));
	return fixes;
}

/*
 * Write s to DIR/dpmstress-<engine>-seed<S>-<index>.scenario (last_file)
 * with the variant, the knobs and expect (an invariant ID, or NULL).
 */
static void save_scenario(const struct scenario *s, uint64_t index,
			  const char *expect, const char *comment)
{
	struct scenario copy = *s;

	if (engine == ENGINE_DET && opts.choose) {
		/* The strategy's choices become the schedule bytes. */
		copy.sched = st.rec;
		copy.nsched = st.nrec;
		if (!st.rec_exact)
			printf("dpmstress: a choice had more than 256 candidates: the saved schedule may not replay exactly\n");
	}
	snprintf(copy.variant, sizeof(copy.variant), "%s", variant->name);
	snprintf(copy.fixes, sizeof(copy.fixes), "%s", opts.fixes ? fixes_spelled() : "");
	snprintf(copy.expect, sizeof(copy.expect), "%s", expect ? expect : "");
	snprintf(last_file, sizeof(last_file), "%s/dpmstress-%s-seed%llu-%llu.scenario",
		 out_dir, engine == ENGINE_DET ? "det" : "threads",
		 (unsigned long long)seed, (unsigned long long)index);
	char *txt = scenario_print(&copy);
	FILE *f = fopen(last_file, "w");

	if (!f || fprintf(f, "%s", comment) < 0 || fputs(txt, f) < 0 || fclose(f)) {
		fprintf(stderr, "dpmstress: cannot write %s: %s\n", last_file,
			strerror(errno));
		snprintf(last_file, sizeof(last_file), "(not written)");
	}
	free(txt);
	printf("dpmstress: scenario %llu written to %s\n",
	       (unsigned long long)index, last_file);
}

#define REPRODUCE "--- reproduce: "

/* The command that reruns the file on real threads until it shows again. */
static void print_threads_replay(const char *lead, const char *file,
				 long long times)
{
	printf("%sdpmstress --engine threads --variant %s --fix %s --replay %s --iterations %lld\n",
	       lead, variant->name, fixes_spelled(), file, times);
}

/* The command that shows it on the det engine: schedule k of the search. */
static void print_dpmrepro(const char *file, long k, const char *note)
{
	printf(REPRODUCE "dpmrepro --variant %s --fix %s", variant->name,
	       fixes_spelled());
	if (k)
		printf(" --schedules %ld", k);
	printf(" %s%s\n", file, note);
}

/*
 * A threads finding: a det schedule that shows the same invariant makes
 * it exact.  This process cannot run the det engine (its threads are
 * still live), so a fresh one does: this binary, --find-schedule.
 */
static void find_det_schedule(const char *file)
{
	char n[32];
	char *args[] = { "dpmstress", "--variant", (char *)variant->name,
			 "--fix", (char *)fixes_spelled(), "--search", n,
			 "--find-schedule", (char *)file, NULL };
	extern char **environ;
	pid_t pid;
	int rc, status;

	snprintf(n, sizeof(n), "%lld", search);
	if (!search) {
		printf("dpmstress: no det search (--search 0); the finding replays on real threads:\n");
		print_threads_replay(REPRODUCE, file, 1000);
		return;
	}
	fflush(stdout);
	fflush(stderr);
	rc = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ);
	while (!rc && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rc = errno;
	if (!rc && WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		return;		/* it printed the end of the report */
	printf("dpmstress: the det search could not run (%s); the finding replays on real threads:\n",
	       rc ? strerror(rc) : "it failed");
	print_threads_replay(REPRODUCE, file, 1000);
}

static void save_violation(const struct scenario *s, const struct run_result *r,
			   uint64_t index)
{
	printf("dpmfuzz: VIOLATION %s: %s\n", inv_name(r->id), r->msg);
	save_scenario(s, index, inv_name(r->id), "");
	if (engine == ENGINE_DET) {
		print_dpmrepro(last_file, 0, "");
	} else {
		if (r->id == INV_LIVENESS)
			printf("dpmstress: the watchdog ended the run (exit %d)\n",
			       DPM_EXIT_LIVENESS);
		find_det_schedule(last_file);
	}
	fflush(stdout);
}

/*
 * ThreadSanitizer reports through this hook (its default prints the
 * SUMMARY line, which this does too): a data race is counted, so the
 * scenario it came up in can be saved and named.  Any other sanitizer's
 * summary passes through.
 */
static volatile int races;

void __sanitizer_report_error_summary(const char *summary)
{
	static const char nl = '\n';

	if (strstr(summary, "ThreadSanitizer: data race"))
		__atomic_add_fetch(&races, 1, __ATOMIC_RELAXED);
	(void)!syscall(SYS_write, 2, summary, strlen(summary));
	(void)!syscall(SYS_write, 2, &nl, 1);
}

static void report_race(const struct scenario *s, uint64_t index)
{
	fflush(stderr);
	printf("dpmstress: ThreadSanitizer reported a data race (above) in scenario %llu\n",
	       (unsigned long long)index);
	save_scenario(s, index, NULL,
		      "# ThreadSanitizer reported a data race in this scenario\n");
	if (engine == ENGINE_THREADS) {
		printf("dpmstress: no dpmrepro command reproduces a data race: the det engine runs one task at a time, so its tasks never race; it replays on real threads in a ThreadSanitizer build:\n");
		print_threads_replay(REPRODUCE, last_file, 10);
	} else {
		print_dpmrepro(last_file, 0, " (in a ThreadSanitizer build)");
	}
	fflush(stdout);
}

static uint64_t current_index;
static int races_before;

/*
 * Threads: a violation ends the process; report it first.  Once: a
 * second caller (the watchdog, while the det search runs) waits for the
 * first to end the process.
 */
static void on_fatal(const struct scenario *s, const struct run_result *r)
{
	static int once;

	if (__atomic_exchange_n(&once, 1, __ATOMIC_SEQ_CST))
		for (;;)
			pause();
	if (__atomic_load_n(&races, __ATOMIC_RELAXED) != races_before)
		printf("dpmstress: ThreadSanitizer reported a data race (above) in this scenario too\n");
	save_violation(s, r, current_index);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool run_one(struct scenario *s, uint64_t index)
{
	static struct run_result r;

	current_index = index;
	races_before = __atomic_load_n(&races, __ATOMIC_RELAXED);
	if (engine == ENGINE_DET)
		strategy_reset(seed ^ (index * 0x2545f4914f6cdd1dULL), s);
	dpm_run(s, &opts, &r);
	sum.scenarios++;
	sum.transitions += s->cycles;
	if (__atomic_load_n(&races, __ATOMIC_RELAXED) != races_before &&
	    ++sum.race_scenarios <= 3)
		report_race(s, index);
	if (!r.violated)
		return false;
	sum.violations++;
	sum.by_id[r.id]++;
	if (sum.violations <= 3)
		save_violation(s, &r, index);
	return true;
}

static void print_summary(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("dpmstress: %lld scenarios, %lld transitions in %.4f s (%.0f transitions/s, %.0f scenarios/s), peak RSS %ld MiB, %lld violations",
	       sum.scenarios, sum.transitions, sum.seconds,
	       sum.seconds > 0 ? (double)sum.transitions / sum.seconds : 0.0,
	       sum.seconds > 0 ? (double)sum.scenarios / sum.seconds : 0.0,
	       ru.ru_maxrss / 1024, sum.violations);
	for (int k = 0; k < NR_INV; k++)
		if (sum.by_id[k])
			printf(" %s=%lld", inv_name(k), sum.by_id[k]);
	printf("\n");
	fflush(stdout);
}

/* ---- one worker's share: scenarios index = job, job + jobs, ... ---- */
static void run_share(int job)
{
	double start = now_s(), last = start;

	for (long long i = job; i < iterations || duration; i += jobs) {
		double t = now_s();

		if (duration && t - start >= (double)duration)
			break;
		if (t - last >= 5.0) {
			last = t;
			fprintf(stderr, "dpmstress: [job %d] %lld scenarios, %lld violations, %.0f s\n",
				job, sum.scenarios, sum.violations, t - start);
		}
		struct scenario s;

		generate((uint64_t)i, &s);
		run_one(&s, (uint64_t)i);
		scenario_free(&s);
	}
	sum.seconds = now_s() - start;
}

/* A scenario file, read as dpmrepro reads it (core/run/replay.c). */
static void load(const char *flag, const char *path, struct scenario *s)
{
	char err[512], m[600];
	bool text;

	if (dpm_load_file(path, &env.limits, false, s, &text, err, sizeof(err))) {
		snprintf(m, sizeof(m), "%s: %s", flag, err);
		usage_error("%s", m);
	}
}

/*
 * --find-schedule FILE: dpmrepro's schedule search (the scenario's own
 * schedule, then --search N others) for the invariant of FILE's 'expect'
 * line; prints the end of a threads finding's report: the dpmrepro
 * command that shows it, exit 0, or that none does, exit 1.
 */
static int do_find_schedule(const char *file)
{
	static struct run_result r;
	struct scenario s;
	int want;
	long k;

	load("--find-schedule", file, &s);
	want = dpm_expected(&s);
	opts.engine = ENGINE_DET;
	opts.choose = NULL;
	opts.on_fatal = NULL;
	k = dpm_schedule_search(&s, &opts, search, want, &r);
	scenario_free(&s);
	if (k < 0) {
		printf("dpmstress: neither the scenario's own det schedule nor %lld more of dpmrepro's search show %s, so no dpmrepro command reproduces it (a longer det search: dpmstress --engine det --variant %s --fix %s --replay %s --strategy pct --schedules 100000); it replays on real threads:\n",
		       search, want < 0 ? "a violation" : inv_name(want),
		       variant->name, fixes_spelled(), file);
		print_threads_replay(REPRODUCE, file, 1000);
		fflush(stdout);
		return 1;
	}
	print_threads_replay("dpmstress: on real threads again: ", file, 1000);
	if (k)
		printf("dpmstress: schedule %ld of dpmrepro's det schedule search shows %s too (checked):\n",
		       k, inv_name(r.id));
	else
		printf("dpmstress: the det engine shows %s too with the scenario's own schedule (checked):\n",
		       inv_name(r.id));
	print_dpmrepro(file, k, "");
	fflush(stdout);
	return 0;
}

/* The replay file, loaded before the knobs are parsed: a text names its
 * variant, which counts unless --variant was given. */
static struct scenario replay_scn;

static int do_replay(void)
{
	struct scenario s = replay_scn;
	double start = now_s();

	if (engine == ENGINE_THREADS) {
		for (long long i = 0; i < iterations; i++)
			if (run_one(&s, (uint64_t)i))
				break;
	} else {
		/* As written first, then other schedules. */
		int saved = strategy;

		strategy = STRAT_INPUT;
		bool bad = run_one(&s, 0);

		strategy = saved == STRAT_INPUT ? STRAT_RANDOM : saved;
		for (long long k = 1; !bad && k <= schedules; k++) {
			/* The strategy's choices, written back as bytes, so
			 * the saved scenario replays on its own. */
			bad = run_one(&s, (uint64_t)k);
		}
	}
	sum.seconds = now_s() - start;
	print_summary();
	scenario_free(&s);
	return sum.violations ? 1 : 0;
}

int main(int argc, char **argv)
{
	char err[256];

	if (dpm_env_read(&env, err, sizeof(err)))
		usage_error("%s", err);
	no_worker_limit = env.limits.no_worker_limit;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;

		if (!strcmp(a, "--fixed-size")) {
			fixed_size = true;
			takes = false;
		} else if (!v) {
			usage_error("%s needs a value (or is unknown; see the header of stress/dpmstress.c)", a);
		} else if (!strcmp(a, "--variant")) {
			variant_given = true;
			variant = variant_find(v);
			if (!variant) {
				char m[256];

				snprintf(m, sizeof(m), "no variant '%%s' (variants: %s)",
					 variant_names());
				usage_error(m, v);
			}
		} else if (!strcmp(a, "--seed")) {
			seed = (uint64_t)num(a, v, 0, 1LL << 62);
		} else if (!strcmp(a, "--iterations")) {
			iterations = num(a, v, 1, 1LL << 40);
		} else if (!strcmp(a, "--duration")) {
			duration = num(a, v, 1, 1LL << 30);
		} else if (!strcmp(a, "--devices")) {
			max_devices = (int)num(a, v, 1, 10000000);
		} else if (!strcmp(a, "--engine")) {
			if (!strcmp(v, "det"))
				engine = ENGINE_DET;
			else if (!strcmp(v, "threads"))
				engine = ENGINE_THREADS;
			else
				usage_error("--engine is det or threads, not '%s'", v);
		} else if (!strcmp(a, "--fix")) {
			fix_spec = v;
		} else if (!strcmp(a, "--jobs")) {
			jobs = (int)num(a, v, 1, 256);
		} else if (!strcmp(a, "--strategy")) {
			if (!strcmp(v, "input"))
				strategy = STRAT_INPUT;
			else if (!strcmp(v, "random"))
				strategy = STRAT_RANDOM;
			else if (!strcmp(v, "pct"))
				strategy = STRAT_PCT;
			else
				usage_error("--strategy is input, random or pct, not '%s'", v);
		} else if (!strcmp(a, "--pct")) {
			pct_depth = (int)num(a, v, 1, 17);
			strategy = STRAT_PCT;
		} else if (!strcmp(a, "--perturb")) {
			perturb = (unsigned)num(a, v, 0, 1 << 20);
		} else if (!strcmp(a, "--time-scale")) {
			time_scale = (uint64_t)num(a, v, 0, 1000000);
		} else if (!strcmp(a, "--watchdog")) {
			watchdog_ms = (unsigned)num(a, v, 10, 3600000);
		} else if (!strcmp(a, "--out")) {
			out_dir = v;
		} else if (!strcmp(a, "--replay")) {
			replay = v;
		} else if (!strcmp(a, "--schedules")) {
			schedules = num(a, v, 0, 1LL << 40);
		} else if (!strcmp(a, "--search")) {
			search = num(a, v, 0, 1LL << 40);
		} else if (!strcmp(a, "--find-schedule")) {
			find_schedule = v;
		} else {
			usage_error("unknown option '%s' (see the header of stress/dpmstress.c)", a);
		}
		if (takes)
			i++;
	}
	const char *bad;
	size_t bl;

	if (!variant)
		variant = variant_find("seed");
	if (replay) {
		load("--replay", replay, &replay_scn);
		if (!variant_given && replay_scn.variant[0] &&
		    !(variant = variant_find(replay_scn.variant))) {
			char m[256];

			snprintf(m, sizeof(m), "%s: no variant '%%s' (variants: %s)",
				 replay, variant_names());
			usage_error(m, replay_scn.variant);
		}
	}
	if (knobs_parse(variant, fix_spec, &opts.fixes, &bad, &bl) < 0) {
		char b[128];

		snprintf(b, sizeof(b), "%.*s", (int)bl, bad);
		usage_error("--fix: no knob '%s' in this variant", b);
	}
	opts.variant = variant;
	opts.engine = engine;
	opts.threads.seed = seed;
	opts.threads.perturb = perturb;
	opts.threads.ns_per_virtual_us = time_scale;
	opts.threads.watchdog_ms = watchdog_ms;
	opts.on_fatal = on_fatal;
	if (find_schedule)
		return do_find_schedule(find_schedule);
	char fixes[KNOBS_TEXT_MAX];

	knobs_format(variant, opts.fixes, fixes, sizeof(fixes));
	printf("dpmstress: variant %s, fixes %s, engine %s, strategy %s, seed %llu, %s %lld, devices <= %d%s, jobs %d\n",
	       variant->name, fixes, engine == ENGINE_DET ? "det" : "threads",
	       engine == ENGINE_DET ? strategy_name() : "perturbed",
	       (unsigned long long)seed, duration ? "seconds" : "iterations",
	       duration ? duration : iterations, max_devices,
	       fixed_size ? " (fixed)" : "", jobs);
	fflush(stdout);
	if (replay)
		return do_replay();
	if (jobs == 1) {
		run_share(0);
		print_summary();
		return sum.violations ? 1 : 0;
	}
	/* J processes; each reports its counts through a pipe. */
	int fds[256][2];
	pid_t pids[256];

	for (int j = 0; j < jobs; j++) {
		if (pipe(fds[j]))
			usage_error("cannot create a pipe: %s", strerror(errno));
		pids[j] = fork();
		if (pids[j] == 0) {
			close(fds[j][0]);
			run_share(j);
			if (write(fds[j][1], &sum, sizeof(sum)) != sizeof(sum))
				_exit(2);
			_exit(sum.violations ? 1 : 0);
		}
		close(fds[j][1]);
	}
	int worst = 0;
	double secs = 0;
	long long by[NR_INV] = { 0 }, sc = 0, tr = 0, vi = 0;

	for (int j = 0; j < jobs; j++) {
		int status;

		if (read(fds[j][0], &sum, sizeof(sum)) == sizeof(sum)) {
			sc += sum.scenarios;
			tr += sum.transitions;
			vi += sum.violations;
			for (int k = 0; k < NR_INV; k++)
				by[k] += sum.by_id[k];
			if (sum.seconds > secs)
				secs = sum.seconds;
		}
		close(fds[j][0]);
		waitpid(pids[j], &status, 0);
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;

		if (code > worst)
			worst = code;
	}
	memset(&sum, 0, sizeof(sum));
	sum.scenarios = sc;
	sum.transitions = tr;
	sum.violations = vi;
	sum.seconds = secs;
	memcpy(sum.by_id, by, sizeof(by));
	print_summary();
	return worst ? worst : (vi ? 1 : 0);
}
