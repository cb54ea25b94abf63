// SPDX-License-Identifier: GPL-2.0-only
/*
 * The importer behind dpmimport (tools/dpmimport.c): pm-graph/sleepgraph
 * captures, held in memory, to dpmfuzz scenario texts.  tools/import.h
 * is its interface, tools/import_int.h says which file does what; this
 * one puts them together:
 *
 *  - the inputs: a dmesg, an ftrace, both, or sleepgraph's .html page
 *    (whose embedded logs stand for both);
 *  - each log is used for what it holds: callbacks from the ftrace
 *    where it has them, from the dmesg for the devices it lacks (so a
 *    4.x+ dmesg, which has no callback lines, adds its phase times and
 *    nothing else), and the two are cross-checked where both have
 *    something: devices, callback times, phase times;
 *  - transitions: one scenario per suspend/resume transition of the
 *    capture (sleepgraph -x2 and -multi logs hold several), each with
 *    that transition's callback times and errors; the devices, their
 *    order, parents and async flags come from all of them;
 *  - the variant: from the capture's kernel version
 *    (import_pick_variant());
 *  - a log with phase times but no callbacks at all gives a one-device
 *    scenario whose callbacks take each phase's logged time;
 *  - dmesg "usecs" are ns >> 10 before 5.14: scaled by 1.024 there.
 *
 * PHASE=Nus is the sum of a device's callbacks in the phase (capped at
 * the text format's 100 s); err= keeps the first non-zero return of the
 * phase when the format can hold it (-1..-4095).  Bad input is an
 * error, never an exit: die() puts one line in the caller's buffer and
 * jumps back here, where everything the import holds is freed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "variants/variant.h"

#define MAX_NOTES 200		/* in one scenario's header */

jmp_buf import_fail_jmp;
char *import_fail_err;
size_t import_fail_errlen;
char **import_notes;
int import_nnotes, import_notes_cap;

static struct capture dmesg_cap, ftrace_cap;

/* What one import holds; freed on every way out of it. */
static struct {
	struct tree t;
	char *html_dmesg, *html_ftrace;
	const char *html_path;	/* the page, if the logs come from one */
	char html_dname[256], html_fname[256];	/* "PAGE (its dmesg)" */
	uint64_t *dur;		/* [dev][phase] of the transition at hand */
	int64_t *err;
	int *ncb;		/* callbacks per phase */
	bool *in_ftrace;	/* [dev]: the ftrace has it in this transition */
	uint64_t *dur_d;	/* [dev][phase]: the dmesg's callbacks, for the cross-check */
	bool *cell_d, *cell_f;	/* [dev][phase]: a log has a callback there */
	struct scenario s;
	char *text;
	char **texts;
	int ntexts;
	char *xcheck;		/* the cross-check line of the transition */
} held;

/* ---- versions and the variant ---- */

struct kver {
	int v[3];		/* -1: absent */
};

/* "5.3.0-rc7+" -> 5, 3, 0; false if it does not start "N.N". */
static bool parse_kver(const char *s, struct kver *k)
{
	int i = 0;

	k->v[0] = k->v[1] = k->v[2] = -1;
	if (!s)
		return false;
	while (i < 3 && is_digit(*s)) {
		long v = 0;

		while (is_digit(*s) && v < 100000)
			v = v * 10 + (*s++ - '0');
		k->v[i++] = (int)v;
		if (*s != '.' || !is_digit(s[1]))
			break;
		s++;
	}
	return i >= 2;
}

static int kver_cmp(const struct kver *a, const struct kver *b)
{
	for (int i = 0; i < 3; i++)
		if (a->v[i] != b->v[i])
			return a->v[i] < b->v[i] ? -1 : 1;
	return 0;
}

const char *import_pick_variant(const char *version, const char *names,
				char *buf, size_t n, char *why, size_t whylen)
{
	struct kver cap, best = { { -1, -1, -1 } };
	bool known = parse_kver(version, &cap);
	const char *p = names;
	char scratch[8];

	if (!why) {
		why = scratch;
		whylen = sizeof(scratch);
	}
	snprintf(buf, n, "modern");
	snprintf(why, whylen, known ? "no kernel-%d.%d variant: modern (6.12) is the closest model" :
		 "no kernel version in the capture: modern (6.12)", cap.v[0], cap.v[1]);
	while (known && *p) {
		size_t len = strcspn(p, ", ");
		struct kver k;
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (!strncmp(name, "kernel-", 7) && parse_kver(name + 7, &k) &&
		    k.v[0] == cap.v[0] && k.v[1] == cap.v[1] &&
		    (best.v[0] < 0 || kver_cmp(&k, &best) > 0)) {
			best = k;
			snprintf(buf, n, "%s", name);
			snprintf(why, whylen, "the kernel variant of %d.%d", k.v[0],
				 k.v[1]);
		}
		p += len;
		p += strspn(p, ", ");
	}
	if (known && best.v[0] < 0 && strstr(names, "seed") &&
	    (cap.v[0] < 2 || (cap.v[0] == 2 && (cap.v[1] < 6 ||
	     (cap.v[1] == 6 && cap.v[2] >= 0 && cap.v[2] <= 33))))) {
		snprintf(buf, n, "seed");
		snprintf(why, whylen, "the seed is 2.6.33's async suspend");
	}
	return buf;
}

/* ---- the inputs ---- */

static void start_capture(struct capture *c, const char *kind,
			  const struct import_capture *in)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->path = in->path ? in->path : kind;
	c->text = (struct span){ in->buf ? in->buf : "", in->len };
}

static void not_gzip(const char *path, struct span s)
{
	if (s.n >= 2 && (unsigned char)s.p[0] == 0x1f && (unsigned char)s.p[1] == 0x8b)
		die("%s: gzip-compressed (sleepgraph -gzip): gunzip it first", path);
}

static void load(struct capture *c, bool ftrace)
{
	not_gzip(c->path, c->text);
	if (ftrace)
		ftrace_load(c);
	else
		dmesg_load(c);
	if (!c->ncall && !c->nphase_marks && ftrace)
		die("%s: no device_pm_callback or suspend_resume events (is it sleepgraph's ftrace?)",
		    c->path);
	if (!c->ncall && !c->nphase_marks)
		die("%s: no PM callback lines ('calling ... @ PID, parent: ...') and no 'PM: ... of devices complete' lines (is it a dmesg of a suspend?)",
		    c->path);
	if (c->ncyc > IMPORT_MAX_CYCLES)
		die("%s: more than %d suspend/resume transitions: split the log",
		    c->path, IMPORT_MAX_CYCLES);
}

/* The page's logs become the dmesg and ftrace captures. */
static void from_html(const struct import_request *rq, struct import_capture *d,
		      struct import_capture *f)
{
	struct span page = { rq->html.buf, rq->html.len };
	const char *path = rq->html.path ? rq->html.path : "html";

	if (rq->dmesg.buf || rq->ftrace.buf)
		die("%s: give a sleepgraph page alone: it holds its own dmesg and ftrace",
		    path);
	not_gzip(path, page);
	html_extract(path, page, &held.html_dmesg, &d->len, &held.html_ftrace,
		     &f->len);
	d->buf = held.html_dmesg;
	f->buf = held.html_ftrace;
	snprintf(held.html_dname, sizeof(held.html_dname), "%s (its dmesg)", path);
	snprintf(held.html_fname, sizeof(held.html_fname), "%s (its ftrace)", path);
	d->path = held.html_dname;
	f->path = held.html_fname;
	held.html_path = path;
}

/* Both stamps name the run ("suspend-061314-132459"): they must agree. */
static void same_run(void)
{
	struct span a = dmesg_cap.stamp, b = ftrace_cap.stamp;

	if (a.n && b.n && (a.n != b.n || memcmp(a.p, b.p, a.n)))
		die("%s and %s are from different runs ('%.*s', '%.*s')",
		    dmesg_cap.path, ftrace_cap.path, (int)(a.n < 40 ? a.n : 40),
		    a.p, (int)(b.n < 40 ? b.n : 40), b.p);
}

static const struct capture *stamped(void)
{
	if (ftrace_cap.stamp.n || (!dmesg_cap.kernel.n && ftrace_cap.kernel.n))
		return &ftrace_cap;
	return &dmesg_cap;
}

/* dmesg "usecs" before 5.14 are ns >> 10 (a 3.x log is before it). */
static void scale_dmesg(const char *version)
{
	struct kver k, k514 = { { 5, 14, -1 } };
	bool old;

	if (parse_kver(version, &k)) {
		k.v[2] = -1;
		old = kver_cmp(&k, &k514) < 0;
	} else {
		old = false;
		for (int i = 0; i < dmesg_cap.ncall && !old; i++)
			old = !idents.v[dmesg_cap.call[i].ident][2];
	}
	if (!old || !dmesg_cap.ncall)
		return;
	for (int i = 0; i < dmesg_cap.ncall; i++) {
		uint64_t us = dmesg_cap.call[i].dur_us;

		dmesg_cap.call[i].dur_us = us > NUM_SAT ? us : (us * 1024 + 500) / 1000;
	}
	note("dmesg callback times scaled by 1.024: before 5.14 its 'usecs' are ns >> 10");
}

/* ---- one transition ---- */

/*
 * The callbacks of transition cy into held.dur/err/ncb: the ftrace's,
 * and the dmesg's for the devices the ftrace has none of in it.  Writes
 * the cross-check line: which devices each log has, and the callback
 * times of the (device, phase) pairs both have.
 */
static void gather(int cy)
{
	struct tree *t = &held.t;
	size_t cells = (size_t)t->ndev * NR_PHASES;
	uint64_t both_d = 0, both_f = 0;
	int nboth = 0, only_d = 0, only_f = 0, ncells = 0;
	bool *in_d = xrealloc(NULL, (size_t)t->ndev + 1);
	char line[512];

	memset(held.dur, 0, cells * sizeof(*held.dur));
	memset(held.err, 0, cells * sizeof(*held.err));
	memset(held.dur_d, 0, cells * sizeof(*held.dur_d));
	memset(held.cell_d, 0, cells);
	memset(held.cell_f, 0, cells);
	memset(held.ncb, 0, NR_PHASES * sizeof(*held.ncb));
	memset(held.in_ftrace, 0, (size_t)t->ndev);
	memset(in_d, 0, (size_t)t->ndev + 1);
	for (int i = 0; i < ftrace_cap.ncall; i++)
		if (ftrace_cap.call[i].cycle == cy)
			held.in_ftrace[t->ident_dev[ftrace_cap.call[i].ident]] = true;
	for (int l = 0; l < 2; l++) {
		const struct capture *c = l ? &dmesg_cap : &ftrace_cap;

		for (int i = 0; i < c->ncall; i++) {
			const struct call *k = &c->call[i];
			int d = t->ident_dev[k->ident];
			size_t cell = (size_t)d * NR_PHASES + (size_t)k->phase;

			if (k->cycle != cy)
				continue;
			if (l) {
				in_d[d] = true;
				held.cell_d[cell] = true;
				held.dur_d[cell] = sat_add(held.dur_d[cell], k->dur_us);
				if (held.in_ftrace[d])
					continue;
			} else {
				held.cell_f[cell] = true;
			}
			held.ncb[k->phase]++;
			held.dur[cell] = sat_add(held.dur[cell], k->dur_us);
			if (k->err && !held.err[cell])
				held.err[cell] = k->err < 0 ? k->err : -k->err;
		}
	}
	for (size_t cell = 0; cell < cells; cell++) {
		if (held.cell_d[cell] && held.cell_f[cell]) {
			ncells++;
			both_d = sat_add(both_d, held.dur_d[cell]);
			both_f = sat_add(both_f, held.dur[cell]);
		}
	}
	for (int d = 0; d < t->ndev; d++) {
		nboth += held.in_ftrace[d] && in_d[d];
		only_d += !held.in_ftrace[d] && in_d[d];
		only_f += held.in_ftrace[d] && !in_d[d];
	}
	free(in_d);
	line[0] = '\0';
	if (dmesg_cap.ncall && ftrace_cap.ncall)
		snprintf(line, sizeof(line),
			 "%d devices called back in both logs, %d only in the dmesg, %d only in the ftrace; the %d (device, phase) pairs in both took %.3f ms by the dmesg, %.3f ms by the ftrace",
			 nboth, only_d, only_f, ncells, (double)both_d / 1e3,
			 (double)both_f / 1e3);
	else if (dmesg_cap.text.n && ftrace_cap.text.n && !dmesg_cap.ncall)
		snprintf(line, sizeof(line),
			 "the dmesg has no callback lines (initcall_debug off; sleepgraph reads callbacks from the ftrace since 4.x): its phase times only");
	held.xcheck = xrealloc(held.xcheck, strlen(line) + 1);
	strcpy(held.xcheck, line);
}

/* Phase times of both logs: the largest difference, for the header. */
static void phase_xcheck(int cy, char *buf, size_t n)
{
	double worst = -1;
	int wph = 0;

	buf[0] = '\0';
	if (cy >= dmesg_cap.ncyc || cy >= ftrace_cap.ncyc)
		return;
	for (int ph = 0; ph < NR_PHASES; ph++) {
		const struct cycle_log *a = &dmesg_cap.cyc[cy], *b = &ftrace_cap.cyc[cy];
		double d;

		if (!a->has[ph] || !b->has[ph])
			continue;
		d = a->ms[ph] > b->ms[ph] ? a->ms[ph] - b->ms[ph] : b->ms[ph] - a->ms[ph];
		if (d > worst) {
			worst = d;
			wph = ph;
		}
	}
	if (worst >= 0)
		snprintf(buf, n, "phase times of the dmesg and the ftrace differ by at most %.3f ms (%s)",
			 worst, pm_phase_name(wph));
}

static const char *verb_of(int cy, int side);

/*
 * The transition the logs show (the kernel variants run it): a freeze
 * with a thaw is hibernation's image; a freeze or quiesce with a
 * restore, its resume from the image; a power-off, hibernation's
 * power-off; else suspend to RAM, or to idle when sleepgraph's mode
 * says "freeze" (suspend-to-idle's name until 4.x) over plain suspend
 * verbs.
 */
static enum scn_transition transition_of(int cy)
{
	const char *s = verb_of(cy, 0), *r = verb_of(cy, 1);

	if (!strcmp(s, "freeze") && !strcmp(r, "thaw"))
		return TR_FREEZE;
	if ((!strcmp(s, "freeze") || !strcmp(s, "quiesce")) && !strcmp(r, "restore"))
		return TR_RESTORE;
	if (!strcmp(s, "poweroff") || !strcmp(s, "hibernate"))
		return TR_POWEROFF;
	if (!strcmp(s, "suspend") && span_is(stamped()->mode, "freeze"))
		return TR_S2IDLE;
	return TR_MEM;
}

/* The logged devices of the transition as a scenario. */
static void fill_scenario(struct scenario *s, int cy, const char *variant)
{
	const struct tree *t = &held.t;
	int *pos = xrealloc(NULL, ((size_t)t->ndev + 1) * sizeof(int));

	scenario_init(s);
	snprintf(s->variant, sizeof(s->variant), "%s", variant);
	s->transition = transition_of(cy);
	s->dev = xrealloc(NULL, ((size_t)t->norder + 1) * sizeof(*s->dev));
	s->ndev = t->norder;
	for (int i = 0; i < t->norder; i++)
		pos[t->order[i]] = i;
	for (int i = 0; i < t->norder; i++) {
		int d = t->order[i];
		struct scn_device *sd = &s->dev[i];

		scn_device_init(sd);
		strcpy(sd->name, t->dev[d].out);
		sd->parent = t->dev[d].parent >= 0 ? pos[t->dev[d].parent] : -1;
		sd->async = t->dev[d].async;
		sd->beh.remove_phase = -1;
		sd->beh.remove_target = -1;
		for (int ph = 0; ph < NR_PHASES; ph++) {
			uint64_t us = held.dur[(size_t)d * NR_PHASES + ph];
			int64_t e = held.err[(size_t)d * NR_PHASES + ph];

			sd->beh.dur_us[ph] = (unsigned int)(us < SCN_DUR_MAX_US ? us : SCN_DUR_MAX_US);
			if (e < 0 && e >= -SCN_ERR_MAX)
				sd->beh.err[ph] = (int)e;
		}
	}
	free(pos);
}

/* The logs' time of phase ph in transition cy: the ftrace's, else the dmesg's. */
static bool log_ms(int cy, int ph, double *ms)
{
	const struct capture *c[2] = { &ftrace_cap, &dmesg_cap };

	for (int k = 0; k < 2; k++) {
		if (cy < c[k]->ncyc && c[k]->cyc[cy].has[ph]) {
			*ms = c[k]->cyc[cy].ms[ph];
			return true;
		}
	}
	return false;
}

/* No callbacks in any log: one device whose callbacks take each phase's time. */
static void fill_stand_in(struct scenario *s, int cy, const char *variant)
{
	struct scn_device *sd;

	scenario_init(s);
	snprintf(s->variant, sizeof(s->variant), "%s", variant);
	s->transition = transition_of(cy);
	s->dev = xrealloc(NULL, sizeof(*s->dev));
	s->ndev = 1;
	sd = &s->dev[0];
	scn_device_init(sd);
	strcpy(sd->name, "all-devices");
	sd->parent = -1;
	sd->beh.remove_phase = -1;
	sd->beh.remove_target = -1;
	for (int ph = 0; ph < NR_PHASES; ph++) {
		double ms;

		if (log_ms(cy, ph, &ms)) {
			double us = ms * 1000 + 0.5;

			sd->beh.dur_us[ph] = us < SCN_DUR_MAX_US ? (unsigned int)us : SCN_DUR_MAX_US;
		}
	}
}

/* ---- output ---- */

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

struct sbuf {
	char *p;
	size_t n, cap;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->n + (size_t)w + 1 > b->cap) {
		b->cap = (b->n + (size_t)w + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
		/* held.text owns it, so a later die() frees it */
		held.text = b->p;
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)w + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)w;
}

/* One comment line: control characters would end the comment early. */
static void sb_comment(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_comment(struct sbuf *b, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	import_one_line(line);
	sb_add(b, "# %s\n", line);
}

static const char *verb_of(int cy, int side)
{
	const struct capture *c[2] = { &ftrace_cap, &dmesg_cap };

	for (int k = 0; k < 2; k++)
		if (cy < c[k]->ncyc && c[k]->cyc[cy].verb[side] >= 0)
			return verb_names[c[k]->cyc[cy].verb[side]];
	return side ? "resume" : "suspend";
}

static char *render(const struct scenario *s, int cy, int ncy,
		    const char *why, bool stand_in)
{
	const struct capture *caps[2] = { &dmesg_cap, &ftrace_cap };
	const struct capture *st = stamped();
	struct sbuf b = { 0 };
	char px[256];
	char *body;

	for (int k = 0; k < 2; k++) {
		if (!caps[k]->text.n && !caps[k]->ncall)
			continue;
		if (held.html_path)
			sb_comment(&b, "imported by dpmimport from %s: its %s",
				   basename_of(held.html_path), caps[k]->kind);
		else
			sb_comment(&b, "imported by dpmimport from %s",
				   basename_of(caps[k]->path));
	}
	if (st->stamp.n)
		sb_comment(&b, "capture %.*s: %.*s, mode %.*s, kernel %.*s",
			   (int)st->stamp.n, st->stamp.p, (int)st->host.n, st->host.p,
			   (int)st->mode.n, st->mode.p, (int)st->kernel.n, st->kernel.p);
	else if (st->kernel.n)
		sb_comment(&b, "kernel %.*s", (int)st->kernel.n, st->kernel.p);
	sb_comment(&b, "variant %s: %s", s->variant, why);
	sb_comment(&b, "transition %d of %d: %s, %s%s", cy + 1, ncy, verb_of(cy, 0),
		   verb_of(cy, 1),
		   strcmp(verb_of(cy, 0), "suspend") ? " (run as the suspend and resume phases at the same place)" : "");
	if (stand_in)
		sb_comment(&b, "no log has callbacks: all-devices stands for every device, its callbacks taking each phase's logged time");
	if (held.xcheck && held.xcheck[0])
		sb_comment(&b, "cross-check: %s", held.xcheck);
	phase_xcheck(cy, px, sizeof(px));
	if (px[0])
		sb_comment(&b, "cross-check: %s", px);
	for (int i = 0; i < import_nnotes && i < MAX_NOTES; i++)
		sb_comment(&b, "note: %s", import_notes[i]);
	if (import_nnotes > MAX_NOTES)
		sb_comment(&b, "note: and %d more", import_nnotes - MAX_NOTES);
	body = scenario_print(s);
	if (!body)
		die("out of memory");
	sb_add(&b, "%s", body);
	free(body);
	held.text = NULL;
	return b.p;
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
	same = want && got && !strcmp(want, got);
	free(want);
	free(got);
	scenario_free(&back);
	if (!same)
		die("internal error: the scenario reads back differently");
}

/* The summary of one transition, with the model's times beside the logs'. */
static void print_summary(const struct scenario *s, int cy, int ncy,
			  const struct import_request *rq, FILE *out)
{
	static struct run_result r[IMPORT_VARIANTS_MAX];
	const struct pm_variant *v[IMPORT_VARIANTS_MAX];
	const struct capture *caps[2] = { &ftrace_cap, &dmesg_cap };
	uint64_t sum[NR_PHASES] = { 0 };
	const char *bad;
	size_t badlen;
	int nasync = 0, ncall = 0, nv = rq->nvariants ? rq->nvariants : 1;

	/* The scenario's variant, or the ones asked for, with every fix. */
	for (int k = 0; k < nv; k++) {
		struct run_opts o = { 0 };

		v[k] = variant_find(rq->nvariants ? rq->variants[k] : s->variant);
		if (!v[k])
			v[k] = variant_find("modern");
		o.variant = v[k];
		knobs_parse(v[k], "all", &o.fixes, &bad, &badlen);
		dpm_run(s, &o, &r[k]);
	}
	for (int i = 0; i < s->ndev; i++)
		for (int ph = 0; ph < NR_PHASES; ph++)
			sum[ph] += s->dev[i].beh.dur_us[ph];
	fprintf(out, "transition %d of %d: %s, %s; model%s:", cy + 1, ncy,
		verb_of(cy, 0), verb_of(cy, 1), nv > 1 ? "s" : "");
	for (int k = 0; k < nv; k++)
		fprintf(out, "%s %s --fix all", k ? "," : "", v[k]->name);
	fprintf(out, "\n%-14s %9s %12s", "phase", "callbacks", "callback_us");
	for (int k = 0; k < 2; k++)
		if (caps[k]->text.n || caps[k]->ncall)
			fprintf(out, " %10s_ms", caps[k]->kind);
	if (nv == 1)
		fprintf(out, " %13s", "model_ms");
	else
		for (int k = 0; k < nv; k++)
			fprintf(out, " %*s_ms", (int)(strlen(v[k]->name) > 10 ?
					    strlen(v[k]->name) : 10), v[k]->name);
	fprintf(out, "\n");
	for (int ph = 0; ph < NR_PHASES; ph++) {
		fprintf(out, "%-14s %9d %12llu", pm_phase_name(ph), held.ncb[ph],
			(unsigned long long)sum[ph]);
		ncall += held.ncb[ph];
		for (int k = 0; k < 2; k++) {
			const struct capture *c = caps[k];

			if (!c->text.n && !c->ncall)
				continue;
			if (cy < c->ncyc && c->cyc[cy].has[ph])
				fprintf(out, " %13.3f", c->cyc[cy].ms[ph]);
			else
				fprintf(out, " %13s", "-");
		}
		for (int k = 0; k < nv; k++)
			fprintf(out, " %*.3f", nv == 1 ? 13 :
				(int)(strlen(v[k]->name) > 10 ? strlen(v[k]->name) : 10) + 3,
				(double)r[k].phase_ns[ph] / 1e6);
		fprintf(out, "\n");
	}
	for (int i = 0; i < s->ndev; i++)
		nasync += s->dev[i].async;
	if (held.xcheck && held.xcheck[0])
		fprintf(out, "cross-check: %s\n", held.xcheck);
	for (int k = 0; k < nv; k++)
		if (r[k].violated)
			fprintf(out, "%s: VIOLATION %s: %s\n", v[k]->name,
				inv_name(r[k].id), r[k].msg);
	fprintf(out, "devices %d async %d callbacks %d\n", s->ndev, nasync, ncall);
}

/* ---- the import ---- */

static void release(void)
{
	tree_free(&held.t);
	free(held.html_dmesg);
	free(held.html_ftrace);
	free(held.dur);
	free(held.err);
	free(held.ncb);
	free(held.in_ftrace);
	free(held.dur_d);
	free(held.cell_d);
	free(held.cell_f);
	scenario_free(&held.s);
	free(held.text);
	for (int i = 0; i < held.ntexts; i++)
		free(held.texts[i]);
	free(held.texts);
	free(held.xcheck);
	memset(&held, 0, sizeof(held));
	free_capture(&ftrace_cap);
	free_capture(&dmesg_cap);
	for (int i = 0; i < import_nnotes; i++)
		free(import_notes[i]);
	free(import_notes);
	import_notes = NULL;
	import_nnotes = import_notes_cap = 0;
	tt_free(&idents);
	st_free(&strs);
}

static void import_all(const struct import_request *rq, struct import_result *res)
{
	struct import_capture d = rq->dmesg, f = rq->ftrace;
	struct call *lists[2];
	int ncalls[2], ncy;
	char kernel[64], why[160];
	bool stand_in;

	if (rq->html.buf)
		from_html(rq, &d, &f);
	if (!d.buf && !f.buf)
		die("nothing to import: no dmesg, no ftrace and no sleepgraph page");
	start_capture(&ftrace_cap, "ftrace", &f);
	start_capture(&dmesg_cap, "dmesg", &d);
	if (f.buf)
		load(&ftrace_cap, true);
	if (d.buf)
		load(&dmesg_cap, false);
	same_run();
	snprintf(kernel, sizeof(kernel), "%.*s", (int)stamped()->kernel.n,
		 stamped()->kernel.p);
	import_pick_variant(kernel, variant_names(), res->variant,
			    sizeof(res->variant), why, sizeof(why));
	for (int k = 0; k < rq->nvariants; k++) {
		const struct pm_variant *v = variant_find(rq->variants[k]);

		if (!v)
			die("--variant: no variant '%.60s' (variants: %s)",
			    rq->variants[k], variant_names());
		if (!k) {
			snprintf(res->variant, sizeof(res->variant), "%s", v->name);
			snprintf(why, sizeof(why), "asked for (--variant)");
		}
	}
	scale_dmesg(kernel);
	if (dmesg_cap.failed.n)
		note("the dmesg says '%.*s': where no callback returned an error, the abort (a wakeup event?) is not in the scenario",
		     (int)(dmesg_cap.failed.n < 80 ? dmesg_cap.failed.n : 80),
		     dmesg_cap.failed.p);
	if (dmesg_cap.nphase_marks && ftrace_cap.nphase_marks &&
	    dmesg_cap.ncyc != ftrace_cap.ncyc)
		note("the dmesg holds %d transitions, the ftrace %d: taken in order",
		     dmesg_cap.ncyc, ftrace_cap.ncyc);
	ncy = dmesg_cap.ncyc > ftrace_cap.ncyc ? dmesg_cap.ncyc : ftrace_cap.ncyc;
	if (ncy < 1)
		ncy = 1;
	lists[0] = ftrace_cap.call;
	ncalls[0] = ftrace_cap.ncall;
	lists[1] = dmesg_cap.call;
	ncalls[1] = dmesg_cap.ncall;
	tree_build(&held.t, lists, ncalls, 2);
	stand_in = !held.t.ndev;
	held.dur = xrealloc(NULL, ((size_t)held.t.ndev + 1) * NR_PHASES * sizeof(*held.dur));
	held.err = xrealloc(NULL, ((size_t)held.t.ndev + 1) * NR_PHASES * sizeof(*held.err));
	held.ncb = xrealloc(NULL, NR_PHASES * sizeof(*held.ncb));
	held.in_ftrace = xrealloc(NULL, (size_t)held.t.ndev + 1);
	held.dur_d = xrealloc(NULL, ((size_t)held.t.ndev + 1) * NR_PHASES * sizeof(*held.dur_d));
	held.cell_d = xrealloc(NULL, ((size_t)held.t.ndev + 1) * NR_PHASES);
	held.cell_f = xrealloc(NULL, ((size_t)held.t.ndev + 1) * NR_PHASES);
	held.texts = xrealloc(NULL, (size_t)ncy * sizeof(*held.texts));
	for (int cy = 0; cy < ncy; cy++) {
		gather(cy);
		if (stand_in)
			fill_stand_in(&held.s, cy, res->variant);
		else
			fill_scenario(&held.s, cy, res->variant);
		held.text = render(&held.s, cy, ncy, why, stand_in);
		self_check(held.text, &held.s);
		if (rq->summary)
			print_summary(&held.s, cy, ncy, rq, rq->summary);
		scenario_free(&held.s);
		held.texts[held.ntexts++] = held.text;
		held.text = NULL;
	}
	res->ncycle = ncy;
	res->text = held.texts;
	held.texts = NULL;
	held.ntexts = 0;
}

int import_captures(const struct import_request *rq, struct import_result *res,
		    char *err, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	err[0] = '\0';
	import_fail_err = err;
	import_fail_errlen = errlen;
	memset(&held, 0, sizeof(held));
	scenario_init(&held.s);
	memset(&ftrace_cap, 0, sizeof(ftrace_cap));
	memset(&dmesg_cap, 0, sizeof(dmesg_cap));
	if (setjmp(import_fail_jmp)) {
		release();
		memset(res, 0, sizeof(*res));
		return IMPORT_BAD_INPUT;
	}
	import_all(rq, res);
	release();
	return 0;
}

void import_result_free(struct import_result *res)
{
	for (int i = 0; i < res->ncycle; i++)
		free(res->text[i]);
	free(res->text);
	memset(res, 0, sizeof(*res));
}

void import_one_line(char *msg)
{
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}
