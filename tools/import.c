// SPDX-License-Identifier: GPL-2.0-only
/*
 * The importer behind dpmimport (tools/dpmimport.c): pm-graph/sleepgraph
 * captures, held in memory, to a dpmfuzz scenario text.  tools/import.h
 * is its interface; tests/test_import_corrupt.c calls it in-process on
 * corrupt captures.
 *
 * The rules are those of scripts/skynet2scenario.py, the prototype:
 *  - dmesg: a callback belongs to the phase whose "complete" line comes
 *    next (the kernel finishes a phase, async callbacks included, before
 *    it prints that line); suspend/freeze/poweroff/quiesce/hibernate are
 *    the suspend side, every other verb (resume, thaw, restore, recover)
 *    the resume side.  A "returned" line answers the oldest unanswered
 *    "calling" line of the name.  N is used as microseconds (it is
 *    ns >> 10 before 5.14).  The PM thread is the PID with the most
 *    "calling" lines (ties: the first seen).
 *  - ftrace: a callback belongs to the dpm_* phase in progress (or, out
 *    of every phase, to the one INFO [VERB] names); its duration is end -
 *    start; an end answers the oldest open start of the name on its PID.
 *    The PM thread is the PID that began the phase (out of every phase,
 *    the one that runs the most phase events).
 *  - A device is (name, parent) as logged; it is async if any of its
 *    callbacks ran off the PM thread.  A parent named but never called
 *    back is a root device with no durations.
 *  - Order: resume-side order (resume, resume_early, resume_noirq and
 *    prepare walk dpm_list forward), then devices seen only on the
 *    suspend side (suspend, suspend_late, suspend_noirq and complete walk
 *    it backwards) in reverse, then a stable pass pulls every parent in
 *    just before its first child.
 *  - PHASE=Nus is the sum of the device's callbacks in the phase (capped
 *    at 100 s); err= keeps the first non-zero return of the phase when
 *    the text format can hold it (-1..-4095).
 *  - Names: bytes outside 0x21..0x7e and '=', '"', '#' become '_' (one
 *    per UTF-8 character), cut to 39 characters, "~2", "~3"... on reuse.
 * Beyond the prototype: "hibernate" (what pm_verb() prints for poweroff)
 * is a suspend verb, an "aborted" phase line ends its phase, and
 * complete counts as a backward walk; on its dmesg captures the output
 * is the same.
 *
 * Lines that do not parse are ignored.  Bad input is an error, never an
 * exit: die() puts one line in the caller's buffer and jumps back to
 * import_captures(), which frees what the import holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define NPOS		SIZE_MAX
#define DUR_MAX		100000000ULL	/* the text format's limit: 100 s */
#define ERR_MAX		4095		/* the text format's limit */
#define NUM_SAT		1000000000000000ULL	/* past it, "huge" is enough */

/* ---- errors and memory ---- */

/* Where die() goes: the import in progress and its caller's buffer. */
static jmp_buf fail_jmp;
static char *fail_err;
static size_t fail_errlen;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/*
 * Bad input: one line in the caller's buffer, then back to
 * import_captures().  Out of memory too; the scratch arrays of the step
 * that ran out are lost then (the state's own are freed).
 */
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_err, fail_errlen, fmt, ap);
	va_end(ap);
	import_one_line(fail_err);
	longjmp(fail_jmp, 1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* Make room for need elements of an array; returns the array. */
static void *grow(void *p, int *cap, int need, size_t size)
{
	int n = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > (1 << 29))
			die("out of memory");
		n *= 2;
	}
	*cap = n;
	return xrealloc(p, (size_t)n * size);
}

/* ---- spans: pieces of the input, which may hold NULs ---- */

struct span {
	const char *p;
	size_t n;
};

static const struct span empty = { "", 0 };

static struct span sub(struct span s, size_t from, size_t to)
{
	return (struct span){ s.p + from, to - from };
}

static struct span cstr(const char *s)
{
	return (struct span){ s, strlen(s) };
}

static size_t find(struct span s, size_t from, const char *lit)
{
	size_t m = strlen(lit);

	while (from <= s.n && s.n - from >= m) {
		const char *c = memchr(s.p + from, lit[0], s.n - from - m + 1);

		if (!c)
			return NPOS;
		if (!memcmp(c, lit, m))
			return (size_t)(c - s.p);
		from = (size_t)(c - s.p) + 1;
	}
	return NPOS;
}

static size_t rfind(struct span s, const char *lit)
{
	size_t m = strlen(lit);

	for (size_t i = s.n >= m ? s.n - m + 1 : 0; i-- > 0;)
		if (!memcmp(s.p + i, lit, m))
			return i;
	return NPOS;
}

/* The index after lit if it is at i, else NPOS (which passes through). */
static size_t skip(struct span s, size_t i, const char *lit)
{
	size_t m = strlen(lit);

	if (i > s.n || s.n - i < m || memcmp(s.p + i, lit, m))
		return NPOS;
	return i + m;
}

static bool span_is(struct span s, const char *lit)
{
	return s.n == strlen(lit) && (!s.n || !memcmp(s.p, lit, s.n));
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t digits(struct span s, size_t i)
{
	while (i < s.n && is_digit(s.p[i]))
		i++;
	return i;
}

/* What Python's str.strip() and \s take for blanks, in ASCII. */
static bool is_blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static struct span strip(struct span s)
{
	while (s.n && is_blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && is_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

/* Digits as a number; huge ones saturate, as only "huge" matters. */
static uint64_t to_u64(struct span s)
{
	uint64_t v = 0;

	for (size_t i = 0; i < s.n; i++) {
		v = v * 10 + (uint64_t)(s.p[i] - '0');
		if (v > NUM_SAT)
			v = NUM_SAT;
	}
	return v;
}

/* "-?digits", already checked. */
static int64_t to_i64(struct span s)
{
	if (s.n && s.p[0] == '-')
		return -(int64_t)to_u64(sub(s, 1, s.n));
	return (int64_t)to_u64(s);
}

/* "[\d.]+" as the log prints msecs: "866.009". */
static double to_msecs(struct span s)
{
	double v = 0, scale = 1;
	bool frac = false;

	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] == '.') {
			if (frac)
				break;
			frac = true;
		} else if (frac) {
			scale /= 10;
			v += (s.p[i] - '0') * scale;
		} else {
			v = v * 10 + (s.p[i] - '0');
		}
	}
	return v;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- interned strings: names, parents, pids ---- */

struct strtab {
	struct span *str;
	int n, cap;
	int *slot;		/* open addressing, -1 empty */
	size_t nslot;		/* a power of two, more than twice n */
};

static uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* The id of s, or -1 with *where the free slot for it. */
static int st_lookup(const struct strtab *t, struct span s, size_t *where)
{
	size_t m = t->nslot - 1;

	*where = NPOS;
	if (!t->nslot)
		return -1;
	for (size_t i = hash_bytes(s.p, s.n) & m;; i = (i + 1) & m) {
		int k = t->slot[i];

		*where = i;
		if (k < 0)
			return -1;
		if (t->str[k].n == s.n && !memcmp(t->str[k].p, s.p, s.n))
			return k;
	}
}

static int st_find(const struct strtab *t, struct span s)
{
	size_t where;

	return st_lookup(t, s, &where);
}

static void st_rehash(struct strtab *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 256;

	free(t->slot);
	t->slot = xrealloc(NULL, n * sizeof(*t->slot));
	memset(t->slot, 0xff, n * sizeof(*t->slot));
	t->nslot = n;
	for (int k = 0; k < t->n; k++) {
		size_t i = hash_bytes(t->str[k].p, t->str[k].n) & (n - 1);

		while (t->slot[i] >= 0)
			i = (i + 1) & (n - 1);
		t->slot[i] = k;
	}
}

static int st_intern(struct strtab *t, struct span s)
{
	size_t where;
	int k = st_lookup(t, s, &where);

	if (k >= 0)
		return k;
	if ((size_t)t->n * 2 + 2 > t->nslot) {
		st_rehash(t);
		st_lookup(t, s, &where);
	}
	t->str = grow(t->str, &t->cap, t->n + 1, sizeof(*t->str));
	t->str[t->n] = s;
	t->slot[where] = t->n;
	return t->n++;
}

static void st_free(struct strtab *t)
{
	free(t->str);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- devices as logged: (name, parent) pairs of string ids ---- */

struct keytab {
	uint64_t *pair;		/* name << 32 | parent */
	int n, cap;
	int *slot;
	size_t nslot;
};

static uint64_t key_pair(int name, int parent)
{
	return (uint64_t)(uint32_t)name << 32 | (uint32_t)parent;
}

static int key_name(const struct keytab *t, int k)
{
	return (int)(t->pair[k] >> 32);
}

static int key_parent(const struct keytab *t, int k)
{
	return (int)(uint32_t)t->pair[k];
}

static void kt_rehash(struct keytab *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 256;

	free(t->slot);
	t->slot = xrealloc(NULL, n * sizeof(*t->slot));
	memset(t->slot, 0xff, n * sizeof(*t->slot));
	t->nslot = n;
	for (int k = 0; k < t->n; k++) {
		size_t i = hash_bytes(&t->pair[k], 8) & (n - 1);

		while (t->slot[i] >= 0)
			i = (i + 1) & (n - 1);
		t->slot[i] = k;
	}
}

static int kt_intern(struct keytab *t, int name, int parent)
{
	uint64_t v = key_pair(name, parent);

	if ((size_t)t->n * 2 + 2 > t->nslot)
		kt_rehash(t);
	size_t m = t->nslot - 1, i = hash_bytes(&v, 8) & m;

	for (; t->slot[i] >= 0; i = (i + 1) & m)
		if (t->pair[t->slot[i]] == v)
			return t->slot[i];
	t->pair = grow(t->pair, &t->cap, t->n + 1, sizeof(*t->pair));
	t->pair[t->n] = v;
	t->slot[i] = t->n;
	return t->n++;
}

static void kt_free(struct keytab *t)
{
	free(t->pair);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* Both captures share them, so a device is the same key in each. */
static struct strtab strs;
static struct keytab keys;

/* ---- one capture ---- */

struct call {
	int key;		/* the device */
	int name;		/* its name: answers pair by name */
	int pid;
	int pm_pid;		/* ftrace: who runs its phase, or -1 */
	int phase;		/* enum pm_phase; dmesg: -1 until its line */
	int next;		/* the next unanswered call of this name */
	bool async;
	uint64_t start_ns;	/* ftrace */
	uint64_t dur_us;
	int64_t err;
};

struct capture {
	const char *path;	/* the file name, for messages and the header */
	const char *kind;	/* "dmesg" or "ftrace" */
	const char *buf;	/* the caller's; may hold NULs */
	size_t len;
	struct call *call;
	int ncall, call_cap;
	/* unanswered calls by name id: FIFOs through call.next */
	int *head, *tail;
	int nhead;
	/* the log's own phase times */
	double log_ms[NR_PHASES];
	bool has_log[NR_PHASES];
	int pm_pid;
	/* dmesg: calls from here on wait for their phase line */
	int unassigned;
	int last_phase;
	/* ftrace: the dpm_* phase in progress, and who runs the phases */
	int cur_phase;
	int cur_pid;
	uint64_t cur_begin;
	int *phase_pid;
	int nphase_pid, phase_pid_cap;
};

static struct capture dmesg_cap = { .kind = "dmesg" };
static struct capture ftrace_cap = { .kind = "ftrace" };

/* Leading zeros do not make another PID. */
static int intern_pid(struct span d)
{
	while (d.n > 1 && d.p[0] == '0')
		d = sub(d, 1, d.n);
	return st_intern(&strs, d);
}

static void pend_push(struct capture *c, int ci)
{
	int name = c->call[ci].name;

	if (name >= c->nhead) {
		int old = c->nhead, cap = c->nhead;

		/* head and tail grow alike; nhead counts both */
		c->head = grow(c->head, &cap, name + 1, sizeof(int));
		c->tail = grow(c->tail, &c->nhead, name + 1, sizeof(int));
		for (int i = old; i < c->nhead; i++)
			c->head[i] = c->tail[i] = -1;
	}
	c->call[ci].next = -1;
	if (c->tail[name] >= 0)
		c->call[c->tail[name]].next = ci;
	else
		c->head[name] = ci;
	c->tail[name] = ci;
}

/*
 * The oldest unanswered call of this name.  With pid >= 0, the oldest on
 * that PID if one of the first few is: a callback starts and ends on one
 * thread, and the bound keeps a flood of unanswered starts linear.
 */
static int pend_pop(struct capture *c, int name, int pid)
{
	int prev = -1, k, n = 0;

	if (name < 0 || name >= c->nhead || c->head[name] < 0)
		return -1;
	k = c->head[name];
	while (pid >= 0 && k >= 0 && c->call[k].pid != pid && n++ < 64) {
		prev = k;
		k = c->call[k].next;
	}
	if (k < 0 || (pid >= 0 && c->call[k].pid != pid)) {
		prev = -1;
		k = c->head[name];
	}
	if (prev < 0)
		c->head[name] = c->call[k].next;
	else
		c->call[prev].next = c->call[k].next;
	if (c->tail[name] == k)
		c->tail[name] = prev;
	return k;
}

static int add_call(struct capture *c, struct span name, struct span parent,
		    struct span pid)
{
	struct call *k;
	int ci = c->ncall;

	c->call = grow(c->call, &c->call_cap, ci + 1, sizeof(*c->call));
	k = &c->call[ci];
	memset(k, 0, sizeof(*k));
	k->name = st_intern(&strs, name);
	k->key = kt_intern(&keys, k->name, st_intern(&strs, parent));
	k->pid = intern_pid(pid);
	k->pm_pid = -1;
	k->phase = -1;
	c->ncall++;
	pend_push(c, ci);
	return ci;
}

/* ---- dmesg ---- */

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
 * "calling  NAME[+] @ PID, parent: PARENT[, cb: FN]" anywhere in the
 * line, NAME as short as it can be (the prototype's regex).  Only the
 * first "calling  " can start a match: a later one has fewer tails.
 */
static bool match_calling(struct span l, struct span *name, struct span *pid,
			  struct span *parent)
{
	size_t p = find(l, 0, "calling  ");

	if (p == NPOS)
		return false;
	p += 9;
	for (size_t q = p + 1; q < l.n; q++) {
		size_t e = NPOS, cb;

		if (l.p[q] == '+')
			e = calling_tail(l, q + 1, pid);
		if (e == NPOS)
			e = calling_tail(l, q, pid);
		if (e == NPOS)
			continue;
		*name = sub(l, p, q);
		cb = find(l, e, ", cb: ");
		*parent = strip(sub(l, e, cb == NPOS ? l.n : cb));
		return true;
	}
	return false;
}

/* " returned ERR after N usecs" at i. */
static bool returned_tail(struct span l, size_t i, struct span *err,
			  struct span *dur)
{
	size_t s = skip(l, i, " returned "), ds, d, t;

	if (s == NPOS)
		return false;
	ds = s < l.n && l.p[s] == '-' ? s + 1 : s;
	d = digits(l, ds);
	if (d == ds || skip(l, d, " after ") == NPOS)
		return false;
	t = digits(l, d + 7);
	if (t == d + 7 || skip(l, t, " usecs") == NPOS)
		return false;
	*err = sub(l, s, d);
	*dur = sub(l, d + 7, t);
	return true;
}

/* "call NAME[+] returned ERR after N usecs" anywhere in the line. */
static bool match_returned(struct span l, struct span *name, struct span *err,
			   struct span *dur)
{
	size_t p = find(l, 0, "call ");

	if (p == NPOS)
		return false;
	p += 5;
	for (size_t q = p + 1; q < l.n; q++) {
		if ((l.p[q] == '+' && returned_tail(l, q + 1, err, dur)) ||
		    returned_tail(l, q, err, dur)) {
			*name = sub(l, p, q);
			return true;
		}
	}
	return false;
}

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

/* "PM: [late |noirq |early ]VERB of devices complete after X msecs" */
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
			*prefix = empty;
			return true;
		}
	}
	return false;
}

static const char *const suspend_verbs[] = {
	"suspend", "freeze", "poweroff", "quiesce", "hibernate",
};

static bool is_suspend_verb(struct span verb)
{
	for (size_t i = 0; i < sizeof(suspend_verbs) / sizeof(*suspend_verbs); i++)
		if (span_is(verb, suspend_verbs[i]))
			return true;
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

static void dmesg_phase_end(struct capture *c, int ph, struct span ms)
{
	c->log_ms[ph] += to_msecs(ms);
	c->has_log[ph] = true;
	for (; c->unassigned < c->ncall; c->unassigned++)
		c->call[c->unassigned].phase = ph;
	c->last_phase = ph;
}

static void dmesg_answer(struct capture *c, struct span name, struct span err,
			 struct span dur)
{
	int k = pend_pop(c, st_find(&strs, name), -1);

	if (k < 0)
		return;
	c->call[k].err = to_i64(err);
	c->call[k].dur_us = to_u64(dur);
}

static void dmesg_line(struct capture *c, struct span l)
{
	struct span name, pid, parent, err, dur, prefix, verb, ms;

	if (match_calling(l, &name, &pid, &parent))
		add_call(c, name, parent, pid);
	else if (match_returned(l, &name, &err, &dur))
		dmesg_answer(c, name, err, dur);
	else if (match_complete(l, &prefix, &verb, &ms))
		dmesg_phase_end(c, marker_phase(prefix, verb), ms);
}

/* Calls after the last phase line belong to the phase after it. */
static void dmesg_finish(struct capture *c)
{
	int ph = PH_SUSPEND;

	if (c->last_phase >= 0)
		ph = c->last_phase + 1 < PH_COMPLETE ? c->last_phase + 1 : PH_COMPLETE;
	for (; c->unassigned < c->ncall; c->unassigned++)
		c->call[c->unassigned].phase = ph;
}

/* ---- ftrace ---- */

enum { EV_NONE, EV_START, EV_END, EV_PHASE, NR_EV };

static const char *const ev_tag[NR_EV] = {
	[EV_START] = "device_pm_callback_start: ",
	[EV_END] = "device_pm_callback_end: ",
	[EV_PHASE] = "suspend_resume: ",
};

/* The first event tag in the line; *pos is where it starts. */
static int find_event(struct span l, size_t *pos, struct span *msg)
{
	int ev = EV_NONE;

	*pos = NPOS;
	for (int e = EV_START; e < NR_EV; e++) {
		size_t p = find(l, 0, ev_tag[e]);

		if (p < *pos) {
			*pos = p;
			ev = e;
		}
	}
	if (ev != EV_NONE)
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

/*
 * "DRV DEV": driver names have no blanks but device names may ("Fixed
 * MDIO bus.0"), so the device is all after the first blank; with no
 * driver the kernel prints " DEV".
 */
static struct span device_part(struct span s)
{
	size_t b = find(s, 0, " ");

	return b == NPOS ? s : sub(s, b + 1, s.n);
}

static int side_phase(struct span verb, int suspend_ph, int resume_ph)
{
	static const char *const resume_verbs[] = {
		"resume", "thaw", "restore", "recover",
	};

	if (is_suspend_verb(verb))
		return suspend_ph;
	for (int i = 0; i < 4; i++)
		if (span_is(verb, resume_verbs[i]))
			return resume_ph;
	return -1;
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

/* "DRV DEV, parent: PARENT, INFO [VERB]" */
static bool parse_start(struct span m, struct span *dev, struct span *parent,
			int *info_ph)
{
	size_t p = find(m, 0, ", parent: "), c;
	struct span rest;

	if (p == NPOS)
		return false;
	*dev = device_part(sub(m, 0, p));
	rest = sub(m, p + 10, m.n);
	c = rfind(rest, ", ");
	if (c == NPOS)
		return false;
	*parent = strip(sub(rest, 0, c));
	*info_ph = info_phase(sub(rest, c + 2, rest.n));
	return dev->n > 0;
}

/* "DRV DEV, err=N" */
static bool parse_end(struct span m, struct span *dev, struct span *err)
{
	size_t p = rfind(m, ", err="), s, ds, d;

	if (p == NPOS)
		return false;
	s = p + 6;
	ds = s < m.n && m.p[s] == '-' ? s + 1 : s;
	d = digits(m, ds);
	if (d == ds)
		return false;
	*dev = device_part(sub(m, 0, p));
	*err = sub(m, s, d);
	return dev->n > 0;
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

/* "dpm_suspend[2] begin": the phase, or -1 for other events. */
static int parse_phase_event(struct span m, bool *begin)
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
	for (int ph = 0; ph < NR_PHASES; ph++)
		if (span_is(sub(m, 0, lb), dpm_events[ph]))
			return ph;
	return -1;
}

static void ftrace_start(struct capture *c, struct span m, struct span pid,
			 uint64_t ns)
{
	struct span dev, parent;
	int ph, ci;

	if (!parse_start(m, &dev, &parent, &ph))
		return;
	if (c->cur_phase >= 0)
		ph = c->cur_phase;
	if (ph < 0)
		return;
	ci = add_call(c, dev, parent, pid);
	if (c->cur_phase >= 0)
		c->call[ci].pm_pid = c->cur_pid;
	c->call[ci].phase = ph;
	c->call[ci].start_ns = ns;
}

static void ftrace_end(struct capture *c, struct span m, struct span pid,
		       uint64_t ns)
{
	struct span dev, err;
	struct call *k;
	int ci;

	if (!parse_end(m, &dev, &err))
		return;
	ci = pend_pop(c, st_find(&strs, dev), intern_pid(pid));
	if (ci < 0)
		return;
	k = &c->call[ci];
	k->err = to_i64(err);
	k->dur_us = ns >= k->start_ns ? (ns - k->start_ns + 500) / 1000 : 0;
}

static void ftrace_phase(struct capture *c, struct span m, struct span pid,
			 uint64_t ns)
{
	bool begin;
	int ph = parse_phase_event(m, &begin);

	if (ph < 0)
		return;
	c->phase_pid = grow(c->phase_pid, &c->phase_pid_cap, c->nphase_pid + 1,
			    sizeof(int));
	c->phase_pid[c->nphase_pid++] = intern_pid(pid);
	if (begin) {
		c->cur_phase = ph;
		c->cur_pid = c->phase_pid[c->nphase_pid - 1];
		c->cur_begin = ns;
		return;
	}
	if (c->cur_phase != ph)
		return;
	if (ns >= c->cur_begin)
		c->log_ms[ph] += (double)(ns - c->cur_begin) / 1e6;
	c->has_log[ph] = true;
	c->cur_phase = -1;
}

static void ftrace_line(struct capture *c, struct span l)
{
	struct span msg, pid;
	uint64_t ns;
	size_t pos;
	int ev = find_event(l, &pos, &msg);

	if (ev == EV_NONE || !trace_prefix(sub(l, 0, pos), &pid, &ns))
		return;
	if (ev == EV_START)
		ftrace_start(c, msg, pid, ns);
	else if (ev == EV_END)
		ftrace_end(c, msg, pid, ns);
	else
		ftrace_phase(c, msg, pid, ns);
}

/* ---- both ---- */

/* The most frequent id, ties to the first seen. */
static int most_common(const int *id, int n)
{
	int *count = xrealloc(NULL, (size_t)strs.n * sizeof(int));
	int best = -1;

	memset(count, 0, (size_t)strs.n * sizeof(int));
	for (int i = 0; i < n; i++)
		count[id[i]]++;
	for (int i = 0; i < n; i++)
		if (best < 0 || count[id[i]] > count[best])
			best = id[i];
	free(count);
	return best;
}

static void mark_async(struct capture *c)
{
	int *pid = c->phase_pid, n = c->nphase_pid;

	if (!n) {
		pid = xrealloc(NULL, (size_t)c->ncall * sizeof(int));
		for (int i = 0; i < c->ncall; i++)
			pid[i] = c->call[i].pid;
		n = c->ncall;
	}
	c->pm_pid = most_common(pid, n);
	if (pid != c->phase_pid)
		free(pid);
	/* In a phase, the PM thread is whoever began it. */
	for (int i = 0; i < c->ncall; i++) {
		struct call *k = &c->call[i];

		k->async = k->pid != (k->pm_pid >= 0 ? k->pm_pid : c->pm_pid);
	}
}

static void load_capture(struct capture *c, bool ftrace)
{
	size_t i = 0;

	c->last_phase = -1;
	c->cur_phase = -1;
	while (i < c->len) {
		size_t e = i;

		/* Python's universal newlines: "\r" ends a line too. */
		while (e < c->len && c->buf[e] != '\n' && c->buf[e] != '\r')
			e++;
		if (ftrace)
			ftrace_line(c, (struct span){ c->buf + i, e - i });
		else
			dmesg_line(c, (struct span){ c->buf + i, e - i });
		i = e + 1;
	}
	if (!ftrace)
		dmesg_finish(c);
	if (!c->ncall && ftrace)
		die("%s: no device_pm_callback_start events (were they traced?)",
		    c->path);
	if (!c->ncall)
		die("%s: no 'calling  DEV+ @ PID' lines (was initcall_debug on?)",
		    c->path);
	mark_async(c);
}

static void free_capture(struct capture *c)
{
	free(c->call);
	free(c->head);
	free(c->tail);
	free(c->phase_pid);
}

/* The ftrace's calls, then the dmesg's for devices the ftrace lacks. */
static struct call *merge_calls(int *n)
{
	struct call *all = NULL;
	int cap = 0, nall = 0;
	bool *seen = xrealloc(NULL, (size_t)keys.n + 1);

	memset(seen, 0, (size_t)keys.n + 1);
	for (int i = 0; i < ftrace_cap.ncall; i++)
		seen[ftrace_cap.call[i].key] = true;
	all = grow(all, &cap, ftrace_cap.ncall + dmesg_cap.ncall + 1, sizeof(*all));
	for (int i = 0; i < ftrace_cap.ncall; i++)
		all[nall++] = ftrace_cap.call[i];
	for (int i = 0; i < dmesg_cap.ncall; i++)
		if (!seen[dmesg_cap.call[i].key])
			all[nall++] = dmesg_cap.call[i];
	free(seen);
	*n = nall;
	return all;
}

/* ---- devices ---- */

struct dev {
	int name;		/* string id of the name as logged */
	int key;		/* -1: a parent with no callbacks */
	int parent;		/* index in devs, or -1 */
	bool async;
	unsigned char state;	/* placing: 0 new, 1 on the path, 2 placed */
	uint64_t dur[NR_PHASES];
	int64_t err[NR_PHASES];
	char base[SCN_NAME_MAX + 1];
	char out[SCN_NAME_MAX + 1];
};

struct build {
	struct dev *dev;
	int ndev, cap;
	int nlogged;		/* devs with callbacks, in dpm_list order */
	int *key_dev;		/* key id -> dev index */
	int *out;		/* dev indices, parents first */
	int nout;
};

static int add_dev(struct build *b, int name, int key)
{
	struct dev *d;

	b->dev = grow(b->dev, &b->cap, b->ndev + 1, sizeof(*b->dev));
	d = &b->dev[b->ndev];
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->key = key;
	d->parent = -1;
	return b->ndev++;
}

static void add_key(struct build *b, int key)
{
	if (b->key_dev[key] < 0)
		b->key_dev[key] = add_dev(b, key_name(&keys, key), key);
}

/*
 * dpm_list order as far as the log shows it: resume, resume_early,
 * resume_noirq and prepare walk the list forward; suspend, suspend_late,
 * suspend_noirq and complete walk it backwards.
 */
static void order_devices(struct build *b, const struct call *call, int n)
{
	static const int fwd[] = {
		PH_RESUME, PH_RESUME_EARLY, PH_RESUME_NOIRQ, PH_PREPARE,
	};
	static const int back[] = {
		PH_SUSPEND, PH_SUSPEND_LATE, PH_SUSPEND_NOIRQ, PH_COMPLETE,
	};

	b->key_dev = xrealloc(NULL, ((size_t)keys.n + 1) * sizeof(int));
	memset(b->key_dev, 0xff, ((size_t)keys.n + 1) * sizeof(int));
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < n; i++)
			if (call[i].phase == fwd[k])
				add_key(b, call[i].key);
	for (int k = 0; k < 4; k++)
		for (int i = n; i-- > 0;)
			if (call[i].phase == back[k])
				add_key(b, call[i].key);
	b->nlogged = b->ndev;
}

static void add_calls(struct build *b, const struct call *call, int n)
{
	for (int i = 0; i < n; i++) {
		const struct call *c = &call[i];
		struct dev *d = &b->dev[b->key_dev[c->key]];

		d->async |= c->async;
		d->dur[c->phase] = sat_add(d->dur[c->phase], c->dur_us);
		if (c->err && !d->err[c->phase])
			d->err[c->phase] = c->err < 0 ? c->err : -c->err;
	}
}

static bool no_parent(int name)
{
	struct span s = strs.str[name];

	return span_is(s, "") || span_is(s, "none") || span_is(s, "(null)");
}

/*
 * "parent: P" is the first device named P in dpm_list order; a P with no
 * callbacks of its own becomes a root device.
 */
static void link_parents(struct build *b)
{
	int *first = xrealloc(NULL, (size_t)strs.n * sizeof(int));

	memset(first, 0xff, (size_t)strs.n * sizeof(int));
	for (int i = 0; i < b->nlogged; i++)
		if (first[b->dev[i].name] < 0)
			first[b->dev[i].name] = i;
	for (int i = 0; i < b->nlogged; i++) {
		int pn = key_parent(&keys, b->dev[i].key);

		if (no_parent(pn))
			continue;
		if (first[pn] < 0)
			first[pn] = add_dev(b, pn, -1);
		b->dev[i].parent = first[pn] != i ? first[pn] : -1;
	}
	free(first);
}

/*
 * Place d after its ancestors (a stable topological pass, parents just
 * before their first child).  Iterative: a corrupt log can chain any
 * number of devices.  A cycle, impossible in a sane log, is cut.
 */
static void place(struct build *b, int d, int *stack)
{
	int top = 0;

	while (!b->dev[d].state) {
		int p = b->dev[d].parent;

		b->dev[d].state = 1;
		stack[top++] = d;
		if (p < 0)
			break;
		if (b->dev[p].state == 1) {
			b->dev[d].parent = -1;
			break;
		}
		d = p;
	}
	while (top) {
		d = stack[--top];
		b->dev[d].state = 2;
		b->out[b->nout++] = d;
	}
}

static void place_all(struct build *b)
{
	int *stack = xrealloc(NULL, (size_t)b->ndev * sizeof(int));

	b->out = xrealloc(NULL, (size_t)b->ndev * sizeof(int));
	for (int i = 0; i < b->nlogged; i++)
		place(b, i, stack);
	free(stack);
}

static bool name_char_ok(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '=' && c != '"' && c != '#';
}

/*
 * Bytes in one UTF-8 character at s, or 1 for a stray byte: the
 * prototype reads logs as UTF-8 (errors=replace) and writes one '_' per
 * character.
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t want, i = 1;

	if (c >= 0xc2 && c <= 0xdf)
		want = 2;
	else if (c >= 0xe0 && c <= 0xef)
		want = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		want = 4;
	else
		return 1;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < 2 || s[1] < lo || s[1] > hi)
		return 1;
	for (i = 2; i < want && i < n && (s[i] & 0xc0) == 0x80; i++)
		;
	return i;
}

static void sanitize(struct span raw, char *out)
{
	const unsigned char *p = (const unsigned char *)raw.p;
	size_t n = 0;

	for (size_t i = 0; i < raw.n && n < SCN_NAME_MAX;) {
		if (p[i] < 0x80) {
			out[n++] = name_char_ok(p[i]) ? (char)p[i] : '_';
			i++;
		} else {
			out[n++] = '_';
			i += utf8_len(p + i, raw.n - i);
		}
	}
	if (!n)
		out[n++] = '_';
	out[n] = '\0';
}

/*
 * Unique names, in output order: a taken name gets "~2", "~3"...  The
 * next number to try is kept per base name, which gives the prototype's
 * names without its quadratic search.
 */
static void name_devices(struct build *b)
{
	struct strtab used = { 0 }, bases = { 0 };
	int *next = NULL, next_cap = 0;

	for (int i = 0; i < b->nout; i++) {
		struct dev *d = &b->dev[b->out[i]];
		int bi, n;

		sanitize(strs.str[d->name], d->base);
		bi = st_intern(&bases, cstr(d->base));
		if (bi >= next_cap) {
			int old = next_cap;

			next = grow(next, &next_cap, bi + 1, sizeof(int));
			for (int k = old; k < next_cap; k++)
				next[k] = 1;
		}
		strcpy(d->out, d->base);
		for (n = next[bi]; st_find(&used, cstr(d->out)) >= 0;) {
			char suf[16];
			int len = snprintf(suf, sizeof(suf), "~%d", ++n);

			snprintf(d->out, sizeof(d->out), "%.*s%s",
				 (int)(SCN_NAME_MAX - len), d->base, suf);
		}
		next[bi] = n;
		st_intern(&used, cstr(d->out));
	}
	free(next);
	st_free(&used);
	st_free(&bases);
}

static void fill_scenario(const struct build *b, struct scenario *s)
{
	int *pos = xrealloc(NULL, (size_t)b->ndev * sizeof(int));

	scenario_init(s);
	s->dev = xrealloc(NULL, (size_t)b->nout * sizeof(*s->dev));
	s->ndev = b->nout;
	for (int i = 0; i < b->nout; i++)
		pos[b->out[i]] = i;
	for (int i = 0; i < b->nout; i++) {
		const struct dev *d = &b->dev[b->out[i]];
		struct scn_device *sd = &s->dev[i];

		scn_device_init(sd);
		strcpy(sd->name, d->out);
		sd->parent = d->parent >= 0 ? pos[d->parent] : -1;
		sd->async = d->async;
		sd->beh.remove_phase = -1;
		sd->beh.remove_target = -1;
		for (int ph = 0; ph < NR_PHASES; ph++) {
			uint64_t us = d->dur[ph] < DUR_MAX ? d->dur[ph] : DUR_MAX;

			sd->beh.dur_us[ph] = (unsigned int)us;
			if (d->err[ph] < 0 && d->err[ph] >= -ERR_MAX)
				sd->beh.err[ph] = (int)d->err[ph];
		}
	}
	free(pos);
}

/* ---- output ---- */

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* The header comments and the scenario: one malloc'd text. */
static char *render(const struct scenario *s, struct capture **caps, int ncap)
{
	char *body = scenario_print(s), *text;
	size_t len = strlen(body) + 1, at = 0;

	for (int i = 0; i < ncap; i++)
		len += strlen(caps[i]->path) + 40;
	text = xrealloc(NULL, len);
	for (int i = 0; i < ncap; i++) {
		char *name = text + at + strlen("# imported by dpmimport from ");

		at += (size_t)sprintf(text + at, "# imported by dpmimport from %s\n",
				      basename_of(caps[i]->path));
		/* A newline in a file name must not end the comment. */
		for (; name < text + at - 1; name++)
			if ((unsigned char)*name < 0x20 || *name == 0x7f)
				*name = '?';
	}
	strcpy(text + at, body);
	free(body);
	return text;
}

/* What we write must read back as the very same scenario. */
static void self_check(const char *text, const struct scenario *s)
{
	struct scenario back;
	char err[256];
	char *want, *got;
	bool same;

	if (scenario_parse(text, strlen(text), &back, err, sizeof(err)))
		die("internal error: the scenario does not parse back: %s", err);
	want = scenario_print(s);
	got = scenario_print(&back);
	same = !strcmp(want, got);
	free(want);
	free(got);
	scenario_free(&back);
	if (!same)
		die("internal error: the scenario reads back differently");
}

static void print_summary(const struct call *call, int n,
			  const struct scenario *s, struct capture **caps,
			  int ncap, FILE *out)
{
	int count[NR_PHASES] = { 0 }, nasync = 0;
	uint64_t sum[NR_PHASES] = { 0 };

	for (int i = 0; i < n; i++) {
		count[call[i].phase]++;
		sum[call[i].phase] = sat_add(sum[call[i].phase], call[i].dur_us);
	}
	fprintf(out, "%-14s %9s %12s", "phase", "callbacks", "callback_us");
	for (int k = 0; k < ncap; k++)
		fprintf(out, " %10s_ms", caps[k]->kind);
	fprintf(out, "\n");
	for (int ph = 0; ph < NR_PHASES; ph++) {
		fprintf(out, "%-14s %9d %12llu", pm_phase_name(ph), count[ph],
		       (unsigned long long)sum[ph]);
		for (int k = 0; k < ncap; k++) {
			if (caps[k]->has_log[ph])
				fprintf(out, " %13.3f", caps[k]->log_ms[ph]);
			else
				fprintf(out, " %13s", "-");
		}
		fprintf(out, "\n");
	}
	for (int i = 0; i < s->ndev; i++)
		nasync += s->dev[i].async;
	fprintf(out, "devices %d async %d callbacks %d\n", s->ndev, nasync, n);
}

/* ---- the import ---- */

/* What one import holds; freed on every way out of it. */
static struct {
	struct build b;
	struct call *call;
	struct scenario s;
	char *text;
} held;

static void release(void)
{
	scenario_free(&held.s);
	free(held.text);
	free(held.b.dev);
	free(held.b.key_dev);
	free(held.b.out);
	free(held.call);
	memset(&held, 0, sizeof(held));
	free_capture(&ftrace_cap);
	free_capture(&dmesg_cap);
	kt_free(&keys);
	st_free(&strs);
}

static void start_capture(struct capture *c, const char *kind,
			  const struct import_capture *in)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->path = in->path ? in->path : kind;
	c->buf = in->buf;
	c->len = in->len;
}

int import_captures(const struct import_request *rq, char **text, char *err,
		    size_t errlen)
{
	struct capture *caps[2];
	int ncap = 0, ncall;

	*text = NULL;
	err[0] = '\0';
	fail_err = err;
	fail_errlen = errlen;
	memset(&held, 0, sizeof(held));
	scenario_init(&held.s);
	start_capture(&ftrace_cap, "ftrace", &rq->ftrace);
	start_capture(&dmesg_cap, "dmesg", &rq->dmesg);
	if (setjmp(fail_jmp)) {
		release();
		return IMPORT_BAD_INPUT;
	}
	if (!rq->ftrace.buf && !rq->dmesg.buf)
		die("nothing to import: no dmesg and no ftrace capture");
	if (rq->ftrace.buf) {
		load_capture(&ftrace_cap, true);
		caps[ncap++] = &ftrace_cap;
	}
	if (rq->dmesg.buf) {
		load_capture(&dmesg_cap, false);
		caps[ncap++] = &dmesg_cap;
	}
	held.call = merge_calls(&ncall);
	order_devices(&held.b, held.call, ncall);
	add_calls(&held.b, held.call, ncall);
	link_parents(&held.b);
	place_all(&held.b);
	name_devices(&held.b);
	fill_scenario(&held.b, &held.s);
	held.text = render(&held.s, caps, ncap);
	self_check(held.text, &held.s);
	if (rq->summary)
		print_summary(held.call, ncall, &held.s, caps, ncap, rq->summary);
	*text = held.text;
	held.text = NULL;
	release();
	return 0;
}

void import_one_line(char *msg)
{
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}
