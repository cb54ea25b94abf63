// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmesg captures (tools/import_int.h).  With initcall_debug (or
 * /sys/power/pm_print_times) the PM core logs each callback it runs, in
 * one of two forms:
 *
 *   3.x:        calling  DEV+ @ PID, parent: PARENT[, cb: FN]
 *               call DEV+ returned ERR after N usecs
 *   4.x - 6.x:  DRIVER DEV: [PM: ]calling FUNC+0xOFF/0xLEN [MOD] @ PID, parent: PARENT
 *               DRIVER DEV: [PM: ]FUNC+0xOFF/0xLEN [MOD] returned ERR after N usecs
 *
 * (the second is dev_info(), whose prefix is dev_driver_string() and
 * dev_name(): the driver, else the bus or class, may be empty).  N is
 * ns >> 10 before 5.14, true microseconds since; import.c scales it.
 * With pm_debug_messages the PM core ends each phase with
 *
 *   PM: [late |noirq |early ]VERB of devices complete|aborted after X msecs
 *
 * (4.x printed "PM: noirq suspend of devices failed" for a phase a
 * wakeup event aborted; the output notes it, as no callback's error
 * says why the transition turned back).
 * A callback belongs to the phase whose line comes next (the kernel
 * finishes a phase, async callbacks included, before it prints that
 * line); a suspend-side line after a resume-side one starts the next
 * transition.  A log with callbacks but no phase lines gets each
 * callback's phase from its function's name (pci_pm_suspend_late), where
 * it names one.  A "returned" line answers the oldest unanswered
 * "calling" line of the same DRIVER DEV (3.x: DEV).  The PM thread of a
 * transition is the PID with the most "calling" lines in it.  Lines that
 * do not parse are ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

/* ---- 3.x: "calling  DEV+ @ PID, parent: P" ---- */

/* " @ PID, parent: " at i: the index after it, or NPOS. */
static size_t calling_tail(struct span l, size_t i, struct span *pid)
{
	size_t d, e = skip(l, i, " @ ");

	if (e == NPOS)
		return NPOS;
	d = digits(l, e);
	if (d == e || skip(l, d, ", parent: ") == NPOS)
		return NPOS;
	*pid = sub(l, e, d);
	return skip(l, d, ", parent: ");
}

/*
 * Anywhere in the line, DEV as short as it can be.  Only the first
 * "calling  " can start a match: a later one has fewer tails.
 */
static bool match_calling_3x(struct span l, struct span *name,
			     struct span *pid, struct span *parent)
{
	size_t p = find(l, 0, "calling  ");

	if (p == NPOS)
		return false;
	p += 9;
	/* NAME ends at the first " @ " with the rest of the tail after it,
	 * or at the '+' before that */
	for (size_t a = find(l, p + 1, " @ "); a != NPOS; a = find(l, a + 1, " @ ")) {
		size_t e = calling_tail(l, a, pid), cb;

		if (e == NPOS)
			continue;
		*name = sub(l, p, l.p[a - 1] == '+' && a - 1 > p ? a - 1 : a);
		cb = find(l, e, ", cb: ");
		*parent = strip(sub(l, e, cb == NPOS ? l.n : cb));
		return true;
	}
	return false;
}

/* "call DEV+ returned ERR after N usecs" anywhere in the line. */
static bool match_returned_3x(struct span l, struct span *name,
			      struct span *err, struct span *dur)
{
	size_t p = find(l, 0, "call ");

	if (p == NPOS)
		return false;
	p += 5;
	/* NAME ends at the first " returned " with its tail, or at the '+'
	 * before it */
	for (size_t a = find(l, p + 1, " returned "); a != NPOS;
	     a = find(l, a + 1, " returned ")) {
		if (returned_tail(l, a, err, dur)) {
			*name = sub(l, p, l.p[a - 1] == '+' && a - 1 > p ? a - 1 : a);
			return true;
		}
	}
	return false;
}

/* ---- 4.x and later: dev_info() lines ---- */

/*
 * The message after "[ SECS.USEC] " and, with CONFIG_PRINTK_CALLER, the
 * caller's "[ T123] "; a line without a timestamp is all message.  One
 * blank goes with the timestamp: the message of a device without a
 * driver starts with another (" DEV: ...").
 */
static struct span message(struct span l)
{
	size_t i = 0;

	while (i < l.n && is_blank((unsigned char)l.p[i]))
		i++;
	for (int k = 0; k < 2 && i < l.n && l.p[i] == '['; k++) {
		size_t e = find(l, i, "]");

		if (e == NPOS)
			break;
		i = e + 1;
		if (i < l.n && l.p[i] == ' ')
			i++;
	}
	return sub(l, i, l.n);
}

/* "PM: " of 6.x's dev_fmt, if at i. */
static size_t skip_pm(struct span m, size_t i)
{
	size_t j = skip(m, i, "PM: ");

	return j == NPOS ? i : j;
}

/*
 * The phase a callback's function names (pci_pm_suspend_noirq,
 * acpi_subsys_resume_early, input_dev_freeze), or -1: used only when the
 * log has no phase lines.
 */
static int func_phase(struct span f)
{
	size_t plus = find(f, 0, "+");
	bool noirq, late, early, res, sus;

	if (plus != NPOS)
		f = sub(f, 0, plus);
	noirq = find(f, 0, "noirq") != NPOS;
	late = find(f, 0, "late") != NPOS;
	early = find(f, 0, "early") != NPOS;
	res = find(f, 0, "resume") != NPOS || find(f, 0, "thaw") != NPOS ||
	      find(f, 0, "restore") != NPOS;
	sus = find(f, 0, "suspend") != NPOS || find(f, 0, "freeze") != NPOS ||
	      find(f, 0, "poweroff") != NPOS;
	if (res == sus)
		return -1;
	if (noirq)
		return res ? PH_RESUME_NOIRQ : PH_SUSPEND_NOIRQ;
	if (late && sus)
		return PH_SUSPEND_LATE;
	if (early && res)
		return PH_RESUME_EARLY;
	return res ? PH_RESUME : PH_SUSPEND;
}

/* "WHO: [PM: ]calling FUNC @ PID, parent: PARENT" */
static bool match_calling(struct span m, struct span *who, struct span *func,
			  struct span *pid, struct span *parent)
{
	for (size_t p = find(m, 0, ": "); p != NPOS; p = find(m, p + 1, ": ")) {
		size_t f = skip(m, skip_pm(m, p + 2), "calling ");

		if (f == NPOS || f >= m.n || m.p[f] == ' ')
			continue;
		for (size_t a = find(m, f, " @ "); a != NPOS; a = find(m, a + 1, " @ ")) {
			size_t e = calling_tail(m, a, pid);

			if (e == NPOS)
				continue;
			*who = sub(m, 0, p);
			*func = sub(m, f, a);
			*parent = strip(sub(m, e, m.n));
			return who->n > 0;
		}
		return false;
	}
	return false;
}

/* "WHO: [PM: ]FUNC returned ERR after N usecs"; FUNC has no ": ". */
static bool match_returned(struct span m, struct span *who, struct span *err,
			   struct span *dur)
{
	size_t r = rfind(m, " returned "), p;
	struct span head;

	if (r == NPOS || !returned_tail(m, r, err, dur))
		return false;
	head = sub(m, 0, r);
	p = rfind(head, ": ");
	if (p == NPOS || p + 2 >= head.n || head.p[p + 2] == ' ')
		return false;
	head = sub(head, 0, p);
	if (head.n >= 4 && !memcmp(head.p + head.n - 4, ": PM", 4))
		head = sub(head, 0, head.n - 4);
	*who = head;
	return who->n > 0;
}

/* ---- phase lines ---- */

static bool is_word(char c)
{
	return is_digit(c) || c == '_' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * "VERB of devices complete after X msecs" at i.  Later kernels print
 * "aborted" for a phase that failed; it ends the phase all the same.
 */
static bool complete_tail(struct span l, size_t i, struct span *verb,
			  struct span *ms)
{
	size_t w = i, e, m;

	while (w < l.n && is_word(l.p[w]))
		w++;
	if (w == i)
		return false;
	e = skip(l, w, " of devices complete after ");
	if (e == NPOS)
		e = skip(l, w, " of devices aborted after ");
	if (e == NPOS)
		return false;
	for (m = e; m < l.n && (is_digit(l.p[m]) || l.p[m] == '.'); m++)
		;
	if (m == e || skip(l, m, " msecs") == NPOS)
		return false;
	*verb = sub(l, i, w);
	*ms = sub(l, e, m);
	return true;
}

static const char *const prefixes[] = { "late", "noirq", "early" };

static bool match_complete(struct span l, struct span *prefix,
			   struct span *verb, struct span *ms)
{
	for (size_t p = find(l, 0, "PM: "); p != NPOS; p = find(l, p + 1, "PM: ")) {
		size_t v = p + 4;

		for (int k = 0; k < 3; k++) {
			size_t e = skip(l, skip(l, v, prefixes[k]), " ");

			if (e != NPOS && complete_tail(l, e, verb, ms)) {
				*prefix = cstr(prefixes[k]);
				return true;
			}
		}
		if (complete_tail(l, v, verb, ms)) {
			*prefix = empty_span;
			return true;
		}
	}
	return false;
}

static int marker_phase(struct span prefix, struct span verb)
{
	if (is_suspend_verb(verb)) {
		if (span_is(prefix, "late"))
			return PH_SUSPEND_LATE;
		return span_is(prefix, "noirq") ? PH_SUSPEND_NOIRQ : PH_SUSPEND;
	}
	if (span_is(prefix, "noirq"))
		return PH_RESUME_NOIRQ;
	return span_is(prefix, "early") ? PH_RESUME_EARLY : PH_RESUME;
}

static void phase_end(struct capture *c, int ph, struct span verb,
		      struct span ms)
{
	struct cycle_log *log = cycle_at_phase(c, ph);

	c->nphase_marks++;
	log->ms[ph] += to_msecs(ms);
	log->has[ph] = true;
	log->verb[!pm_phase_is_suspend(ph)] = verb_index(verb);
	for (; c->unassigned < c->ncall; c->unassigned++) {
		c->call[c->unassigned].phase = ph;
		c->call[c->unassigned].cycle = c->ncyc - 1;
	}
	c->last_phase = ph;
}

static void answer(struct capture *c, struct span who, struct span err,
		   struct span dur)
{
	int k = pend_pop(c, st_find(&strs, who), -1);

	if (k < 0)
		return;
	c->call[k].err = to_i64(err);
	c->call[k].dur_us = to_u64(dur);
}

/* "Linux version 5.3.0-rc7+ (...)": the kernel, when no stamp names it. */
static void linux_version(struct capture *c, struct span l)
{
	size_t v = find(l, 0, "Linux version "), e;

	if (v == NPOS)
		return;
	v += 14;
	for (e = v; e < l.n && !is_blank((unsigned char)l.p[e]); e++)
		;
	if (e > v)
		c->kernel = sub(l, v, e);
}

static void dmesg_line(void *ctx, struct span l)
{
	struct capture *c = ctx;
	struct span who, func, pid, parent, err, dur, prefix, verb, ms, m;

	if (stamp_line(c, l))
		return;
	if (!c->kernel.n)
		linux_version(c, l);
	m = message(l);
	if (match_calling_3x(l, &who, &pid, &parent)) {
		add_call(c, who, false, parent, pid);
	} else if (match_calling(m, &who, &func, &pid, &parent)) {
		int ci = add_call(c, who, true, parent, pid);

		c->call[ci].hint = (signed char)func_phase(func);
	} else if (match_returned_3x(l, &who, &err, &dur) ||
		   match_returned(m, &who, &err, &dur)) {
		answer(c, who, err, dur);
	} else if (match_complete(l, &prefix, &verb, &ms)) {
		phase_end(c, marker_phase(prefix, verb), verb, ms);
	} else if (!c->failed.n && find(l, 0, "PM: ") != NPOS &&
		   find(l, 0, " of devices failed") != NPOS) {
		size_t p = find(l, 0, "PM: ");

		c->failed = sub(l, p, l.n);
	}
}

/*
 * Calls after the last phase line belong to the phase after it; with no
 * phase line at all, to the phase their function names (else suspend),
 * a suspend-side one after resume-side ones starting a transition.
 */
static void dmesg_finish(struct capture *c)
{
	int ph = PH_SUSPEND;

	if (!c->nphase_marks) {
		for (int i = 0; i < c->ncall; i++) {
			struct call *k = &c->call[i];

			k->phase = k->hint >= 0 ? k->hint : PH_SUSPEND;
			cycle_at_phase(c, k->phase);
			k->cycle = c->ncyc - 1;
		}
		return;
	}
	if (c->last_phase >= 0)
		ph = c->last_phase + 1 < PH_COMPLETE ? c->last_phase + 1 : PH_COMPLETE;
	for (; c->unassigned < c->ncall; c->unassigned++) {
		c->call[c->unassigned].phase = ph;
		c->call[c->unassigned].cycle = c->ncyc - 1;
	}
}

/* The PID with the most calls in each transition runs it; ties go to
 * the first seen. */
static void dmesg_async(struct capture *c)
{
	int *count = xrealloc(NULL, (size_t)strs.n * sizeof(int));

	memset(count, 0, (size_t)strs.n * sizeof(int));
	for (int i = 0; i < c->ncall;) {
		int first = i, cy = c->call[i].cycle, best = -1;

		for (; i < c->ncall && c->call[i].cycle == cy; i++)
			count[c->call[i].pid]++;
		for (int k = first; k < i; k++)
			if (best < 0 || count[c->call[k].pid] > count[best])
				best = c->call[k].pid;
		for (int k = first; k < i; k++) {
			c->call[k].async = c->call[k].pid != best;
			count[c->call[k].pid] = 0;
		}
	}
	free(count);
}

void dmesg_load(struct capture *c)
{
	c->last_phase = -1;
	each_line(c->text, dmesg_line, c);
	dmesg_finish(c);
	dmesg_async(c);
}
