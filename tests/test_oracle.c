// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracle, invariant by invariant: a hand-written event sequence that
 * breaks the rule is reported with the rule's ID, and the nearest correct
 * sequence passes.  The tree: p (root) <- c <- g.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"
#include "engine/det.h"
#include "run/run.h"
#include "expect.h"
#include "run_text.h"

enum { P, C, G, X };

/* x (a root) is used by the modern tests only: p supplies x. */
static const char *names[4] = { "p", "c", "g", "x" };
static int parent[4] = { -1, P, C, -1 };

/* One oracle event: device, phase, kind. */
enum ek { START, END_OK, END_ERR, GONE, PBEGIN, PEND, TBEGIN, TEND_OK, TEND_ERR,
	  DC, DR, HANDLED, SKIP, WAKE, TEND_BUSY, ADDED, POS, PBEGIN_AS,
	  STARTF, FAILED, FSTEP, STARTB, SKIPB, RPM0, RPM1, FREED, LOCK, END_POS, RELINK,
	  PMWAIT, NOTSETUP };

struct ev {
	enum ek k;
	int dev;
	enum pm_phase ph;
	int a;			/* SKIP: enum pm_skip; POS: the position;
				 * PBEGIN_AS: 1 + enum pm_resume_kind;
				 * STARTF: EV_FACT_*; FSTEP: the failed
				 * step's phase, and ph the phase now;
				 * STARTB: EV_CB_FROM_*; SKIPB: enum
				 * pm_skip; RPM0, RPM1: the disable depth;
				 * LOCK: 1 if dpm_list_mtx was held;
				 * PMWAIT: the device waited for (the
				 * wait returns b) */
	long long b;		/* SKIPB: EV_SKIPF_*; RPM0, RPM1: 1 if
				 * runtime-suspended */
};

static const struct ev *evs;
static int nevs;

static void feed(void *arg)
{
	for (int i = 0; i < nevs; i++) {
		const struct ev *e = &evs[i];

		switch (e->k) {
		case START: dpm_emit(EV_CB_START, e->dev, e->ph, 0); break;
		case END_OK: dpm_emit(EV_CB_END, e->dev, e->ph, 0); break;
		case END_ERR: dpm_emit(EV_CB_END, e->dev, e->ph, -EIO); break;
		case END_POS: {		/* returned 1 (a prepare: direct_complete) */
			struct dpm_event ev = { EV_CB_END, e->dev, e->ph, 0, 1 };

			dpm_publish(&ev);
			break;
		}
		case GONE: dpm_emit(EV_GONE, e->dev, -1, 0); break;
		case PBEGIN: dpm_emit(EV_PHASE_BEGIN, -1, e->ph, 0); break;
		case PEND: dpm_emit(EV_PHASE_END, -1, e->ph, 0); break;
		case TBEGIN: dpm_emit(EV_TRANSITION_BEGIN, -1, -1, 0); break;
		case TEND_OK: dpm_emit(EV_TRANSITION_END, -1, -1, 0); break;
		case TEND_ERR: dpm_emit(EV_TRANSITION_END, -1, -1, -EIO); break;
		case DC: dpm_emit(EV_DIRECT_COMPLETE, e->dev, PH_SUSPEND, 0); break;
		case DR: dpm_emit(EV_DIRECT_RESUME, e->dev, PH_RESUME, 0); break;
		case HANDLED: dpm_emit(EV_HANDLED, e->dev, e->ph, 0); break;
		case SKIP: {
			struct dpm_event ev = { EV_SKIP, e->dev, e->ph, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		case WAKE: dpm_emit(EV_WAKEUP_ABORT, -1, -1, 0); break;
		case TEND_BUSY: dpm_emit(EV_TRANSITION_END, -1, -1, -EBUSY); break;
		case ADDED: dpm_emit(EV_ADDED, e->dev, -1, 0); break;
		case POS: {
			struct dpm_event ev = { EV_LIST_POS, e->dev, -1, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		case PBEGIN_AS: {
			struct dpm_event ev = { EV_PHASE_BEGIN, -1, e->ph, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		case STARTF: {
			struct dpm_event ev = { EV_CB_START, e->dev, e->ph, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		case FAILED: {
			struct dpm_event ev = { EV_FAILED_DEV, e->dev, e->ph, 0, 0,
						0, e->dev >= 0 ? names[e->dev] : "nobody" };

			dpm_publish(&ev);
			break;
		}
		case RELINK: dpm_emit(EV_RELINKED, e->dev, e->ph, 0); break;
		case PMWAIT: {
			struct dpm_event ev = { EV_PM_WAIT, e->dev, e->ph, (int)e->b, e->a };

			dpm_publish(&ev);
			break;
		}
		case NOTSETUP: {
			struct dpm_event ev = { EV_NOT_SET_UP, e->dev, e->ph, 0, 0, 0,
						"complete_all()" };

			dpm_publish(&ev);
			break;
		}
		case LOCK: {
			struct dpm_event ev = { EV_LOCKING, e->dev, e->ph, 0, e->a, 0,
						e->a ? "waits in async_synchronize_full()" :
						"changes a list (list_move)" };

			dpm_publish(&ev);
			break;
		}
		case FREED: {
			struct dpm_event ev = { EV_FREED, e->dev, -1, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		case SKIPB: {
			struct dpm_event ev = { EV_SKIP, e->dev, e->ph, 0, e->a, e->b };

			dpm_publish(&ev);
			break;
		}
		case RPM0:
		case RPM1: {
			struct dpm_event ev = { EV_RPM_STATE, e->dev, -1, e->k == RPM1, e->a, e->b };

			dpm_publish(&ev);
			break;
		}
		case STARTB: {
			struct dpm_event ev = { EV_CB_START, e->dev, e->ph, 0, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		case FSTEP: {
			struct dpm_event ev = { EV_FAILED_STEP, -1, e->ph, 0, e->a };

			dpm_publish(&ev);
			break;
		}
		}
	}
}

/* Runs the events; returns the violated invariant or -1. */
static struct oracle_config modern_cfg;	/* .ndev 0: the plain tree */

/* Knobs' tolerances (ORACLE_TOL_*) added to the next judge() calls. */
static unsigned int judge_tolerate;

static int judge(const struct ev *e, int n, bool async_possible)
{
	struct oracle_config cc = { 3, parent, names, async_possible, false };
	struct det_config dc = { NULL, 0, 100000 };

	if (modern_cfg.ndev)
		cc = modern_cfg;
	cc.tolerate |= judge_tolerate;
	oracle_reset(&cc);
	dpm_listen_none();
	dpm_listen(oracle_listener, NULL);
	evs = e;
	nevs = n;
	det_run(feed, NULL, &dc, NULL);
	return oracle_result()->violated ? (int)oracle_result()->id : -1;
}

#define ALL_PHASES 0xffu
#define JUDGE(arr, async) judge(arr, (int)(sizeof(arr) / sizeof(arr[0])), async)
#define CB(d, ph) { START, d, ph }, { END_OK, d, ph }
#define SK(d, ph, why) { SKIP, d, ph, why }

/* A whole correct transition, children first on suspend. */
static const struct ev good[] = {
	{ TBEGIN },
	{ PBEGIN, 0, PH_PREPARE }, CB(P, PH_PREPARE), CB(C, PH_PREPARE),
	CB(G, PH_PREPARE), { PEND, 0, PH_PREPARE },
	{ PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND), CB(C, PH_SUSPEND),
	CB(P, PH_SUSPEND), { PEND, 0, PH_SUSPEND },
	{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, CB(G, PH_SUSPEND_NOIRQ),
	CB(C, PH_SUSPEND_NOIRQ), CB(P, PH_SUSPEND_NOIRQ),
	{ PEND, 0, PH_SUSPEND_NOIRQ },
	{ PBEGIN, 0, PH_RESUME_NOIRQ }, CB(P, PH_RESUME_NOIRQ),
	CB(C, PH_RESUME_NOIRQ), CB(G, PH_RESUME_NOIRQ),
	{ PEND, 0, PH_RESUME_NOIRQ },
	{ PBEGIN, 0, PH_RESUME }, CB(P, PH_RESUME), CB(C, PH_RESUME),
	CB(G, PH_RESUME), { PEND, 0, PH_RESUME },
	{ PBEGIN, 0, PH_COMPLETE }, CB(G, PH_COMPLETE), CB(C, PH_COMPLETE),
	CB(P, PH_COMPLETE), { PEND, 0, PH_COMPLETE },
	{ TEND_OK },
};

static void test_good(void)
{
	EXPECT_EQ(JUDGE(good, false), -1);
	EXPECT_EQ(JUDGE(good, true), -1);
}

static void test_suspend_after_children(void)
{
	static const struct ev bad[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ START, P, PH_SUSPEND },	/* c has not suspended */
	};
	static const struct ev busy[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ START, C, PH_SUSPEND }, { START, P, PH_SUSPEND },
	};
	static const struct ev failed[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ START, C, PH_SUSPEND }, { END_ERR, C, PH_SUSPEND },
		{ START, P, PH_SUSPEND },	/* c failed: it is ON */
	};
	static const struct ev gone_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { GONE, G },
		{ GONE, C }, CB(P, PH_SUSPEND),	/* removed children are exempt */
	};
	EXPECT_EQ(JUDGE(bad, true), INV_SUSPEND_AFTER_CHILDREN);
	EXPECT_EQ(JUDGE(busy, true), INV_SUSPEND_AFTER_CHILDREN);
	EXPECT_EQ(JUDGE(failed, true), INV_SUSPEND_AFTER_CHILDREN);
	EXPECT_EQ(JUDGE(gone_ok, true), -1);
	JUDGE(bad, true);
	EXPECT_STR_EQ(oracle_result()->msg,
		      "child 'c' had not suspended when its parent 'p' started suspend");
}

static void test_resume_after_parent(void)
{
	static const struct ev bad[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_RESUME }, { START, C, PH_RESUME },
	};
	static const struct ev never_suspended[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_RESUME }, { START, P, PH_RESUME },
	};
	static const struct ev parent_not_suspended_ok[] = {
		/* c suspended, then p's suspend failed: c may resume */
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), { START, P, PH_SUSPEND },
		{ END_ERR, P, PH_SUSPEND }, { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_RESUME }, CB(C, PH_RESUME), CB(G, PH_RESUME),
		{ PEND, 0, PH_RESUME }, { TEND_ERR },
	};
	EXPECT_EQ(JUDGE(bad, true), INV_RESUME_AFTER_PARENT);
	EXPECT_EQ(JUDGE(never_suspended, true), INV_RESUME_AFTER_PARENT);
	EXPECT_EQ(JUDGE(parent_not_suspended_ok, true), -1);
}

static void test_once(void)
{
	static const struct ev twice[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(G, PH_PREPARE),
		CB(G, PH_PREPARE),
	};
	static const struct ev overlap[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, { START, G, PH_PREPARE },
		{ START, G, PH_PREPARE },
	};
	EXPECT_EQ(JUDGE(twice, true), INV_ONCE);
	EXPECT_EQ(JUDGE(overlap, true), INV_ONCE);
}

static void test_rollback(void)
{
	static const struct ev silent_failure[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, { START, G, PH_PREPARE },
		{ END_ERR, G, PH_PREPARE }, { PEND, 0, PH_PREPARE },
		{ TEND_OK },
	};
	static const struct ev left_suspended[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ START, C, PH_SUSPEND }, { END_ERR, C, PH_SUSPEND },
		{ PEND, 0, PH_SUSPEND }, { TEND_ERR },
	};
	static const struct ev invented_error[] = { { TBEGIN }, { TEND_ERR } };
	static const struct ev prepared_not_completed[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(G, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { TEND_OK },
	};
	static const struct ev rolled_back[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ START, C, PH_SUSPEND }, { END_ERR, C, PH_SUSPEND },
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		CB(G, PH_RESUME), { PEND, 0, PH_RESUME }, { TEND_ERR },
	};
	EXPECT_EQ(JUDGE(silent_failure, true), INV_ROLLBACK);
	EXPECT_EQ(JUDGE(left_suspended, true), INV_ROLLBACK);
	EXPECT_EQ(JUDGE(invented_error, true), INV_ROLLBACK);
	EXPECT_EQ(JUDGE(prepared_not_completed, true), INV_ROLLBACK);
	EXPECT_EQ(JUDGE(rolled_back, true), -1);
}

static void test_removed(void)
{
	static const struct ev bad[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { GONE, G },
		{ START, G, PH_SUSPEND },
	};
	EXPECT_EQ(JUDGE(bad, true), INV_REMOVED);
}

static void test_phase_barrier(void)
{
	static const struct ev still_running[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { START, G, PH_SUSPEND },
		{ PEND, 0, PH_SUSPEND },
	};
	static const struct ev outside[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { START, C, PH_SUSPEND },
	};
	static const struct ev nested[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
	};
	EXPECT_EQ(JUDGE(still_running, true), INV_PHASE_BARRIER);
	EXPECT_EQ(JUDGE(outside, true), INV_PHASE_BARRIER);
	EXPECT_EQ(JUDGE(nested, true), INV_PHASE_BARRIER);
}

static void test_sync_order(void)
{
	static const struct ev wrong_order[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(C, PH_PREPARE),
		CB(P, PH_PREPARE),	/* prepare walks forward */
	};
	static const struct ev overlap[] = {
		/* g and p are not parent and child: only async off forbids */
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { START, G, PH_SUSPEND },
		{ START, P, PH_COMPLETE },
	};
	static const struct ev overlap_async_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, { START, G, PH_PREPARE },
		{ START, P, PH_PREPARE }, { END_OK, G, PH_PREPARE },
		{ END_OK, P, PH_PREPARE },
	};
	EXPECT_EQ(JUDGE(wrong_order, false), INV_SYNC_ORDER);
	EXPECT_EQ(JUDGE(wrong_order, true), -1);
	EXPECT_EQ(JUDGE(overlap, false), INV_PHASE_BARRIER);
	EXPECT_EQ(JUDGE(overlap_async_ok, true), -1);
	EXPECT_EQ(JUDGE(overlap_async_ok, false), INV_SYNC_ORDER);
}

/* REFS and LIVENESS need the device layer and the runner: scenarios. */
static int run_text(const char *text, const char *fix, struct run_result *r)
{
	return run_scenario_text(text, fix, false, r);
}

static const char hang[] =
	"dpmfuzz-scenario 1\n"
	"device bus pci\n"
	"device disk parent=bus err=suspend:-5\n"
	"device part parent=bus\n";

static void test_liveness(void)
{
	static struct run_result r;

	/* The seed as posted: part resumes and waits for bus, whose suspend
	 * was never reached, on a completion nobody completes. */
	EXPECT_EQ(run_text(hang, "none", &r), INV_LIVENESS);
	EXPECT_CONTAINS(r.msg, "task 'pm' waits for the power.completion of 'bus', which nobody completes");
	EXPECT_EQ(run_text(hang, "all", &r), -1);
}

/* A leaked reference: the references published at the end of the run
 * (the model's teardown) show it. */
static void leak_main(void *arg)
{
	pm_variant = variant_find("seed");
	dpm_model = pm_variant->model;
	dpm_model->reset();
	struct device *d = device_create_model(0, "p");

	device_initialize(d);
	device_add(d);
	get_device(d);		/* never put */
	pm_variant->ops->teardown();
}

static void test_refs(void)
{
	struct oracle_config cc = { 1, parent, names, false, false };
	struct det_config dc = { NULL, 0, 1000 };

	oracle_reset(&cc);
	dpm_listen_none();
	dpm_listen(oracle_listener, NULL);
	device_layer_reset(1);
	EXPECT_EQ(det_run(leak_main, NULL, &dc, NULL), DET_STOPPED);
	EXPECT_EQ(oracle_result()->id, INV_REFS);
	EXPECT_STR_EQ(oracle_result()->msg,
		      "'p' holds 2 references at the end of the run, expected 1");
	device_registry_free_all();
}

/* Device links, direct_complete, pm-wait, handled twice (modern). */
static void test_modern_rules(void)
{
	static const int sup[1] = { P }, con[1] = { X };
	static const bool may_dc[4] = { false, false, true, true };
	static const int pm_wait[4] = { -1, -1, -1, C };

	modern_cfg = (struct oracle_config){ 4, parent, names, true, false, 1,
					    sup, con, may_dc, pm_wait };
	static const struct ev supplier_first[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), { START, P, PH_SUSPEND },	/* x active */
	};
	static const struct ev consumer_first[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(X, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		{ START, X, PH_RESUME },	/* p, its supplier, still suspended */
	};
	static const struct ev dc_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(P, PH_PREPARE),
		CB(C, PH_PREPARE), CB(G, PH_PREPARE), CB(X, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND }, { DC, X },
		{ DC, G }, CB(C, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		CB(P, PH_RESUME), CB(C, PH_RESUME), { DR, G }, { DR, X },
		{ PEND, 0, PH_RESUME }, { PBEGIN, 0, PH_COMPLETE },
		CB(X, PH_COMPLETE), CB(G, PH_COMPLETE), CB(C, PH_COMPLETE),
		CB(P, PH_COMPLETE), { PEND, 0, PH_COMPLETE }, { TEND_OK },
	};
	/* KV-3 before 6.1: g took direct_complete, a subordinate cleared
	 * it, so main.c ran g's late/noirq/early callbacks and skipped its
	 * resume step as not suspended.  Its suspend callback never ran:
	 * nothing is left suspended, but the late callback breaks SKIP. */
	static const struct ev dc_cleared_resume_skipped[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(P, PH_PREPARE),
		CB(C, PH_PREPARE), CB(G, PH_PREPARE), CB(X, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND }, { DC, X },
		{ DC, G }, CB(C, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_RESUME_EARLY }, CB(G, PH_RESUME_EARLY),
		{ PEND, 0, PH_RESUME_EARLY }, { PBEGIN, 0, PH_RESUME },
		CB(P, PH_RESUME), CB(C, PH_RESUME),
		SK(G, PH_RESUME, SKIP_RUNTIME_SUSPENDED), { DR, X },
		{ PEND, 0, PH_RESUME }, { PBEGIN, 0, PH_COMPLETE },
		CB(X, PH_COMPLETE), CB(G, PH_COMPLETE), CB(C, PH_COMPLETE),
		CB(P, PH_COMPLETE), { PEND, 0, PH_COMPLETE }, { TEND_OK },
	};
	static const struct ev dc_not_allowed[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(C, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND }, { DC, C },
	};
	static const struct ev dc_over_active_child[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(G, PH_PREPARE),
		CB(X, PH_PREPARE), { PEND, 0, PH_PREPARE },
		{ PBEGIN, 0, PH_SUSPEND }, { DC, G }, CB(C, PH_SUSPEND),
		{ DC, X },	/* fine: x has no subordinates */
		CB(P, PH_SUSPEND), { PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		{ DR, C },	/* c did not skip suspend */
	};
	static const struct ev dc_never_resumed[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(X, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND }, { DC, X },
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_COMPLETE },
		CB(X, PH_COMPLETE), { PEND, 0, PH_COMPLETE }, { TEND_OK },
	};
	/* x's resume callback waits for c (pm-wait): c must have resumed. */
	static const struct ev wait_early[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(X, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		CB(P, PH_RESUME), CB(X, PH_RESUME),
	};
	static const struct ev wait_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(X, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		CB(P, PH_RESUME), CB(C, PH_RESUME), CB(X, PH_RESUME),
	};
	static const struct ev handled_twice[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_RESUME }, { HANDLED, C, PH_RESUME },
		{ HANDLED, C, PH_RESUME },
	};
	static const struct ev handled_per_phase[] = {
		{ TBEGIN }, { HANDLED, C, PH_SUSPEND }, { HANDLED, C, PH_RESUME },
	};

	EXPECT_EQ(JUDGE(supplier_first, true), INV_SUSPEND_AFTER_CHILDREN);
	EXPECT_STR_EQ(oracle_result()->msg,
		      "consumer 'x' had not suspended when its supplier 'p' started suspend");
	EXPECT_EQ(JUDGE(consumer_first, true), INV_RESUME_AFTER_PARENT);
	EXPECT_EQ(JUDGE(dc_ok, true), -1);
	/* SKIP, direct_complete kept: the callbacks after it are KV-3's,
	 * accepted with its knob (ORACLE_TOL_DC_CLEARED). */
	EXPECT_EQ(JUDGE(dc_cleared_resume_skipped, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg,
			"suspend_late callback of 'g' started, but it took the direct_complete path");
	/* The knob waives it only where a subordinate could have cleared
	 * g's direct_complete: with none, main.c's own doing is a
	 * violation; with c a consumer of g over a link the PM core does
	 * not order (a scenario link, EV_LINK never published), c's suspend
	 * ending after g took the path is KV-3's clearer. */
	static const int kv3_sup[1] = { G }, kv3_con[1] = { C };

	judge_tolerate = ORACLE_TOL_DC_CLEARED;
	EXPECT_EQ(JUDGE(dc_cleared_resume_skipped, true), INV_SKIP);
	modern_cfg.nscn_links = 1;
	modern_cfg.scn_link_sup = kv3_sup;
	modern_cfg.scn_link_con = kv3_con;
	EXPECT_EQ(JUDGE(dc_cleared_resume_skipped, true), -1);
	EXPECT_EQ(oracle_result()->waived, ORACLE_TOL_DC_CLEARED);
	modern_cfg.nscn_links = 0;
	judge_tolerate = 0;
	EXPECT_EQ(JUDGE(dc_not_allowed, true), INV_ROLLBACK);
	EXPECT_EQ(JUDGE(dc_over_active_child, true), INV_RESUME_AFTER_PARENT);
	EXPECT_EQ(JUDGE(dc_never_resumed, true), INV_ROLLBACK);
	EXPECT_EQ(JUDGE(wait_early, true), INV_RESUME_AFTER_PARENT);
	EXPECT_CONTAINS(oracle_result()->msg, "device_pm_wait_for_dev");
	EXPECT_EQ(JUDGE(wait_ok, true), -1);
	EXPECT_EQ(JUDGE(handled_twice, true), INV_ONCE);
	/* The system sleeps with g never suspended: only a failure excuses. */
	static const struct ev asleep_without_g[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND_NOIRQ }, CB(X, PH_SUSPEND_NOIRQ),
		{ GONE, G }, CB(C, PH_SUSPEND_NOIRQ), CB(P, PH_SUSPEND_NOIRQ),
		{ PEND, 0, PH_SUSPEND_NOIRQ },
	};
	static const struct ev asleep_but_c[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND_NOIRQ }, CB(X, PH_SUSPEND_NOIRQ),
		CB(G, PH_SUSPEND_NOIRQ), { PEND, 0, PH_SUSPEND_NOIRQ },
	};
	static const struct ev failed_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND_NOIRQ }, { START, X, PH_SUSPEND_NOIRQ },
		{ END_ERR, X, PH_SUSPEND_NOIRQ }, { PEND, 0, PH_SUSPEND_NOIRQ },
	};
	EXPECT_EQ(JUDGE(asleep_without_g, true), -1);
	EXPECT_EQ(JUDGE(asleep_but_c, true), INV_SLEEP_COMPLETE);
	EXPECT_EQ(JUDGE(failed_ok, true), -1);
	EXPECT_EQ(JUDGE(handled_per_phase, true), -1);
	/* A parent taking direct_complete over a child that suspended by
	 * its callbacks. */
	static const struct ev dc_parent[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(C, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND },
		CB(G, PH_SUSPEND), { DC, C },
	};
	static const bool c_may[4] = { false, true, false, false };

	modern_cfg.may_direct_complete = c_may;
	EXPECT_EQ(JUDGE(dc_parent, true), INV_SUSPEND_AFTER_CHILDREN);
	EXPECT_CONTAINS(oracle_result()->msg, "stayed runtime-suspended");
	modern_cfg.ndev = 0;
}

/*
 * The kernel variants' rules: skips (EV_SKIP) and what allows each, a
 * wake-up abort, devices registered late, devices the PM core never
 * handles, dpm_list order.  p <- c <- g, and x, a root.
 */

#define SUSPENDED_LATE(d) CB(d, PH_SUSPEND), CB(d, PH_SUSPEND_LATE)

/* A device left in suspend by a resume step it may skip (dev_pm_skip_resume()):
 * a pm-wait for it is done; its child may not resume over it, unless
 * KV-2 is accepted (ORACLE_TOL_KEPT_SUPERIOR) and the skip is the early
 * resume of a late-suspended device after an aborted suspend. */
static void test_kept_rules(void)
{
	static int pm_wait[4] = { -1, -1, -1, G };	/* x waits for g */
	unsigned int *flags = (unsigned int *)modern_cfg.dpm_flags;

	modern_cfg.pm_wait = pm_wait;
	flags[G] = PMF_MAY_SKIP_RESUME;
	/* The late phase fails at c: g and x are late-suspended only. */
	static const struct ev waited[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), CB(X, PH_SUSPEND_LATE),
		{ START, C, PH_SUSPEND_LATE }, { END_ERR, C, PH_SUSPEND_LATE },
		{ PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_RESUME_EARLY },
		SK(G, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
		{ START, X, PH_RESUME_EARLY }, { END_OK, X, PH_RESUME_EARLY },
		{ PEND, 0, PH_RESUME_EARLY },
	};
	static const struct ev not_waited[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), CB(X, PH_SUSPEND_LATE),
		{ START, C, PH_SUSPEND_LATE }, { END_ERR, C, PH_SUSPEND_LATE },
		{ PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_RESUME_EARLY },
		{ START, X, PH_RESUME_EARLY }, { END_OK, X, PH_RESUME_EARLY },
	};
	EXPECT_EQ(JUDGE(waited, true), -1);
	EXPECT_EQ(JUDGE(not_waited, true), INV_RESUME_AFTER_PARENT);
	EXPECT_CONTAINS(oracle_result()->msg, "device_pm_wait_for_dev");
	modern_cfg.pm_wait = NULL;
	flags[G] = 0;
	/* KV-2's shape: c kept after the late phase failed, g (its child)
	 * resumes early. */
	flags[C] = PMF_MAY_SKIP_RESUME;
	static const struct ev kv2[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), CB(C, PH_SUSPEND_LATE),
		{ START, X, PH_SUSPEND_LATE }, { END_ERR, X, PH_SUSPEND_LATE },
		{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_RESUME_EARLY },
		SK(C, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
		{ START, G, PH_RESUME_EARLY },
	};
	/* The same skip after a noirq suspend that went through: the PM
	 * core knew g must resume, so c had to. */
	static const struct ev kept_after_noirq[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), CB(C, PH_SUSPEND_LATE),
		CB(P, PH_SUSPEND_LATE), CB(X, PH_SUSPEND_LATE),
		{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_SUSPEND_NOIRQ },
		CB(G, PH_SUSPEND_NOIRQ), CB(C, PH_SUSPEND_NOIRQ),
		{ START, P, PH_SUSPEND_NOIRQ }, { END_ERR, P, PH_SUSPEND_NOIRQ },
		{ PEND, 0, PH_SUSPEND_NOIRQ }, { PBEGIN, 0, PH_RESUME_NOIRQ },
		SK(C, PH_RESUME_NOIRQ, SKIP_RUNTIME_SUSPENDED),
		{ START, G, PH_RESUME_NOIRQ },
	};
	/* Smart suspend skipped c's late suspend; the suspend aborted before
	 * its noirq step: main.c leaves it in suspend (the !is_noirq_suspended
	 * path of device_resume_noirq()).  Without the abort, a resume may not
	 * skip it. */
	flags[C] = PMF_SMART_SUSPEND;
	static const struct ev left_by_late[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), SK(C, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED),
		{ START, X, PH_SUSPEND_LATE }, { END_ERR, X, PH_SUSPEND_LATE },
		{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_RESUME_EARLY },
		SK(C, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_RESUME_EARLY },
	};
	static const struct ev left_without_abort[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		CB(G, PH_SUSPEND_LATE), SK(C, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED),
		CB(P, PH_SUSPEND_LATE), CB(X, PH_SUSPEND_LATE),
		{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_RESUME_EARLY },
		CB(P, PH_RESUME_EARLY),
		SK(C, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
	};
	EXPECT_EQ(JUDGE(left_by_late, true), -1);
	EXPECT_EQ(JUDGE(left_without_abort, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "a resume skips only with");
	flags[C] = PMF_MAY_SKIP_RESUME;
	EXPECT_EQ(JUDGE(kv2, true), INV_RESUME_AFTER_PARENT);
	EXPECT_CONTAINS(oracle_result()->msg, "parent 'c' had not resumed");
	modern_cfg.tolerate = ORACLE_TOL_KEPT_SUPERIOR;
	EXPECT_EQ(JUDGE(kv2, true), -1);
	EXPECT_EQ(JUDGE(kept_after_noirq, true), INV_RESUME_AFTER_PARENT);
	modern_cfg.tolerate = 0;
	flags[C] = 0;
}

/*
 * Before 5.8 a resume step that leaves a device in suspend clears its
 * later is_*_suspended flags, so the later steps pass it by whatever
 * their event.  A hibernation whose noirq freeze fails resumes noirq with
 * RECOVER (plain: g may be left) and the later phases with RESTORE (no
 * image was made): g's later skips are no violation then.  From 5.8 each
 * step asks with its own event, and a restore never skips; nor does one
 * before 5.8 that decides to leave the device.
 */
static void test_kept_across_events(void)
{
	unsigned int *flags = (unsigned int *)modern_cfg.dpm_flags;
#define SUSPENDED_NOIRQ_FAIL_AT_P                                              \
	{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),             \
	CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), CB(X, PH_SUSPEND),              \
	{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },              \
	CB(G, PH_SUSPEND_LATE), CB(C, PH_SUSPEND_LATE),                       \
	CB(P, PH_SUSPEND_LATE), CB(X, PH_SUSPEND_LATE),                       \
	{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_SUSPEND_NOIRQ },         \
	CB(X, PH_SUSPEND_NOIRQ), CB(G, PH_SUSPEND_NOIRQ),                     \
	CB(C, PH_SUSPEND_NOIRQ),                                              \
	{ START, P, PH_SUSPEND_NOIRQ }, { END_ERR, P, PH_SUSPEND_NOIRQ },     \
	{ PEND, 0, PH_SUSPEND_NOIRQ }
	static const struct ev recover_then_restore[] = {
		SUSPENDED_NOIRQ_FAIL_AT_P,
		{ PBEGIN_AS, 0, PH_RESUME_NOIRQ, 1 + PM_RESUME_PLAIN },
		CB(X, PH_RESUME_NOIRQ), CB(C, PH_RESUME_NOIRQ),
		SK(G, PH_RESUME_NOIRQ, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_RESUME_NOIRQ },
		{ PBEGIN_AS, 0, PH_RESUME_EARLY, 1 + PM_RESUME_RESTORE },
		CB(P, PH_RESUME_EARLY), CB(X, PH_RESUME_EARLY), CB(C, PH_RESUME_EARLY),
		SK(G, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_RESUME_EARLY },
		{ PBEGIN_AS, 0, PH_RESUME, 1 + PM_RESUME_RESTORE },
		CB(P, PH_RESUME), CB(X, PH_RESUME), CB(C, PH_RESUME),
		SK(G, PH_RESUME, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_RESUME }, { TEND_ERR },
	};
	static const struct ev restore_decides[] = {
		SUSPENDED_NOIRQ_FAIL_AT_P,
		{ PBEGIN_AS, 0, PH_RESUME_NOIRQ, 1 + PM_RESUME_RESTORE },
		CB(X, PH_RESUME_NOIRQ), CB(C, PH_RESUME_NOIRQ),
		SK(G, PH_RESUME_NOIRQ, SKIP_RUNTIME_SUSPENDED),
	};
#undef SUSPENDED_NOIRQ_FAIL_AT_P
	flags[G] = PMF_MAY_SKIP_RESUME;
	modern_cfg.left_skips_resume = true;
	EXPECT_EQ(JUDGE(recover_then_restore, true), -1);
	EXPECT_EQ(JUDGE(restore_decides, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "a restore never skips");
	modern_cfg.left_skips_resume = false;
	EXPECT_EQ(JUDGE(recover_then_restore, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "'g' skipped its resume_early callback, which a restore never skips");
	flags[G] = 0;
}

static void test_kernel_rules(void)
{
	static unsigned int flags[4];
	static bool exempt[4], syscore[4], late[4];
	static const bool rpm[4] = { false, false, true, true };
	struct oracle_config kcfg = { 4, parent, names, true, false, 0,
				      NULL, NULL, rpm, NULL, exempt, syscore, late,
				      flags };

	modern_cfg = kcfg;
	/* A device without a callback: a callback that takes no time,
	 * still after its children. */
	static const struct ev nocb_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		SK(C, PH_SUSPEND, SKIP_NO_CALLBACK), CB(P, PH_SUSPEND),
		CB(X, PH_SUSPEND), { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_RESUME }, CB(P, PH_RESUME),
		SK(C, PH_RESUME, SKIP_NO_CALLBACK), CB(G, PH_RESUME),
		CB(X, PH_RESUME), { PEND, 0, PH_RESUME }, { TEND_OK },
	};
	static const struct ev nocb_early[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		SK(C, PH_SUSPEND, SKIP_NO_CALLBACK),	/* g still active */
	};
	EXPECT_EQ(JUDGE(nocb_ok, true), -1);
	EXPECT_EQ(JUDGE(nocb_early, true), INV_SUSPEND_AFTER_CHILDREN);
	/* Skipping while the transition aborts: only after a failure or a
	 * wake-up. */
	static const struct ev abort_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { START, G, PH_SUSPEND },
		{ END_ERR, G, PH_SUSPEND }, SK(C, PH_SUSPEND, SKIP_ABORTING),
	};
	static const struct ev abort_bad[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		SK(C, PH_SUSPEND, SKIP_ABORTING),
	};
	static const struct ev wake_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND), { WAKE },
		SK(C, PH_SUSPEND, SKIP_ABORTING), { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_RESUME }, CB(G, PH_RESUME), { PEND, 0, PH_RESUME },
		{ TEND_BUSY },
	};
	static const struct ev busy_without_wake[] = {
		{ TBEGIN }, { TEND_BUSY },
	};
	EXPECT_EQ(JUDGE(abort_ok, true), -1);
	EXPECT_EQ(JUDGE(abort_bad, true), INV_SKIP);
	EXPECT_EQ(JUDGE(wake_ok, true), -1);
	EXPECT_EQ(JUDGE(busy_without_wake, true), INV_ROLLBACK);
	/* Runtime-suspended: smart suspend in late and noirq, and skipping
	 * resume by the DPM flags and the transition. */
	static const struct ev smart[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(X, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		SK(X, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_RESUME_EARLY },
		SK(X, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_RESUME_EARLY },
	};
	EXPECT_EQ(JUDGE(smart, true), INV_SKIP);	/* no flag */
	EXPECT_CONTAINS(oracle_result()->msg, "DPM_FLAG_SMART_SUSPEND");
	flags[X] = PMF_SMART_SUSPEND;
	EXPECT_EQ(JUDGE(smart, true), INV_SKIP);	/* resume: no flag */
	EXPECT_CONTAINS(oracle_result()->msg, "DPM_FLAG_MAY_SKIP_RESUME");
	flags[X] = PMF_SMART_SUSPEND | PMF_MAY_SKIP_RESUME;
	EXPECT_EQ(JUDGE(smart, true), -1);
	modern_cfg.resume = RESUME_RESTORE;
	EXPECT_EQ(JUDGE(smart, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "a restore never skips");
	modern_cfg.resume = RESUME_THAW;
	EXPECT_EQ(JUDGE(smart, true), -1);
	modern_cfg.resume = RESUME_PLAIN;
	/* The variant tells which resume the phase does (a freeze that
	 * fails in its late phase recovers there, then restores). */
	static const struct ev smart_told[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(X, PH_SUSPEND), CB(P, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		SK(X, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN_AS, 0, PH_RESUME_EARLY, 1 + PM_RESUME_RESTORE },
		SK(X, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
		{ PEND, 0, PH_RESUME_EARLY },
	};
	EXPECT_EQ(JUDGE(smart_told, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "a restore never skips");
	/* Told a plain resume (a recover) while the transition would
	 * restore: the device may stay suspended. */
	static struct ev smart_told_plain[sizeof(smart_told) / sizeof(smart_told[0])];

	memcpy(smart_told_plain, smart_told, sizeof(smart_told));
	for (size_t i = 0; i < sizeof(smart_told) / sizeof(smart_told[0]); i++)
		if (smart_told_plain[i].k == PBEGIN_AS)
			smart_told_plain[i].a = 1 + PM_RESUME_PLAIN;
	modern_cfg.resume = RESUME_RESTORE;
	EXPECT_EQ(JUDGE(smart_told_plain, true), -1);
	modern_cfg.resume = RESUME_PLAIN;
	/* direct_complete as a skip, and what forbids it. */
	static const struct ev dc[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(X, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND },
		SK(X, PH_SUSPEND, SKIP_RUNTIME_SUSPENDED), { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_SUSPEND_NOIRQ },
		SK(X, PH_SUSPEND_NOIRQ, SKIP_RUNTIME_SUSPENDED),
	};
	flags[X] = 0;
	EXPECT_EQ(JUDGE(dc, true), -1);
	flags[X] = PMF_NO_DIRECT_COMPLETE;
	EXPECT_EQ(JUDGE(dc, true), INV_SKIP);
	flags[X] = 0;
	modern_cfg.dc_forbidden = true;
	EXPECT_EQ(JUDGE(dc, true), INV_SKIP);
	modern_cfg.dc_forbidden = false;
	/* Not suspended: fine when it was not, a violation when it was. */
	static const struct ev not_suspended[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(X, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		SK(X, PH_RESUME, SKIP_NOT_SUSPENDED),
	};
	EXPECT_EQ(JUDGE(not_suspended, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "'x' skipped its resume callback as not suspended");
	/* PHASE-BARRIER: the phases in the order the kernel's callers run
	 * them, each once a transition. */
	static const struct ev noirq_twice[] = {
		{ TBEGIN }, { WAKE }, { PBEGIN, 0, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, { PEND, 0, PH_SUSPEND_NOIRQ },
		{ PBEGIN, 0, PH_RESUME_NOIRQ }, { PEND, 0, PH_RESUME_NOIRQ },
		{ PBEGIN, 0, PH_RESUME_NOIRQ },
	};
	static const struct ev noirq_unsuspended[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_RESUME_NOIRQ },
	};
	static const struct ev early_before_noirq[] = {
		{ TBEGIN }, { WAKE }, { PBEGIN, 0, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, { PEND, 0, PH_SUSPEND_NOIRQ },
		{ PBEGIN, 0, PH_RESUME_EARLY },
	};
	static const struct ev late_rollback[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_RESUME_EARLY },
		{ PEND, 0, PH_RESUME_EARLY }, { PBEGIN, 0, PH_RESUME },
		{ PEND, 0, PH_RESUME }, { TEND_OK }, { TBEGIN },
		{ PBEGIN, 0, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE },
	};
	EXPECT_EQ(JUDGE(noirq_twice, true), INV_PHASE_BARRIER);
	EXPECT_CONTAINS(oracle_result()->msg, "began twice");
	EXPECT_EQ(JUDGE(noirq_unsuspended, true), INV_PHASE_BARRIER);
	EXPECT_EQ(JUDGE(early_before_noirq, true), INV_PHASE_BARRIER);
	EXPECT_CONTAINS(oracle_result()->msg, "resume_noirq had not");
	EXPECT_EQ(JUDGE(late_rollback, true), -1);
	/* REFS: a last reference dropped under dpm_list_mtx. */
	static const struct ev freed_plain[] = {
		{ TBEGIN }, { GONE, X }, { FREED, X, -1, 0 },
	};
	static const struct ev freed_locked[] = {
		{ TBEGIN }, { GONE, X }, { FREED, X, -1, 1 },
	};
	EXPECT_EQ(JUDGE(freed_plain, true), -1);
	EXPECT_EQ(JUDGE(freed_locked, true), INV_REFS);
	EXPECT_CONTAINS(oracle_result()->msg, "while main.c held dpm_list_mtx");
	/* Registered late: no obligation before, a device like any after. */
	late[G] = true;
	static const struct ev late_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(C, PH_SUSPEND),
		CB(P, PH_SUSPEND), CB(X, PH_SUSPEND), { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_RESUME }, CB(P, PH_RESUME), CB(C, PH_RESUME),
		{ ADDED, G }, CB(X, PH_RESUME), { PEND, 0, PH_RESUME }, { TEND_OK },
	};
	static const struct ev late_early_cb[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
	};
	EXPECT_EQ(JUDGE(late_ok, true), -1);
	EXPECT_EQ(JUDGE(late_early_cb, true), INV_REMOVED);
	EXPECT_CONTAINS(oracle_result()->msg, "before the device was registered");
	late[G] = false;
	/* Never handled (syscore, no PM): exempt, and no callback may run. */
	exempt[G] = true;
	static const struct ev exempt_cb[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(C, PH_SUSPEND),
		CB(P, PH_SUSPEND), CB(G, PH_SUSPEND),
	};
	EXPECT_EQ(JUDGE(exempt_cb, true), INV_REMOVED);
	EXPECT_CONTAINS(oracle_result()->msg, "must not handle it");
	exempt[G] = false;
	/* A syscore device: no callback, and no place in the order (the
	 * PM core skips it before waiting for its parent on resume). */
	syscore[C] = true;
	static const struct ev syscore_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		SK(C, PH_SUSPEND, SKIP_SYSCORE),	/* g still active */
		CB(G, PH_SUSPEND), CB(P, PH_SUSPEND),
	};
	EXPECT_EQ(JUDGE(syscore_ok, true), -1);
	EXPECT_EQ(JUDGE(exempt_cb, true), INV_REMOVED);
	syscore[C] = false;
	EXPECT_EQ(JUDGE(syscore_ok, true), INV_SKIP);
	/* Async off: dpm_list order as published, not the scenario's. */
	static const struct ev moved[] = {
		{ POS, P, 0, 1 }, { POS, C, 0, 2 }, { POS, G, 0, 3 },
		{ POS, X, 0, 0 }, { TBEGIN }, { PBEGIN, 0, PH_PREPARE },
		CB(X, PH_PREPARE), CB(P, PH_PREPARE), CB(C, PH_PREPARE),
		CB(G, PH_PREPARE), { PEND, 0, PH_PREPARE },
	};
	static const struct ev unmoved[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(X, PH_PREPARE),
		CB(P, PH_PREPARE),
	};
	modern_cfg.async_possible = false;
	EXPECT_EQ(JUDGE(moved, false), -1);
	EXPECT_EQ(JUDGE(unmoved, false), INV_SYNC_ORDER);
	modern_cfg.async_possible = true;
	test_kept_rules();
	test_kept_across_events();
	modern_cfg.ndev = 0;
}

/* WAKEUP and STATS (kernel variants): a device that may wake the system
 * up takes no direct_complete and has power.wakeup_path set in its late
 * and noirq suspend callbacks; suspend_stats records a device only in a
 * phase where a callback of it failed. */
static void test_wakeup_stats_rules(void)
{
	static unsigned int flags[4];
	static bool exempt[4], syscore[4], late[4], wakeup[4];
	static const bool rpm[4] = { false, false, true, true };
	struct oracle_config kcfg = { 4, parent, names, true, false, 0,
				      NULL, NULL, rpm, NULL, exempt, syscore, late,
				      flags };

	kcfg.wakeup = wakeup;
	modern_cfg = kcfg;
	static const struct ev dc[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(P, PH_PREPARE),
		CB(C, PH_PREPARE), CB(G, PH_PREPARE), CB(X, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND }, { DC, G },
	};
	EXPECT_EQ(JUDGE(dc, true), -1);
	wakeup[G] = true;
	EXPECT_EQ(JUDGE(dc, true), INV_WAKEUP);
	EXPECT_CONTAINS(oracle_result()->msg, "may wake the system up");
	static const struct ev path_clear[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		{ STARTF, G, PH_SUSPEND_LATE, EV_FACT_TOLD },
	};
	static const struct ev path_set[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		{ STARTF, G, PH_SUSPEND_LATE, EV_FACT_TOLD | EV_FACT_WAKEUP_PATH },
		{ END_OK, G, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_SUSPEND_NOIRQ },
		{ STARTF, G, PH_SUSPEND_NOIRQ, EV_FACT_TOLD | EV_FACT_WAKEUP_PATH },
	};
	static const struct ev path_untold[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		{ STARTF, G, PH_SUSPEND_LATE, 0 },
	};
	EXPECT_EQ(JUDGE(path_clear, true), INV_WAKEUP);
	EXPECT_CONTAINS(oracle_result()->msg, "wakeup_path clear");
	EXPECT_EQ(JUDGE(path_set, true), -1);
	EXPECT_EQ(JUDGE(path_untold, true), -1);
	/* The parent of a device that may wake up and suspended has
	 * wakeup_path set; a device with none such under it never. */
#define G_DOWN \
	{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND), \
	CB(C, PH_SUSPEND), { PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE }, \
	{ STARTF, G, PH_SUSPEND_LATE, EV_FACT_TOLD | EV_FACT_WAKEUP_PATH }, \
	{ END_OK, G, PH_SUSPEND_LATE }
	static const struct ev parent_clear[] = {
		G_DOWN, { STARTF, C, PH_SUSPEND_LATE, EV_FACT_TOLD },
	};
	static const struct ev parent_set[] = {
		G_DOWN, { STARTF, C, PH_SUSPEND_LATE, EV_FACT_TOLD | EV_FACT_WAKEUP_PATH },
	};
#undef G_DOWN
	EXPECT_EQ(JUDGE(parent_clear, true), INV_WAKEUP);
	EXPECT_CONTAINS(oracle_result()->msg, "but its child 'g', which may wake the system up, suspended");
	EXPECT_EQ(JUDGE(parent_set, true), -1);
	wakeup[G] = false;
	EXPECT_EQ(JUDGE(path_clear, true), -1);
	EXPECT_EQ(JUDGE(path_set, true), INV_WAKEUP);
	EXPECT_CONTAINS(oracle_result()->msg, "neither it nor a device under it may wake the system up");
	/* STATS. */
	static const struct ev failed_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { START, G, PH_SUSPEND },
		{ END_ERR, G, PH_SUSPEND }, { FAILED, G, PH_SUSPEND },
	};
	static const struct ev failed_none[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ FAILED, G, PH_SUSPEND },
	};
	static const struct ev failed_other_phase[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { START, G, PH_SUSPEND },
		{ END_ERR, G, PH_SUSPEND }, { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_RESUME }, { FAILED, G, PH_RESUME },
	};
	static const struct ev failed_unknown[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { FAILED, -1, PH_SUSPEND },
	};
	EXPECT_EQ(JUDGE(failed_ok, true), -1);
	EXPECT_EQ(JUDGE(failed_none, true), INV_STATS);
	EXPECT_CONTAINS(oracle_result()->msg, "no callback of it failed");
	EXPECT_EQ(JUDGE(failed_other_phase, true), INV_STATS);
	EXPECT_EQ(JUDGE(failed_unknown, true), INV_STATS);
	/* STATS, the other way: a failure is recorded, device and step,
	 * before its phase returns. */
	static bool may_async[4];

	modern_cfg.stats = true;
	modern_cfg.may_async = may_async;
	/* G alone (the others need no PM): it may sleep by itself. */
	exempt[P] = exempt[C] = exempt[X] = true;
#define FAIL_IN(ph) { PBEGIN, 0, ph }, { START, G, ph }, { END_ERR, G, ph }
	/* G suspended through noirq, for a resume side failure. */
#define DOWN \
	{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND), \
	{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE }, \
	CB(G, PH_SUSPEND_LATE), { PEND, 0, PH_SUSPEND_LATE }, \
	{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, CB(G, PH_SUSPEND_NOIRQ), \
	{ PEND, 0, PH_SUSPEND_NOIRQ }
	/* ... and the rest of its resume, to the transition's end. */
#define UP \
	{ PBEGIN, 0, PH_RESUME_EARLY }, CB(G, PH_RESUME_EARLY), \
	{ PEND, 0, PH_RESUME_EARLY }, { PBEGIN, 0, PH_RESUME }, \
	CB(G, PH_RESUME), { PEND, 0, PH_RESUME }, { TEND_OK }
	static const struct ev rec_both[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND), { FAILED, G, PH_SUSPEND },
		{ FSTEP, -1, PH_SUSPEND, PH_SUSPEND }, { PEND, 0, PH_SUSPEND },
		{ TEND_ERR },
	};
	static const struct ev rec_both_resume[] = {
		DOWN, FAIL_IN(PH_RESUME_NOIRQ), { FAILED, G, PH_RESUME_NOIRQ },
		{ PEND, 0, PH_RESUME_NOIRQ }, { FSTEP, -1, -1, PH_RESUME_NOIRQ },
		UP,
	};
	static const struct ev rec_no_dev[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND_LATE),
		{ FSTEP, -1, PH_SUSPEND_LATE, PH_SUSPEND_LATE },
		{ PEND, 0, PH_SUSPEND_LATE }, { TEND_ERR },
	};
	static const struct ev rec_no_step[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND_NOIRQ), { FAILED, G, PH_SUSPEND_NOIRQ },
		{ PEND, 0, PH_SUSPEND_NOIRQ }, { TEND_ERR },
	};
	static const struct ev rec_resume_none[] = {
		DOWN, FAIL_IN(PH_RESUME_NOIRQ), { PEND, 0, PH_RESUME_NOIRQ },
		UP,
	};
	static const struct ev step_no_failure[] = {
		DOWN, { PBEGIN, 0, PH_RESUME_NOIRQ }, CB(G, PH_RESUME_NOIRQ),
		{ FSTEP, -1, PH_RESUME_NOIRQ, PH_RESUME_NOIRQ },
	};
	static const struct ev step_other_phase[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND), { FAILED, G, PH_SUSPEND },
		{ FSTEP, -1, PH_SUSPEND, PH_SUSPEND_LATE },
	};
	/* A failed phase's step is recorded before a later phase's. */
	static const struct ev step_order_bad[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND_LATE), { FAILED, G, PH_SUSPEND_LATE }, { WAKE },
		{ FSTEP, -1, PH_SUSPEND_LATE, PH_SUSPEND_NOIRQ },
	};
	static const struct ev step_order_ok[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND_LATE), { FAILED, G, PH_SUSPEND_LATE }, { WAKE },
		{ FSTEP, -1, PH_SUSPEND_LATE, PH_SUSPEND_LATE },
		{ FSTEP, -1, PH_SUSPEND_LATE, PH_SUSPEND_NOIRQ },
	};
	static const struct ev step_no_phase[] = {
		{ TBEGIN }, FAIL_IN(PH_SUSPEND), { FAILED, G, PH_SUSPEND },
		{ FSTEP, -1, PH_SUSPEND, -1 },
	};
	static const struct ev step_prepare_after[] = {
		{ TBEGIN }, FAIL_IN(PH_PREPARE), { PEND, 0, PH_PREPARE },
		{ FSTEP, -1, -1, PH_PREPARE }, { PBEGIN, 0, PH_COMPLETE },
	};
	static const struct ev step_woken[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { WAKE },
		{ FSTEP, -1, PH_SUSPEND, PH_SUSPEND }, { PEND, 0, PH_SUSPEND },
		{ TEND_BUSY },
	};
	EXPECT_EQ(JUDGE(rec_both, true), -1);
	EXPECT_EQ(JUDGE(rec_both_resume, true), -1);
	EXPECT_EQ(JUDGE(rec_no_dev, true), INV_STATS);
	EXPECT_CONTAINS(oracle_result()->msg, "did not record it in suspend_stats");
	EXPECT_EQ(JUDGE(rec_no_step, true), INV_STATS);
	EXPECT_CONTAINS(oracle_result()->msg, "as a failed step");
	EXPECT_EQ(JUDGE(rec_resume_none, true), INV_STATS);
	EXPECT_EQ(JUDGE(step_no_failure, true), INV_STATS);
	EXPECT_CONTAINS(oracle_result()->msg, "but no callback failed there");
	EXPECT_EQ(JUDGE(step_other_phase, true), INV_STATS);
	EXPECT_CONTAINS(oracle_result()->msg, "recorded suspend_late as a failed step, but no callback failed there");
	EXPECT_EQ(JUDGE(step_order_bad, true), INV_STATS);
	EXPECT_CONTAINS(oracle_result()->msg, "as a failed step before suspend_late");
	EXPECT_EQ(JUDGE(step_order_ok, true), -1);
	EXPECT_EQ(JUDGE(step_no_phase, true), INV_STATS);
	EXPECT_EQ(JUDGE(step_prepare_after, true), -1);
	EXPECT_EQ(JUDGE(step_woken, true), -1);
	/* An async job's resume failure need not be recorded (no tree
	 * before 7839d0078e0d does); a suspend one must. */
	may_async[G] = true;
	EXPECT_EQ(JUDGE(rec_resume_none, true), -1);
	EXPECT_EQ(JUDGE(rec_no_step, true), INV_STATS);
	may_async[G] = false;
	modern_cfg.stats = false;
	EXPECT_EQ(JUDGE(rec_resume_none, true), -1);
	modern_cfg.may_async = NULL;
	exempt[P] = exempt[C] = exempt[X] = false;
	/* SKIP, the walk's stop: once a device the walk runs itself fails
	 * (or is skipped as the transition aborts), the suspend walk takes
	 * no other device in hand in that phase. */
	static const struct ev walk_on[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { HANDLED, X, PH_SUSPEND },
		{ START, X, PH_SUSPEND }, { END_ERR, X, PH_SUSPEND },
		{ HANDLED, G, PH_SUSPEND },
	};
	static const struct ev walk_aborting_on[] = {	/* x may be async */
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { START, X, PH_SUSPEND },
		{ END_ERR, X, PH_SUSPEND }, { HANDLED, G, PH_SUSPEND },
		SK(G, PH_SUSPEND, SKIP_ABORTING), { HANDLED, C, PH_SUSPEND },
	};
	static const struct ev walk_stopped[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { HANDLED, X, PH_SUSPEND },
		{ START, X, PH_SUSPEND }, { END_ERR, X, PH_SUSPEND },
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME }, { HANDLED, G, PH_RESUME },
	};
	modern_cfg.may_async = may_async;
	modern_cfg.walk_stops = true;
	EXPECT_EQ(JUDGE(walk_on, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "the suspend walk took 'g' in hand after 'x' failed in it");
	EXPECT_EQ(JUDGE(walk_stopped, true), -1);
	/* A device that may run in an async job may have run inline in the
	 * walk's task, whose failure the walk does not check. */
	may_async[X] = true;
	EXPECT_EQ(JUDGE(walk_on, true), -1);
	EXPECT_EQ(JUDGE(walk_aborting_on, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "took 'c' in hand after 'g' was skipped as the transition was aborting");
	may_async[X] = false;
	modern_cfg.walk_stops = false;
	EXPECT_EQ(JUDGE(walk_on, true), -1);
	modern_cfg.may_async = NULL;
#undef FAIL_IN
#undef DOWN
#undef UP
	/* CALLBACK: G's middle layer has a suspend callback and no resume
	 * one, its driver both. */
	static unsigned int cb_layer[4], cb_driver[4];
	static const struct ev from_layer[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTB, G, PH_SUSPEND, EV_CB_FROM_LAYER },
	};
	static const struct ev from_driver[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTB, G, PH_SUSPEND, EV_CB_FROM_DRIVER },
	};
	static const struct ev untold[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { STARTB, G, PH_SUSPEND, 0 },
	};
	static const struct ev from_lower[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTB, G, PH_SUSPEND, EV_CB_FROM_LOWER },
	};

	cb_layer[G] = 1u << PH_SUSPEND;
	cb_driver[G] = 1u << PH_RESUME;
	modern_cfg.cb_layer = cb_layer;
	modern_cfg.cb_driver = cb_driver;
	EXPECT_EQ(JUDGE(from_layer, true), -1);
	EXPECT_EQ(JUDGE(from_driver, true), INV_CALLBACK);
	EXPECT_CONTAINS(oracle_result()->msg, "its middle layer has one, which comes first");
	EXPECT_EQ(JUDGE(untold, true), -1);
	EXPECT_EQ(JUDGE(from_lower, true), INV_CALLBACK);
	EXPECT_CONTAINS(oracle_result()->msg, "under its first one");
	/* SKIP, direct_complete due: g's prepare returned 1 and it is
	 * runtime-suspended when its suspend callback starts. */
	static const struct ev dc_due[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, { START, G, PH_PREPARE },
		{ END_POS, G, PH_PREPARE }, { PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTF, G, PH_SUSPEND, EV_FACT_RPM_TOLD | EV_FACT_RPM_SUSPENDED },
	};
	static const struct ev dc_active[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, { START, G, PH_PREPARE },
		{ END_POS, G, PH_PREPARE }, { PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTF, G, PH_SUSPEND, EV_FACT_RPM_TOLD },
	};
	static const struct ev dc_not_offered[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_PREPARE }, CB(G, PH_PREPARE),
		{ PEND, 0, PH_PREPARE }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTF, G, PH_SUSPEND, EV_FACT_RPM_TOLD | EV_FACT_RPM_SUSPENDED },
	};
	EXPECT_EQ(JUDGE(dc_due, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "direct_complete was due");
	EXPECT_EQ(JUDGE(dc_active, true), -1);
	EXPECT_EQ(JUDGE(dc_not_offered, true), -1);
	cb_layer[G] = 0;
	EXPECT_EQ(JUDGE(from_layer, true), INV_CALLBACK);
	EXPECT_CONTAINS(oracle_result()->msg, "does not choose");
	modern_cfg.cb_layer = modern_cfg.cb_driver = NULL;
	EXPECT_EQ(JUDGE(from_driver, true), -1);
	/* RUNTIME-PM: G alone, may-skip-resume. */
	exempt[P] = exempt[C] = exempt[X] = true;
	flags[G] = PMF_MAY_SKIP_RESUME;
#define RPM_DOWN \
	{ TBEGIN }, { RPM0, G, -1, 0, 1 }, { PBEGIN, 0, PH_SUSPEND }, \
	CB(G, PH_SUSPEND), { PEND, 0, PH_SUSPEND }, \
	{ PBEGIN, 0, PH_SUSPEND_LATE }, \
	{ STARTF, G, PH_SUSPEND_LATE, EV_FACT_RPM_TOLD | EV_FACT_RPM_DISABLED }, \
	{ END_OK, G, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE }, \
	{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, CB(G, PH_SUSPEND_NOIRQ), \
	{ PEND, 0, PH_SUSPEND_NOIRQ }, { PBEGIN, 0, PH_RESUME_NOIRQ }
	static const struct ev rpm_kept_ok[] = {
		RPM_DOWN, { SKIPB, G, PH_RESUME_NOIRQ, SKIP_RUNTIME_SUSPENDED,
			    EV_SKIPF_TOLD | EV_SKIPF_RPM_SUSPENDED },
	};
	static const struct ev rpm_kept_active[] = {
		RPM_DOWN, { SKIPB, G, PH_RESUME_NOIRQ, SKIP_RUNTIME_SUSPENDED, EV_SKIPF_TOLD },
	};
	static const struct ev rpm_kept_untold[] = {
		RPM_DOWN, { SKIPB, G, PH_RESUME_NOIRQ, SKIP_RUNTIME_SUSPENDED, 0 },
	};
	static const struct ev rpm_enabled_late[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		{ STARTF, G, PH_SUSPEND_LATE, EV_FACT_RPM_TOLD },
	};
	static const struct ev rpm_balanced[] = {
		RPM_DOWN, CB(G, PH_RESUME_NOIRQ), { PEND, 0, PH_RESUME_NOIRQ },
		{ PBEGIN, 0, PH_RESUME_EARLY },
		{ STARTF, G, PH_RESUME_EARLY, EV_FACT_RPM_TOLD | EV_FACT_RPM_DISABLED },
		{ END_OK, G, PH_RESUME_EARLY }, { PEND, 0, PH_RESUME_EARLY },
		{ PBEGIN, 0, PH_RESUME }, CB(G, PH_RESUME), { PEND, 0, PH_RESUME },
		{ RPM1, G, -1, 0, 1 }, { TEND_OK },
	};
	static const struct ev rpm_left_disabled[] = {
		RPM_DOWN, CB(G, PH_RESUME_NOIRQ), { PEND, 0, PH_RESUME_NOIRQ },
		{ PBEGIN, 0, PH_RESUME_EARLY }, CB(G, PH_RESUME_EARLY),
		{ PEND, 0, PH_RESUME_EARLY }, { PBEGIN, 0, PH_RESUME },
		CB(G, PH_RESUME), { PEND, 0, PH_RESUME }, { RPM1, G, -1, 1, 1 },
	};
	EXPECT_EQ(JUDGE(rpm_kept_ok, true), -1);
	EXPECT_EQ(JUDGE(rpm_kept_active, true), INV_RUNTIME_PM);
	EXPECT_CONTAINS(oracle_result()->msg, "its runtime status is not suspended");
	EXPECT_EQ(JUDGE(rpm_kept_untold, true), -1);
	EXPECT_EQ(JUDGE(rpm_enabled_late, true), INV_RUNTIME_PM);
	EXPECT_CONTAINS(oracle_result()->msg, "started with its runtime PM enabled");
	EXPECT_EQ(JUDGE(rpm_balanced, true), -1);
	EXPECT_EQ(JUDGE(rpm_left_disabled, true), INV_RUNTIME_PM);
	EXPECT_CONTAINS(oracle_result()->msg, "disables and enables do not match");
	/* Without the DPM flags main.c leaves the runtime status as the
	 * late and noirq suspend saw it. */
#define RPM_SEEN(late, early) \
	{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND_LATE }, \
	{ STARTF, G, PH_SUSPEND_LATE, EV_FACT_RPM_TOLD | EV_FACT_RPM_DISABLED | (late) }, \
	{ END_OK, G, PH_SUSPEND_LATE }, { PEND, 0, PH_SUSPEND_LATE }, \
	{ PBEGIN, 0, PH_RESUME_EARLY }, \
	{ STARTF, G, PH_RESUME_EARLY, EV_FACT_RPM_TOLD | EV_FACT_RPM_DISABLED | (early) }
	static const struct ev rpm_status_kept[] = {
		RPM_SEEN(EV_FACT_RPM_SUSPENDED, EV_FACT_RPM_SUSPENDED),
	};
	static const struct ev rpm_status_changed[] = { RPM_SEEN(EV_FACT_RPM_SUSPENDED, 0) };
#undef RPM_SEEN
	flags[G] = 0;
	EXPECT_EQ(JUDGE(rpm_status_kept, true), -1);
	EXPECT_EQ(JUDGE(rpm_status_changed, true), INV_RUNTIME_PM);
	EXPECT_CONTAINS(oracle_result()->msg, "main.c changes it only for the DPM flags");
	flags[G] = PMF_SMART_SUSPEND;
	EXPECT_EQ(JUDGE(rpm_status_changed, true), -1);
	flags[G] = PMF_MAY_SKIP_RESUME;
	/* LOCKS: the runtime tells a breach of dpm_list_mtx's rule. */
	static const struct ev lock_list[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { LOCK, -1, PH_SUSPEND, 0 },
	};
	static const struct ev lock_wait[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { LOCK, G, PH_SUSPEND, 1 },
	};
	EXPECT_EQ(JUDGE(lock_list, true), INV_LOCKS);
	EXPECT_CONTAINS(oracle_result()->msg, "main.c changes a list (list_move) without holding dpm_list_mtx");
	EXPECT_EQ(JUDGE(lock_wait, true), INV_LOCKS);
	EXPECT_CONTAINS(oracle_result()->msg, "of 'g' holding dpm_list_mtx");
	/* REMOVED: main.c puts a removed device back on its lists. */
	static const struct ev relinked[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_RESUME }, { RELINK, G, PH_RESUME },
	};
	/* ROLLBACK: is_prepared from prepare to resume, clear at resume's
	 * and complete's callbacks. */
	static const struct ev prep_kept[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTF, G, PH_SUSPEND, EV_FACT_PREP_TOLD | EV_FACT_PREPARED },
		{ END_OK, G, PH_SUSPEND }, { PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		{ STARTF, G, PH_RESUME, EV_FACT_PREP_TOLD | EV_FACT_PREPARED },
	};
	static const struct ev prep_lost[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { STARTF, G, PH_SUSPEND, EV_FACT_PREP_TOLD },
	};
	static const struct ev prep_ok[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ STARTF, G, PH_SUSPEND, EV_FACT_PREP_TOLD | EV_FACT_PREPARED },
		{ END_OK, G, PH_SUSPEND }, { PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		{ STARTF, G, PH_RESUME, EV_FACT_PREP_TOLD },
	};
	EXPECT_EQ(JUDGE(prep_kept, true), INV_ROLLBACK);
	EXPECT_CONTAINS(oracle_result()->msg, "power.is_prepared still set");
	EXPECT_EQ(JUDGE(prep_lost, true), INV_ROLLBACK);
	EXPECT_CONTAINS(oracle_result()->msg, "power.is_prepared clear");
	EXPECT_EQ(JUDGE(prep_ok, true), -1);
	EXPECT_EQ(JUDGE(relinked, true), INV_REMOVED);
	EXPECT_CONTAINS(oracle_result()->msg, "a removed device put back on the PM lists");
	flags[G] = 0;
	exempt[P] = exempt[C] = exempt[X] = false;
#undef RPM_DOWN
	/* SKIP: a smart-suspend device whose late suspend was skipped and
	 * which the aborted noirq phase took in hand without suspending it
	 * stays in suspend through a plain early resume. */
	flags[G] = PMF_SMART_SUSPEND;
#define NOIRQ_ABORT \
	{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND), \
	CB(X, PH_SUSPEND), { PEND, 0, PH_SUSPEND }, \
	{ PBEGIN, 0, PH_SUSPEND_LATE }, \
	SK(G, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED), \
	CB(X, PH_SUSPEND_LATE), { PEND, 0, PH_SUSPEND_LATE }, \
	{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, { START, X, PH_SUSPEND_NOIRQ }, \
	{ END_ERR, X, PH_SUSPEND_NOIRQ }, \
	SK(G, PH_SUSPEND_NOIRQ, SKIP_ABORTING), { PEND, 0, PH_SUSPEND_NOIRQ }, \
	{ PBEGIN, 0, PH_RESUME_NOIRQ }, { PEND, 0, PH_RESUME_NOIRQ }, \
	{ PBEGIN, 0, PH_RESUME_EARLY }
	static const struct ev early_kept[] = {
		NOIRQ_ABORT, SK(G, PH_RESUME_EARLY, SKIP_RUNTIME_SUSPENDED),
	};
	static const struct ev early_ran[] = {
		NOIRQ_ABORT, { START, G, PH_RESUME_EARLY },
	};
#undef NOIRQ_ABORT
	EXPECT_EQ(JUDGE(early_kept, true), -1);
	EXPECT_EQ(JUDGE(early_ran, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "leaves it in suspend");
	/* Smart suspend skips the driver's late callback, never the middle
	 * layer's: main.c asks the layer, which skips the device itself. */
#define LATE_SKIP(facts) \
	{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND), \
	{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE }, \
	{ SKIPB, G, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED, facts }
	static const struct ev layer_not_asked[] = {
		LATE_SKIP(EV_SKIPF_TOLD | EV_SKIPF_RPM_SUSPENDED),
	};
	static const struct ev layer_asked[] = {
		LATE_SKIP(EV_SKIPF_TOLD | EV_SKIPF_RPM_SUSPENDED | EV_SKIPF_LAYER_ASKED),
	};
#undef LATE_SKIP
	EXPECT_EQ(JUDGE(layer_not_asked, true), -1);	/* no layer */
	cb_layer[G] = 1u << PH_SUSPEND_LATE;
	modern_cfg.cb_layer = cb_layer;
	modern_cfg.cb_driver = cb_driver;
	EXPECT_EQ(JUDGE(layer_not_asked, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "without calling its middle layer");
	EXPECT_EQ(JUDGE(layer_asked, true), -1);
	/* Smart suspend skipped g's late callback: its driver's noirq one
	 * does not run either. */
	static const struct ev smart_noirq_ran[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_SUSPEND_LATE },
		SK(G, PH_SUSPEND_LATE, SKIP_RUNTIME_SUSPENDED), { PEND, 0, PH_SUSPEND_LATE },
		{ PBEGIN, 0, PH_SUSPEND_NOIRQ }, { STARTB, G, PH_SUSPEND_NOIRQ, EV_CB_FROM_DRIVER },
	};
	cb_layer[G] = 0;
	cb_driver[G] = ALL_PHASES;
	EXPECT_EQ(JUDGE(smart_noirq_ran, true), INV_SKIP);
	EXPECT_CONTAINS(oracle_result()->msg, "dev_pm_skip_suspend() cannot change");
	cb_driver[G] = 0;
	modern_cfg.cb_layer = modern_cfg.cb_driver = NULL;
	cb_layer[G] = 0;
	flags[G] = 0;
	modern_cfg.ndev = 0;
}

/*
 * WAIT: device_pm_wait_for_dev() returns an error only after a failure
 * since main.c last cleared async_error (dpm_suspend(), _late(), the
 * noirq suspend and dpm_resume() clear it); SET-UP: a completion main.c
 * uses was set up.
 */
static void test_wait_set_up(void)
{
	int wait = inv_parse("WAIT"), set_up = inv_parse("SET-UP");

	memset(&modern_cfg, 0, sizeof(modern_cfg));	/* the plain tree */
	judge_tolerate = 0;

	EXPECT_TRUE(wait >= NR_INV_BUILTIN && set_up >= NR_INV_BUILTIN);
	/* The suspend phase failed; the resume rolling it back clears the
	 * error, so a wait there returning it is stale. */
	static const struct ev stale[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ START, G, PH_SUSPEND }, { END_ERR, G, PH_SUSPEND },
		{ PEND, 0, PH_SUSPEND }, { PBEGIN, 0, PH_RESUME },
		{ PMWAIT, C, PH_RESUME, G, -EIO },
	};
	EXPECT_EQ(JUDGE(stale, true), wait);
	/* The same error while the suspend phase is still on: allowed. */
	static const struct ev current[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND },
		{ START, G, PH_SUSPEND }, { END_ERR, G, PH_SUSPEND },
		{ PMWAIT, C, PH_SUSPEND, G, -EIO },
	};
	EXPECT_EQ(JUDGE(current, true), -1);
	/* A failed late suspend's error still shows in the early resume
	 * (6.1 does not clear it there): allowed. */
	static const struct ev early[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, CB(G, PH_SUSPEND),
		CB(C, PH_SUSPEND), CB(P, PH_SUSPEND), { PEND, 0, PH_SUSPEND },
		{ PBEGIN, 0, PH_SUSPEND_LATE },
		{ START, G, PH_SUSPEND_LATE }, { END_ERR, G, PH_SUSPEND_LATE },
		{ PEND, 0, PH_SUSPEND_LATE }, { PBEGIN, 0, PH_RESUME_EARLY },
		{ PMWAIT, C, PH_RESUME_EARLY, G, -EIO },
	};
	EXPECT_EQ(JUDGE(early, true), -1);
	/* A wake-up abort's -EBUSY: allowed; a wait returning 0: always. */
	static const struct ev woken[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { WAKE },
		{ PMWAIT, C, PH_SUSPEND, G, -EBUSY },
		{ PMWAIT, C, PH_SUSPEND, G, 0 },
	};
	EXPECT_EQ(JUDGE(woken, true), -1);
	static const struct ev not_set_up[] = {
		{ TBEGIN }, { PBEGIN, 0, PH_SUSPEND }, { NOTSETUP, G, PH_SUSPEND },
	};
	EXPECT_EQ(JUDGE(not_set_up, true), set_up);
}

int main(void)
{
	test_good();
	test_suspend_after_children();
	test_resume_after_parent();
	test_once();
	test_rollback();
	test_removed();
	test_phase_barrier();
	test_sync_order();
	test_liveness();
	test_refs();
	test_modern_rules();
	test_kernel_rules();
	test_wakeup_stats_rules();
	test_wait_set_up();
	return test_summary("test_oracle");
}
