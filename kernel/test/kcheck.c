// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmk_check: the kernel variants' development harness.
 *
 *   dpmk_check [--tree VERSION] [--seed S] [--scenarios N] [--first I]
 *              [--engine det|threads] [--max-devices N] [--no-removals]
 *              [--replay I] [--tail N] [--perturb N] [--any-order]
 *              [--sso-backward] [--kv5] [--kv6] [--kv7] [--kv8]
 *              [--inline-jobs] [--strict]
 *              [--events] [--quiet]
 *
 * For every registered kernel tree (or the one --tree names), scenarios
 * I .. I+N-1 of seed S (kgen.c: random device trees with async flags,
 * callback levels and errors, DPM flags, syscore, driverless and
 * no-PM devices, device links with their flags, runtime-suspended
 * devices, wake-up events, late registration, removals from callbacks,
 * releases and hotplug tasks, power/async writes, every transition)
 * run as the kernel would run them: setup, the cycles, teardown, inside
 * one det engine run with the scenario's schedule bytes (or on the
 * threads engine).  The checker (kchecker.c) judges every event.
 *
 * The end invariant: no checker violation, no engine deadlock or step
 * limit, every run's teardown frees every device.  The known findings of
 * docs/kernel.md (KV-2, KV-3, KV-4) are counted, not reported, unless
 * --strict; the scenarios of KV-1, KV-5 and KV-6 are made only when asked
 * (--sso-backward, --kv5, --kv6), KV-7 and KV-8 show only when asked
 * (--kv7: no stand-in for complete_all(); --kv8: worker limits on trees
 * with the 6.16+ scheme), and so are async allocation failures on a
 * tree whose jobs then run inline (struct dpmk_tree.inline_jobs: before
 * 7839d0078e0d such a job deadlocks under dpm_list_mtx; --inline-jobs).
 * On a violation the
 * scenario is printed, replayed with the run log on (the trace's tail),
 * and the command that replays it is printed; exit 1.  Exit 2: bad
 * usage.  Default: 1000 scenarios of seed 1 on the det engine, up to
 * 12 devices each.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/det.h"
#include "engine/threads.h"
#include "kapi/kapi.h"
#include "kcheck.h"

extern const struct dpmk_tree *const kc_trees[];

static struct {
	const char *tree;
	uint64_t seed;
	long scenarios, first, replay;
	bool threads, quiet, any_order, inline_jobs, kv7, kv8;
	int tail, perturb;
	struct kc_gen_opts gen;
} opt = { NULL, 1, 1000, 0, -1, false, false, false, false, false, false, 60, 4, { 12, false, false, false, false } };

static void usage(FILE *f)
{
	fputs("usage: dpmk_check [--tree VERSION] [--seed S] [--scenarios N] [--first I]\n"
	      "                  [--engine det|threads] [--max-devices N] [--no-removals]\n"
	      "                  [--replay I] [--tail N] [--perturb N] [--any-order]\n"
	      "                  [--sso-backward] [--kv5] [--kv6] [--kv7] [--kv8]\n"
	      "                  [--inline-jobs] [--strict]\n"
	      "                  [--events] [--quiet]\n"
	      "Runs random scenarios on the kernel variants and checks the events.\n"
	      "  --tree VERSION    only this tree (default: every registered tree)\n"
	      "  --seed S          scenario seed (default 1)\n"
	      "  --scenarios N     scenarios per tree (default 1000)\n"
	      "  --first I         index of the first scenario (default 0)\n"
	      "  --engine E        det (default) or threads\n"
	      "  --max-devices N   devices per scenario, 1..32 (default 12)\n"
	      "  --no-removals     no hotplug or callback removals\n"
	      "  --replay I        run scenario I alone with the log, print it and its trace\n"
	      "  --tail N          trace lines in a report (default 60; 0: all)\n"
	      "  --perturb N       threads engine: yield at 1 scheduling point in N (default 4)\n"
	      "  --any-order       async jobs beyond the worker limit start in any order\n"
	      "                    (default: queue order, as one workqueue pool activates them)\n"
	      "  --sso-backward    SYNC_STATE_ONLY links against dpm_list order (finding KV-1)\n"
	      "  --kv5             removals of devices with children too (finding KV-5)\n"
	      "  --kv6             async no-PM devices too (finding KV-6)\n"
	      "  --kv7             no stand-in for a new device's complete_all() (finding KV-7)\n"
	      "  --kv8             worker limits on trees with the 6.16+ scheme (finding KV-8)\n"
	      "  --inline-jobs     async allocation failures on trees whose jobs then run\n"
	      "                    inline too (before 7839d0078e0d: a deadlock)\n"
	      "  --strict          the known findings of docs/kernel.md are violations too\n"
	      "  --events          every event in the trace too\n"
	      "  --quiet           no progress lines\n"
	      "Registered trees:", f);
	for (int i = 0; kc_trees[i]; i++)
		fprintf(f, " %s", kc_trees[i]->version);
	fputs(kc_trees[0] ? "\n" : " none (scripts/kernel-trees, then reconfigure)\n", f);
}

static long long num(const char *flag, const char *v, long long lo, long long hi)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v ? v : "", &end, 0);
	if (!v || !*v || *end || errno || n < lo || n > hi) {
		fprintf(stderr, "dpmk_check: %s wants a number from %lld to %lld\n", flag, lo, hi);
		exit(2);
	}
	return n;
}

/* ---- one run ---- */

static const struct dpmk_tree *tree;
static struct kc_scenario scn;
static long current_idx = -1;		/* the scenario running */

struct hotplug {
	const struct kc_action *a;
	struct completion done;
};
static struct hotplug hp[KC_MAX_ACT];

static void hotplug_task(void *arg)
{
	struct hotplug *h = arg;
	uint64_t at = (uint64_t)h->a->at_us * 1000, now = dpm_eng->now();

	if (at > now)
		dpm_eng->delay(at - now);
	tree->unregister(h->a->dev);
	complete_all(&h->done);
}

static void emit(int kind, int err, long long a)
{
	struct dpm_event ev = { kind, -1, -1, err, a, 0, NULL };

	dpm_publish(&ev);
}

static void pm_main(void *arg)
{
	int err = tree->setup(&scn.s);

	if (err) {
		kc_check_fail("SETUP: the tree refused the scenario (%d)", err);
		return;
	}
	for (int i = 0; i < scn.nact; i++) {
		char name[32];

		if (scn.act[i].kind)
			continue;
		hp[i].a = &scn.act[i];
		init_completion(&hp[i].done);
		snprintf(name, sizeof(name), "hotplug/%d", i);
		dpm_eng->spawn(hotplug_task, &hp[i], name);
	}
	for (int c = 0; c < scn.cycles; c++) {
		/* User space runs between two transitions. */
		if (c)
			dpm_eng->delay(1000);
		for (int i = 0; i < scn.nact; i++) {
			const struct kc_action *a = &scn.act[i];

			if (a->kind == 1 && a->cycle == c) {
				long r = tree->async_store(a->dev, a->text, a->len);

				pr_info("echo \"%.*s\" > dev%d/power/async: %ld", a->len,
					a->text, a->dev, r);
			}
		}
		emit(EV_TRANSITION_BEGIN, 0, c);
		err = tree->cycle(c);
		emit(EV_TRANSITION_END, err, c);
	}
	for (int i = 0; i < scn.nact; i++)
		if (!scn.act[i].kind)
			wait_for_completion(&hp[i].done);
	tree->teardown();
}

static char liveness[4096];

static void describe_unfinished(struct det_task_info *t, int n)
{
	size_t at = 0;

	at += snprintf(liveness + at, sizeof(liveness) - at,
		       "LIVENESS: the run never ends; unfinished tasks:");
	for (int i = 0; i < n && at < sizeof(liveness) - 200; i++) {
		char what[160] = "";

		static const char *const kinds[] = {
			"nothing", "a completion", "a mutex", "a semaphore",
			"an rwsem (read)", "an rwsem (write)",
			"async_synchronize_full()", "a free async worker",
		};

		if (t[i].obj && !tree->describe(t[i].obj, what, sizeof(what)))
			snprintf(what, sizeof(what), "%s (%p)",
				 (unsigned)t[i].kind < 8 ? kinds[t[i].kind] : "?", t[i].obj);
		at += snprintf(liveness + at, sizeof(liveness) - at,
			       "\n    task '%s' %s%s", t[i].name,
			       t[i].sleeping ? "sleeps" :
			       t[i].kind == WAIT_NONE ? "is runnable" : "waits for ",
			       t[i].kind == WAIT_NONE ? "" : what);
	}
}

/*
 * Finding KV-4 (docs/kernel.md): on 6.12 a device removed while a
 * resume phase starts can be left with its power.completion not done
 * (device_pm_remove() completes it before taking dpm_list_mtx, the
 * phase's first loop reinitialises it under the mutex, and nobody
 * handles the device after that), and whoever waits for it hangs.  A
 * deadlock where some task waits for the completion of a removed device
 * is that; counted unless --strict.
 */
static bool waits_for_removed(struct det_task_info *t, int n)
{
	for (int i = 0; i < n; i++) {
		char what[160], name[64];

		if (t[i].kind != WAIT_COMPLETION || !t[i].obj ||
		    !tree->describe(t[i].obj, what, sizeof(what)) ||
		    sscanf(what, "the power.completion of '%63[^']'", name) != 1)
			continue;
		if (kc_check_gone(name))
			return true;
	}
	return false;
}

/* The command line that runs scenario idx again, alone. */
static void kc_reproduce(FILE *f, long idx)
{
	fprintf(f, "--- reproduce: dpmk_check --tree %s --seed %llu --max-devices %d%s%s%s%s%s%s%s%s%s%s --replay %ld\n",
		tree->version, (unsigned long long)opt.seed, opt.gen.max_dev,
		opt.threads ? " --engine threads" : "",
		kc_strict ? " --strict" : "", opt.gen.kv5 ? " --kv5" : "",
		opt.gen.kv6 ? " --kv6" : "", opt.kv7 ? " --kv7" : "",
		opt.kv8 ? " --kv8" : "",
		opt.gen.no_removals ? " --no-removals" : "",
		opt.gen.sso_backward ? " --sso-backward" : "",
		opt.any_order ? " --any-order" : "",
		opt.inline_jobs ? " --inline-jobs" : "", idx);
}

static void threads_violation(void)
{
	printf("dpmk_check: VIOLATION %s\n--- kernel %s, engine threads, seed %llu\n",
	       kc_check_violation() ? kc_check_violation() : "?", tree->version,
	       (unsigned long long)opt.seed);
	kc_print(&scn, tree->version, stdout);
	kc_reproduce(stdout, current_idx);
}

static void threads_watchdog(void)
{
	struct det_task_info t[64];

	describe_unfinished(t, threads_unfinished(t, 64));
	printf("dpmk_check: VIOLATION %s\n", liveness);
	kc_print(&scn, tree->version, stdout);
}

static uint64_t scenario_seed(long idx)
{
	uint64_t s = opt.seed ^ ((uint64_t)idx * 0xd1342543de82ef95ULL);

	return s ? s : 1;
}

/* Scenario idx for this tree: without --inline-jobs, no allocation
 * failure where a job would run inline; without --kv8 no worker limit
 * for the 6.16+ scheme; without --kv7 KV-7's stand-in. */
static void generate(long idx)
{
	kc_generate(scenario_seed(idx), &opt.gen, &scn);
	if (tree->inline_jobs && !opt.inline_jobs)
		scn.inline_every = 0;
	if (tree->async_early && !opt.kv8)
		scn.worker_limit = 0;
	scn.s.fixes = tree->init_complete_once && !opt.kv7 ?
		      DPMK_FIX_INIT_COMPLETE_ALL : 0;
}

/* One scenario; the violation, or NULL. */
static const char *run_one(bool log)
{
	struct async_config ac = { scn.inline_every, scn.worker_limit, opt.any_order };
	enum det_outcome out;
	struct det_stats st;

	dpm_log_enabled = log;
	dpm_log_reset();
	kc_check_reset(&scn);
	kc_check_listen();
	async_reset(&ac);
	if (opt.threads) {
		struct threads_config tc = {
			.seed = opt.seed, .perturb = (unsigned)opt.perturb,
			.ns_per_virtual_us = 1, .watchdog_ms = 20000,
			.on_watchdog = threads_watchdog,
			.on_violation = threads_violation,
		};

		out = threads_run(pm_main, NULL, &tc, &st);
		dpm_eng = &det_engine;
	} else {
		struct det_config dc = {
			.sched = scn.sched, .nsched = (size_t)scn.nsched,
			.step_limit = 200000 + 20000ULL * scn.s.ndev * scn.cycles,
		};

		out = det_run(pm_main, NULL, &dc, &st);
	}
	if (out == DET_DEADLOCK || out == DET_STEP_LIMIT) {
		struct det_task_info t[64];
		int n = det_unfinished(t, 64);

		describe_unfinished(t, n);
		if (out == DET_STEP_LIMIT)
			strcat(liveness, "\n    (the step limit was reached: a livelock)");
		if (out == DET_DEADLOCK && !kc_strict && waits_for_removed(t, n))
			kc_stats.kv4++;
		else
			kc_check_fail("%s", liveness);
	}
	if (out != DET_DONE)
		tree->abandon();
	return kc_check_violation();
}

static void report(long idx, const char *v)
{
	char msg[2048];
	const char *log, *start;
	int lines = 0;

	snprintf(msg, sizeof(msg), "%s", v);
	printf("dpmk_check: VIOLATION %s\n--- kernel %s (%s), seed %llu, scenario %ld\n",
	       msg, tree->version, tree->main_c, (unsigned long long)opt.seed, idx);
	kc_print(&scn, tree->version, stdout);
	run_one(true);
	log = dpm_log_text();
	start = log + strlen(log);
	while (start > log) {
		start--;
		if (*start == '\n' && start[1] && opt.tail && ++lines > opt.tail) {
			start++;
			break;
		}
	}
	printf("--- trace (%s):\n%s", opt.tail ? "tail" : "all", start);
	kc_reproduce(stdout, idx);
}

/* What the scenarios exercised, and the known findings they showed. */
static void print_stats(void)
{
	if (opt.quiet)
		return;
	printf("  callbacks %ld; skips: no-callback %ld, runtime-suspended %ld, not-suspended %ld, aborting %ld, syscore %ld\n"
	       "  direct-complete %ld, direct-resume %ld, wake-up aborts %ld, removed %ld, freed %ld\n"
	       "  transitions %ld (%ld failed); known findings seen: KV-2 %ld, KV-3 %ld, KV-4 %ld\n",
	       kc_stats.callbacks, kc_stats.skips[SKIP_NO_CALLBACK],
	       kc_stats.skips[SKIP_RUNTIME_SUSPENDED], kc_stats.skips[SKIP_NOT_SUSPENDED],
	       kc_stats.skips[SKIP_ABORTING], kc_stats.skips[SKIP_SYSCORE],
	       kc_stats.direct_complete, kc_stats.direct_resume, kc_stats.wakeup_aborts,
	       kc_stats.gone, kc_stats.freed, kc_stats.transitions,
	       kc_stats.failed_transitions, kc_stats.kv2, kc_stats.kv3, kc_stats.kv4);
	memset(&kc_stats, 0, sizeof(kc_stats));
}

/* A sanitizer ends the process on its own report: say which run it was. */

void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void on_sanitizer_death(void)
{
	if (current_idx < 0 || !tree)
		return;
	fprintf(stderr, "--- dpmk_check: the sanitizer ended the process in or after kernel %s, seed %llu, scenario %ld\n",
		tree->version, (unsigned long long)opt.seed, current_idx);
	kc_print(&scn, tree->version, stderr);
	kc_reproduce(stderr, current_idx);
}

static bool tsan_build(void)
{
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
	return true;
#endif
#endif
#ifdef __SANITIZE_THREAD__
	return true;
#endif
	return false;
}

static int check_tree(void)
{
	struct timespec t0, t1;
	long done = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = opt.first; i < opt.first + opt.scenarios; i++) {
		const char *v;

		generate(i);
		current_idx = i;
		/* ThreadSanitizer reports a race and goes on: mark where. */
		if (opt.threads && tsan_build())
			fprintf(stderr, "dpmk_check: kernel %s scenario %ld\n", tree->version, i);
		v = run_one(false);
		done++;
		if (v) {
			report(i, v);
			return 1;
		}
		if (!opt.quiet && done % 10000 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			printf("  kernel %s: %ld scenarios clean (%.0f/s)\n", tree->version, done,
			       done / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
			fflush(stdout);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	printf("kernel %s: %ld scenarios clean on %s in %.1f s (%.0f/s)\n", tree->version,
	       done, opt.threads ? "threads" : "det", secs, done / (secs > 0 ? secs : 1));
	print_stats();
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0, ntrees = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--tree") && v) {
			opt.tree = v;
			i++;
		} else if (!strcmp(a, "--seed")) {
			opt.seed = (uint64_t)num(a, v, 0, INT64_MAX);
			i++;
		} else if (!strcmp(a, "--scenarios")) {
			opt.scenarios = num(a, v, 1, 1000000000);
			i++;
		} else if (!strcmp(a, "--first")) {
			opt.first = num(a, v, 0, 1000000000);
			i++;
		} else if (!strcmp(a, "--replay")) {
			opt.replay = num(a, v, 0, 2000000000);
			i++;
		} else if (!strcmp(a, "--max-devices")) {
			opt.gen.max_dev = (int)num(a, v, 1, KC_MAX_DEV);
			i++;
		} else if (!strcmp(a, "--tail")) {
			opt.tail = (int)num(a, v, 0, 1000000);
			i++;
		} else if (!strcmp(a, "--perturb")) {
			opt.perturb = (int)num(a, v, 0, 1000000);
			i++;
		} else if (!strcmp(a, "--engine") && v &&
			   (!strcmp(v, "det") || !strcmp(v, "threads"))) {
			opt.threads = !strcmp(v, "threads");
			i++;
		} else if (!strcmp(a, "--no-removals")) {
			opt.gen.no_removals = true;
		} else if (!strcmp(a, "--kv5")) {
			opt.gen.kv5 = true;
		} else if (!strcmp(a, "--kv7")) {
			opt.kv7 = true;
		} else if (!strcmp(a, "--kv8")) {
			opt.kv8 = true;
		} else if (!strcmp(a, "--kv6")) {
			opt.gen.kv6 = true;
		} else if (!strcmp(a, "--inline-jobs")) {
			opt.inline_jobs = true;
		} else if (!strcmp(a, "--strict")) {
			kc_strict = true;
		} else if (!strcmp(a, "--sso-backward")) {
			opt.gen.sso_backward = true;
		} else if (!strcmp(a, "--any-order")) {
			opt.any_order = true;
		} else if (!strcmp(a, "--events")) {
			kc_print_events = true;
		} else if (!strcmp(a, "--quiet")) {
			opt.quiet = true;
		} else {
			fprintf(stderr, "dpmk_check: bad argument '%s' (--help shows the usage)\n", a);
			return 2;
		}
	}
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(on_sanitizer_death);
	for (int i = 0; kc_trees[i]; i++) {
		if (opt.tree && strcmp(opt.tree, kc_trees[i]->version))
			continue;
		if (kc_trees[i]->abi != DPMK_ABI_VERSION) {
			fprintf(stderr, "dpmk_check: tree %s has ABI %d, not %d\n",
				kc_trees[i]->version, kc_trees[i]->abi, DPMK_ABI_VERSION);
			return 2;
		}
		tree = kc_trees[i];
		ntrees++;
		if (opt.replay >= 0) {
			const char *v;

			generate(opt.replay);
			current_idx = opt.replay;
			kc_print(&scn, tree->version, stdout);
			v = run_one(true);
			printf("--- trace:\n%s", dpm_log_text());
			printf("%s%s\n", v ? "dpmk_check: VIOLATION " : "dpmk_check: clean",
			       v ? v : "");
			bad |= v != NULL;
			continue;
		}
		bad |= check_tree();
	}
	if (!ntrees) {
		fprintf(stderr, "dpmk_check: %s\n", opt.tree ? "no such tree registered" :
			"no kernel tree registered (scripts/kernel-trees, then reconfigure)");
		return opt.tree ? 2 : 0;
	}
	return bad;
}
