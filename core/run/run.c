// SPDX-License-Identifier: GPL-2.0-only
#include "run.h"
#include "run_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../sched/strategy.h"
#include "../util/str.h"

static const struct scenario *scn;
static struct run_result *res;

/* Kernel objects with names, for the wait-for report. */
static const char *describe(const void *obj, enum wait_kind kind, char *buf,
			    size_t n)
{
	int why = -1;
	const char *r = pm_variant->ops->describe(obj, buf, n, &why);

	if (r) {
		size_t at = strlen(r);

		if (why >= 0 && r == buf && at < n)
			oracle_explain(why, buf + at, n - at);
		return r;
	}
	switch (kind) {
	case WAIT_ASYNC_DRAIN:
		return "async_synchronize_full(): an async job has not finished";
	case WAIT_ASYNC_WORKER:
		return "a free async worker";
	case WAIT_MUTEX:
		return "a mutex (dpm_list_mtx)";
	case WAIT_COMPLETION:
		return "a completion of a freed device";
	default:
		return "something";
	}
}

static const struct run_opts *ropts;

/* ---- the event record of a logged run ---- */
static struct tev *evs;
static int nevs, evs_cap;
static char (*tnames)[DPM_TASK_NAME_MAX];
static int ntnames;
static bool tearing_down;	/* pm_main() is in the variant's teardown */

static void record_at(uint64_t ts, int tid, enum tev_kind k, int dev,
		      int phase, int err)
{
	DPM_ARRAY_PUSH(evs, nevs, evs_cap,
		       ((struct tev){ ts, tid, k, dev, phase, err, NULL }));
}

static void record(enum tev_kind k, int dev, int phase, int err)
{
	int tid = dpm_eng->current_id();

	record_at(dpm_eng->now(), tid, k, dev, phase, err);
	if (tid >= 0 && tid >= ntnames) {
		int n = tid + 64;

		tnames = dpm_xrealloc(tnames, (size_t)n, sizeof(*tnames));
		memset(tnames + ntnames, 0, sizeof(*tnames) * (size_t)(n - ntnames));
		ntnames = n;
	}
	if (tid >= 0 && !tnames[tid][0])
		dpm_strlcpy(tnames[tid], dpm_eng->current_name(), sizeof(tnames[tid]));
}

/* The bus listener of a logged run. */
static void record_event(const struct dpm_event *ev, void *ctx)
{
	(void)ctx;
	switch (ev->kind) {
	case EV_CB_START:
		record(TEV_START, ev->dev, ev->phase, 0);
		break;
	case EV_CB_END:
		record(TEV_END, ev->dev, ev->phase, ev->err);
		break;
	case EV_PHASE_BEGIN:
		record(TEV_PHASE_BEGIN, -1, ev->phase, 0);
		break;
	case EV_PHASE_END:
		record(TEV_PHASE_END, -1, ev->phase, 0);
		break;
	case EV_GONE:
		/* The teardown removes every device: not the run's story. */
		if (!tearing_down)
			record(TEV_REMOVED, ev->dev, ev->phase, 0);
		break;
	default:
		break;
	}
}

/* ---- interleaving feedback ---- */
static int fb_last_end = -1, fb_running;

static void order_feedback(const struct dpm_event *ev, void *ctx)
{
	uint64_t h;

	(void)ctx;
	switch (ev->kind) {
	case EV_PHASE_BEGIN:
		fb_last_end = -1;
		fb_running = 0;
		return;
	case EV_CB_START:
		fb_running++;
		h = 1;
		break;
	case EV_CB_END:
		fb_running--;
		h = ev->err ? 3 : 2;
		break;
	default:
		return;
	}
	h = h * 31 + (uint64_t)ev->phase;
	h = h * 1000003 + (uint64_t)ev->dev;
	h = h * 1000003 + (uint64_t)(fb_last_end + 1);
	h = h * 31 + (uint64_t)(fb_running > 3 ? 3 : fb_running);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	ropts->order_counters[h % ropts->norder_counters]++;
	if (ev->kind == EV_CB_END)
		fb_last_end = ev->dev;
}

/* The hotplug tasks of the run's unregister actions (hotplug_task()). */
struct hotplug {
	const struct scn_action *a;
	struct completion done;
};

static struct hotplug *hp;

/* What a blocking task waits for, in words kept with its TEV_BLOCK: the
 * variant's words for the object (the deadlock report's, less its
 * "which nobody completes", which only the end of a run can tell), else
 * the kind's.  Only reads: a wait's record changes nothing in the run. */
static const char *wait_what(const void *obj, enum wait_kind kind)
{
	static const char *const words[] = {
		[WAIT_NONE] = "something",
		[WAIT_COMPLETION] = "a completion",
		[WAIT_MUTEX] = "a mutex",
		[WAIT_SEMAPHORE] = "a semaphore",
		[WAIT_RWSEM_READ] = "an rw_semaphore, to read",
		[WAIT_RWSEM_WRITE] = "an rw_semaphore, to write",
		[WAIT_ASYNC_DRAIN] = "async_synchronize_full(): every async job to end",
		[WAIT_ASYNC_WORKER] = "a free async worker",
	};
	char buf[200];
	int why = -1;
	const char *r = NULL;

	for (int i = 0; hp && i < scn->nact; i++)
		if (obj == &hp[i].done) {
			snprintf(buf, sizeof(buf), "hotplug/%d to end its removal", i);
			r = buf;
		}
	if (!r && obj && kind != WAIT_ASYNC_DRAIN && kind != WAIT_ASYNC_WORKER)
		r = pm_variant->ops->describe(obj, buf, sizeof(buf), &why);
	if (r == buf && why >= 0) {
		char *cut = strstr(buf, ", which nobody");

		if (cut)
			*cut = '\0';
	}
	if (!r)
		r = (unsigned int)kind < sizeof(words) / sizeof(words[0]) ?
		    words[kind] : words[WAIT_NONE];
	return dpm_xmemdup(r, strlen(r) + 1, 1);
}

static void on_order_event(enum order_event ev, uint32_t a, uint32_t b)
{
	(void)a;
	switch (ev) {
	case ORDER_RELEASE:
		record(TEV_RELEASE, -1, -1, (int)b);
		break;
	case ORDER_BLOCK:
		record(TEV_BLOCK, -1, -1, (int)b);
		evs[nevs - 1].what = wait_what(det_wait_obj(), (enum wait_kind)b);
		break;
	case ORDER_UNBLOCK:
		record(TEV_UNBLOCK, -1, -1, (int)b);
		break;
	default:
		break;
	}
}

const struct tev *run_events(int *n)
{
	*n = nevs;
	return evs;
}

const char *run_task_name(int tid)
{
	return tid >= 0 && tid < ntnames && tnames[tid][0] ? tnames[tid] : NULL;
}

static void report_liveness(enum det_outcome o)
{
	struct det_task_info ti[64];
	int n = ropts->engine == ENGINE_THREADS ? threads_unfinished(ti, 64) :
						 det_unfinished(ti, 64);
	size_t at = 0;
	char what[400];

	res->violated = true;
	res->id = INV_LIVENESS;
	at += snprintf(res->msg + at, sizeof(res->msg) - at, "%s",
		       ropts->engine == ENGINE_THREADS ?
		       "the watchdog's deadline passed; unfinished tasks:" :
		       o == DET_DEADLOCK ?
		       "the transition never ends: no task can run; blocked tasks:" :
		       "the step limit was reached (livelock); unfinished tasks:");
	for (int i = 0; i < n && at < sizeof(res->msg); i++) {
		const char *w = ti[i].sleeping ? "sleeping" :
				ti[i].kind == WAIT_NONE ? "runnable" :
				ti[i].kind == WAIT_MUTEX &&
				((const struct mutex *)ti[i].obj)->owner == ti[i].id + 1 ?
				"a mutex (dpm_list_mtx) it holds itself: it took the lock again (self-deadlock)" :
				describe(ti[i].obj, ti[i].kind, what, sizeof(what));
		at += snprintf(res->msg + at, sizeof(res->msg) - at,
			       "\n    task '%s' waits for %s", ti[i].name, w);
	}
}

/*
 * KV-4 (docs/kernel.md, "Findings"), waived: a deadlock in which a task
 * waits for the power.completion of a device that was removed (main.c
 * re-armed it after device_pm_remove() completed it).  Whether the
 * waiver is on and the report became the run's known finding
 * (oracle_waive()).
 */
static bool waive_rearmed(void)
{
	struct det_task_info ti[64];
	int n = det_unfinished(ti, 64);
	char what[400], name[SCN_NAME_MAX + 1];

	if (ropts->engine == ENGINE_THREADS)
		return false;
	for (int i = 0; i < n; i++) {
		int dev;

		if (ti[i].kind != WAIT_COMPLETION || !ti[i].obj ||
		    sscanf(describe(ti[i].obj, ti[i].kind, what, sizeof(what)),
			   "the power.completion of '%39[^']'", name) != 1 ||
		    (dev = oracle_find(name)) < 0 || !oracle_gone(dev))
			continue;
		if (!oracle_waive(ORACLE_TOL_REARMED, INV_LIVENESS, res->msg))
			return false;
		res->violated = false;
		res->msg[0] = 0;
		run_take_verdict(res);
		return true;
	}
	return false;
}

/* ---- concurrent actions ---- */

static void hotplug_task(void *arg)
{
	struct hotplug *h = arg;
	uint64_t at = h->a->at * NSEC_PER_USEC;
	/* Read the clock once: on real threads it moves between two reads,
	 * and at - now() would wrap around into a sleep without end. */
	uint64_t now = dpm_eng->now();

	if (at > now)
		dpm_eng->delay(at - now);
	pm_variant->ops->unregister(h->a->dev, h->a->unfrozen);
	complete_all(&h->done);
}

static void user_space_writes(int cycle)
{
	for (int i = 0; i < scn->nact; i++) {
		const struct scn_action *a = &scn->act[i];

		if (a->kind != ACT_ASYNC_ATTR || a->at != (uint64_t)cycle)
			continue;
		pm_variant->ops->async_store(a->dev, a->attr,
					     (size_t)a->attr_len);
	}
}

static void pm_main(void *arg)
{
	(void)arg;
	pm_variant->ops->setup(scn);
	for (int i = 0; i < scn->nact; i++) {
		if (scn->act[i].kind != ACT_UNREGISTER)
			continue;
		char name[DPM_TASK_NAME_MAX];

		hp[i].a = &scn->act[i];
		init_completion(&hp[i].done);
		dpm_name_index(name, sizeof(name), "hotplug/", i);
		dpm_eng->spawn(hotplug_task, &hp[i], name);
	}
	for (int c = 0; c < scn->cycles; c++) {
		/* Between two transitions user space and the kernel's threads
		 * run: every task that can run gets to, before the next one. */
		if (c)
			dpm_eng->delay(NSEC_PER_USEC);
		user_space_writes(c);
		struct dpm_event ev = { EV_TRANSITION_BEGIN, -1, -1, 0, c, 0, NULL };

		dpm_publish(&ev);
		pr_info("PM: cycle %d: suspend", c);
		int err = pm_variant->ops->transition(c);

		if (c < RUN_ERRORS_KEPT)
			res->errors[c] = err;
		dpm_emit(EV_TRANSITION_END, -1, -1, err);
	}
	for (int i = 0; i < scn->nact; i++)
		if (scn->act[i].kind == ACT_UNREGISTER)
			wait_for_completion(&hp[i].done);
	tearing_down = true;
	pm_variant->ops->teardown();
}

/* The hang, marked on the timeline at the last event's time. */
static void evs_liveness_mark(void)
{
	record_at(nevs ? evs[nevs - 1].ts : 0, 0, TEV_VIOLATION, -1, -1,
		  INV_LIVENESS);
}

/* ENGINE_THREADS: the run cannot go on; tell the caller, then exit. */
static void threads_violation(void)
{
	const struct oracle_result *cr = oracle_result();

	res->violated = true;
	res->id = cr->id;
	snprintf(res->msg, sizeof(res->msg), "%s", cr->msg);
	if (ropts->on_fatal)
		ropts->on_fatal(scn, res);
}

static void threads_watchdog(void)
{
	report_liveness(DET_DEADLOCK);
	if (ropts->on_fatal)
		ropts->on_fatal(scn, res);
}

/*
 * The scenario as a variant whose kernel has the features feat can have
 * it: the features it lacks are left out (docs/scenario.md), and a
 * device counts as runtime-suspended only where its children and
 * consumers are too (runtime PM suspends a device only after them).
 * out shares s's schedule; its devices and actions are buf's.
 */
void dpm_cut(const struct scenario *s, unsigned int feat, struct scenario *out,
	     struct cut_buf *buf)
{
	struct scn_device *devs;

	if (s->ndev > buf->cap) {
		buf->cap = s->ndev;
		buf->devs = dpm_xrealloc(buf->devs, (size_t)buf->cap, sizeof(*buf->devs));
	}
	if (s->nact > buf->acap) {
		buf->acap = s->nact;
		buf->acts = dpm_xrealloc(buf->acts, (size_t)buf->acap, sizeof(*buf->acts));
	}
	devs = buf->devs;
	*out = *s;
	out->dev = devs;
	memcpy(devs, s->dev, sizeof(*devs) * (size_t)s->ndev);
	out->act = buf->acts;
	if (s->nact)
		memcpy(buf->acts, s->act, sizeof(*buf->acts) * (size_t)s->nact);
	if (!(feat & VF_TRANSITIONS))
		out->transition = TR_MEM;
	if (!(feat & VF_WAKEUP))
		out->wakeup_at_us = -1;
	if (!(feat & VF_SUSPEND_AGAIN))
		out->suspend_again = 0;
	for (int i = 0; i < s->ndev; i++) {
		struct scn_device *d = &devs[i];
		struct scn_device plain;

		scn_device_init(&plain);
		if (!(feat & VF_LINKS))
			d->nsup = 0;
		if (!(feat & VF_PM_WAIT))
			d->beh.pm_wait_for = 0;
		if (!(feat & VF_DIRECT_COMPLETE))
			d->beh.rpm_suspended = false;
		if (!(feat & VF_LATE_EARLY))
			for (int k = 0; k < 2; k++) {
				int p = k ? PH_RESUME_EARLY : PH_SUSPEND_LATE;

				d->beh.dur_us[p] = 0;
				d->beh.err[p] = 0;
			}
		if (!(feat & VF_PM_STACK)) {
			d->k.flags = 0;
			d->k.dpm_flags = 0;
			d->k.level = plain.k.level;
			d->k.level_cbs = plain.k.level_cbs;
			d->k.driver_cbs = plain.k.driver_cbs;
		} else if (!(feat & VF_WAKEUP)) {
			d->k.flags &= ~(SCN_WAKEUP | SCN_WAKEUP_PATH_LATE);
		}
		/* DPM flags are a driver's (its probe sets them). */
		if (d->k.flags & SCN_NO_DRIVER)
			d->k.dpm_flags = 0;
		if (!(feat & VF_SYSCORE_PARENTS) && d->parent >= 0)
			devs[d->parent].k.flags &= ~SCN_SYSCORE;
		if (!(feat & VF_LATE_ADD)) {
			d->k.late_phase = plain.k.late_phase;
			d->k.release_unregisters = plain.k.release_unregisters;
		}
		if (!(feat & VF_LINK_FLAGS)) {
			/* A supplier declared later is a sync-state-only
			 * link's, which only the link flags express. */
			int n = 0;

			for (int k = 0; k < d->nsup; k++)
				if (d->sup[k] < i)
					d->sup[n++] = d->sup[k];
			d->nsup = n;
			memcpy(d->k.link_flags, plain.k.link_flags,
			       sizeof(d->k.link_flags));
		}
	}
	/* A late device is registered by its parent's prepare, resume or
	 * complete callback: one per parent, a leaf, under a parent that is
	 * registered itself (the others are registered at the start). */
	if (feat & VF_LATE_ADD)
		for (int i = s->ndev - 1; i >= 0; i--) {
			struct scn_kernel *k = &devs[i].k;
			int p = devs[i].parent;

			if (k->late_phase < 0)
				continue;
			bool ok = p >= 0 && (k->late_phase == PH_PREPARE ||
					     k->late_phase == PH_RESUME ||
					     k->late_phase == PH_COMPLETE);

			for (int j = i + 1; ok && j < s->ndev; j++)
				if (devs[j].parent == i ||
				    (devs[j].parent == p && devs[j].k.late_phase >= 0))
					ok = false;
			for (int j = 0; ok && j < i; j++)
				if (j == p && devs[j].k.late_phase >= 0)
					ok = false;
			if (!ok)
				k->late_phase = -1;
		}
	/* A device that needs no PM is on no PM list, and its children may
	 * well need PM (the kernel does not forbid it), unless the run leaves
	 * that out (the knob no-pm-leaves): then they need none either.
	 * Whether it is async matters only where a subordinate's step starts
	 * its superiors' (the 6.16+ scheme: finding KV-6). */
	if (!(feat & VF_NO_PM_PARENTS))
		for (int i = 0; i < s->ndev; i++)
			if (devs[i].parent >= 0 &&
			    devs[devs[i].parent].k.flags & SCN_NO_PM)
				devs[i].k.flags |= SCN_NO_PM;
	if (!(feat & VF_NO_PM_ASYNC))
		for (int i = 0; i < s->ndev; i++)
			if (devs[i].k.flags & SCN_NO_PM)
				devs[i].async = devs[i].pci = false;
	/* A task that is not frozen may remove devices in the late/noirq
	 * window, where their callbacks run without the device lock: only
	 * a subtree without drivers, whose unbinding races no callback (a
	 * driver's remove racing its own noirq callback is the driver's
	 * affair, not main.c's). */
	for (int a = 0; a < s->nact; a++) {
		struct scn_action *act = &buf->acts[a];

		if (!act->unfrozen)
			continue;
		if (!(feat & VF_UNFROZEN_REMOVAL))
			act->unfrozen = false;
		for (int i = 0; act->unfrozen && i < s->ndev; i++)
			if ((i == act->dev || scn_is_descendant(s, i, act->dev)) &&
			    !(devs[i].k.flags & SCN_NO_DRIVER))
				act->unfrozen = false;
	}
	for (int i = s->ndev - 1; i >= 0; i--) {
		const struct scn_device *d = &devs[i];

		if (d->beh.rpm_suspended)
			continue;
		if (d->parent >= 0)
			devs[d->parent].beh.rpm_suspended = false;
		for (int k = 0; k < d->nsup; k++)
			if (d->sup[k] < i)	/* a later one's link is sync-state-only: no runtime PM */
				devs[d->sup[k]].beh.rpm_suspended = false;
	}
}

/* The variant's features, less those its knobs on leave out. */
unsigned int run_features(const struct run_opts *o)
{
	unsigned int feat = o->variant->features;
	uint64_t on = knobs_effective(o->variant, o->fixes);

	for (int k = 0; k < o->variant->nknobs; k++)
		if (on >> k & 1)
			feat &= ~o->variant->knobs[k].cuts;
	return feat;
}

char *dpm_scenario_as_run(const struct scenario *s, const struct run_opts *o)
{
	char fixes[KNOBS_TEXT_MAX];
	struct scenario copy = *cut_to_features(s, run_features(o));

	knobs_format(o->variant, o->fixes, fixes, sizeof(fixes));
	snprintf(copy.variant, sizeof(copy.variant), "%s", o->variant->name);
	snprintf(copy.fixes, sizeof(copy.fixes), "%s", o->fixes ? fixes : "");
	return scenario_print(&copy);
}

/* dpm_cut() into a buffer reused from run to run. */
struct scenario *cut_to_features(const struct scenario *s,
					unsigned int feat)
{
	static struct scenario cut;
	static struct cut_buf buf;

	dpm_cut(s, feat, &cut, &buf);
	return &cut;
}

/* The kernel variants' part of the view, for variants that have it. */
static void oracle_view_kernel(struct oracle_view *v, const struct scenario *s,
			       unsigned int feat)
{
	size_t n = (size_t)(s->ndev ? s->ndev : 1);

	if (feat & VF_PM_STACK) {
		v->exempt = dpm_xcalloc(n, sizeof(bool));
		v->syscore = dpm_xcalloc(n, sizeof(bool));
		v->dpm_flags = dpm_xcalloc(n, sizeof(unsigned int));
		v->wakeup = dpm_xcalloc(n, sizeof(bool));
		v->wakeup_late = dpm_xcalloc(n, sizeof(bool));
		for (int i = 0; i < s->ndev; i++) {
			v->wakeup[i] = s->dev[i].k.flags & SCN_WAKEUP;
			v->wakeup_late[i] = s->dev[i].k.flags & SCN_WAKEUP_PATH_LATE;
			v->exempt[i] = s->dev[i].k.flags & SCN_NO_PM;
			v->syscore[i] = s->dev[i].k.flags & SCN_SYSCORE;
			v->dpm_flags[i] = s->dev[i].k.dpm_flags;
		}
	}
	if (feat & VF_LATE_ADD) {
		v->late = dpm_xcalloc(n, sizeof(bool));
		for (int i = 0; i < s->ndev; i++)
			v->late[i] = s->dev[i].k.late_phase >= 0;
	}
	v->cfg.exempt = v->exempt;
	v->cfg.syscore = v->syscore;
	v->cfg.late = v->late;
	v->cfg.dpm_flags = v->dpm_flags;
	v->cfg.wakeup = v->wakeup;
	v->cfg.wakeup_late = v->wakeup_late;
	v->cfg.left_skips_resume = feat & VF_LEAVE_SUSPENDED;
	/* direct_complete needs PM_EVENT_SUSPEND; which resume follows. */
	v->cfg.dc_forbidden = s->transition != TR_MEM && s->transition != TR_S2IDLE;
	/* kernel/power/hibernate.c: an image thaws, or restores when the
	 * wake-up skipped it, or recovers after a failure; a power-off that
	 * fails restores; a resume from an image restores, or recovers. */
	switch (s->transition) {
	case TR_FREEZE:
		v->cfg.resume = RESUME_THAW;
		v->cfg.resume_failed = RESUME_PLAIN;
		v->cfg.resume_woken = RESUME_RESTORE;
		break;
	case TR_POWEROFF:
		v->cfg.resume = v->cfg.resume_failed = v->cfg.resume_woken =
			RESUME_RESTORE;
		break;
	case TR_RESTORE:
		v->cfg.resume = v->cfg.resume_woken = RESUME_RESTORE;
		v->cfg.resume_failed = RESUME_PLAIN;
		break;
	default:
		v->cfg.resume = v->cfg.resume_failed = v->cfg.resume_woken =
			RESUME_PLAIN;
		break;
	}
}

void oracle_view_build(struct oracle_view *v, const struct scenario *s,
		       const struct run_opts *o, unsigned int feat)
{
	size_t n = (size_t)(s->ndev ? s->ndev : 1);
	bool async_possible = false;
	int nlinks = 0;

	v->parent = dpm_xrealloc(NULL, n, sizeof(int));
	v->names = dpm_xrealloc(NULL, n, sizeof(char *));
	v->may_dc = dpm_xrealloc(NULL, n, sizeof(bool));
	v->pm_wait = dpm_xrealloc(NULL, n, sizeof(int));
	v->link_sup = dpm_xrealloc(NULL, n * SCN_SUP_MAX, sizeof(int));
	v->link_con = dpm_xrealloc(NULL, n * SCN_SUP_MAX, sizeof(int));
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];

		v->parent[i] = d->parent;
		v->names[i] = d->name;
		v->may_dc[i] = d->beh.rpm_suspended;
		v->pm_wait[i] = d->beh.pm_wait_for - 1;
		async_possible |= d->async || d->pci;
		/* A kernel variant's links: what device_link_add() made of
		 * them, published as they change (EV_LINK). */
		for (int k = 0; !(feat & VF_LINK_FLAGS) && k < d->nsup; k++) {
			v->link_sup[nlinks] = d->sup[k];
			v->link_con[nlinks++] = i;
		}
	}
	for (int i = 0; i < s->nact; i++)
		async_possible |= s->act[i].kind == ACT_ASYNC_ATTR;
	v->cfg = (struct oracle_config){
		.ndev = s->ndev,
		.parent = v->parent,
		.names = v->names,
		.async_possible = async_possible && s->pm_async,
		.pm_trace = s->pm_trace,
		.nlinks = nlinks,
		.link_sup = v->link_sup,
		.link_con = v->link_con,
		.may_direct_complete = v->may_dc,
		.pm_wait = v->pm_wait,
	};
	v->exempt = v->syscore = v->late = v->wakeup = v->wakeup_late = v->may_async = NULL;
	v->scn_sup = v->scn_con = NULL;
	v->cb_layer = v->cb_driver = NULL;
	v->dpm_flags = NULL;
	oracle_view_kernel(v, s, feat);
	/* A kernel tree's main.c records its failures in suspend_stats. */
	if (o->variant->kernel) {
		v->may_async = dpm_xcalloc(n, sizeof(bool));
		for (int i = 0; i < s->ndev; i++)
			v->may_async[i] = s->pm_async && (s->dev[i].async || s->dev[i].pci);
		for (int i = 0; i < s->nact; i++)
			if (s->act[i].kind == ACT_ASYNC_ATTR && s->act[i].dev >= 0 &&
			    s->act[i].dev < s->ndev)
				v->may_async[s->act[i].dev] = s->pm_async;
		v->scn_sup = dpm_xcalloc(n * SCN_SUP_MAX, sizeof(int));
		v->scn_con = dpm_xcalloc(n * SCN_SUP_MAX, sizeof(int));
		int nl = 0;

		for (int i = 0; i < s->ndev; i++)
			for (int k = 0; k < s->dev[i].nsup; k++)
				if (s->dev[i].sup[k] >= 0 && s->dev[i].sup[k] < s->ndev) {
					v->scn_sup[nl] = s->dev[i].sup[k];
					v->scn_con[nl++] = i;
				}
		v->cfg.nscn_links = nl;
		v->cfg.scn_link_sup = v->scn_sup;
		v->cfg.scn_link_con = v->scn_con;
		v->cfg.stats = true;
		v->cfg.may_async = v->may_async;
		v->cfg.walk_stops = true;
		/* CALLBACK: whose callback each phase's is (the devices have
		 * one middle layer at most; a legacy bus has only suspend and
		 * resume, and main.c then asks no driver for them). */
		v->cb_layer = dpm_xcalloc(n, sizeof(unsigned int));
		v->cb_driver = dpm_xcalloc(n, sizeof(unsigned int));
		for (int i = 0; i < s->ndev; i++) {
			const struct scn_kernel *k = &s->dev[i].k;
			unsigned int layer = k->level == LVL_NONE ? 0 : k->level_cbs;
			unsigned int driver = k->flags & SCN_NO_DRIVER ? 0 : k->driver_cbs;

			if (k->level == LVL_LEGACY_BUS)
				layer &= 1u << PH_SUSPEND | 1u << PH_RESUME;
			v->cb_layer[i] = layer;
			v->cb_driver[i] = driver & ~layer;
		}
		v->cfg.cb_layer = v->cb_layer;
		v->cfg.cb_driver = v->cb_driver;
	}
	uint64_t on = knobs_effective(o->variant, o->fixes);

	for (int k = 0; k < o->variant->nknobs; k++)
		if (on >> k & 1)
			v->cfg.tolerate |= o->variant->knobs[k].tolerates;
}

void run_take_verdict(struct run_result *r)
{
	const struct oracle_result *cr = oracle_result();

	memcpy(r->phase_ns, cr->phase_ns, sizeof(r->phase_ns));
	r->waived = cr->waived;
	r->waived_id = cr->waived_id;
	snprintf(r->waived_msg, sizeof(r->waived_msg), "%s", cr->waived_msg);
	if (cr->violated) {
		r->violated = true;
		r->id = cr->id;
		snprintf(r->msg, sizeof(r->msg), "%s", cr->msg);
	}
}

void run_print_known(FILE *f, const struct pm_variant *v,
		     const struct run_result *r)
{
	char names[512];
	size_t at = 0;

	if (r->violated || !r->waived)
		return;
	names[0] = 0;
	for (int k = 0; k < v->nknobs && at < sizeof(names); k++) {
		const struct knob *kb = &v->knobs[k];
		size_t len = strcspn(kb->reason, ":");

		if (!(kb->tolerates & r->waived))
			continue;
		/* The finding's name: the knob's reason up to its colon. */
		if (!kb->reason[len] || len > 16)
			len = 0;
		at += (size_t)snprintf(names + at, sizeof(names) - at,
				       "%s%.*s%s(waiver %s)", at ? ", " : "",
				       (int)len, kb->reason, len ? " " : "",
				       kb->name);
	}
	fprintf(f, "dpmfuzz: KNOWN %s: %s: %s\n", names, inv_name(r->waived_id),
		r->waived_msg);
}

void oracle_view_free(struct oracle_view *v)
{
	free(v->parent);
	free(v->names);
	free(v->may_dc);
	free(v->pm_wait);
	free(v->link_sup);
	free(v->link_con);
	free(v->exempt);
	free(v->scn_sup);
	free(v->scn_con);
	free(v->syscore);
	free(v->late);
	free(v->wakeup);
	free(v->wakeup_late);
	free(v->may_async);
	free(v->cb_layer);
	free(v->cb_driver);
	free(v->dpm_flags);
}

/* The threads engine's watchdog: its base deadline (the run options may
 * set another) and the time it adds per device and cycle. */
#define WATCHDOG_BASE_MS 10000
#define WATCHDOG_US_PER_DEVICE 2000

/* The step limit of a det run: scheduling points before LIVENESS
 * (livelock), generous for the work a scenario can ask. */
#define STEP_LIMIT_BASE 20000ULL
#define STEP_LIMIT_PER_DEVICE_CYCLE 4000ULL

void dpm_run(const struct scenario *s0, const struct run_opts *o,
	     struct run_result *r)
{
	unsigned int feat = run_features(o);
	const struct scenario *s = cut_to_features(s0, feat);

	memset(r, 0, sizeof(*r));
	scn = s;
	res = r;
	ropts = o;
	pm_variant = o->variant;
	dpm_model = o->variant->model;
	dpm_fixes = knobs_effective(o->variant, o->fixes);
	pm_async_enabled = s->pm_async;
	pm_trace_enabled = s->pm_trace;
	dpm_log_enabled = o->log;
	dpm_log_reset();
	for (int i = 0; i < nevs; i++)
		free((void *)evs[i].what);
	nevs = 0;
	tearing_down = false;
	if (ntnames)
		memset(tnames, 0, sizeof(*tnames) * (size_t)ntnames);
	/* Events are recorded only for reports (det engine). */
	bool rec = o->log && o->engine == ENGINE_DET;

	dpm_listen_none();
	if (rec)
		dpm_listen(record_event, NULL);
	if (o->event_hook)
		dpm_listen(o->event_hook, o->event_ctx);
	else if (!rec && o->order_counters && o->norder_counters)
		dpm_listen(order_feedback, NULL);
	dpm_listen(oracle_listener, NULL);
	fb_last_end = -1;
	fb_running = 0;
	dpm_order_hook = rec ? on_order_event : NULL;

	struct oracle_view view;

	oracle_view_build(&view, s, o, feat);
	bool alloc_failures = true, worker_limit = true;

	for (int k = 0; k < o->variant->nknobs; k++)
		if (dpm_fixes >> k & 1) {
			alloc_failures &= !o->variant->knobs[k].no_alloc_failures;
			worker_limit &= !o->variant->knobs[k].no_worker_limit;
		}
	oracle_reset(&view.cfg);
	device_layer_reset(s->ndev);
	struct async_config ac = {
		.inline_every = alloc_failures ? s->inline_every : 0,
		.worker_limit = worker_limit ? s->worker_limit : 0,
	};

	async_reset(&ac);
	hp = dpm_xrealloc(NULL, (size_t)s->nact + 1, sizeof(*hp));
	memset(hp, 0, sizeof(*hp) * ((size_t)s->nact + 1));

	enum det_outcome out;

	if (o->engine == ENGINE_THREADS) {
		struct threads_config tc = o->threads;

		/* The deadline grows with the work: a run of a million
		 * devices on threads takes minutes, not seconds. */
		if (!tc.watchdog_ms)
			tc.watchdog_ms = WATCHDOG_BASE_MS;
		tc.watchdog_ms += (unsigned int)((uint64_t)s->ndev * (uint64_t)s->cycles *
						 WATCHDOG_US_PER_DEVICE / 1000);
		tc.on_watchdog = threads_watchdog;
		tc.on_violation = threads_violation;
		out = threads_run(pm_main, NULL, &tc, &r->stats);
		dpm_eng = &det_engine;
	} else {
		struct det_config dc = {
			.sched = s->sched,
			.nsched = s->nsched,
			.step_limit = STEP_LIMIT_BASE + STEP_LIMIT_PER_DEVICE_CYCLE *
				      (uint64_t)s->ndev * (uint64_t)s->cycles,
			.choose = o->choose,
			.choose_ctx = o->choose_ctx,
		};
		/* Bytes read by task: the keyed strategy, started afresh for
		 * every run, so every replay of s makes the same choices. */
		static struct dpm_strategy keyed;

		if (s->sched_by_task && !o->choose) {
			dc.choose = dpm_strategy_start(&keyed, STRAT_KEYED, 0, 0, s);
			dc.choose_ctx = &keyed;
		}
		out = det_run(pm_main, NULL, &dc, &r->stats);
	}
	const struct oracle_result *cr = oracle_result();

	run_take_verdict(r);
	if (cr->violated) {
		if (rec)
			record_at(cr->viol_ns, cr->viol_tid, TEV_VIOLATION, -1,
				  -1, cr->id);
	} else if (out == DET_INTERRUPTED) {
		r->interrupted = true;
	} else if (out == DET_DEADLOCK || out == DET_STEP_LIMIT) {
		report_liveness(out);
		if (out != DET_DEADLOCK || !waive_rearmed()) {
			if (rec)
				evs_liveness_mark();
			pr_info("dpmfuzz: VIOLATION %s: %s", inv_name(r->id), r->msg);
		}
	}
	dpm_listen_none();
	dpm_order_hook = NULL;
	/* A stopped or deadlocked run leaves objects behind: reclaim. */
	pm_variant->ops->abandon();
	free(hp);
	hp = NULL;
	oracle_view_free(&view);
}

bool dpm_report(const struct scenario *s, const struct run_opts *o,
		FILE *out, int tail_lines, struct run_result *result)
{
	struct run_opts lo = *o;
	struct run_result *r = dpm_xrealloc(NULL, 1, sizeof(*r));
	char fixes[KNOBS_TEXT_MAX];

	lo.log = true;
	dpm_run(s, &lo, r);
	if (r->interrupted && !r->violated) {
		if (result)
			*result = *r;
		free(r);
		return false;
	}
	knobs_format(o->variant, o->fixes, fixes, sizeof(fixes));
	if (r->violated)
		fprintf(out, "dpmfuzz: VIOLATION %s: %s\n", inv_name(r->id),
			r->msg);
	else
		fprintf(out, "dpmfuzz: no violation on replay\n");
	run_print_known(out, o->variant, r);
	fprintf(out, "--- variant %s, fixes: %s\n--- scenario:\n",
		o->variant->name, fixes);
	char *txt = dpm_scenario_as_run(s, o);

	fputs(txt, out);
	free(txt);
	const char *log = dpm_log_text();
	const char *start = log + strlen(log);
	int lines = 0;

	while (start > log && (tail_lines <= 0 || lines <= tail_lines)) {
		start--;
		if (*start == '\n' && start[1])
			lines++;
		if (tail_lines > 0 && lines > tail_lines) {
			start++;
			break;
		}
	}
	fprintf(out, "--- trace (%s):\n%s", tail_lines > 0 ? "tail" : "all",
		start);
	bool v = r->violated;

	if (result)
		*result = *r;
	free(r);
	return v;
}

bool dpm_schedule_by_position(struct scenario *s, const struct run_opts *o)
{
	static struct run_result r;
	struct dpm_strategy st = { 0 };
	struct run_opts q = *o;
	bool ok = false;

	if (!s->sched_by_task || !s->nsched)
		return false;
	q.log = false;
	q.choose = dpm_strategy_start(&st, STRAT_KEYED, 0, 0, s);
	q.choose_ctx = &st;
	dpm_run(s, &q, &r);
	if (st.rec_exact) {
		free(s->sched);
		s->sched = st.rec;
		s->nsched = st.nrec;
		st.rec = NULL;
		s->sched_by_task = false;
		ok = true;
	}
	dpm_strategy_free(&st);
	return ok;
}
