// SPDX-License-Identifier: GPL-2.0-only
/*
 * The canonical text format (docs/scenario.md).  One statement per line,
 * '#' starts a comment.  print(parse(x)) is a fixed point.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "../util/esc.h"
#include "../util/xalloc.h"

/* ---- a growable string ---- */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL,
				  b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t want = b->cap ? b->cap : 256;

		while (want <= b->len + (size_t)n)
			want *= 2;
		b->s = dpm_xrealloc(b->s, want, 1);
		b->cap = want;
	}
}

static const char *const kind_names[NR_ACT] = { "unregister", "async" };

static const char *const dpm_flag_names[] = {
	"no-direct-complete", "smart-prepare", "smart-suspend", "may-skip-resume",
};
static const char *const link_flag_names[] = {
	"stateless", "pm-runtime", "rpm-active", "sync-state-only",
};

/* "a,b" for the set bits of mask, from names. */
static void print_set(struct sbuf *b, unsigned int mask,
		      const char *const *names, int n)
{
	const char *sep = "";

	for (int i = 0; i < n; i++)
		if (mask & (1u << i)) {
			sb_add(b, "%s%s", sep, names[i]);
			sep = ",";
		}
}

static void print_phases(struct sbuf *b, unsigned int mask)
{
	const char *names[NR_PHASES];

	for (int p = 0; p < NR_PHASES; p++)
		names[p] = pm_phase_name(p);
	if (!mask)
		sb_add(b, "none");
	print_set(b, mask, names, NR_PHASES);
}

/* The kernel variants' device attributes that are one word each, in the
 * order a scenario prints them. */
static const struct { const char *w; unsigned int f; } kernel_flags[] = {
	{ "no-driver", SCN_NO_DRIVER }, { "no-pm", SCN_NO_PM },
	{ "syscore", SCN_SYSCORE }, { "wakeup", SCN_WAKEUP },
	{ "wakeup-path-late", SCN_WAKEUP_PATH_LATE },
	{ "rpm-resume-pending", SCN_RPM_RESUME_PENDING },
	{ "rpm-resume-racing", SCN_RPM_RESUME_RACING },
};

/* The kernel variants' device attributes that differ from the defaults. */
static void print_kernel_device(struct sbuf *b, const struct scenario *s,
				const struct scn_kernel *k)
{
	for (size_t i = 0; i < sizeof(kernel_flags) / sizeof(kernel_flags[0]); i++)
		if (k->flags & kernel_flags[i].f)
			sb_add(b, " %s", kernel_flags[i].w);
	if (k->dpm_flags) {
		sb_add(b, " dpm-flags=");
		print_set(b, k->dpm_flags, dpm_flag_names, 4);
	}
	if (k->level != LVL_NONE) {
		sb_add(b, " level=%s", scn_level_name(k->level));
		if (k->level_cbs != SCN_ALL_PHASES) {
			sb_add(b, ":");
			print_phases(b, k->level_cbs);
		}
	}
	if (k->driver_cbs != SCN_ALL_PHASES) {
		sb_add(b, " driver-cbs=");
		print_phases(b, k->driver_cbs);
	}
	if (k->late_phase >= 0)
		sb_add(b, " late=%s", pm_phase_name(k->late_phase));
	if (k->release_unregisters >= 0)
		sb_add(b, " release-unregisters=%s",
		       s->dev[k->release_unregisters].name);
}

static void print_attr(struct sbuf *b, const char *a, int len)
{
	sb_add(b, "\"");
	for (int i = 0; i < len; i++) {
		unsigned char c = (unsigned char)a[i];

		if (c == '\n')
			sb_add(b, "\\n");
		else if (c == '"' || c == '\\')
			sb_add(b, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			sb_add(b, "\\x%02x", c);
		else
			sb_add(b, "%c", c);
	}
	sb_add(b, "\"");
}

char *scenario_print(const struct scenario *s)
{
	struct sbuf b = { 0 };

	sb_add(&b, "dpmfuzz-scenario 1\n");
	if (s->variant[0])
		sb_add(&b, "variant %s\n", s->variant);
	if (s->fixes[0])
		sb_add(&b, "fix %s\n", s->fixes);
	if (s->expect[0])
		sb_add(&b, "expect %s\n", s->expect);
	sb_add(&b, "pm_async %d\npm_trace %d\ncycles %d\n", s->pm_async,
	       s->pm_trace, s->cycles);
	sb_add(&b, "inline_every %u\nworker_limit %u\n", s->inline_every,
	       s->worker_limit);
	if (s->transition != TR_MEM)
		sb_add(&b, "transition %s\n", scn_transition_name(s->transition));
	if (s->wakeup_at_us >= 0)
		sb_add(&b, "wakeup at=%lldus\n", (long long)s->wakeup_at_us);
	if (s->suspend_again)
		sb_add(&b, "suspend_again %d\n", s->suspend_again);
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];

		sb_add(&b, "device %s", d->name);
		if (d->parent >= 0)
			sb_add(&b, " parent=%s", s->dev[d->parent].name);
		if (d->async)
			sb_add(&b, " async");
		if (d->pci)
			sb_add(&b, " pci");
		if (d->beh.rpm_suspended)
			sb_add(&b, " rpm-suspended");
		for (int k = 0; k < d->nsup; k++) {
			sb_add(&b, " supplier=%s", s->dev[d->sup[k]].name);
			if (d->k.link_flags[k] != SCN_LINK_PM_RUNTIME) {
				sb_add(&b, ":");
				if (!d->k.link_flags[k])
					sb_add(&b, "none");
				print_set(&b, d->k.link_flags[k], link_flag_names, 4);
			}
		}
		if (d->beh.pm_wait_for)
			sb_add(&b, " pm-wait=%s",
			       s->dev[d->beh.pm_wait_for - 1].name);
		for (int p = 0; p < NR_PHASES; p++)
			if (d->beh.dur_us[p])
				sb_add(&b, " %s=%uus", pm_phase_name(p),
				       d->beh.dur_us[p]);
		for (int p = 0; p < NR_PHASES; p++)
			if (d->beh.err[p])
				sb_add(&b, " err=%s:%d", pm_phase_name(p),
				       d->beh.err[p]);
		if (d->beh.remove_phase >= 0)
			sb_add(&b, " remove=%s:%s",
			       pm_phase_name(d->beh.remove_phase),
			       s->dev[d->beh.remove_target].name);
		print_kernel_device(&b, s, &d->k);
		sb_add(&b, "\n");
	}
	for (int i = 0; i < s->nact; i++) {
		const struct scn_action *a = &s->act[i];

		sb_add(&b, "action %s %s", kind_names[a->kind],
		       s->dev[a->dev].name);
		if (a->kind == ACT_UNREGISTER) {
			sb_add(&b, " at=%lluus%s\n", (unsigned long long)a->at,
			       a->unfrozen ? " unfrozen" : "");
		} else {
			sb_add(&b, " ");
			print_attr(&b, a->attr, a->attr_len);
			sb_add(&b, " before-cycle=%llu\n",
			       (unsigned long long)a->at);
		}
	}
	if (s->sched_by_task)
		sb_add(&b, "schedule-by task\n");
	for (size_t i = 0; i < s->nsched; i += 32) {
		sb_add(&b, "schedule ");
		for (size_t j = i; j < s->nsched && j < i + 32; j++)
			sb_add(&b, "%02x", s->sched[j]);
		sb_add(&b, "\n");
	}
	if (!b.s)
		sb_add(&b, "%s", "");
	return b.s;
}

/* ---- parsing ---- */

enum { PEND_REMOVE, PEND_WAIT, PEND_RELEASE, PEND_SUPPLIER };
static const char *const pend_names[] = { "remove", "pm-wait",
					  "release-unregisters", "supplier" };

struct parser {
	const char *p, *end;
	int line;
	char *err;
	size_t errlen;
	struct scenario *s;
	int dev_cap, act_cap;
	size_t sched_cap;
	/* name -> index, open addressing */
	int *slots;
	size_t nslots;
	bool header;
	/* remove=, pm-wait= and release-unregisters= targets, and the
	 * supplier of a SYNC_STATE_ONLY link, may be declared later:
	 * resolved at the end */
	struct pending {
		int dev, line;
		int what;		/* PEND_* */
		int slot;		/* PEND_SUPPLIER: the index in sup[] */
		char name[SCN_NAME_MAX + 1];
	} *pend;
	int npend, pend_cap;
};

static int perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ps->err, ps->errlen, "line %d: ", ps->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	dpm_one_line(ps->err, ps->errlen);
	return -1;
}

static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static int name_find(struct parser *ps, const char *n, size_t len)
{
	if (!ps->nslots)
		return -1;
	for (size_t i = hash_name(n, len) & (ps->nslots - 1);;
	     i = (i + 1) & (ps->nslots - 1)) {
		int k = ps->slots[i];

		if (k < 0)
			return -1;
		if (strlen(ps->s->dev[k].name) == len &&
		    !memcmp(ps->s->dev[k].name, n, len))
			return k;
	}
}

static void name_insert(struct parser *ps, int k);

static void name_grow(struct parser *ps)
{
	size_t n = ps->nslots ? ps->nslots * 2 : 64;

	free(ps->slots);
	ps->slots = dpm_xrealloc(NULL, n, sizeof(int));
	memset(ps->slots, 0xff, n * sizeof(int));
	ps->nslots = n;
	for (int k = 0; k < ps->s->ndev; k++)
		name_insert(ps, k);
}

static void name_insert(struct parser *ps, int k)
{
	const char *n = ps->s->dev[k].name;
	size_t i = hash_name(n, strlen(n)) & (ps->nslots - 1);

	while (ps->slots[i] >= 0)
		i = (i + 1) & (ps->nslots - 1);
	ps->slots[i] = k;
}

struct tok {
	const char *s;
	size_t n;
};

static bool tok_is(struct tok t, const char *w)
{
	return strlen(w) == t.n && !memcmp(t.s, w, t.n);
}

bool scenario_name_char_ok(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '=' && c != '"' && c != '#';
}

static int parse_u64(struct parser *ps, struct tok t, const char *suffix,
		     uint64_t max, uint64_t *out, const char *what)
{
	size_t sl = suffix ? strlen(suffix) : 0;

	if (t.n <= sl || (sl && memcmp(t.s + t.n - sl, suffix, sl)))
		return perr(ps, "%s: expected a number%s%s", what,
			    suffix ? " ending in " : "", suffix ? suffix : "");
	uint64_t v = 0;

	for (size_t i = 0; i < t.n - sl; i++) {
		if (!isdigit((unsigned char)t.s[i]))
			return perr(ps, "%s: '%s' is not a number", what,
				    DPM_ESCN(t.s, t.n));
		uint64_t dg = (uint64_t)(t.s[i] - '0');

		if (v > max / 10 || (v == max / 10 && dg > max % 10))
			return perr(ps, "%s: %s is larger than %llu", what,
				    DPM_ESCN(t.s, t.n), (unsigned long long)max);
		v = v * 10 + dg;
	}
	*out = v;
	return 0;
}

static int phase_of(struct tok t)
{
	for (int p = 0; p < NR_PHASES; p++)
		if (tok_is(t, pm_phase_name(p)))
			return p;
	return -1;
}

static int dev_of(struct parser *ps, struct tok t)
{
	int k = name_find(ps, t.s, t.n);

	if (k < 0)
		perr(ps, "no device named '%s' before this line", DPM_ESCN(t.s, t.n));
	return k;
}

static bool has_supplier(const struct scn_device *d, int p)
{
	for (int j = 0; j < d->nsup; j++)
		if (d->sup[j] == p)
			return true;
	return false;
}

/* Split "key=value" or "a:b" at the first sep. */
static bool split(struct tok t, char sep, struct tok *a, struct tok *b)
{
	const char *q = memchr(t.s, sep, t.n);

	if (!q)
		return false;
	a->s = t.s;
	a->n = (size_t)(q - t.s);
	b->s = q + 1;
	b->n = t.n - a->n - 1;
	return true;
}

/* "a,b,c" of names into a bit mask; "none" is 0.  -1 on an unknown name. */
static int parse_set(struct parser *ps, struct tok v, const char *const *names,
		     int n, unsigned int *mask, const char *what)
{
	*mask = 0;
	if (tok_is(v, "none"))
		return 0;
	while (v.n) {
		struct tok a = v, rest = { v.s + v.n, 0 };
		int i;

		if (split(v, ',', &a, &rest) && !a.n)
			return perr(ps, "%s: an empty name", what);
		for (i = 0; i < n && !tok_is(a, names[i]); i++)
			;
		if (i == n)
			return perr(ps, "%s: unknown '%s'", what, DPM_ESCN(a.s, a.n));
		*mask |= 1u << i;
		v = rest;
	}
	return 0;
}

static int parse_phases(struct parser *ps, struct tok v, unsigned int *mask,
			const char *what)
{
	const char *names[NR_PHASES];

	for (int p = 0; p < NR_PHASES; p++)
		names[p] = pm_phase_name(p);
	return parse_set(ps, v, names, NR_PHASES, mask, what);
}

/* The kernel variants' device attributes (docs/scenario.md): 1 if the
 * word was one, 0 if not, -1 on an error. */
static int parse_kernel_attr(struct parser *ps, struct scn_device *d,
			     struct tok w)
{
	struct scn_kernel *k = &d->k;
	struct tok key, v, a, b;

	for (size_t i = 0; i < sizeof(kernel_flags) / sizeof(kernel_flags[0]); i++)
		if (tok_is(w, kernel_flags[i].w)) {
			k->flags |= kernel_flags[i].f;
			return 1;
		}
	if (!split(w, '=', &key, &v))
		return 0;
	if (tok_is(key, "dpm-flags"))
		return parse_set(ps, v, dpm_flag_names, 4, &k->dpm_flags,
				 "dpm-flags") < 0 ? -1 : 1;
	if (tok_is(key, "driver-cbs"))
		return parse_phases(ps, v, &k->driver_cbs, "driver-cbs") < 0 ? -1 : 1;
	if (tok_is(key, "level")) {
		int l;

		if (!split(v, ':', &a, &b)) {
			a = v;
			b.n = 0;
		}
		for (l = 0; l < NR_LEVELS && !tok_is(a, scn_level_name(l)); l++)
			;
		if (l == NR_LEVELS)
			return perr(ps, "level: unknown level '%s'", DPM_ESCN(a.s, a.n));
		k->level = l;
		k->level_cbs = SCN_ALL_PHASES;
		if (b.s && b.n && parse_phases(ps, b, &k->level_cbs, "level") < 0)
			return -1;
		return 1;
	}
	if (tok_is(key, "late")) {
		int ph = phase_of(v);

		if (ph < 0)
			return perr(ps, "late: expected a phase");
		k->late_phase = ph;
		return 1;
	}
	return 0;
}

static int parse_device(struct parser *ps, struct tok *tk, int nt)
{
	struct scenario *s = ps->s;

	if (nt < 2)
		return perr(ps, "device: expected a name");
	if (tk[1].n > SCN_NAME_MAX)
		return perr(ps, "device name longer than %d characters",
			    SCN_NAME_MAX);
	for (size_t i = 0; i < tk[1].n; i++)
		if (!scenario_name_char_ok((unsigned char)tk[1].s[i]))
			return perr(ps, "device name has a character that is not allowed");
	if (name_find(ps, tk[1].s, tk[1].n) >= 0)
		return perr(ps, "device '%s' is declared twice",
			    DPM_ESCN(tk[1].s, tk[1].n));
	DPM_ARRAY_RESERVE(s->dev, s->ndev, ps->dev_cap);
	struct scn_device *d = &s->dev[s->ndev];

	scn_device_init(d);
	memcpy(d->name, tk[1].s, tk[1].n);
	for (int i = 2; i < nt; i++) {
		struct tok k, v, a, b;
		int kr = parse_kernel_attr(ps, d, tk[i]);

		if (kr < 0)
			return -1;
		if (kr)
			continue;

		if (tok_is(tk[i], "async")) {
			d->async = true;
			continue;
		}
		if (tok_is(tk[i], "pci")) {
			d->pci = true;
			continue;
		}
		if (tok_is(tk[i], "rpm-suspended")) {
			d->beh.rpm_suspended = true;
			continue;
		}
		if (!split(tk[i], '=', &k, &v))
			return perr(ps, "device: unknown word '%s'",
				    DPM_ESCN(tk[i].s, tk[i].n));
		if (tok_is(k, "parent")) {
			int p = dev_of(ps, v);

			if (p < 0)
				return -1;
			d->parent = p;
		} else if (tok_is(k, "err")) {
			uint64_t e;
			int ph;

			if (!split(v, ':', &a, &b) || (ph = phase_of(a)) < 0)
				return perr(ps, "err: expected PHASE:-ERRNO");
			if (b.n < 2 || b.s[0] != '-')
				return perr(ps, "err: the error must be negative, like -5");
			b.s++;
			b.n--;
			if (parse_u64(ps, b, NULL, SCN_ERR_MAX, &e, "err") < 0)
				return -1;
			if (!e)
				return perr(ps, "err: -0 is not an error");
			d->beh.err[ph] = -(int)e;
		} else if (tok_is(k, "supplier")) {
			unsigned int lf = SCN_LINK_PM_RUNTIME;

			if (split(v, ':', &a, &b)) {
				if (parse_set(ps, b, link_flag_names, 4, &lf,
					      "supplier") < 0)
					return -1;
				v = a;
			}
			int p = name_find(ps, v.s, v.n);

			/* Only a SYNC_STATE_ONLY link may have a supplier
			 * declared later (fw_devlink makes such links
			 * against the list's order: finding KV-1). */
			if (p < 0 && !(lf & SCN_LINK_SYNC_STATE_ONLY))
				return dev_of(ps, v);
			if (p < 0 && (v.n > SCN_NAME_MAX || !v.n))
				return perr(ps, "supplier: bad device name");
			d->k.link_flags[d->nsup < SCN_SUP_MAX ? d->nsup : 0] = lf;
			if (d->nsup == SCN_SUP_MAX)
				return perr(ps, "supplier: at most %d per device",
					    SCN_SUP_MAX);
			if (p >= 0 && has_supplier(d, p))
				return perr(ps, "supplier: '%s' named twice",
					    DPM_ESCN(v.s, v.n));
			if (p < 0) {
				DPM_ARRAY_RESERVE(ps->pend, ps->npend, ps->pend_cap);
				struct pending *pd = &ps->pend[ps->npend++];

				pd->dev = s->ndev;
				pd->line = ps->line;
				pd->what = PEND_SUPPLIER;
				pd->slot = d->nsup;
				memcpy(pd->name, v.s, v.n);
				pd->name[v.n] = '\0';
			}
			d->sup[d->nsup++] = p;
		} else if (tok_is(k, "remove") || tok_is(k, "pm-wait") ||
			   tok_is(k, "release-unregisters")) {
			int what = k.s[0] == 'p' ? PEND_WAIT :
				   k.s[1] == 'e' && k.s[2] == 'l' ? PEND_RELEASE :
				   PEND_REMOVE;
			bool wait = what != PEND_REMOVE;
			int ph = -1;

			if (wait) {
				b = v;
			} else {
				if (!split(v, ':', &a, &b) || (ph = phase_of(a)) < 0)
					return perr(ps, "remove: expected PHASE:DEVICE");
				d->beh.remove_phase = ph;
			}
			if (b.n > SCN_NAME_MAX || !b.n)
				return perr(ps, "%s: bad device name",
					    pend_names[what]);
			DPM_ARRAY_RESERVE(ps->pend, ps->npend, ps->pend_cap);
			struct pending *pd = &ps->pend[ps->npend++];

			pd->dev = s->ndev;
			pd->line = ps->line;
			pd->what = what;
			memcpy(pd->name, b.s, b.n);
			pd->name[b.n] = '\0';
		} else {
			int ph = phase_of(k);
			uint64_t us;

			if (ph < 0)
				return perr(ps, "device: unknown setting '%s'",
					    DPM_ESCN(k.s, k.n));
			if (parse_u64(ps, v, "us", SCN_DUR_MAX_US, &us, "duration") < 0)
				return -1;
			d->beh.dur_us[ph] = (unsigned int)us;
		}
	}
	s->ndev++;
	if ((size_t)s->ndev * 2 > ps->nslots)
		name_grow(ps);
	else
		name_insert(ps, s->ndev - 1);
	return 0;
}

static int unescape(struct parser *ps, struct tok t, char *out, int *outlen)
{
	int n = 0;

	for (size_t i = 1; i + 1 < t.n; i++) {
		char c = t.s[i];

		if (c == '\\') {
			if (++i + 1 >= t.n)
				return perr(ps, "attribute: bad escape");
			c = t.s[i];
			if (c == 'n') {
				c = '\n';
			} else if (c == 'x') {
				if (i + 3 > t.n - 1 || !isxdigit((unsigned char)t.s[i + 1]) ||
				    !isxdigit((unsigned char)t.s[i + 2]))
					return perr(ps, "attribute: bad \\x escape");
				char hx[3] = { t.s[i + 1], t.s[i + 2], 0 };

				c = (char)strtol(hx, NULL, 16);
				i += 2;
			} else if (c != '\\' && c != '"') {
				return perr(ps, "attribute: unknown escape \\%c", c);
			}
		}
		if (n >= SCN_ATTR_MAX)
			return perr(ps, "attribute: longer than %d bytes",
				    SCN_ATTR_MAX);
		out[n++] = c;
	}
	*outlen = n;
	return 0;
}

static int parse_action(struct parser *ps, struct tok *tk, int nt)
{
	struct scenario *s = ps->s;
	struct scn_action a;
	struct tok k, v;

	memset(&a, 0, sizeof(a));
	if (nt < 3)
		return perr(ps, "action: expected KIND DEVICE ...");
	if (tok_is(tk[1], "unregister"))
		a.kind = ACT_UNREGISTER;
	else if (tok_is(tk[1], "async"))
		a.kind = ACT_ASYNC_ATTR;
	else
		return perr(ps, "action: unknown kind '%s'", DPM_ESCN(tk[1].s, tk[1].n));
	a.dev = dev_of(ps, tk[2]);
	if (a.dev < 0)
		return -1;
	if (a.kind == ACT_UNREGISTER) {
		if (nt < 4 || nt > 5 || !split(tk[3], '=', &k, &v) ||
		    !tok_is(k, "at") || (nt == 5 && !tok_is(tk[4], "unfrozen")))
			return perr(ps, "action unregister: expected at=TIMEus [unfrozen]");
		if (parse_u64(ps, v, "us", 1000000000000ULL, &a.at, "at") < 0)
			return -1;
		a.unfrozen = nt == 5;
	} else {
		if (nt != 5 || tk[3].n < 2 || tk[3].s[0] != '"')
			return perr(ps, "action async: expected \"TEXT\" before-cycle=N");
		if (unescape(ps, tk[3], a.attr, &a.attr_len) < 0)
			return -1;
		if (!split(tk[4], '=', &k, &v) || !tok_is(k, "before-cycle"))
			return perr(ps, "action async: expected before-cycle=N");
		if (parse_u64(ps, v, NULL, 1000000, &a.at, "before-cycle") < 0)
			return -1;
	}
	DPM_ARRAY_PUSH(s->act, s->nact, ps->act_cap, a);
	return 0;
}

static int parse_schedule(struct parser *ps, struct tok *tk, int nt)
{
	struct scenario *s = ps->s;

	for (int i = 1; i < nt; i++) {
		if (tk[i].n % 2)
			return perr(ps, "schedule: odd number of hex digits");
		for (size_t j = 0; j < tk[i].n; j += 2) {
			char hx[3] = { tk[i].s[j], tk[i].s[j + 1], 0 };

			if (!isxdigit((unsigned char)hx[0]) ||
			    !isxdigit((unsigned char)hx[1]))
				return perr(ps, "schedule: '%s' is not hex", DPM_ESC(hx));
			DPM_ARRAY_PUSH(s->sched, s->nsched, ps->sched_cap,
				       (uint8_t)strtol(hx, NULL, 16));
		}
	}
	return 0;
}

static int parse_word(struct parser *ps, struct tok t, char *out, size_t cap,
		      const char *what)
{
	if (t.n >= cap)
		return perr(ps, "%s: too long", what);
	for (size_t i = 0; i < t.n; i++)
		if (!scenario_name_char_ok((unsigned char)t.s[i]))
			return perr(ps, "%s: a character that is not allowed", what);
	memcpy(out, t.s, t.n);
	out[t.n] = '\0';
	return 0;
}

static int parse_setting(struct parser *ps, struct tok *tk, int nt)
{
	struct scenario *s = ps->s;
	uint64_t v;

	if (nt != 2)
		return perr(ps, "'%s' takes one value", DPM_ESCN(tk[0].s, tk[0].n));
	if (tok_is(tk[0], "variant"))
		return parse_word(ps, tk[1], s->variant, sizeof(s->variant),
				  "variant");
	if (tok_is(tk[0], "fix"))
		return parse_word(ps, tk[1], s->fixes, sizeof(s->fixes), "fix");
	if (tok_is(tk[0], "expect"))
		return parse_word(ps, tk[1], s->expect, sizeof(s->expect),
				  "expect");
	if (tok_is(tk[0], "pm_async") || tok_is(tk[0], "pm_trace")) {
		if (parse_u64(ps, tk[1], NULL, 1, &v, "switch") < 0)
			return -1;
		if (tk[0].s[3] == 'a')
			s->pm_async = v;
		else
			s->pm_trace = v;
		return 0;
	}
	if (tok_is(tk[0], "cycles")) {
		if (parse_u64(ps, tk[1], NULL, 1000, &v, "cycles") < 0)
			return -1;
		if (!v)
			return perr(ps, "cycles: at least 1");
		s->cycles = (int)v;
		return 0;
	}
	if (tok_is(tk[0], "suspend_again")) {
		if (parse_u64(ps, tk[1], NULL, 3, &v, "suspend_again") < 0)
			return -1;
		s->suspend_again = (int)v;
		return 0;
	}
		if (tok_is(tk[0], "inline_every")) {
		if (parse_u64(ps, tk[1], NULL, 1000000, &v, "inline_every") < 0)
			return -1;
		s->inline_every = (unsigned int)v;
		return 0;
	}
	if (tok_is(tk[0], "schedule-by")) {
		if (!tok_is(tk[1], "task") && !tok_is(tk[1], "position"))
			return perr(ps, "schedule-by: task or position");
		s->sched_by_task = tok_is(tk[1], "task");
		return 0;
	}
	if (tok_is(tk[0], "transition")) {
		int t;

		for (t = 0; t < NR_TRANSITIONS &&
			    !tok_is(tk[1], scn_transition_name(t)); t++)
			;
		if (t == NR_TRANSITIONS)
			return perr(ps, "transition: one of mem, s2idle, freeze, poweroff, restore");
		s->transition = t;
		return 0;
	}
	if (tok_is(tk[0], "wakeup")) {
		struct tok k, val;

		if (!split(tk[1], '=', &k, &val) || !tok_is(k, "at"))
			return perr(ps, "wakeup: expected at=TIMEus");
		if (parse_u64(ps, val, "us", 1000000000000ULL, &v, "wakeup") < 0)
			return -1;
		s->wakeup_at_us = (int64_t)v;
		return 0;
	}
	if (tok_is(tk[0], "worker_limit")) {
		if (parse_u64(ps, tk[1], NULL, 1000000, &v, "worker_limit") < 0)
			return -1;
		s->worker_limit = (unsigned int)v;
		return 0;
	}
	return perr(ps, "unknown statement '%s'", DPM_ESCN(tk[0].s, tk[0].n));
}

/* Split a line into words; a word starting with '"' runs to the closing
 * unescaped quote. */
static int tokenize(struct parser *ps, const char *l, const char *e,
		    struct tok *tk, int max)
{
	int n = 0;

	while (l < e) {
		while (l < e && (*l == ' ' || *l == '\t' || *l == '\r'))
			l++;
		if (l >= e || *l == '#')
			break;
		if (n == max)
			return perr(ps, "too many words on one line");
		const char *st = l;

		if (*l == '"') {
			l++;
			while (l < e && *l != '"') {
				if (*l == '\\' && l + 1 < e)
					l++;
				l++;
			}
			if (l >= e)
				return perr(ps, "unterminated string");
			l++;
		} else {
			while (l < e && *l != ' ' && *l != '\t' && *l != '\r')
				l++;
		}
		tk[n].s = st;
		tk[n].n = (size_t)(l - st);
		n++;
	}
	return n;
}

static int parse_line(struct parser *ps, const char *l, const char *e)
{
	struct tok tk[64];
	int nt = tokenize(ps, l, e, tk, 64);

	if (nt <= 0)
		return nt;
	for (const char *c = l; c < e; c++)
		if (!*c)
			return perr(ps, "a NUL byte in the text");
	if (!ps->header) {
		if (nt != 2 || !tok_is(tk[0], "dpmfuzz-scenario") ||
		    !tok_is(tk[1], "1"))
			return perr(ps, "expected the header 'dpmfuzz-scenario 1'");
		ps->header = true;
		return 0;
	}
	if (tok_is(tk[0], "device"))
		return parse_device(ps, tk, nt);
	if (tok_is(tk[0], "action"))
		return parse_action(ps, tk, nt);
	if (tok_is(tk[0], "schedule"))
		return parse_schedule(ps, tk, nt);
	return parse_setting(ps, tk, nt);
}

int scenario_parse(const char *text, size_t len, struct scenario *s,
		   char *err, size_t errlen)
{
	struct parser ps = { 0 };

	scenario_init(s);
	ps.p = text;
	ps.end = text + len;
	ps.err = err;
	ps.errlen = errlen;
	ps.s = s;
	err[0] = '\0';

	int rc = 0;

	while (ps.p < ps.end) {
		const char *e = memchr(ps.p, '\n', (size_t)(ps.end - ps.p));

		if (!e)
			e = ps.end;
		ps.line++;
		rc = parse_line(&ps, ps.p, e);
		if (rc < 0)
			goto out;
		ps.p = e < ps.end ? e + 1 : e;
	}
	if (!ps.header) {
		ps.line = 1;
		rc = perr(&ps, "expected the header 'dpmfuzz-scenario 1'");
		goto out;
	}
	for (int i = 0; i < ps.npend; i++) {
		struct pending *pd = &ps.pend[i];
		int t = name_find(&ps, pd->name, strlen(pd->name));

		ps.line = pd->line;
		if (t < 0) {
			rc = perr(&ps, "%s: no device named '%s'",
				  pend_names[pd->what], DPM_ESC(pd->name));
			goto out;
		}
		if (pd->what == PEND_SUPPLIER) {
			struct scn_device *d = &s->dev[pd->dev];

			if (has_supplier(d, t)) {
				rc = perr(&ps, "supplier: '%s' named twice",
					  DPM_ESC(pd->name));
				goto out;
			}
			d->sup[pd->slot] = t;
		} else if (pd->what == PEND_WAIT)
			s->dev[pd->dev].beh.pm_wait_for = t + 1;
		else if (pd->what == PEND_RELEASE)
			s->dev[pd->dev].k.release_unregisters = t;
		else
			s->dev[pd->dev].beh.remove_target = t;
	}
	if (!s->ndev) {
		rc = perr(&ps, "a scenario needs at least one device");
		goto out;
	}
	rc = scenario_validate(s, err, errlen);
out:
	free(ps.pend);
	free(ps.slots);
	if (rc < 0)
		scenario_free(s);
	return rc;
}

int scenario_validate(const struct scenario *s, char *err, size_t errlen)
{
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_device *d = &s->dev[i];

		if (d->parent >= i || d->parent < -1) {
			snprintf(err, errlen, "device '%s': the parent must come earlier",
				 d->name);
			return -1;
		}
		for (int k = 0; k < d->nsup; k++) {
			if (d->sup[k] < 0 || d->sup[k] >= s->ndev || d->sup[k] == i ||
			    d->nsup > SCN_SUP_MAX ||
			    (d->sup[k] > i &&
			     !(d->k.link_flags[k] & SCN_LINK_SYNC_STATE_ONLY))) {
				snprintf(err, errlen, "device '%s': a supplier must come earlier (a later one only over a sync-state-only link)",
					 d->name);
				return -1;
			}
		}
		if (d->beh.pm_wait_for < 0 || d->beh.pm_wait_for > s->ndev ||
		    d->beh.pm_wait_for == i + 1) {
			snprintf(err, errlen, "device '%s': pm-wait must name another device",
				 d->name);
			return -1;
		}
		if (d->beh.err[PH_PREPARE] == -EAGAIN) {
			snprintf(err, errlen,
				 "device '%s': err=prepare:-11 (-EAGAIN) makes dpm_prepare() retry the device forever; not a driver the kernel's contract allows",
				 d->name);
			return -1;
		}
		if (d->beh.remove_phase >= 0) {
			int t = d->beh.remove_target, p;

			if (t < 0 || t >= s->ndev) {
				snprintf(err, errlen, "device '%s': bad remove target", d->name);
				return -1;
			}
			for (p = s->dev[t].parent; p >= 0 && p != i;
			     p = s->dev[p].parent)
				;
			if (p != i) {
				snprintf(err, errlen,
					 "device '%s': remove= must name a descendant ('%s' is not)",
					 d->name, s->dev[t].name);
				return -1;
			}
			int ph = d->beh.remove_phase;

			if (ph != PH_PREPARE && ph != PH_SUSPEND && ph != PH_RESUME &&
			    ph != PH_COMPLETE) {
				snprintf(err, errlen,
					 "device '%s': a callback may unregister devices only in prepare, suspend, resume or complete",
					 d->name);
				return -1;
			}
		}
	}
	for (int i = 0; i < s->ndev; i++) {
		const struct scn_kernel *k = &s->dev[i].k;
		int r = k->release_unregisters;

		if (k->late_phase >= 0) {
			if (s->dev[i].parent < 0) {
				snprintf(err, errlen,
					 "device '%s': late= needs a parent, whose callback registers it",
					 s->dev[i].name);
				return -1;
			}
			if (k->late_phase != PH_PREPARE &&
			    k->late_phase != PH_RESUME &&
			    k->late_phase != PH_COMPLETE) {
				snprintf(err, errlen,
					 "device '%s': late= takes prepare, resume or complete (a child registered while its parent suspends, or with IRQs off, is out of contract)",
					 s->dev[i].name);
				return -1;
			}
		}
		if (r >= s->ndev || r == i) {
			snprintf(err, errlen,
				 "device '%s': release-unregisters must name another device",
				 s->dev[i].name);
			return -1;
		}
	}
	for (int i = 0; i < s->nact; i++) {
		const struct scn_action *a = &s->act[i];

		if (a->dev < 0 || a->dev >= s->ndev) {
			snprintf(err, errlen, "action %d: bad device", i);
			return -1;
		}
		if (a->kind == ACT_ASYNC_ATTR && a->at >= (uint64_t)s->cycles) {
			snprintf(err, errlen,
				 "action async on '%s': before-cycle=%llu, but there are %d cycles",
				 s->dev[a->dev].name, (unsigned long long)a->at,
				 s->cycles);
			return -1;
		}
	}
	return 0;
}
