/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One run: build the scenario's devices, run its suspend/resume cycles
 * and concurrent actions on the det engine, and let the oracle judge.
 */
#ifndef DPM_RUN_H
#define DPM_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "../oracle/oracle.h"
#include "../engine/det.h"
#include "../engine/threads.h"
#include "../scenario/scenario.h"
#include "../util/xalloc.h"
#include "../variants/variant.h"

enum engine_kind { ENGINE_DET, ENGINE_THREADS };

struct run_result;

/* Room for a run's violation message (a LIVENESS wait-for list is long). */
#define RUN_MSG_MAX 4096
/* Cycles whose suspend error a run result keeps. */
#define RUN_ERRORS_KEPT 4

struct run_opts {
	const struct pm_variant *variant;
	uint64_t fixes;
	bool log;		/* keep the run log (slower) */
	enum engine_kind engine;
	struct threads_config threads;	/* for ENGINE_THREADS */
	/* ENGINE_DET: a scheduling strategy instead of the schedule bytes
	 * (det_config.choose); NULL: the bytes. */
	int (*choose)(void *ctx, int n, const int *ids);
	void *choose_ctx;
	/* Interleaving feedback (fuzz targets): if set, every callback start
	 * and end bumps one of these counters, keyed by the phase, the device,
	 * the device whose callback ended last in the phase and how many
	 * callbacks run beside it: libFuzzer's extra counters, so an input
	 * that reaches a new interleaving is kept even with no new line
	 * (DPMFUZZ_INTERLEAVING=1 in the fuzz targets). */
	uint8_t *order_counters;
	size_t norder_counters;
	/* A listener on the event bus besides the oracle (fuzz_diff counts
	 * callbacks this way, dpmrepro --events writes them out); takes
	 * precedence over order_counters. */
	dpm_listener_fn event_hook;
	void *event_ctx;
	/* ENGINE_THREADS: a violation ends the process (its threads cannot
	 * be unwound); this is called first, with the result filled in. */
	void (*on_fatal)(const struct scenario *s, const struct run_result *r);
};

struct run_result {
	bool violated;
	/* dpm_interrupt (engine.h) ended the run before its end: its
	 * result says nothing (but a violation found before). */
	bool interrupted;
	enum inv id;
	char msg[RUN_MSG_MAX];	/* the violation, for LIVENESS the wait-for list */
	/* Known findings of a kernel tree the run showed and a waiver knob
	 * on accepted (struct knob.tolerates bits), and the first one's
	 * violation as it would have read (run_waivers() names them). */
	unsigned int waived;
	enum inv waived_id;
	char waived_msg[RUN_MSG_MAX];
	int errors[RUN_ERRORS_KEPT];	/* what each of the first cycles reported */
	uint64_t phase_ns[NR_PHASES];	/* virtual time per phase, 1st cycle */
	struct det_stats stats;
};

void dpm_run(const struct scenario *s, const struct run_opts *o,
	     struct run_result *r);

/* For a run without a violation that showed known findings (r->waived):
 *   dpmfuzz: KNOWN KV-3 (waiver kv3-dc-cleared): SKIP: <the violation>
 * on f, each finding named by its knob; nothing otherwise. */
void run_print_known(FILE *f, const struct pm_variant *v,
		     const struct run_result *r);

/* Where dpm_cut() puts what it changes: reused from call to call, grown
 * as needed; the caller frees devs and acts. */
struct cut_buf {
	struct scn_device *devs;
	int cap;
	struct scn_action *acts;
	int acap;
};

/*
 * s as a variant whose kernel has the features feat (VF_*) runs it: the
 * others left out, runtime-suspended only where children and consumers
 * are too.  *out shares s's schedule; its devices and actions are in
 * buf.
 */
void dpm_cut(const struct scenario *s, unsigned int feat, struct scenario *out,
	     struct cut_buf *buf);

/*
 * The report of a violation: replays the run with the log on and prints
 *   dpmfuzz: VIOLATION <ID>: <what>
 * then the scenario as text and the tail of the run log (at most
 * tail_lines lines; 0 = all).  Deterministic: the same input gives the
 * same bytes.  An interrupted replay prints nothing.  Returns whether the
 * replay showed the violation again;
 * the replay's result goes to *result unless it is NULL, and its events
 * stay available to the exporters (run_events()).
 */
bool dpm_report(const struct scenario *s, const struct run_opts *o,
		FILE *out, int tail_lines, struct run_result *result);

/* The scenario as text as o's variant runs it: what its kernel lacks
 * left out, what its rules settle settled (a no-PM parent's children need
 * no PM; a runtime-suspended device with an active child or consumer is
 * active), with the variant and knobs in its header.  Free it. */
char *dpm_scenario_as_run(const struct scenario *s, const struct run_opts *o);

/*
 * Scenario-level delta debugging: drop devices (leaves first), actions,
 * side actions, errors, cycles, schedule bytes; shorten durations; keep
 * every change after which the same invariant still fires.  s is changed
 * in place; returns the number of runs it took.  When dpm_interrupt is
 * set (engine.h) it stops, s being the smallest so far (still failing).
 */
long dpm_minimize(struct scenario *s, const struct run_opts *o, enum inv id);

/*
 * Run s once (with o's variant and knobs) and make its schedule the
 * choices that run made, by position: for a schedule read by task
 * (s->sched_by_task), so that what records and replays choices by
 * position (the minimiser) sees the same run.  false, s unchanged, when
 * s is not read by task, has no schedule bytes, or a choice had over 256
 * candidates.
 */
bool dpm_schedule_by_position(struct scenario *s, const struct run_opts *o);

/*
 * The events of the last run made with opts.log on, for trace export:
 * callback starts and ends, phases, releases (which task's complete or
 * unlock woke which), the waits of tasks that block (from the moment
 * they block to the moment they go on), device removals, and the
 * violation.
 */
enum tev_kind { TEV_START, TEV_END, TEV_VIOLATION, TEV_PHASE_BEGIN,
		TEV_PHASE_END, TEV_RELEASE,
		TEV_REMOVED,	/* dev: its removal began (EV_GONE), on the
				 * task that removes it; not the teardown's */
		TEV_BLOCK,	/* the task blocks (err: enum wait_kind; what:
				 * on what), until its TEV_UNBLOCK */
		TEV_UNBLOCK,	/* the task goes on after that wait */
};

struct tev {
	uint64_t ts;		/* virtual ns */
	int tid;		/* engine task id */
	enum tev_kind kind;
	int dev, phase, err;	/* err: error, violated ID, released tid,
				 * or wait kind */
	const char *what;	/* TEV_BLOCK: what the task waits for, in
				 * words; valid until the next logged run */
};

const struct tev *run_events(int *n);
/* The name of task tid as it was when it acted, or NULL. */
const char *run_task_name(int tid);

/* Chrome trace-event JSON (Perfetto loads it) of the last logged run:
 * one track per task, a slice per callback, flow arrows from a release
 * to the task it woke.  Returns 0, or -1 on a write error. */
int export_trace_json(const struct scenario *s, FILE *f);
/* One self-contained HTML page: the timeline (a row per task, a bar per
 * callback coloured by phase, the violation marked) and the device tree. */
int export_html(const struct scenario *s, const struct run_result *r, FILE *f);

#endif
