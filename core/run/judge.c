// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracle on a real kernel's run: the record of vm/module/dpmvm.c
 * (docs/vm.md, "The record") turned into the events of the bus, in the
 * order the record's sequence numbers give, and judged by the same
 * oracle, with the same view of the scenario, as the kernel variant's
 * run of it.  Nothing is simulated: every event is something the real
 * PM core did to the module's devices.
 *
 * The record's kinds and the events they become (kernel/rt/events.c
 * makes the same events from the same calls in the kernel variants):
 *   TB, TE   EV_TRANSITION_BEGIN (after EV_LIST_POS for the devices in
 *            the order this transition's prepare walked them), and
 *            EV_TRANSITION_END with the error the write to
 *            /sys/power/state failed with (ERR).
 *   PB, PE   EV_PHASE_BEGIN, EV_PHASE_END.  A phase begun inside another
 *            (a failed dpm_suspend_late() runs dpm_resume_early()) ends
 *            the open one; its own end comes later and is passed over.
 *   MS, ME   the PM core's step for a device: EV_HANDLED when it takes
 *            the device in hand (the first MS, CS or DN of the device in
 *            the phase); in prepare and complete, ME ends the step, and
 *            a step that called no callback is an EV_SKIP.
 *   CS, CE   EV_CB_START, EV_CB_END: the module's callback (CE's ERR the
 *            error it was asked for, A what it returned).
 *   DN       main.c is done with the device in a phase; with no
 *            callback in the phase, the flags main.c left say why
 *            (EV_SKIP with its reason, EV_DIRECT_COMPLETE or
 *            EV_DIRECT_RESUME), as kernel/rt/events.c judges them.
 *   RM, GO   EV_GONE: the device is being removed (the module's own
 *            removal, before device_del()), or leaves dpm_list.
 *   LK       EV_LINK: a link, ordered unless DORMANT or SYNC_STATE_ONLY.
 *   RP       EV_RPM_STATE: a device's runtime PM disable depth (A) and
 *            whether it is runtime-suspended (B) as the transition
 *            begins (ERR 0, after TB) and ends (ERR 1, before TE).
 *   UB       EV_UNBOUND: the device's driver was unbound; its managed
 *            (not stateless) links to consumers go DORMANT then
 *            (device_links_driver_cleanup()), so EV_LINK unordered.
 *   FR       EV_FREED.
 *   AD       EV_ADDED and EV_LIST_POS at dpm_list's tail: a late device
 *            registered by its parent's callback.
 *   WA       EV_WAKEUP_ABORT: pm_wakeup_pending()'s first yes in the
 *            transition.  HP, WK (a hotplug removal, a wake-up event
 *            starts) say where an action began, for the reader.
 * A '#' line is a comment, but for '# hung' (the transition never
 * returned: LIVENESS, after the events) and '# stack TEXT' (a line of
 * the blocked tasks' stacks, for the LIVENESS report).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "run_int.h"
#include "../util/str.h"

/* The kernel's enum pm_phase numbers the record uses: prepare 0 ... complete 7. */
#define REC_NO_PHASE -1
/* PM_EVENT_* of the phases' trace value (include/linux/pm.h). */
#define KPM_EVENT_THAW 0x0020
#define KPM_EVENT_RESTORE 0x0040
/* DN's A: what main.c left in the device's dev_pm_info. */
#define DN_SUSPENDED 1
#define DN_LATE 2
#define DN_NOIRQ 4
#define DN_DIRECT_COMPLETE 8
#define DN_MUST_RESUME 16
#define DN_RPM_SUSPENDED 32
#define DN_TOLD 64		/* DN_HAS_CB is told */
#define DN_HAS_CB 128		/* the device has a callback for the phase */
/* DL_STATE_DORMANT */
#define KDL_DORMANT 0
/* EV_SKIP's b (kernel/kabi.h's DPMK_SKIPF_*). */
#define SKIPF_RPM_SUSPENDED 1
#define SKIPF_DIRECT_COMPLETE 2

struct rec_ev {
	unsigned long long seq, ns;
	int pid;
	char kind[3];
	int dev, phase, err;
	long long a, b;
};

struct jdev {
	int handled_inst, ran_inst, done_inst;
	int depth;
	bool in_dc, early_rpm_suspended, gone;
};

static struct {
	const struct scenario *s;
	struct rec_ev *ev;
	int nev, cap;
	bool hung;
	char *stacks;
	size_t nstacks;
	/* the replay */
	struct jdev *d;
	int phase, inst;
	int next_pos;		/* dpm_list's tail: a late device's place */
	unsigned long long t0, now;
	int pid;
	int pids[256], npids;
	jmp_buf stop;
} J;

/* ---- the engine of a judged record: the record's time and tasks ---- */

static void j_never(void)
{
	fprintf(stderr, "judge: the oracle asked a record to schedule\n");
	abort();
}

static void j_wait(struct waitq *wq, enum wait_kind k, const void *o)
{
	(void)wq, (void)k, (void)o;
	j_never();
}

static void j_wake(struct waitq *wq)
{
	(void)wq;
}

static void j_point(void)
{
}

static void j_spawn(void (*fn)(void *), void *arg, const char *name)
{
	(void)fn, (void)arg, (void)name;
	j_never();
}

/* Tasks by the order their pid first appears. */
static int j_current(void)
{
	for (int i = 0; i < J.npids; i++)
		if (J.pids[i] == J.pid)
			return i;
	if (J.npids < (int)(sizeof(J.pids) / sizeof(J.pids[0]))) {
		J.pids[J.npids] = J.pid;
		return J.npids++;
	}
	return 0;
}

static const char *j_name(void)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "pid-%d", J.pid);
	return buf;
}

static uint64_t j_now(void)
{
	return J.now;
}

static void j_delay(uint64_t ns)
{
	(void)ns;
}

__attribute__((noreturn)) static void j_stop(void)
{
	longjmp(J.stop, 1);
}

static const struct dpm_engine judge_engine = {
	.name = "record",
	.wait = j_wait,
	.wake_all = j_wake,
	.sched_point = j_point,
	.spawn = j_spawn,
	.current_id = j_current,
	.current_name = j_name,
	.now = j_now,
	.delay = j_delay,
	.stop = j_stop,
};

/* ---- reading the record ---- */

static int dev_index(const char *name)
{
	if (!strcmp(name, "-"))
		return -1;
	for (int i = 0; i < J.s->ndev; i++)
		if (!strcmp(J.s->dev[i].name, name))
			return i;
	return -2;
}

static const char *const kinds[] = {
	"TB", "TE", "PB", "PE", "MS", "ME", "CS", "CE", "DN", "RM", "GO",
	"LK", "FR", "WA", "HP", "WK", "AD", "UB", "RP",
};

static int parse_line(char *l, int no, char *err, size_t errlen)
{
	struct rec_ev e;
	char kind[8], dev[64];
	int n = 0;

	if (l[0] == '#') {
		if (!strncmp(l, "# hung", 6)) {
			J.hung = true;
		} else if (!strncmp(l, "# stack ", 8)) {
			size_t len = strlen(l + 8);

			J.stacks = dpm_xrealloc(J.stacks, J.nstacks + len + 2, 1);
			memcpy(J.stacks + J.nstacks, l + 8, len);
			J.nstacks += len;
			J.stacks[J.nstacks++] = '\n';
			J.stacks[J.nstacks] = 0;
		} else if (!strncmp(l, "# full", 6)) {
			snprintf(err, errlen, "line %d: the record overflowed (the module keeps 65,536 events)", no);
			return -1;
		}
		return 0;
	}
	if (!l[strspn(l, " \t")])
		return 0;
	unsigned cpu;

	if (sscanf(l, "%llu %llu %u %d %7s %63s %d %d %lld %lld %n", &e.seq,
		   &e.ns, &cpu, &e.pid, kind, dev, &e.phase, &e.err, &e.a,
		   &e.b, &n) != 10 || l[n]) {
		snprintf(err, errlen, "line %d: not a record line (SEQ NS CPU PID KIND DEV PHASE ERR A B)", no);
		return -1;
	}
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(kind, kinds[k]))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(err, errlen, "line %d: unknown event kind '%.8s'", no, kind);
		return -1;
	}
	memcpy(e.kind, kind, 3);
	e.dev = dev_index(dev);
	if (e.dev == -2) {
		snprintf(err, errlen, "line %d: no device '%.63s' in the scenario", no, dev);
		return -1;
	}
	if (e.phase < REC_NO_PHASE || e.phase >= NR_PHASES) {
		snprintf(err, errlen, "line %d: phase %d out of range", no, e.phase);
		return -1;
	}
	bool needs_dev = strcmp(kind, "TB") && strcmp(kind, "TE") &&
			 strcmp(kind, "PB") && strcmp(kind, "PE") &&
			 strcmp(kind, "WA") && strcmp(kind, "HP") &&
			 strcmp(kind, "WK");

	if (needs_dev != (e.dev >= 0)) {
		snprintf(err, errlen, "line %d: a %s event %s a device", no, kind,
			 needs_dev ? "needs" : "has no");
		return -1;
	}
	if (!strcmp(kind, "LK") && (e.a < 0 || e.a >= J.s->ndev)) {
		snprintf(err, errlen, "line %d: a link from device %lld, which the scenario does not have", no, e.a);
		return -1;
	}
	if (J.nev && e.seq <= J.ev[J.nev - 1].seq) {
		snprintf(err, errlen, "line %d: sequence number %llu after %llu", no,
			 e.seq, J.ev[J.nev - 1].seq);
		return -1;
	}
	DPM_ARRAY_PUSH(J.ev, J.nev, J.cap, e);
	return 0;
}

static int read_record(FILE *f, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int no = 0, rc = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		no++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (parse_line(line, no, err, errlen)) {
			rc = -1;
			break;
		}
	}
	free(line);
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "cannot read the record: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

/* ---- the record as events ---- */

static void emit(int kind, int dev, int phase, int err, long long a, long long b)
{
	struct dpm_event ev = { kind, dev, phase, err, a, b, NULL };

	dpm_publish(&ev);
}

/* The module's devices have every callback at one level, but for a
 * device with no driver (docs/vm.md, "What a scenario can say"). */
/* Whether the device has a callback for phase p: its middle layer's, or
 * where that has none its driver's (main.c's lookup). */
static bool has_callback(int i, int p, long long fl)
{
	const struct scn_kernel *k = &J.s->dev[i].k;

	/* The module says (a late device's driver binds only after the
	 * transition); an older record leaves it to the scenario. */
	if (fl & DN_TOLD)
		return fl & DN_HAS_CB;
	/* A legacy bus has the old suspend and resume methods only. */
	if (k->level == LVL_LEGACY_BUS ? (p == PH_SUSPEND || p == PH_RESUME) &&
					 (k->level_cbs >> p & 1) :
	    k->level != LVL_NONE && (k->level_cbs >> p & 1))
		return true;
	return !(k->flags & SCN_NO_DRIVER) && (k->driver_cbs >> p & 1);
}

static bool syscore(int i)
{
	return J.s->dev[i].k.flags & SCN_SYSCORE;
}

static void handled(int i)
{
	if (J.d[i].handled_inst == J.inst)
		return;
	J.d[i].handled_inst = J.inst;
	emit(EV_HANDLED, i, J.phase, 0, 0, 0);
}

static void skip(int i, int p, int why, long long flags)
{
	long long facts = 0;
	bool rpm = flags & DN_RPM_SUSPENDED;

	if (p == PH_RESUME && why == SKIP_RUNTIME_SUSPENDED && !J.d[i].in_dc)
		rpm = J.d[i].early_rpm_suspended;
	if (rpm)
		facts |= SKIPF_RPM_SUSPENDED;
	if (J.d[i].in_dc)
		facts |= SKIPF_DIRECT_COMPLETE;
	emit(EV_SKIP, i, p, 0, why, facts);
}

static void judge_suspend(int i, int p, long long fl)
{
	struct jdev *d = &J.d[i];
	int deep = p == PH_SUSPEND ? DN_SUSPENDED :
		   p == PH_SUSPEND_LATE ? DN_LATE : DN_NOIRQ;

	if (p == PH_SUSPEND && (fl & DN_DIRECT_COMPLETE) &&
	    (fl & DN_RPM_SUSPENDED)) {
		d->in_dc = true;
		d->depth = pm_phase_depth(p);
		emit(EV_DIRECT_COMPLETE, i, p, 0, 0, 0);
	} else if (syscore(i)) {
		skip(i, p, SKIP_SYSCORE, fl);
	} else if (!(fl & deep)) {
		skip(i, p, d->in_dc ? SKIP_RUNTIME_SUSPENDED : SKIP_ABORTING, fl);
	} else {
		d->in_dc = false;
		d->depth = pm_phase_depth(p);
		/* No callback to call, or the middle layer let main.c skip
		 * it (smart suspend, runtime-suspended). */
		skip(i, p, has_callback(i, p, fl) ? SKIP_RUNTIME_SUSPENDED :
					     SKIP_NO_CALLBACK, fl);
	}
}

static void judge_resume(int i, int p, long long fl)
{
	struct jdev *d = &J.d[i];
	int want = pm_phase_depth(p);

	if (p == PH_RESUME && d->in_dc) {
		d->in_dc = false;
		if (fl & DN_DIRECT_COMPLETE) {
			d->depth = 0;
			emit(EV_DIRECT_RESUME, i, p, 0, 0, 0);
			return;
		}
	}
	if (syscore(i)) {
		skip(i, p, SKIP_SYSCORE, fl);
	} else if (d->in_dc) {
		skip(i, p, SKIP_RUNTIME_SUSPENDED, fl);
	} else if (d->depth < want) {
		skip(i, p, SKIP_NOT_SUSPENDED, fl);
	} else {
		d->depth = want - 1;
		/* Left in suspend: may-skip-resume or smart suspend. */
		skip(i, p, has_callback(i, p, fl) ? SKIP_RUNTIME_SUSPENDED :
					     SKIP_NO_CALLBACK, fl);
	}
}

static bool step_phase(int p)
{
	return p == PH_PREPARE || p == PH_COMPLETE;
}

/* The order this transition's prepare phase took the devices in:
 * dpm_list's order, which links change (EV_LIST_POS). */
static void list_order(int from)
{
	int pos = 0, phase = -1;
	bool *late = dpm_xcalloc((size_t)J.s->ndev + 1, sizeof(bool));

	for (int k = from; k < J.nev && strcmp(J.ev[k].kind, "TE"); k++) {
		const struct rec_ev *e = &J.ev[k];

		if (!strcmp(e->kind, "PB"))
			phase = e->phase;
		else if (!strcmp(e->kind, "PE") && e->phase == PH_PREPARE)
			break;
		else if (!strcmp(e->kind, "AD"))
			late[e->dev] = true;	/* its place comes with it */
		else if (!strcmp(e->kind, "MS") && phase == PH_PREPARE && !e->a &&
			 !late[e->dev])
			emit(EV_LIST_POS, e->dev, -1, 0, pos++, 0);
	}
	/* A device registered from here on takes the tail. */
	J.next_pos = pos;
	free(late);
}

static void phase_end(void)
{
	if (J.phase < 0)
		return;
	emit(EV_PHASE_END, -1, J.phase, 0, 0, 0);
	J.phase = -1;
}

static void feed(int k)
{
	const struct rec_ev *e = &J.ev[k];
	int i = e->dev, p = J.phase;
	struct jdev *d = i >= 0 ? &J.d[i] : NULL;
	const char *kd = e->kind;

	J.pid = e->pid;
	J.now = e->ns - J.t0;
	if (!strcmp(kd, "TB")) {
		list_order(k + 1);
		emit(EV_TRANSITION_BEGIN, -1, -1, 0, e->a > 0 ? e->a - 1 : 0, 0);
	} else if (!strcmp(kd, "TE")) {
		phase_end();
		emit(EV_TRANSITION_END, -1, -1, e->err, 0, 0);
	} else if (!strcmp(kd, "PB")) {
		phase_end();
		J.inst++;
		J.phase = e->phase;
		emit(EV_PHASE_BEGIN, -1, e->phase, 0,
		     pm_phase_is_suspend(e->phase) ? 0 :
		     1 + (e->a == KPM_EVENT_THAW ? PM_RESUME_THAW :
			  e->a == KPM_EVENT_RESTORE ? PM_RESUME_RESTORE :
			  PM_RESUME_PLAIN), 0);
	} else if (!strcmp(kd, "PE")) {
		if (e->phase == J.phase)
			phase_end();
	} else if (!strcmp(kd, "MS")) {
		if (p >= 0 && !d->gone && (step_phase(p) ? !e->a : e->a))
			handled(i);
	} else if (!strcmp(kd, "ME")) {
		/* The end of a prepare or complete step. */
		if (p >= 0 && step_phase(p) && !d->gone &&
		    d->handled_inst == J.inst && d->done_inst != J.inst) {
			d->done_inst = J.inst;
			if (d->ran_inst != J.inst && !e->err)
				skip(i, p, syscore(i) ? SKIP_SYSCORE :
					   SKIP_NO_CALLBACK, 0);
		}
	} else if (!strcmp(kd, "CS")) {
		if (p >= 0 && !step_phase(p))
			handled(i);
		d->ran_inst = J.inst;
		emit(EV_CB_START, i, e->phase, 0,
		     EV_FACT_TOLD | (e->a ? EV_FACT_WAKEUP_PATH : 0), 0);
	} else if (!strcmp(kd, "CE")) {
		if (pm_phase_is_suspend(e->phase) && e->phase != PH_PREPARE) {
			d->in_dc = false;
			if (!e->err)
				d->depth = pm_phase_depth(e->phase);
		} else if (!step_phase(e->phase)) {
			d->depth = pm_phase_depth(e->phase) - 1;
		}
		/* ERR: the error the callback was asked for; A: what it
		 * returned (a runtime-suspended device's prepare: 1), or 0
		 * in records that kept only ERR. */
		emit(EV_CB_END, i, e->phase, e->err, e->a ? e->a : e->err, 0);
	} else if (!strcmp(kd, "DN")) {
		/* device_pm_remove() completes it too: not an end of a step. */
		if (p < 0 || step_phase(p) || d->gone || d->done_inst == J.inst)
			return;
		handled(i);
		d->done_inst = J.inst;
		if (p == PH_RESUME_EARLY)
			d->early_rpm_suspended = e->a & DN_RPM_SUSPENDED;
		if (d->ran_inst == J.inst)
			return;
		if (pm_phase_is_suspend(p))
			judge_suspend(i, p, e->a);
		else
			judge_resume(i, p, e->a);
	} else if (!strcmp(kd, "RM") || !strcmp(kd, "GO")) {
		if (!d->gone)
			emit(EV_GONE, i, p, 0, 0, 0);
		d->gone = true;
	} else if (!strcmp(kd, "LK")) {
		unsigned int fl = 0;
		const struct scn_device *c = &J.s->dev[i];

		for (int s = 0; s < c->nsup; s++)
			if (c->sup[s] == e->a)
				fl = c->k.link_flags[s];
		emit(EV_LINK, i, -1, 0, e->a,
		     !(fl & SCN_LINK_SYNC_STATE_ONLY) && e->b != KDL_DORMANT);
	} else if (!strcmp(kd, "RP")) {
		emit(EV_RPM_STATE, i, -1, e->err ? 1 : 0, e->a, e->b);
	} else if (!strcmp(kd, "UB")) {
		emit(EV_UNBOUND, i, p, 0, 0, 0);
		for (int c = 0; c < J.s->ndev; c++)
			for (int s = 0; s < J.s->dev[c].nsup; s++)
				if (J.s->dev[c].sup[s] == i &&
				    !(J.s->dev[c].k.link_flags[s] & SCN_LINK_STATELESS))
					emit(EV_LINK, c, -1, 0, i, 0);
	} else if (!strcmp(kd, "FR")) {
		emit(EV_FREED, i, -1, 0, 0, 0);
	} else if (!strcmp(kd, "AD")) {
		/* A late device, registered at dpm_list's tail. */
		emit(EV_ADDED, i, p, 0, 0, 0);
		emit(EV_LIST_POS, i, -1, 0, J.next_pos++, 0);
	} else if (!strcmp(kd, "WA")) {
		/* Before main.c acts on it, as the runtime tells the oracle. */
		emit(EV_WAKEUP_ABORT, -1, p, -EBUSY, e->a > 0 ? e->a - 1 : 0, 0);
	}
	/* HP, WK: an action starts; what it does is in the other events. */
}

/* The devices in main.c's hands when the record ends: for a hang. */
static size_t in_hand(char *buf, size_t n)
{
	size_t at = 0;

	for (int i = 0; i < J.s->ndev && at < n; i++) {
		const struct jdev *d = &J.d[i];

		if (J.phase >= 0 && d->handled_inst == J.inst &&
		    d->done_inst != J.inst && !d->gone)
			at += snprintf(buf + at, n - at, "\n    '%s' in hand in %s, not done",
				       J.s->dev[i].name, pm_phase_name(J.phase));
	}
	return at < n ? at : n;
}

int dpm_judge_record(const struct scenario *s0, const struct run_opts *o,
		     FILE *rec, const struct judge_opts *jo,
		     struct run_result *r, char *err, size_t errlen)
{
	unsigned int feat = run_features(o);
	const struct scenario *s = cut_to_features(s0, feat);
	struct oracle_view view;

	memset(r, 0, sizeof(*r));
	free(J.ev);
	free(J.stacks);
	memset(&J, 0, sizeof(J));
	J.s = s;
	if (read_record(rec, err, errlen))
		return -1;
	J.d = dpm_xcalloc((size_t)(s->ndev ? s->ndev : 1), sizeof(*J.d));
	J.phase = -1;
	J.t0 = J.nev ? J.ev[0].ns : 0;
	dpm_log_enabled = jo && jo->log;
	dpm_log_reset();
	dpm_eng = &judge_engine;
	dpm_listen_none();
	if (jo && jo->hook)
		dpm_listen(jo->hook, jo->hook_ctx);
	dpm_listen(oracle_listener, NULL);
	/* A real kernel has none of the harness's stand-ins: the knobs on
	 * count only as waivers of the findings they tolerate. */
	oracle_view_build(&view, s, o, feat);
	/* The module reports callbacks, not what main.c records in
	 * suspend_stats: STATS has nothing to judge. */
	view.cfg.stats = false;
	/* The record's events do not say which task did them. */
	view.cfg.walk_stops = false;
	oracle_reset(&view.cfg);
	if (!setjmp(J.stop)) {
		for (int k = 0; k < J.nev; k++) {
			pr_info("record: %s %s %s err=%d a=%lld b=%lld",
				J.ev[k].kind, J.ev[k].dev >= 0 ?
				s->dev[J.ev[k].dev].name : "-",
				J.ev[k].phase >= 0 ? pm_phase_name(J.ev[k].phase) : "-",
				J.ev[k].err, J.ev[k].a, J.ev[k].b);
			feed(k);
		}
	}
	run_take_verdict(r);
	if (!r->violated && J.hung) {
		size_t at;

		r->violated = true;
		r->id = INV_LIVENESS;
		at = (size_t)snprintf(r->msg, sizeof(r->msg),
				      "the transition never returned on the real kernel");
		if (at < sizeof(r->msg))
			at += in_hand(r->msg + at, sizeof(r->msg) - at);
		if (J.stacks && at < sizeof(r->msg))
			snprintf(r->msg + at, sizeof(r->msg) - at,
				 "\n    blocked tasks (SysRq-w):\n%s", J.stacks);
		pr_info("dpmfuzz: VIOLATION %s: %s", inv_name(r->id), r->msg);
	}
	dpm_listen_none();
	oracle_view_free(&view);
	free(J.d);
	J.d = NULL;
	return 0;
}

/* ---- the events, as text ---- */

static const char *const ev_names[] = {
	"transition-begin", "transition-end", "phase-begin", "phase-end",
	"cb-start", "cb-end", "handled", "direct-complete", "direct-resume",
	"skip", "wakeup-abort", "gone", "freed", "use-after-free", "refs",
	"teardown-done", "added", "list-pos", "unbound", "link",
	"failed-dev", "rpm-state", "failed-step", "locking", "relinked",
	"pm-wait", "not-set-up",
};
_Static_assert(sizeof(ev_names) / sizeof(ev_names[0]) == NR_EV_KINDS,
	       "a name for every event kind");

void dpm_events_write(const struct dpm_event *ev, void *ctx)
{
	struct events_out *out = ctx;

	if ((unsigned)ev->kind >= NR_EV_KINDS)
		return;
	/* The last field: the run's clock in microseconds (the det engine's
	 * virtual time; a judged record's own time from its first event),
	 * which tools/dpmvm anchors a scenario's timed actions with. */
	fprintf(out->f, "%s %s %s %d %lld %lld %llu\n", ev_names[ev->kind],
		ev->dev >= 0 && ev->dev < out->ndev ? out->names[ev->dev] : "-",
		ev->phase >= 0 && ev->phase < NR_PHASES ?
		pm_phase_name(ev->phase) : "-", ev->err, ev->a, ev->b,
		dpm_eng ? (unsigned long long)(dpm_eng->now() / 1000) : 0ULL);
}
