// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmstress: generate scenarios from a seed, run each on an engine, and
 * let the oracle judge every run.
 *
 *   dpmstress [OPTION]...
 *   dpmstress [--variant V] [--fix K,...] [--search N] --find-schedule FILE
 *
 * The options are the table below (dpmstress --help prints it;
 * docs/stress.md, "Options", describes each).  Defaults: the threads
 * engine, seed 1, 200 scenarios of up to 32 devices, no fixes (the code
 * as posted).
 *
 * Scenario 0 is directed (generate_directed()) unless --fixed-size, which
 * is for measuring scale; every other scenario i of seed S
 * is the same on every run and engine: a tree of up
 * to MAX devices (exactly MAX with --fixed-size) shaped like a real
 * machine (about 10% async, a few PCI, depth growing with size, a few
 * callbacks slow or failing), up to two concurrent removals, one to three
 * cycles.  On the det engine its schedule comes from the strategy: the
 * generated schedule bytes (input), seeded random choices (random),
 * PCT with D priority change points (pct), or the bytes read by task
 * (keyed): core/sched/strategy.h.  On the threads engine the
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
 * SIGINT or SIGTERM stops the run at its next scheduling point (det)
 * or within THREADS_POLL_MS (threads); the summary line, with the counts
 * of the scenarios that ended, says it was interrupted.  With --jobs the
 * parent passes the signal on to its workers, which send it what they
 * have; a worker whose parent dies gets SIGTERM (PR_SET_PDEATHSIG).
 * Scenario files are written whole or not at all (cli_out_open()); --out
 * must be a directory it can create files in.
 *
 * Exit: 0 every run clean, 1 a violation, 2 bad usage or input, or a
 * write error (stdout, a scenario file), 3 the watchdog ended a run that
 * outlived its deadline (LIVENESS); 130 (143) interrupted by SIGINT
 * (SIGTERM).
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/replay.h"
#include "run/settings.h"
#include "scenario/generate.h"
#include "sched/strategy.h"
#include "util/esc.h"
#include "util/race_summary.h"
#include "util/xalloc.h"

#include "cli.h"
#include "pool.h"

/* ---- options ---- */
enum {
	OPT_VARIANT = CLI_FIRST_KEY, OPT_SEED, OPT_ITERATIONS,
	OPT_FIXED_SIZE, OPT_ENGINE, OPT_FIX,
	OPT_STRATEGY, OPT_PCT, OPT_PERTURB, OPT_TIME_SCALE, OPT_WATCHDOG,
	OPT_REPLAY, OPT_SCHEDULES, OPT_SEARCH, OPT_FIND_SCHEDULE,
	OPT_LIST_VARIANTS, OPT_BYTES, OPT_PRINT,
};

static const struct cli_option options[] = {
	{ "variant", OPT_VARIANT, "NAME", "the variant to run (--list-variants; default seed, or the --replay or --find-schedule text's header)" },
	{ "seed", OPT_SEED, "S", "the seed of the scenarios (default 1): the same seed, the same scenarios" },
	{ "iterations", OPT_ITERATIONS, "N", "scenarios to run (default 200); with --replay on threads, runs of the file" },
	{ "time", 't', "TIME", "run for TIME instead of a number of scenarios: seconds, or with s, m or h" },
	{ "devices", 'n', "MAX", "scenarios of up to MAX devices (default 32)" },
	{ "fixed-size", OPT_FIXED_SIZE, NULL, "scenarios of exactly MAX devices, and no directed scenario 0 (to measure scale)" },
	{ "engine", OPT_ENGINE, "det|threads", "the engine (default threads: real threads)" },
	{ "fix", OPT_FIX, "LIST", "kernel fixes to turn on: knob,...|all|none (default none: as posted, or the --replay or --find-schedule text's fix line); 'list' prints the knobs" },
	{ "jobs", 'j', "N", "N worker processes, each its share of the scenarios (default 1)" },
	{ "strategy", OPT_STRATEGY, "input|random|pct|keyed", "the det engine's schedule (default input: the scenario's schedule bytes by position; keyed: by task, core/sched/strategy.h)" },
	{ "pct", OPT_PCT, "D", "PCT with D - 1 priority change points (default 3); implies --strategy pct" },
	{ "perturb", OPT_PERTURB, "N", "threads: yield or sleep at 1 scheduling point in N (default 4; 0: never)" },
	{ "time-scale", OPT_TIME_SCALE, "NS", "threads: real nanoseconds per virtual microsecond of callback time (default 1)" },
	{ "watchdog", OPT_WATCHDOG, "MS", "threads: end a run that outlives MS milliseconds plus 2 ms per device and cycle, exit 3 (default 10000)" },
	{ "out", 'o', "DIR", "write the scenarios of findings to DIR (default .)" },
	{ "replay", OPT_REPLAY, "FILE", "run one scenario (text or crash file) instead of generating them" },
	{ "schedules", OPT_SCHEDULES, "N", "--replay on det: up to N other schedules after the file's own (default 0)" },
	{ "search", OPT_SEARCH, "N", "after a threads finding, the det schedule search's length (default 20000; 0: none)" },
	{ "find-schedule", OPT_FIND_SCHEDULE, "FILE", "only the det schedule search for FILE's 'expect': exit 0 found, 1 not" },
	{ "list-variants", OPT_LIST_VARIANTS, NULL, "print the registered variants, one per line, tab-separated, and exit" },
	{ "bytes", OPT_BYTES, NULL, "read the --replay or --find-schedule file as fuzz input bytes, even if it looks like text" },
	{ "print", OPT_PRINT, NULL, "print the scenarios as text instead of running them, each from its dpmfuzz-scenario line (tools/dpmvm --random reads them)" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_alias aliases[] = {
	{ "duration", "time" },
	{ NULL, NULL }
};

static const struct cli_program program = {
	.name = "dpmstress",
	.usage = "[OPTION]...\n--find-schedule FILE [--variant NAME] [--fix LIST] [--search N]\n--fix list [--variant NAME]\n--list-variants",
	.about = "Generate scenarios from a seed, run each on an engine, and let the oracle judge every run.",
	.options = options,
	.footer =
		"DPMFUZZ_NO_WORKER_LIMIT=1 generates no worker limits, and --replay decodes a crash\n"
		"file under DPMFUZZ_MAX_DEVICES, as the fuzz targets do (docs/fuzzing.md).\n"
		"Scenario files are written whole or not at all (a temporary name, renamed).\n"
		"Exit: 0 every run clean, 1 a violation, 2 bad usage or input, or a write error (one line on stderr), 3 the watchdog ended a run; 66 a ThreadSanitizer report in a run otherwise clean; 130 (143) interrupted by SIGINT (SIGTERM).\n",
	.aliases = aliases,
};

/* What a run of dpmstress does: its command line and the DPMFUZZ_*
 * environment. */
struct stress_options {
	const struct pm_variant *variant;	/* NULL until resolved */
	bool variant_given;	/* else a --replay or --find-schedule text's
				 * header names it */
	bool fix_given;		/* else that header's fix line, if any */
	const char *fix;
	uint64_t seed;
	long long iterations, duration;
	int max_devices;
	bool fixed_size;
	bool no_worker_limit;	/* DPMFUZZ_NO_WORKER_LIMIT=1 */
	enum engine_kind engine;
	int jobs;
	enum dpm_strategy_kind strategy;
	int pct_depth;
	unsigned int perturb;
	uint64_t time_scale;
	unsigned int watchdog_ms;
	const char *out_dir, *replay, *find_schedule;
	long long schedules, search;
	bool list_variants;
	bool bytes;
	bool print;
};

static struct stress_options cfg = {
	.fix = "none", .seed = 1, .iterations = 200, .max_devices = 32,
	.engine = ENGINE_THREADS, .jobs = 1, .strategy = STRAT_BYTES,
	.pct_depth = 3, .perturb = 4, .time_scale = 1, .watchdog_ms = 10000,
	.out_dir = ".", .search = 20000,
};
/* The DPMFUZZ_* environment (core/run/settings.h). */
static struct dpm_env env;
static struct run_opts opts;

/* A number option into *to; -1 (err set) when out of [lo, hi]. */
#define NUMBER(flag, lo, hi, to)                                              \
	do {                                                                  \
		long long n_;                                                 \
		if (cli_number(flag, arg, lo, hi, &n_, err, errlen))          \
			return -1;                                            \
		(to) = n_;                                                    \
	} while (0)

/* The command line into cfg: 0 to run, 1 to exit 0 (--help,
 * --version), -1 bad usage (err). */
static int parse_args(int argc, char **argv, char *err, size_t errlen)
{
	static const char *const engines[] = { "det", "threads", NULL };
	const char *arg;
	int c, k;

	while ((c = cli_next(&program, argc, argv, &arg, err, errlen)) != CLI_END) {
		switch (c) {
		case CLI_ERROR:
			return -1;
		case CLI_PRINTED:
			return 1;
		case OPT_VARIANT:
			cfg.variant_given = true;
			cfg.variant = variant_find(arg);
			if (!cfg.variant) {
				snprintf(err, errlen, "no variant '%s' (variants: %s)",
					 DPM_ESC(arg), variant_names());
				return -1;
			}
			break;
		case OPT_SEED:
			NUMBER("--seed", 0, 1LL << 62, cfg.seed);
			break;
		case OPT_ITERATIONS:
			NUMBER("--iterations", 1, 1LL << 40, cfg.iterations);
			break;
		case 't':
			if (cli_duration("--time", arg, 1, 720 * 3600, &cfg.duration, err, errlen))
				return -1;
			break;
		case 'n':
			NUMBER("--devices", 1, 10000000, cfg.max_devices);
			break;
		case OPT_FIXED_SIZE:
			cfg.fixed_size = true;
			break;
		case OPT_ENGINE:
			if ((k = cli_choice("--engine", arg, engines, err, errlen)) < 0)
				return -1;
			cfg.engine = k ? ENGINE_THREADS : ENGINE_DET;
			break;
		case OPT_FIX:
			cfg.fix = arg;
			cfg.fix_given = true;
			break;
		case 'j':
			NUMBER("--jobs", 1, 256, cfg.jobs);
			break;
		case OPT_STRATEGY:
			if ((k = cli_choice("--strategy", arg, dpm_strategy_names, err, errlen)) < 0)
				return -1;
			cfg.strategy = (enum dpm_strategy_kind)k;
			break;
		case OPT_PCT:
			NUMBER("--pct", 1, 17, cfg.pct_depth);
			cfg.strategy = STRAT_PCT;
			break;
		case OPT_PERTURB:
			NUMBER("--perturb", 0, 1 << 20, cfg.perturb);
			break;
		case OPT_TIME_SCALE:
			NUMBER("--time-scale", 0, 1000000, cfg.time_scale);
			break;
		case OPT_WATCHDOG:
			NUMBER("--watchdog", 10, 3600000, cfg.watchdog_ms);
			break;
		case 'o':
			if (cli_path("--out", arg, err, errlen))
				return -1;
			cfg.out_dir = arg;
			break;
		case OPT_REPLAY:
			if (cli_path("--replay", arg, err, errlen))
				return -1;
			cfg.replay = arg;
			break;
		case OPT_SCHEDULES:
			NUMBER("--schedules", 0, 1LL << 40, cfg.schedules);
			break;
		case OPT_SEARCH:
			NUMBER("--search", 0, 1LL << 40, cfg.search);
			break;
		case OPT_FIND_SCHEDULE:
			if (cli_path("--find-schedule", arg, err, errlen))
				return -1;
			cfg.find_schedule = arg;
			break;
		case OPT_BYTES:
			cfg.bytes = true;
			break;
		case OPT_LIST_VARIANTS:
			cfg.list_variants = true;
			break;
		case OPT_PRINT:
			cfg.print = true;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (dpmstress --help lists the options)",
			 DPM_ESC(argv[optind]));
		return -1;
	}
	return 0;
}

/* ---- det strategies (core/sched/strategy.h) ---- */
static struct dpm_strategy st;

/* ---- reporting ---- */
static struct stress_sum {
	long long scenarios, transitions, violations, race_scenarios;
	long long by_id[NR_INV];
	double seconds;
	int interrupted;	/* the signal that stopped the share, else 0 */
	bool write_failed;	/* a finding's scenario file was not written */
} sum;

static char last_file[4096];
/* A --jobs worker: its pipe to the parent; -1 in the parent or alone. */
static int job_fd = -1;
/* When this process's share (or --replay) started. */
static double share_start;

/* The knobs on, as --fix takes them ("none" for none). */
static const char *fixes_spelled(void)
{
	static char fixes[KNOBS_TEXT_MAX];

	knobs_format(cfg.variant, opts.fixes, fixes, sizeof(fixes));
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

	if (cfg.engine == ENGINE_DET && opts.choose) {
		/* The strategy's choices become the schedule bytes. */
		copy.sched = st.rec;
		copy.nsched = st.nrec;
		copy.sched_by_task = false;
		if (!st.rec_exact)
			printf("dpmstress: a choice had more than 256 candidates: the saved schedule may not replay exactly\n");
	}
	snprintf(copy.variant, sizeof(copy.variant), "%s", cfg.variant->name);
	snprintf(copy.fixes, sizeof(copy.fixes), "%s", opts.fixes ? fixes_spelled() : "");
	snprintf(copy.expect, sizeof(copy.expect), "%s", expect ? expect : "");
	/* Named by variant too: two variants of one seed run the same
	 * scenarios, and their findings must not overwrite each other. */
	snprintf(last_file, sizeof(last_file), "%s/dpmstress-%s-%s-seed%llu-%llu.scenario",
		 cfg.out_dir, cfg.variant->name,
		 cfg.engine == ENGINE_DET ? "det" : "threads",
		 (unsigned long long)cfg.seed, (unsigned long long)index);
	char *txt = scenario_print(&copy);
	struct cli_out out;
	char err[1024];

	bool ok = cli_out_open(&out, last_file, false, err, sizeof(err));

	if (ok) {
		/* A write error stays in the stream: the commit says it. */
		fputs(comment, out.f);
		fputs(txt, out.f);
		ok = !cli_out_commit(&out, err, sizeof(err));
	}
	if (!ok) {
		fflush(stdout);
		cli_say(program.name, "%s", err);
		sum.write_failed = true;
		last_file[0] = '\0';
	}
	free(txt);
	if (last_file[0])
		printf("dpmstress: scenario %llu written to %s\n",
		       (unsigned long long)index, last_file);
	else
		printf("dpmstress: scenario %llu not written (above), so nothing reproduces it\n",
		       (unsigned long long)index);
}

#define REPRODUCE "--- reproduce: "

/* The command that reruns the file on real threads until it shows again. */
static void print_threads_replay(const char *lead, const char *file,
				 long long times)
{
	printf("%sdpmstress --engine threads --variant %s --fix %s --replay %s --iterations %lld\n",
	       lead, cfg.variant->name, fixes_spelled(), file, times);
}

/* The command that shows it on the det engine: schedule k of the search. */
static void print_dpmrepro(const char *file, long k, const char *note)
{
	printf(REPRODUCE "dpmrepro --variant %s --fix %s", cfg.variant->name,
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
	char *args[] = { "dpmstress", "--variant", (char *)cfg.variant->name,
			 "--fix", (char *)fixes_spelled(), "--search", n,
			 "--find-schedule", (char *)file, NULL };
	extern char **environ;
	pid_t pid;
	int rc, status;

	snprintf(n, sizeof(n), "%lld", cfg.search);
	if (!cfg.search) {
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
	if (!last_file[0]) {
		if (r->id == INV_LIVENESS && cfg.engine == ENGINE_THREADS)
			printf("dpmstress: the watchdog ended the run (exit %d)\n",
			       DPM_EXIT_LIVENESS);
	} else if (cfg.engine == ENGINE_DET) {
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
 * summary passes through.  It runs inside the sanitizer's report
 * (util/race_summary.h: nothing instrumented).
 */
static volatile int races;

DPM_UNINSTRUMENTED void __sanitizer_report_error_summary(const char *summary)
{
	dpm_race_summary(summary, &races);
}

static void report_race(const struct scenario *s, uint64_t index)
{
	fflush(stderr);
	printf("dpmstress: ThreadSanitizer reported a data race (above) in scenario %llu\n",
	       (unsigned long long)index);
	save_scenario(s, index, NULL,
		      "# ThreadSanitizer reported a data race in this scenario\n");
	if (!last_file[0]) {
		fflush(stdout);
		return;		/* not written, and said so */
	}
	if (cfg.engine == ENGINE_THREADS) {
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
	/* The engine ends the process next (exit 1 or 3): a write error
	 * (a worker's stdout is its parent's to check) comes first. */
	fflush(stderr);
	if (sum.write_failed || (job_fd < 0 && cli_stdout_failed(program.name)))
		_exit(CLI_EXIT_WRITE);
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
	if (cfg.engine == ENGINE_DET) {
		opts.choose = dpm_strategy_start(&st, cfg.strategy,
						 cfg.seed ^ (index * 0x2545f4914f6cdd1dULL),
						 cfg.pct_depth, s);
		opts.choose_ctx = &st;
	}
	dpm_run(s, &opts, &r);
	if (r.interrupted)
		return false;	/* cut short: not counted */
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
	/* Interrupted: the scenarios that ended, the one cut short not. */
	if (sum.interrupted)
		printf(" (interrupted by %s)", cli_signal_name(sum.interrupted));
	printf("\n");
	fflush(stdout);
}

/* This process's exit status, after its summary. */
static int status(void)
{
	return sum.interrupted ? 128 + sum.interrupted :
	       sum.write_failed ? CLI_EXIT_WRITE : sum.violations ? 1 : 0;
}

/* A --jobs worker's counts to its parent, which prints the summary. */
static void send_sum(void)
{
	if (write(job_fd, &sum, sizeof(sum)) != sizeof(sum))
		_exit(CLI_EXIT_WRITE);
}

/*
 * Threads: a stop asked for while a run's tasks are live.  They cannot
 * be unwound, so the process ends here with what it has (the run in
 * progress not counted): a worker sends its counts, a lone process
 * prints the summary.
 */
static __attribute__((noreturn)) void on_interrupt(int sig)
{
	sum.interrupted = sig;
	sum.seconds = now_s() - share_start;
	if (job_fd >= 0) {
		send_sum();
		_exit(128 + sig);
	}
	print_summary();
	fflush(stderr);
	_exit(cli_stdout_failed(program.name) ? CLI_EXIT_WRITE : 128 + sig);
}

/* The generator of the variant's scenarios: what its kernel has. */
static struct scn_generator generator(void)
{
	return (struct scn_generator){
		.seed = cfg.seed, .max_devices = cfg.max_devices,
		.fixed_size = cfg.fixed_size,
		.no_worker_limit = cfg.no_worker_limit,
		.links = cfg.variant->features & VF_LINKS,
		.rpm = cfg.variant->features & VF_DIRECT_COMPLETE,
		.pm_wait = cfg.variant->features & VF_PM_WAIT,
		.kernel_fields = cfg.variant->features & (VF_TRANSITIONS | VF_PM_STACK),
	};
}

/* --print: the --iterations scenarios as text, each with the variant
 * and the knobs in its header, none run. */
static int do_print(void)
{
	struct scn_generator g = generator();

	for (long long i = 0; i < cfg.iterations; i++) {
		struct scenario s;

		scenario_generate(&g, (uint64_t)i, &s);
		snprintf(s.variant, sizeof(s.variant), "%s", cfg.variant->name);
		snprintf(s.fixes, sizeof(s.fixes), "%s", opts.fixes ? fixes_spelled() : "");
		char *txt = scenario_print(&s);

		printf("# dpmstress --variant %s --seed %llu: scenario %lld\n%s",
		       cfg.variant->name, (unsigned long long)cfg.seed, i, txt);
		free(txt);
		scenario_free(&s);
	}
	return cli_stdout_failed(program.name) ? CLI_EXIT_WRITE : 0;
}

/* ---- one worker's share: scenarios index = job, job + jobs, ... ---- */
static void run_share(int job)
{
	double start = now_s(), last = start;

	share_start = start;
	for (long long i = job; i < cfg.iterations || cfg.duration; i += cfg.jobs) {
		double t = now_s();

		if (cfg.duration && t - start >= (double)cfg.duration)
			break;
		/* A finding not written (a full disk): no point in going on. */
		if (dpm_interrupted() || sum.write_failed)
			break;
		if (t - last >= 5.0) {
			last = t;
			fprintf(stderr, "dpmstress: [job %d] %lld scenarios, %lld violations, %.0f s\n",
				job, sum.scenarios, sum.violations, t - start);
		}
		struct scenario s;
		struct scn_generator g = generator();

		scenario_generate(&g, (uint64_t)i, &s);
		run_one(&s, (uint64_t)i);
		scenario_free(&s);
	}
	sum.seconds = now_s() - start;
	sum.interrupted = dpm_interrupted();
}

/* A scenario file, read as dpmrepro reads it (core/run/replay.c): 0, or
 * -1 with "FLAG: reason" in err. */
static int load(const char *flag, const char *path, struct scenario *s,
		char *err, size_t errlen)
{
	char e[512];
	bool text;

	if (dpm_load_file(path, &env.limits, cfg.bytes, s, &text, e, sizeof(e))) {
		snprintf(err, errlen, "%s: %s", flag, e);
		return -1;
	}
	return 0;
}

/*
 * --find-schedule FILE: dpmrepro's schedule search (the scenario's own
 * schedule, then --search N others) for the invariant of FILE's 'expect'
 * line; prints the end of a threads finding's report: the dpmrepro
 * command that shows it, exit 0, or that none does, exit 1.
 */
static int do_find_schedule(struct scenario s, const char *file)
{
	static struct run_result r;
	int want;
	long k;

	want = dpm_expected(&s);
	opts.engine = ENGINE_DET;
	opts.choose = NULL;
	opts.on_fatal = NULL;
	k = dpm_schedule_search(&s, &opts, cfg.search, want, &r);
	scenario_free(&s);
	if (r.interrupted) {
		cli_say(program.name, "interrupted by %s: the det schedule search stopped",
			cli_signal_name(dpm_interrupted()));
		return cli_interrupt_status();
	}
	if (k < 0) {
		printf("dpmstress: neither the scenario's own det schedule nor %lld more of dpmrepro's search show %s, so no dpmrepro command reproduces it (a longer det search: dpmstress --engine det --variant %s --fix %s --replay %s --strategy pct --schedules 100000); it replays on real threads:\n",
		       cfg.search, want < 0 ? "a violation" : inv_name(want),
		       cfg.variant->name, fixes_spelled(), file);
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

	share_start = start;
	if (cfg.engine == ENGINE_THREADS) {
		for (long long i = 0; i < cfg.iterations && !dpm_interrupted(); i++)
			if (run_one(&s, (uint64_t)i))
				break;
	} else {
		/* As written first, then other schedules. */
		enum dpm_strategy_kind saved = cfg.strategy;

		cfg.strategy = STRAT_BYTES;
		bool bad = run_one(&s, 0);

		cfg.strategy = saved == STRAT_BYTES ? STRAT_RANDOM : saved;
		for (long long k = 1; !bad && k <= cfg.schedules && !dpm_interrupted(); k++) {
			/* The strategy's choices, written back as bytes, so
			 * the saved scenario replays on its own. */
			bad = run_one(&s, (uint64_t)k);
		}
	}
	sum.seconds = now_s() - start;
	sum.interrupted = dpm_interrupted();
	print_summary();
	scenario_free(&s);
	return status();
}

/*
 * --out: a directory this process can create files in, tried with a
 * temporary file (as root, permissions say nothing): 0, or -1 with err.
 * So an unwritable --out is bad usage before anything runs.
 */
static int check_out_dir(char *err, size_t errlen)
{
	struct stat st;
	struct cli_out o;
	char probe[4200], e[600];
	int why = stat(cfg.out_dir, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;

	snprintf(probe, sizeof(probe), "%.4000s/dpmstress-probe", cfg.out_dir);
	if (!why && !cli_out_open(&o, probe, false, e, sizeof(e)))
		why = errno;
	if (why) {
		snprintf(err, errlen, "--out %s: not a directory it can write to (%s)",
			 DPM_ESC(cfg.out_dir), strerror(why));
		return -1;
	}
	cli_out_abort(&o);
	return 0;
}

/*
 * The options checked against their files and the registry, into opts:
 * the variant (--variant, else a --replay text's header, else seed), the
 * knobs, the --replay or --find-schedule file.  0, or -1 with err.
 */
static int resolve(struct scenario *find, char *err, size_t errlen)
{
	const char *bad;
	size_t bl;

	if (dpm_env_read(&env, err, errlen))
		return -1;
	if (!cfg.variant)
		cfg.variant = variant_find("seed");
	dpm_env_variant(&env, cfg.variant);
	/* A --replay or --find-schedule text names its variant and knobs
	 * in its header, as dpmrepro reads them; the options win. */
	const struct scenario *file = NULL;
	const char *path = NULL;

	if (cfg.replay) {
		if (load("--replay", cfg.replay, &replay_scn, err, errlen))
			return -1;
		file = &replay_scn;
		path = cfg.replay;
	}
	if (cfg.find_schedule) {
		if (load("--find-schedule", cfg.find_schedule, find, err, errlen))
			return -1;
		file = find;
		path = cfg.find_schedule;
	}
	if (file && !cfg.variant_given && file->variant[0]) {
		if (!(cfg.variant = variant_find(file->variant))) {
			snprintf(err, errlen, "%s: no variant '%s' (variants: %s)",
				 DPM_ESC(path), DPM_ESC(file->variant),
				 variant_names());
			return -1;
		}
		dpm_env_variant(&env, cfg.variant);
	}
	cfg.no_worker_limit = env.limits.no_worker_limit;
	if (file && !cfg.fix_given && file->fixes[0]) {
		if (knobs_parse(cfg.variant, file->fixes, &opts.fixes, &bad, &bl) < 0) {
			snprintf(err, errlen, "%s: no knob '%s' in variant %s (dpmstress --fix list --variant %s shows them)",
				 DPM_ESC(path), DPM_ESCN(bad, bl), cfg.variant->name,
				 cfg.variant->name);
			return -1;
		}
	} else if (knobs_parse(cfg.variant, cfg.fix, &opts.fixes, &bad, &bl) < 0) {
		snprintf(err, errlen, "--fix: no knob '%s' in this variant (dpmstress --fix list shows them)",
			 DPM_ESCN(bad, bl));
		return -1;
	}
	if (!cfg.find_schedule && check_out_dir(err, errlen))
		return -1;
	opts.variant = cfg.variant;
	opts.engine = cfg.engine;
	opts.threads.seed = cfg.seed;
	opts.threads.perturb = cfg.perturb;
	opts.threads.ns_per_virtual_us = cfg.time_scale;
	opts.threads.watchdog_ms = cfg.watchdog_ms;
	opts.threads.on_interrupt = on_interrupt;
	opts.on_fatal = on_fatal;
	return 0;
}

/* A --jobs worker, forked (tools/pool.c): never outlive the parent,
 * which passes signals on: SIGTERM when it dies (if it died already,
 * now), one flag for two signals. */
static void job_init(pid_t parent, void *ctx)
{
	(void)ctx;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		raise(SIGTERM);
	cli_catch_signals(program.name, CLI_SIG_STOP_WORKER);
}

/* Share j of the scenarios, its counts to the parent. */
static int job(long j, FILE *out, void *ctx)
{
	(void)ctx;
	job_fd = fileno(out);
	run_share((int)j);
	send_sum();
	return sum.interrupted ? 128 + sum.interrupted : sum.violations ? 1 : 0;
}

/* The counts of every worker, as they arrive. */
struct totals {
	long long by[NR_INV], scenarios, transitions, violations;
	double seconds;
	int interrupted;
	bool write_failed;
};

/* A worker's counts; none from one that died. */
static int collect(long j, FILE *in, void *ctx)
{
	struct stress_sum w;
	struct totals *t = ctx;

	(void)j;
	if (fread(&w, sizeof(w), 1, in) != 1)
		return 0;
	t->scenarios += w.scenarios;
	t->transitions += w.transitions;
	t->violations += w.violations;
	for (int k = 0; k < NR_INV; k++)
		t->by[k] += w.by_id[k];
	if (w.seconds > t->seconds)
		t->seconds = w.seconds;
	if (!t->interrupted && w.interrupted)
		t->interrupted = w.interrupted;
	t->write_failed |= w.write_failed;
	return 0;
}

/*
 * J processes, each its share (tools/pool.c); this one prints the
 * summary of them all.  A signal to this process (SIGINT from a
 * terminal reaches the workers too) is passed on to the workers, which
 * stop and send what they have.
 */
static int run_jobs(void)
{
	struct totals t = { 0 };
	const struct worker_pool pool = {
		.prog = program.name, .jobs = cfg.jobs, .ntasks = cfg.jobs,
		.worker_init = job_init, .run = job, .collect = collect,
		.forward_signals = true, .ctx = &t,
	};
	int sig, worst = pool_run(&pool, &sig);

	if (!sig)
		sig = t.interrupted;
	memset(&sum, 0, sizeof(sum));
	sum.scenarios = t.scenarios;
	sum.transitions = t.transitions;
	sum.violations = t.violations;
	sum.seconds = t.seconds;
	sum.interrupted = sig;
	sum.write_failed = t.write_failed;
	memcpy(sum.by_id, t.by, sizeof(t.by));
	print_summary();
	return sig ? 128 + sig : worst ? worst : status();
}

/* What main() does; its result is main()'s, less the end (cli_finish()). */
static int run_main(int argc, char **argv)
{
	struct scenario find;
	char err[1024];
	int rc = parse_args(argc, argv, err, sizeof(err));

	if (rc > 0)
		return 0;
	if (rc == 0 && cfg.list_variants) {
		variants_list(stdout);
		return 0;
	}
	if (rc == 0 && !strcmp(cfg.fix, "list")) {
		knobs_list(cfg.variant ? cfg.variant : variant_find("seed"), stdout);
		return 0;
	}
	if (rc == 0)
		rc = resolve(&find, err, sizeof(err));
	if (rc < 0) {
		cli_say(program.name, "%s", err);
		return 2;
	}
	if (cfg.find_schedule)
		return do_find_schedule(find, cfg.find_schedule);
	if (cfg.print)
		return do_print();
	char fixes[KNOBS_TEXT_MAX];

	knobs_format(cfg.variant, opts.fixes, fixes, sizeof(fixes));
	printf("dpmstress: variant %s, fixes %s, engine %s, strategy %s, seed %llu, %s %lld, devices <= %d%s, jobs %d\n",
	       cfg.variant->name, fixes, cfg.engine == ENGINE_DET ? "det" : "threads",
	       cfg.engine == ENGINE_DET ? dpm_strategy_name(cfg.strategy) : "perturbed",
	       (unsigned long long)cfg.seed, cfg.duration ? "seconds" : "iterations",
	       cfg.duration ? cfg.duration : cfg.iterations, cfg.max_devices,
	       cfg.fixed_size ? " (fixed)" : "", cfg.jobs);
	/* Output that goes nowhere: no point in running. */
	if (cli_stdout_failed(program.name))
		return CLI_EXIT_WRITE;
	if (cfg.replay)
		return do_replay();
	if (cfg.jobs > 1)
		return run_jobs();
	run_share(0);
	print_summary();
	return status();
}

int main(int argc, char **argv)
{
	cli_catch_signals(program.name, CLI_SIG_STOP);
	return cli_finish(program.name, run_main(argc, argv));
}
