// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace captures (tools/import_int.h): sleepgraph's trace (nop tracer)
 * with the events
 *
 *   device_pm_callback_start: DRIVER DEV, parent: PARENT, INFO [VERB]
 *   device_pm_callback_end: DRIVER DEV, err=N
 *   suspend_resume: dpm_PHASE[EVENT] begin|end
 *
 * (3.11 to 6.x; INFO is "" for a callback the core runs without one of
 * its type/class/bus/driver ops, as in "  platform, parent: none,
 * [suspend]").  A callback belongs to the innermost dpm_* phase in
 * progress (a failed dpm_suspend_noirq() runs dpm_resume_noirq() inside
 * it), out of every phase to the one INFO [VERB] names; its duration is end -
 * start; an end answers the oldest open start of the same DRIVER DEV on
 * its PID.  A dpm_* phase that begins on the suspend side after the
 * resume side has run starts the next transition.  The PM thread is the
 * PID that began the phase (out of every phase, the one that ran the
 * most phase events); a callback on another PID ran async.
 */
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

enum { FT_NONE, FT_START, FT_END, FT_PHASE, NR_FT };

static const char *const ev_tag[NR_FT] = {
	[FT_START] = "device_pm_callback_start: ",
	[FT_END] = "device_pm_callback_end: ",
	[FT_PHASE] = "suspend_resume: ",
};

/* The first event tag in the line; *pos is where it starts. */
static int find_event(struct span l, size_t *pos, struct span *msg)
{
	int ev = FT_NONE;

	*pos = NPOS;
	for (int e = FT_START; e < NR_FT; e++) {
		size_t p = find(l, 0, ev_tag[e]);

		if (p < *pos) {
			*pos = p;
			ev = e;
		}
	}
	if (ev != FT_NONE)
		*msg = sub(l, *pos + strlen(ev_tag[ev]), l.n);
	return ev;
}

/* "SECS[.FRAC]" to nanoseconds. */
static bool parse_ts(struct span t, uint64_t *ns)
{
	size_t dot = find(t, 0, ".");
	size_t end = dot == NPOS ? t.n : dot;
	uint64_t frac = 0;
	int nd = 0;

	if (!end || end > 9 || digits(t, 0) != end)
		return false;
	if (dot != NPOS && digits(t, dot + 1) != t.n)
		return false;
	for (size_t i = dot == NPOS ? t.n : dot + 1; i < t.n && nd < 9; i++, nd++)
		frac = frac * 10 + (uint64_t)(t.p[i] - '0');
	for (; nd < 9; nd++)
		frac *= 10;
	*ns = to_u64(sub(t, 0, end)) * 1000000000ULL + frac;
	return true;
}

/* Where "[CPU]" starts, the last one before end, or NPOS. */
static size_t cpu_column(struct span pre, size_t end)
{
	for (size_t i = end; i-- > 0;) {
		size_t d = i;

		if (pre.p[i] != ']')
			continue;
		while (d > 0 && is_digit(pre.p[d - 1]))
			d--;
		if (d < i && d > 0 && pre.p[d - 1] == '[')
			return d - 1;
	}
	return NPOS;
}

/*
 * "TASK-PID [CPU] FLAGS SECS.FRAC: " before the event; the FLAGS and a
 * "(TGID)" column are optional.  TASK may hold blanks and dashes: the
 * PID is the digits after the last dash.
 */
static bool trace_prefix(struct span pre, struct span *pid, uint64_t *ns)
{
	size_t e = pre.n, s, t, d;

	while (e && is_blank(pre.p[e - 1]))
		e--;
	if (!e || pre.p[e - 1] != ':')
		return false;
	for (s = --e; s && (is_digit(pre.p[s - 1]) || pre.p[s - 1] == '.'); s--)
		;
	if (!parse_ts(sub(pre, s, e), ns))
		return false;
	t = cpu_column(pre, s);
	if (t == NPOS)
		return false;
	while (t && pre.p[t - 1] == ' ')
		t--;
	if (t && pre.p[t - 1] == ')') {
		while (t && pre.p[t - 1] != '(')
			t--;
		if (t)
			t--;			/* onto the '(' */
		while (t && pre.p[t - 1] == ' ')
			t--;
	}
	d = t;
	while (d && is_digit(pre.p[d - 1]))
		d--;
	if (d == t || !d || pre.p[d - 1] != '-')
		return false;
	*pid = sub(pre, d, t);
	return true;
}

static int side_phase(struct span verb, int suspend_ph, int resume_ph)
{
	int v = verb_index(verb);

	if (v < 0)
		return -1;
	return is_suspend_verb(verb) ? suspend_ph : resume_ph;
}

/* "INFO [VERB]" names the phase too; used out of every dpm_* phase. */
static int info_phase(struct span info)
{
	size_t lb = rfind(info, "["), rb, sp;
	struct span verb, word;

	if (lb == NPOS)
		return -1;
	rb = find(info, lb, "]");
	verb = sub(info, lb + 1, rb == NPOS ? info.n : rb);
	info = strip(sub(info, 0, lb));
	sp = find(info, 0, " ");
	word = sp == NPOS ? info : sub(info, 0, sp);
	if (span_is(word, "preparing"))
		return side_phase(verb, PH_PREPARE, -1);
	if (span_is(word, "completing"))
		return side_phase(verb, -1, PH_COMPLETE);
	if (span_is(word, "late"))
		return side_phase(verb, PH_SUSPEND_LATE, -1);
	if (span_is(word, "early"))
		return side_phase(verb, -1, PH_RESUME_EARLY);
	if (span_is(word, "noirq"))
		return side_phase(verb, PH_SUSPEND_NOIRQ, PH_RESUME_NOIRQ);
	return side_phase(verb, PH_SUSPEND, PH_RESUME);
}

/* "DRIVER DEV, parent: PARENT, INFO [VERB]" */
static bool parse_start(struct span m, struct span *who, struct span *parent,
			int *info_ph)
{
	size_t p = find(m, 0, ", parent: "), c;
	struct span rest;

	if (p == NPOS)
		return false;
	*who = sub(m, 0, p);
	rest = sub(m, p + 10, m.n);
	c = rfind(rest, ", ");
	if (c == NPOS)
		return false;
	*parent = strip(sub(rest, 0, c));
	*info_ph = info_phase(sub(rest, c + 2, rest.n));
	return strip(*who).n > 0;
}

/* "DRIVER DEV, err=N" */
static bool parse_end(struct span m, struct span *who, struct span *err)
{
	size_t p = rfind(m, ", err="), s, ds, d;

	if (p == NPOS)
		return false;
	s = p + 6;
	ds = s < m.n && m.p[s] == '-' ? s + 1 : s;
	d = digits(m, ds);
	if (d == ds)
		return false;
	*who = sub(m, 0, p);
	*err = sub(m, s, d);
	return strip(*who).n > 0;
}

static const char *const dpm_events[NR_PHASES] = {
	[PH_PREPARE] = "dpm_prepare",
	[PH_SUSPEND] = "dpm_suspend",
	[PH_SUSPEND_LATE] = "dpm_suspend_late",
	[PH_SUSPEND_NOIRQ] = "dpm_suspend_noirq",
	[PH_RESUME_NOIRQ] = "dpm_resume_noirq",
	[PH_RESUME_EARLY] = "dpm_resume_early",
	[PH_RESUME] = "dpm_resume",
	[PH_COMPLETE] = "dpm_complete",
};

/* The PM_EVENT_* codes in "dpm_suspend[2]", as verb_names indices. */
static int event_verb(struct span code)
{
	static const struct { unsigned v; const char *verb; } ev[] = {
		{ 0x1, "freeze" }, { 0x2, "suspend" }, { 0x4, "hibernate" },
		{ 0x8, "quiesce" }, { 0x10, "resume" }, { 0x20, "thaw" },
		{ 0x40, "restore" }, { 0x80, "recover" },
	};
	uint64_t v = to_u64(sub(code, 0, digits(code, 0)));

	for (size_t i = 0; i < sizeof(ev) / sizeof(*ev); i++)
		if (v == ev[i].v)
			return verb_index(cstr(ev[i].verb));
	return -1;
}

/* "dpm_suspend[2] begin": the phase, or -1 for other events. */
static int parse_phase_event(struct span m, bool *begin, int *verb)
{
	size_t lb = find(m, 0, "["), rb = find(m, lb == NPOS ? m.n : lb, "]");
	struct span word;

	if (lb == NPOS || rb == NPOS)
		return -1;
	word = strip(sub(m, rb + 1, m.n));
	if (span_is(word, "begin"))
		*begin = true;
	else if (span_is(word, "end"))
		*begin = false;
	else
		return -1;
	*verb = event_verb(sub(m, lb + 1, rb));
	for (int ph = 0; ph < NR_PHASES; ph++)
		if (span_is(sub(m, 0, lb), dpm_events[ph]))
			return ph;
	return -1;
}

static void ftrace_start(struct capture *c, struct span m, struct span pid,
			 uint64_t ns)
{
	struct span who, parent;
	int ph, ci;

	const struct open_phase *in = c->nopen ? &c->open[c->nopen - 1] : NULL;

	if (!parse_start(m, &who, &parent, &ph))
		return;
	if (in)
		ph = in->phase;
	if (ph < 0)
		return;
	if (!in)
		cycle_at_phase(c, ph);
	ci = add_call(c, who, true, parent, pid);
	if (in)
		c->call[ci].pm_pid = in->pid;
	c->call[ci].phase = ph;
	c->call[ci].start_ns = ns;
}

static void ftrace_end(struct capture *c, struct span m, struct span pid,
		       uint64_t ns)
{
	struct span who, err;
	struct call *k;
	int ci;

	if (!parse_end(m, &who, &err))
		return;
	ci = pend_pop(c, st_find(&strs, who), intern_pid(pid));
	if (ci < 0)
		return;
	k = &c->call[ci];
	k->err = to_i64(err);
	k->dur_us = ns >= k->start_ns ? (ns - k->start_ns + 500) / 1000 : 0;
}

static void ftrace_phase(struct capture *c, struct span m, struct span pid,
			 uint64_t ns)
{
	struct cycle_log *log;
	bool begin;
	int verb, ph = parse_phase_event(m, &begin, &verb);

	if (ph < 0)
		return;
	c->phase_pid = grow(c->phase_pid, &c->phase_pid_cap, c->nphase_pid + 1,
			    sizeof(int));
	c->phase_pid[c->nphase_pid++] = intern_pid(pid);
	if (begin) {
		log = cycle_at_phase(c, ph);
		c->nphase_marks++;
		if (verb >= 0)
			log->verb[!pm_phase_is_suspend(ph)] = verb;
		if (c->nopen == (int)(sizeof(c->open) / sizeof(*c->open))) {
			/* unmatched begins (a corrupt log): forget the oldest */
			memmove(&c->open[0], &c->open[1],
				(size_t)(c->nopen - 1) * sizeof(*c->open));
			c->nopen--;
		}
		c->open[c->nopen++] = (struct open_phase){
			ph, c->phase_pid[c->nphase_pid - 1], ns,
		};
		return;
	}
	for (int k = c->nopen; k-- > 0;) {
		if (c->open[k].phase != ph)
			continue;
		log = &c->cyc[c->ncyc - 1];
		if (ns >= c->open[k].begin)
			log->ms[ph] += (double)(ns - c->open[k].begin) / 1e6;
		log->has[ph] = true;
		memmove(&c->open[k], &c->open[k + 1],
			(size_t)(c->nopen - k - 1) * sizeof(*c->open));
		c->nopen--;
		return;
	}
}

static void ftrace_line(void *ctx, struct span l)
{
	struct capture *c = ctx;
	struct span msg, pid;
	uint64_t ns;
	size_t pos;
	int ev;

	if (stamp_line(c, l))
		return;
	ev = find_event(l, &pos, &msg);
	if (ev == FT_NONE || !trace_prefix(sub(l, 0, pos), &pid, &ns))
		return;
	if (ev == FT_START)
		ftrace_start(c, msg, pid, ns);
	else if (ev == FT_END)
		ftrace_end(c, msg, pid, ns);
	else
		ftrace_phase(c, msg, pid, ns);
}

/* Out of every phase, the PM thread is the PID that ran the most phase
 * events, or with none the most callbacks (ties: the first seen). */
static void ftrace_async(struct capture *c)
{
	int *count, *pid = c->phase_pid, n = c->nphase_pid, pm = -1;

	if (!n) {
		pid = xrealloc(NULL, ((size_t)c->ncall + 1) * sizeof(int));
		for (int i = 0; i < c->ncall; i++)
			pid[i] = c->call[i].pid;
		n = c->ncall;
	}
	count = xrealloc(NULL, ((size_t)strs.n + 1) * sizeof(int));
	memset(count, 0, ((size_t)strs.n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		count[pid[i]]++;
	for (int i = 0; i < n; i++)
		if (pm < 0 || count[pid[i]] > count[pm])
			pm = pid[i];
	free(count);
	if (pid != c->phase_pid)
		free(pid);
	for (int i = 0; i < c->ncall; i++) {
		struct call *k = &c->call[i];

		k->async = k->pid != (k->pm_pid >= 0 ? k->pm_pid : pm);
	}
}

void ftrace_load(struct capture *c)
{
	each_line(c->text, ftrace_line, c);
	ftrace_async(c);
}
