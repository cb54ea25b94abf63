// SPDX-License-Identifier: GPL-2.0-only
/*
 * A chunk of scenarios, every schedule of each (chunk.h).
 */
#include "chunk.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/xalloc.h"
#include "../oracle/invariant.h"

struct chunk_ctx {
	const struct space *sp;
	const struct check_opts *co;
	struct check_totals *t;
	long index;		/* global index of the next scenario */
	char err[256];
};

bool check_find_less(const struct check_find *a, const struct check_find *b)
{
	if (!a->set)
		return false;
	if (!b->set)
		return true;
	if (a->devices != b->devices)
		return a->devices < b->devices;
	if (a->features != b->features)
		return a->features < b->features;
	if (a->nsched != b->nsched)
		return a->nsched < b->nsched;
	return a->index < b->index;
}

/* The text dpmrepro replays: variant, knobs, the outcome, the schedule. */
static char *find_text(const struct scenario *s, const struct run_opts *o,
		       enum inv id, const uint8_t *sched, size_t n)
{
	struct scenario c = *s;
	char fixes[KNOBS_TEXT_MAX];

	knobs_format(o->variant, o->fixes, fixes, sizeof(fixes));
	snprintf(c.variant, sizeof(c.variant), "%s", o->variant->name);
	snprintf(c.fixes, sizeof(c.fixes), "%s", o->fixes ? fixes : "");
	snprintf(c.expect, sizeof(c.expect), "%s", inv_name(id));
	c.sched = (uint8_t *)sched;
	c.nsched = n;
	return scenario_print(&c);
}

/* The schedule bytes replayed without the search show id again. */
static bool replays(const struct scenario *s, const struct run_opts *o,
		    enum inv id, const uint8_t *sched, size_t n)
{
	struct scenario c = *s;
	struct run_opts ro = *o;
	struct run_result *r = dpm_xrealloc(NULL, 1, sizeof(*r));
	bool ok;

	c.sched = (uint8_t *)sched;
	c.nsched = n;
	ro.choose = NULL;
	ro.event_hook = NULL;
	dpm_run(&c, &ro, r);
	ok = r->violated && r->id == id;
	free(r);
	return ok;
}

static void one(const struct scenario *s, void *arg)
{
	struct chunk_ctx *x = arg;
	const struct check_opts *co = x->co;
	struct check_totals *t = x->t;
	struct explore_result r;
	long index = x->index++;

	t->scenarios++;
	if (explore_scenario(s, co->run, &co->explore, &r, x->err,
			     sizeof(x->err))) {
		t->nondet++;
		explore_result_free(&r);
		return;
	}
	t->schedules += r.schedules;
	t->blocked += r.blocked;
	t->events += r.events;
	t->capped += r.capped;
	for (int i = 0; i < NR_INV; i++) {
		if (!(r.violated & (1u << i)))
			continue;
		t->violating[i]++;
		struct check_find f = {
			.set = true, .devices = s->ndev,
			.features = space_features(s), .nsched = r.nsched[i],
			.index = index,
		};

		/* Without its trailing zero bytes: the engine's choice when
		 * the bytes run out is the same as a zero's. */
		while (r.nsched[i] && !r.sched[i][r.nsched[i] - 1])
			r.nsched[i]--;
		f.nsched = r.nsched[i];
		if (!check_find_less(&f, &t->find[i]))
			continue;
		if (!replays(s, co->run, i, r.sched[i], r.nsched[i])) {
			t->nondet++;
			continue;
		}
		free(t->find[i].text);
		f.text = find_text(s, co->run, i, r.sched[i], r.nsched[i]);
		t->find[i] = f;
	}
	explore_result_free(&r);
	if (co->sample > 0 && index % co->sample == 0) {
		struct explore_opts n = co->explore;
		struct explore_result nr;

		n.mode = EX_NAIVE;
		n.max_schedules = co->naive_cap;
		if (explore_scenario(s, co->run, &n, &nr, x->err, sizeof(x->err))) {
			t->nondet++;
		} else {
			t->sample_scenarios++;
			t->sample_naive += nr.schedules;
			t->sample_reduced += r.schedules + r.blocked;
			t->sample_capped += nr.capped;
		}
		explore_result_free(&nr);
	}
}

void check_chunk(const struct space *sp, long c, long first,
		 const struct check_opts *co, struct check_totals *t)
{
	struct chunk_ctx x = { sp, co, t, first, "" };
	clock_t c0 = clock();

	memset(t, 0, sizeof(*t));
	t->chunks = 1;
	space_chunk_foreach(sp, c, one, &x);
	t->seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
}

void check_totals_add(struct check_totals *a, const struct check_totals *b)
{
	a->chunks += b->chunks;
	a->scenarios += b->scenarios;
	a->schedules += b->schedules;
	a->blocked += b->blocked;
	a->events += b->events;
	a->capped += b->capped;
	a->nondet += b->nondet;
	a->sample_scenarios += b->sample_scenarios;
	a->sample_naive += b->sample_naive;
	a->sample_reduced += b->sample_reduced;
	a->sample_capped += b->sample_capped;
	a->seconds += b->seconds;
	for (int i = 0; i < NR_INV; i++) {
		a->violating[i] += b->violating[i];
		if (!check_find_less(&b->find[i], &a->find[i]))
			continue;
		free(a->find[i].text);
		a->find[i] = b->find[i];
		a->find[i].text = strdup(b->find[i].text ? b->find[i].text : "");
	}
}

void check_totals_free(struct check_totals *t)
{
	for (int i = 0; i < NR_INV; i++)
		free(t->find[i].text);
	memset(t, 0, sizeof(*t));
}

/*
 * The record: a line
 *   chunk C SCENARIOS SCHEDULES BLOCKED EVENTS CAPPED NONDET SAMPLE NAIVE
 *         REDUCED SAMPLE_CAPPED SECONDS V0 V1 ...  (a count per invariant
 *         of the table)
 * then per find a line "find INV DEVICES FEATURES NSCHED INDEX LENGTH"
 * and LENGTH bytes of text, and a line "end".
 */
int check_totals_write(FILE *f, long chunk, const struct check_totals *t)
{
	fprintf(f, "chunk %ld %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %.6f",
		chunk, (unsigned long long)t->scenarios,
		(unsigned long long)t->schedules, (unsigned long long)t->blocked,
		(unsigned long long)t->events, (unsigned long long)t->capped,
		(unsigned long long)t->nondet,
		(unsigned long long)t->sample_scenarios,
		(unsigned long long)t->sample_naive,
		(unsigned long long)t->sample_reduced,
		(unsigned long long)t->sample_capped, t->seconds);
	for (int i = 0; i < oracle_ninvariants; i++)
		fprintf(f, " %llu", (unsigned long long)t->violating[i]);
	fputc('\n', f);
	for (int i = 0; i < NR_INV; i++) {
		const struct check_find *d = &t->find[i];

		if (!d->set)
			continue;
		size_t len = strlen(d->text);

		fprintf(f, "find %s %d %d %zu %ld %zu\n", inv_name(i), d->devices,
			d->features, d->nsched, d->index, len);
		fwrite(d->text, 1, len, f);
	}
	fputs("end\n", f);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

int check_totals_read(FILE *f, long *chunk, struct check_totals *t)
{
	char line[1024], name[64];
	unsigned long long v[11], viol;

	memset(t, 0, sizeof(*t));
	if (!fgets(line, sizeof(line), f))
		return 1;
	int at = 0;

	if (sscanf(line, "chunk %ld %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %lf%n",
		   chunk, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9], &t->seconds, &at) != 12)
		return -1;
	t->chunks = 1;
	t->scenarios = v[0];
	t->schedules = v[1];
	t->blocked = v[2];
	t->events = v[3];
	t->capped = v[4];
	t->nondet = v[5];
	t->sample_scenarios = v[6];
	t->sample_naive = v[7];
	t->sample_reduced = v[8];
	t->sample_capped = v[9];
	/* A count per invariant of the table that wrote it: at least the
	 * built-in ones. */
	for (int i = 0; i < NR_INV; i++) {
		int n = 0;

		if (sscanf(line + at, " %llu%n", &viol, &n) != 1) {
			if (i < NR_INV_BUILTIN)
				return -1;
			break;
		}
		at += n;
		t->violating[i] = viol;
	}
	for (;;) {
		struct check_find d = { .set = true };
		size_t len;
		int id;

		if (!fgets(line, sizeof(line), f))
			return -1;
		if (!strcmp(line, "end\n"))
			return 0;
		if (sscanf(line, "find %63s %d %d %zu %ld %zu", name, &d.devices,
			   &d.features, &d.nsched, &d.index, &len) != 6 ||
		    (id = inv_parse(name)) < 0 || len > (1u << 24))
			return -1;
		d.text = dpm_xrealloc(NULL, len + 1, 1);
		if (fread(d.text, 1, len, f) != len) {
			free(d.text);
			return -1;
		}
		d.text[len] = '\0';
		free(t->find[id].text);
		t->find[id] = d;
	}
}
