/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests' helper: run a scenario text on the variant its header names
 * (the seed if it names none). */
#ifndef DPM_TESTS_RUN_TEXT_H
#define DPM_TESTS_RUN_TEXT_H

#include <stdio.h>
#include <string.h>

#include "run/run.h"

/* Parse a scenario text into *s and its run options into *o: the variant
 * of its header, the knobs of fix.  Returns 0, -2 for bad text or an
 * unknown variant, -3 for a bad knob list (*s is then freed). */
static inline int parse_scenario_text(const char *text, const char *fix,
				      bool log, struct scenario *s,
				      struct run_opts *o)
{
	char err[256];
	const char *bad;
	size_t bl;

	*o = (struct run_opts){ variant_find("seed"), 0, log };
	if (scenario_parse(text, strlen(text), s, err, sizeof(err))) {
		fprintf(stderr, "parse: %s\n", err);
		return -2;
	}
	if (s->variant[0] && !(o->variant = variant_find(s->variant))) {
		scenario_free(s);
		return -2;
	}
	if (knobs_parse(o->variant, fix, &o->fixes, &bad, &bl)) {
		scenario_free(s);
		return -3;
	}
	return 0;
}

/* Returns the violated invariant, -1 for a clean run, -2 for bad text,
 * -3 for a bad knob list. */
static inline int run_scenario_text(const char *text, const char *fix,
				    bool log, struct run_result *r)
{
	struct scenario s;
	struct run_opts o;
	int e = parse_scenario_text(text, fix, log, &s, &o);

	if (e)
		return e;
	dpm_run(&s, &o, r);
	scenario_free(&s);
	return r->violated ? (int)r->id : -1;
}

/* How many times needle occurs in hay (overlaps count). */
static inline int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

#endif
