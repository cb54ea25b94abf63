// SPDX-License-Identifier: GPL-2.0-only
#include "run.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const struct scenario *scn;
static struct run_result *res;
/* Device links the run creates (VF_LINKS), supplier -> consumer. */
static int nlinks, *link_sup, *link_con;
/* Runtime status per device: suspended (VF_DIRECT_COMPLETE). */
static const bool *rpm_suspended;

/* Kernel objects with names, for the wait-for report. */
static const char *describe(const void *obj, enum wait_kind kind, char *buf,
			    size_t n)
{
	for (int i = 0; i < device_registry_size(); i++) {
		struct device *d = device_by_id(i);

		if (!d)
			continue;
		if (obj == &d->power.completion) {
			eng_lock(&d->power.completion.wait.lk);
			bool done = d->power.completion.done;

			eng_unlock(&d->power.completion.wait.lk);
			char why[256];

			check_explain(d->id, why, sizeof(why));
			snprintf(buf, n, "the power.completion of '%s'%s%s",
				 dev_name(d),
				 done ? "" : ", which nobody completes: ",
				 done ? "" : why);
			return buf;
		}
		if (obj == &d->removed) {
			snprintf(buf, n, "the end of the removal of '%s'",
				 dev_name(d));
			return buf;
		}
		if (obj == &d->sem) {
			snprintf(buf, n, "the device lock (sem) of '%s'",
				 dev_name(d));
			return buf;
		}
		if (obj == &d->power.rwsem) {
			struct rw_semaphore *s = &d->power.rwsem;

			eng_lock(&s->wait.lk);
			bool w = s->writer;
			int r = s->readers;

			eng_unlock(&s->wait.lk);
			snprintf(buf, n, "the power.rwsem of '%s' (%s, %d reader%s)",
				 dev_name(d), w ? "write-locked" : "not write-locked",
				 r, r == 1 ? "" : "s");
			return buf;
		}
	}
	switch (kind) {
	case WAIT_ASYNC_DRAIN:
		return "async_synchronize_full(): an async job has not finished";
	case WAIT_ASYNC_WORKER:
		return "a free async worker";
	case WAIT_MUTEX:
		return "a mutex (dpm_list_mtx)";
	case WAIT_COMPLETION:
		if (obj == &device_noirq_over)
			return "the end of the late/noirq window (hotplug cannot run then)";
		return "a completion of a freed device";
	default:
		return "something";
	}
}

static const struct run_opts *ropts;

/* ---- the event record of a logged run ---- */
static struct tev *evs;
static int nevs, evs_cap;
static char (*tnames)[48];
static int ntnames;

static void record(enum tev_kind k, int dev, int phase, int err)
{
	int tid = dpm_eng->current_id();

	if (nevs == evs_cap) {
		evs_cap = evs_cap ? 2 * evs_cap : 1024;
		evs = realloc(evs, sizeof(*evs) * (size_t)evs_cap);
		if (!evs)
			abort();
	}
	evs[nevs++] = (struct tev){ dpm_eng->now(), tid, k, dev, phase, err };
	if (tid >= 0 && tid >= ntnames) {
		int n = tid + 64;

		tnames = realloc(tnames, sizeof(*tnames) * (size_t)n);
		if (!tnames)
			abort();
		memset(tnames + ntnames, 0, sizeof(*tnames) * (size_t)(n - ntnames));
		ntnames = n;
	}
	if (tid >= 0 && !tnames[tid][0])
		snprintf(tnames[tid], sizeof(tnames[tid]), "%s",
			 dpm_eng->current_name());
}

static void on_check_event(enum check_event ev, int dev, int phase, int err)
{
	record((enum tev_kind)ev, dev, phase, err);
}

/* ---- interleaving feedback ---- */
static int fb_last_end = -1, fb_running;

static void order_feedback(enum check_event ev, int dev, int phase, int err)
{
	uint64_t h;

	switch (ev) {
	case CEV_PHASE_BEGIN:
		fb_last_end = -1;
		fb_running = 0;
		return;
	case CEV_START:
		fb_running++;
		h = 1;
		break;
	case CEV_END:
		fb_running--;
		h = err ? 3 : 2;
		break;
	default:
		return;
	}
	h = h * 31 + (uint64_t)phase;
	h = h * 1000003 + (uint64_t)dev;
	h = h * 1000003 + (uint64_t)(fb_last_end + 1);
	h = h * 31 + (uint64_t)(fb_running > 3 ? 3 : fb_running);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	ropts->order_counters[h % ropts->norder_counters]++;
	if (ev == CEV_END)
		fb_last_end = dev;
}

static void on_order_event(enum order_event ev, uint32_t a, uint32_t b)
{
	if (ev == ORDER_RELEASE)
		record(TEV_RELEASE, -1, -1, (int)b);
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

/* ---- concurrent actions ---- */

struct hotplug {
	const struct scn_action *a;
	struct completion done;
};

static struct hotplug *hp;


static void hotplug_task(void *arg)
{
	struct hotplug *h = arg;
	uint64_t at = h->a->at * NSEC_PER_USEC;
	/* Read the clock once: on real threads it moves between two reads,
	 * and at - now() would wrap around into a sleep without end. */
	uint64_t now = dpm_eng->now();

	if (at > now)
		dpm_eng->delay(at - now);
	struct device *dev = device_get_by_id(h->a->dev);

	if (dev) {
		pr_info("hotplug: unregistering '%s' and its children",
			dev_name(dev));
		device_unregister_subtree(dev);
		put_device(dev);
	}
	complete_all(&h->done);
}

static void user_space_writes(int cycle)
{
	for (int i = 0; i < scn->nact; i++) {
		const struct scn_action *a = &scn->act[i];

		if (a->kind != ACT_ASYNC_ATTR || a->at != (uint64_t)cycle)
			continue;
		struct device *dev = device_get_by_id(a->dev);

		if (!dev)
			continue;
		if (__atomic_load_n(&dev->removing, __ATOMIC_ACQUIRE)) {
			put_device(dev);	/* its sysfs directory is gone */
			continue;
		}
		ssize_t r = pm_variant->async_store(dev, a->attr,
						    (size_t)a->attr_len);
		pr_info("echo > %s/power/async: %zd", dev_name(dev), r);
		put_device(dev);
	}
}

static void pm_main(void *arg)
{
	(void)arg;
	pm_variant->reset();
	for (int i = 0; i < scn->ndev; i++) {
		const struct scn_device *sd = &scn->dev[i];
		struct device *dev = device_create_model(i, sd->name);

		dev->parent = sd->parent >= 0 ? device_by_id(sd->parent) : NULL;
		dev->beh = sd->beh;
		dev->beh.rpm_suspended = rpm_suspended[i];
		dev->pci = sd->pci;
		device_initialize(dev);
		if (sd->async || sd->pci)
			pm_variant->device_enable_async_suspend(dev, true);
		device_add(dev);
	}
	device_links_setup(nlinks, link_sup, link_con);
	/* From here on devices may be freed by other tasks. */
	device_quarantine(true);
	for (int i = 0; i < scn->nact; i++) {
		if (scn->act[i].kind != ACT_UNREGISTER)
			continue;
		char name[48];

		hp[i].a = &scn->act[i];
		init_completion(&hp[i].done);
		snprintf(name, sizeof(name), "hotplug/%d", i);
		dpm_eng->spawn(hotplug_task, &hp[i], name);
	}
	for (int c = 0; c < scn->cycles; c++) {
		/* Between two transitions user space and the kernel's threads
		 * run: every task that can run gets to, before the next one. */
		if (c)
			dpm_eng->delay(NSEC_PER_USEC);
		user_space_writes(c);
		check_transition_begin();
		pr_info("PM: cycle %d: suspend", c);
		int err = pm_variant->suspend_resume();

		if (c < 4)
			res->errors[c] = err;
		check_transition_end(err);
	}
	for (int i = 0; i < scn->nact; i++)
		if (scn->act[i].kind == ACT_UNREGISTER)
			wait_for_completion(&hp[i].done);
	check_refs();
	device_quarantine(false);
	/* Tear down what is left, the last registered first. */
	for (int i = scn->ndev - 1; i >= 0; i--) {
		struct device *dev = device_get_by_id(i);

		if (!dev)
			continue;
		if (!dev->parent)
			device_unregister_subtree(dev);
		put_device(dev);
	}
	check_all_freed();
}

/* The hang, marked on the timeline at the last event's time. */
static void evs_liveness_mark(void)
{
	uint64_t t = nevs ? evs[nevs - 1].ts : 0;

	if (nevs == evs_cap) {
		evs_cap = evs_cap ? 2 * evs_cap : 1024;
		evs = realloc(evs, sizeof(*evs) * (size_t)evs_cap);
		if (!evs)
			abort();
	}
	evs[nevs++] = (struct tev){ t, 0, TEV_VIOLATION, -1, -1, INV_LIVENESS };
}

/* ENGINE_THREADS: the run cannot go on; tell the caller, then exit. */
static void threads_violation(void)
{
	const struct check_result *cr = check_result();

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

void dpm_run(const struct scenario *s, const struct run_opts *o,
	     struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	scn = s;
	res = r;
	ropts = o;
	pm_variant = o->variant;
	dpm_fixes = o->fixes;
	pm_async_enabled = s->pm_async;
	pm_trace_enabled = s->pm_trace;
	dpm_log_enabled = o->log;
	dpm_log_reset();
	nevs = 0;
	if (ntnames)
		memset(tnames, 0, sizeof(*tnames) * (size_t)ntnames);
	/* Events are recorded only for reports (det engine). */
	bool rec = o->log && o->engine == ENGINE_DET;

	check_event_hook = rec ? on_check_event :
			   o->event_hook ? o->event_hook :
			   o->order_counters && o->norder_counters ? order_feedback :
			   NULL;
	fb_last_end = -1;
	fb_running = 0;
	dpm_order_hook = rec ? on_order_event : NULL;

	int *parent = malloc(sizeof(int) * (size_t)(s->ndev ? s->ndev : 1));
	const char **names = malloc(sizeof(char *) * (size_t)(s->ndev ? s->ndev : 1));
	bool async_possible = false;

	if (!parent || !names)
		abort();
	for (int i = 0; i < s->ndev; i++) {
		parent[i] = s->dev[i].parent;
		names[i] = s->dev[i].name;
		async_possible |= s->dev[i].async || s->dev[i].pci;
	}
	for (int i = 0; i < s->nact; i++)
		async_possible |= s->act[i].kind == ACT_ASYNC_ATTR;
	/* The scenario features the variant's kernel has (others are left
	 * out: docs/scenario.md). */
	unsigned int feat = o->variant->features;
	int n = s->ndev ? s->ndev : 1;
	bool *may_dc = calloc((size_t)n, sizeof(bool));
	int *pm_wait = malloc(sizeof(int) * (size_t)n);

	link_sup = malloc(sizeof(int) * (size_t)n * SCN_SUP_MAX);
	link_con = malloc(sizeof(int) * (size_t)n * SCN_SUP_MAX);
	if (!may_dc || !pm_wait || !link_sup || !link_con)
		abort();
	nlinks = 0;
	/* Runtime PM suspends a device only after its children and
	 * consumers: rpm-suspended counts where they all are too. */
	for (int i = s->ndev - 1; i >= 0; i--)
		may_dc[i] = (feat & VF_DIRECT_COMPLETE) && s->dev[i].beh.rpm_suspended;
	for (int i = s->ndev - 1; i >= 0; i--) {
		const struct scn_device *d = &s->dev[i];

		if (!may_dc[i] && d->parent >= 0)
			may_dc[d->parent] = false;
		for (int k = 0; !may_dc[i] && k < d->nsup; k++)
			may_dc[d->sup[k]] = false;
	}
	rpm_suspended = may_dc;
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];

		pm_wait[i] = feat & VF_PM_WAIT ? d->beh.pm_wait_for - 1 : -1;
		for (int k = 0; (feat & VF_LINKS) && k < d->nsup; k++) {
			link_sup[nlinks] = d->sup[k];
			link_con[nlinks++] = i;
		}
	}
	struct check_config cc = {
		.ndev = s->ndev,
		.parent = parent,
		.names = names,
		.async_possible = async_possible && s->pm_async,
		.pm_trace = s->pm_trace,
		.nlinks = nlinks,
		.link_sup = link_sup,
		.link_con = link_con,
		.may_direct_complete = may_dc,
		.pm_wait = pm_wait,
		.late_early_quiet = o->variant->late_early_quiet,
	};

	check_reset(&cc);
	device_noirq_reset();
	device_registry_reset(s->ndev);
	struct async_config ac = { s->inline_every, s->worker_limit };

	async_reset(&ac);
	hp = calloc((size_t)s->nact + 1, sizeof(*hp));
	if (!hp)
		abort();

	enum det_outcome out;

	if (o->engine == ENGINE_THREADS) {
		struct threads_config tc = o->threads;

		tc.on_watchdog = threads_watchdog;
		tc.on_violation = threads_violation;
		out = threads_run(pm_main, NULL, &tc, &r->stats);
		dpm_eng = &det_engine;
	} else {
		struct det_config dc = {
			.sched = s->sched,
			.nsched = s->nsched,
			.step_limit = 20000 + 4000ULL * (uint64_t)s->ndev *
				      (uint64_t)s->cycles,
			.choose = o->choose,
			.choose_ctx = o->choose_ctx,
		};

		out = det_run(pm_main, NULL, &dc, &r->stats);
	}
	const struct check_result *cr = check_result();

	memcpy(r->phase_ns, cr->phase_ns, sizeof(r->phase_ns));
	if (cr->violated) {
		r->violated = true;
		r->id = cr->id;
		snprintf(r->msg, sizeof(r->msg), "%s", cr->msg);
	} else if (out == DET_DEADLOCK || out == DET_STEP_LIMIT) {
		report_liveness(out);
		if (check_event_hook)
			evs_liveness_mark();
		pr_info("dpmfuzz: VIOLATION %s: %s", inv_name(r->id), r->msg);
	}
	check_event_hook = NULL;
	dpm_order_hook = NULL;
	/* A stopped or deadlocked run leaves objects behind: reclaim. */
	device_registry_free_all();
	free(hp);
	hp = NULL;
	free(parent);
	free(names);
	free(may_dc);
	free(pm_wait);
	free(link_sup);
	free(link_con);
	link_sup = link_con = NULL;
}

bool dpm_report(const struct scenario *s, const struct run_opts *o,
		FILE *out, int tail_lines, struct run_result *result)
{
	struct run_opts lo = *o;
	struct run_result *r = malloc(sizeof(*r));
	char fixes[512];

	if (!r)
		abort();
	lo.log = true;
	dpm_run(s, &lo, r);
	knobs_format(o->variant, o->fixes, fixes, sizeof(fixes));
	if (r->violated)
		fprintf(out, "dpmfuzz: VIOLATION %s: %s\n", inv_name(r->id),
			r->msg);
	else
		fprintf(out, "dpmfuzz: no violation on replay\n");
	fprintf(out, "--- variant %s, fixes: %s\n--- scenario:\n",
		o->variant->name, fixes);
	struct scenario copy = *s;

	snprintf(copy.variant, sizeof(copy.variant), "%s", o->variant->name);
	snprintf(copy.fixes, sizeof(copy.fixes), "%s",
		 o->fixes ? fixes : "");
	char *txt = scenario_print(&copy);

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

uint64_t dpm_fixes_from_env(const struct pm_variant *v)
{
	const char *e = getenv("DPMFUZZ_FIX");
	uint64_t mask = 0;
	const char *bad;
	size_t badlen;

	if (!e)
		return 0;
	if (!strcmp(e, "list")) {
		knobs_list(v, stdout);
		exit(0);
	}
	if (knobs_parse(v, e, &mask, &bad, &badlen) < 0) {
		fprintf(stderr,
			"dpmfuzz: DPMFUZZ_FIX: no knob '%.*s' in variant %s (DPMFUZZ_FIX=list shows them)\n",
			(int)badlen, bad, v->name);
		exit(2);
	}
	return mask;
}
