// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lines and strings for the importer (tools/import_int.h): errors and
 * memory, spans of the input (which may hold NULs), numbers as the logs
 * print them, interned strings and tuples, and what every capture keeps:
 * its calls, the unanswered ones, its transitions and its stamp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

/* ---- errors and memory ---- */

/* import.c sets these up for the import in progress. */
extern jmp_buf import_fail_jmp;
extern char *import_fail_err;
extern size_t import_fail_errlen;
extern char **import_notes;
extern int import_nnotes, import_notes_cap;

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(import_fail_err, import_fail_errlen, fmt, ap);
	va_end(ap);
	import_one_line(import_fail_err);
	longjmp(import_fail_jmp, 1);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

void *grow(void *p, int *cap, int need, size_t size)
{
	int n = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > (1 << 29))
			die("out of memory");
		n *= 2;
	}
	p = xrealloc(p, (size_t)n * size);
	*cap = n;
	return p;
}

void note(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	char *s;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	import_one_line(buf);
	s = xrealloc(NULL, strlen(buf) + 1);
	strcpy(s, buf);
	import_notes = grow(import_notes, &import_notes_cap, import_nnotes + 1,
			    sizeof(*import_notes));
	import_notes[import_nnotes++] = s;
}

/* ---- spans ---- */

const struct span empty_span = { "", 0 };

struct span sub(struct span s, size_t from, size_t to)
{
	return (struct span){ s.p + from, to - from };
}

struct span cstr(const char *s)
{
	return (struct span){ s, strlen(s) };
}

size_t find(struct span s, size_t from, const char *lit)
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

size_t rfind(struct span s, const char *lit)
{
	size_t m = strlen(lit);

	for (size_t i = s.n >= m ? s.n - m + 1 : 0; i-- > 0;)
		if (s.p[i] == lit[0] && !memcmp(s.p + i, lit, m))
			return i;
	return NPOS;
}

size_t skip(struct span s, size_t i, const char *lit)
{
	size_t m = strlen(lit);

	if (i > s.n || s.n - i < m || memcmp(s.p + i, lit, m))
		return NPOS;
	return i + m;
}

bool span_is(struct span s, const char *lit)
{
	return s.n == strlen(lit) && (!s.n || !memcmp(s.p, lit, s.n));
}

bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

size_t digits(struct span s, size_t i)
{
	while (i < s.n && is_digit(s.p[i]))
		i++;
	return i;
}

/* What Python's str.strip() takes for blanks, in ASCII. */
bool is_blank(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

struct span strip(struct span s)
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
uint64_t to_u64(struct span s)
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
int64_t to_i64(struct span s)
{
	if (s.n && s.p[0] == '-')
		return -(int64_t)to_u64(sub(s, 1, s.n));
	return (int64_t)to_u64(s);
}

/* "[\d.]+" as the log prints msecs: "866.009". */
double to_msecs(struct span s)
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
		} else if (v < 1e15) {
			v = v * 10 + (s.p[i] - '0');
		}
	}
	return v;
}

uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

bool returned_tail(struct span l, size_t i, struct span *err, struct span *dur)
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

void each_line(struct span text, void (*fn)(void *ctx, struct span line),
	       void *ctx)
{
	size_t i = 0;

	while (i < text.n) {
		size_t e = i;

		while (e < text.n && text.p[e] != '\n' && text.p[e] != '\r')
			e++;
		fn(ctx, sub(text, i, e));
		i = e + 1;
	}
}

/* ---- interned strings ---- */

struct strtab strs;

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

int st_find(const struct strtab *t, struct span s)
{
	size_t where;

	return st_lookup(t, s, &where);
}

static void st_rehash(struct strtab *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 256;

	t->slot = xrealloc(t->slot, n * sizeof(*t->slot));
	memset(t->slot, 0xff, n * sizeof(*t->slot));
	t->nslot = n;
	for (int k = 0; k < t->n; k++) {
		size_t i = hash_bytes(t->str[k].p, t->str[k].n) & (n - 1);

		while (t->slot[i] >= 0)
			i = (i + 1) & (n - 1);
		t->slot[i] = k;
	}
}

int st_intern(struct strtab *t, struct span s)
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

void st_free(struct strtab *t)
{
	free(t->str);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- interned tuples ---- */

static uint64_t tt_hash(int a, int b, int c)
{
	int v[TUPLE_MAX] = { a, b, c };

	return hash_bytes(v, sizeof(v));
}

static void tt_rehash(struct tupletab *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 256;

	t->slot = xrealloc(t->slot, n * sizeof(*t->slot));
	memset(t->slot, 0xff, n * sizeof(*t->slot));
	t->nslot = n;
	for (int k = 0; k < t->n; k++) {
		size_t i = tt_hash(t->v[k][0], t->v[k][1], t->v[k][2]) & (n - 1);

		while (t->slot[i] >= 0)
			i = (i + 1) & (n - 1);
		t->slot[i] = k;
	}
}

static size_t tt_slot(const struct tupletab *t, int a, int b, int c)
{
	size_t m = t->nslot - 1, i = tt_hash(a, b, c) & m;

	for (; t->slot[i] >= 0; i = (i + 1) & m) {
		const int *v = t->v[t->slot[i]];

		if (v[0] == a && v[1] == b && v[2] == c)
			break;
	}
	return i;
}

int tt_intern(struct tupletab *t, int a, int b, int c)
{
	size_t i;

	if ((size_t)t->n * 2 + 2 > t->nslot)
		tt_rehash(t);
	i = tt_slot(t, a, b, c);
	if (t->slot[i] >= 0)
		return t->slot[i];
	t->v = grow(t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n][0] = a;
	t->v[t->n][1] = b;
	t->v[t->n][2] = c;
	t->slot[i] = t->n;
	return t->n++;
}

void tt_free(struct tupletab *t)
{
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- a capture's calls ---- */

/* Leading zeros do not make another PID. */
int intern_pid(struct span d)
{
	while (d.n > 1 && d.p[0] == '0')
		d = sub(d, 1, d.n);
	return st_intern(&strs, d);
}

static void pend_push(struct capture *c, int ci)
{
	int who = c->call[ci].who;

	if (who >= c->nhead) {
		int old = c->nhead, cap = c->nhead;

		/* head and tail grow alike; nhead counts both */
		c->head = grow(c->head, &cap, who + 1, sizeof(int));
		c->tail = grow(c->tail, &c->nhead, who + 1, sizeof(int));
		for (int i = old; i < c->nhead; i++)
			c->head[i] = c->tail[i] = -1;
	}
	c->call[ci].next = -1;
	if (c->tail[who] >= 0)
		c->call[c->tail[who]].next = ci;
	else
		c->head[who] = ci;
	c->tail[who] = ci;
}

/*
 * With pid >= 0, the oldest on that PID if one of the first few is: a
 * callback starts and ends on one thread, and the bound keeps a flood
 * of unanswered starts linear.
 */
int pend_pop(struct capture *c, int who, int pid)
{
	int prev = -1, k, n = 0;

	if (who < 0 || who >= c->nhead || c->head[who] < 0)
		return -1;
	k = c->head[who];
	while (pid >= 0 && k >= 0 && c->call[k].pid != pid && n++ < 64) {
		prev = k;
		k = c->call[k].next;
	}
	if (k < 0 || (pid >= 0 && c->call[k].pid != pid)) {
		prev = -1;
		k = c->head[who];
	}
	if (prev < 0)
		c->head[who] = c->call[k].next;
	else
		c->call[prev].next = c->call[k].next;
	if (c->tail[who] == k)
		c->tail[who] = prev;
	return k;
}

int add_call(struct capture *c, struct span who, bool with_drv,
	     struct span parent, struct span pid)
{
	struct call *k;
	int ci = c->ncall;

	c->call = grow(c->call, &c->call_cap, ci + 1, sizeof(*c->call));
	k = &c->call[ci];
	memset(k, 0, sizeof(*k));
	k->who = st_intern(&strs, who);
	k->ident = tt_intern(&idents, k->who, st_intern(&strs, parent), with_drv);
	k->pid = intern_pid(pid);
	k->pm_pid = -1;
	k->phase = -1;
	k->hint = -1;
	k->cycle = c->ncyc ? c->ncyc - 1 : 0;
	c->ncall++;
	pend_push(c, ci);
	return ci;
}

/* ---- transitions ---- */

/*
 * pm_verb() of the kernel: what each phase line and trace event calls
 * its transition.  The first five are the suspend side (quiesce and
 * hibernate are the boot kernel's and poweroff's), the rest the resume
 * side; a hibernation's freeze/thaw/poweroff/restore callbacks are the
 * suspend/resume phases at the same place (core/event/event.h).
 */
const char *const verb_names[] = {
	"suspend", "freeze", "poweroff", "quiesce", "hibernate",
	"resume", "thaw", "restore", "recover", NULL,
};

#define NR_SUSPEND_VERBS 5

int verb_index(struct span verb)
{
	for (int i = 0; verb_names[i]; i++)
		if (span_is(verb, verb_names[i]))
			return i;
	return -1;
}

bool is_suspend_verb(struct span verb)
{
	int v = verb_index(verb);

	return v >= 0 && v < NR_SUSPEND_VERBS;
}

struct cycle_log *cycle_at_phase(struct capture *c, int phase)
{
	bool suspend_side = pm_phase_is_suspend(phase);

	if (!c->ncyc || (suspend_side && c->resume_seen)) {
		c->cyc = grow(c->cyc, &c->cyc_cap, c->ncyc + 1, sizeof(*c->cyc));
		memset(&c->cyc[c->ncyc], 0, sizeof(*c->cyc));
		c->cyc[c->ncyc].verb[0] = c->cyc[c->ncyc].verb[1] = -1;
		c->ncyc++;
		c->resume_seen = false;
	}
	if (!suspend_side)
		c->resume_seen = true;
	return &c->cyc[c->ncyc - 1];
}

static size_t word_end(struct span l, size_t i)
{
	while (i < l.n && !is_blank((unsigned char)l.p[i]))
		i++;
	return i;
}

/*
 * sleepgraph's first line: "# suspend-MMDDYY-HHMMSS HOST MODE KERNEL"
 * (any word before the dash).  HOST may hold blanks: MODE and KERNEL
 * are the last two words.  The first one counts.
 */
bool stamp_line(struct capture *c, struct span l)
{
	size_t w = skip(l, 0, "# "), d, e, k, m;
	struct span rest;

	if (w == NPOS)
		return false;
	d = find(sub(l, 0, word_end(l, w)), w, "-");
	if (d == NPOS || d == w || digits(l, d + 1) != d + 7 ||
	    skip(l, d + 7, "-") == NPOS || digits(l, d + 8) != d + 14)
		return false;
	e = d + 14;
	rest = strip(sub(l, e, l.n));
	k = rfind(rest, " ");
	if (k == NPOS)
		return false;
	m = rfind(sub(rest, 0, k), " ");
	if (m == NPOS)
		return false;
	if (!c->stamp.n) {
		c->stamp = sub(l, w, e);
		c->host = strip(sub(rest, 0, m));
		c->mode = sub(rest, m + 1, k);
		c->kernel = sub(rest, k + 1, rest.n);
	}
	return true;
}

void free_capture(struct capture *c)
{
	free(c->call);
	free(c->head);
	free(c->tail);
	free(c->cyc);
	free(c->phase_pid);
	memset(c, 0, sizeof(*c));
}
