// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_exec: executions per second of the fuzz_seed workload, without
 * libFuzzer, on one core.  Inputs are generated from a fixed seed and
 * decoded with at most 16 devices (the benchmark size); each is
 * one full run (build the tree, the cycles, the oracle, teardown).
 *
 *   bench_exec [--runs N] [--devices MAX] [--fix all|none|LIST] [--show K]
 *
 * --show K prints the reports of the first K violations.
 *
 * Prints runs, seconds, executions per second, the share of runs with a
 * violation, and the peak RSS, so a leak shows as growth with --runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "run/run.h"
#include "run/settings.h"
#include "util/xorshift.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	return xorshift64(&rng);
}

int main(int argc, char **argv)
{
	long runs = 20000;
	int maxdev = 16;
	const char *fix = "all";
	int show = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atol(argv[++i]);
		else if (!strcmp(argv[i], "--devices") && i + 1 < argc)
			maxdev = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--show") && i + 1 < argc)
			show = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--fix") && i + 1 < argc)
			fix = argv[++i];
		else {
			fprintf(stderr, "bench_exec: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (runs <= 0 || maxdev <= 0) {
		fprintf(stderr, "bench_exec: --runs and --devices must be positive\n");
		return 2;
	}
	struct run_opts o = { .variant = variant_find("seed") };
	const char *bad;
	size_t badlen;

	if (knobs_parse(o.variant, fix, &o.fixes, &bad, &badlen) < 0) {
		fprintf(stderr, "bench_exec: unknown knob '%.*s'\n", (int)badlen, bad);
		return 2;
	}
	/* The fuzz targets' limits and schedule reading (settings.h). */
	struct scn_limits lim = {
		.max_devices = maxdev, .max_actions = 4, .max_cycles = 3,
		.sched_mode = DPM_SCHEDULE_BY_DEFAULT,
	};
	static struct run_result r;
	uint8_t buf[512];
	long violations = 0;
	struct timespec t0, t1, c0, c1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	for (long i = 0; i < runs; i++) {
		size_t len = 16 + next() % (sizeof(buf) - 16);

		for (size_t j = 0; j < len; j++)
			buf[j] = (uint8_t)next();
		struct scenario s;

		scenario_decode(buf, len, &lim, &s);
		dpm_run(&s, &o, &r);
		violations += r.violated;
		if (r.violated && show-- > 0)
			dpm_report(&s, &o, stdout, 60, NULL);
		scenario_free(&s);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	double sec = (double)(t1.tv_sec - t0.tv_sec) +
		     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* CPU time too: on a shared machine it compares like with like. */
	double cpu = (double)(c1.tv_sec - c0.tv_sec) +
		     (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("bench_exec: runs=%ld devices<=%d fix=%s seconds=%.3f exec/s=%.0f cpu_seconds=%.3f exec_per_cpu_s=%.0f violations=%ld maxrss_kb=%ld\n",
	       runs, maxdev, fix, sec, (double)runs / sec, cpu,
	       (double)runs / cpu, violations, ru.ru_maxrss);
	return 0;
}
