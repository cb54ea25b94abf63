// SPDX-License-Identifier: GPL-2.0-only
/*
 * The worked example of docs/oracle.md, "Adding an invariant", built as
 * the document says: inv_overlap.c and its line in invariants.def (the
 * build makes a copy of the table with that line added), nothing else.
 * It checks that the oracle reports the new invariant, that the
 * exhaustive search derives its dependence from the declaration (every
 * callback's start and end now write the run's state), and that the
 * partial-order reduction (DPOR) finds a schedule breaking it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore.h"
#include "oracle/invariant.h"
#include "oracle/oracle.h"
#include "run/replay.h"
#include "scenario/scenario.h"

static int failures;

#define CHECK(c, ...)                                                          \
	do {                                                                   \
		if (!(c)) {                                                    \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);            \
			printf(__VA_ARGS__);                                   \
			putchar('\n');                                         \
			failures++;                                            \
		}                                                              \
	} while (0)

/* An async root and three children, two of them async, whose
 * callbacks take time: the two async children and the root overlap only
 * in some schedules (a search that took OVERLAP's count for no state at
 * all runs one schedule here, and misses them). */
static const char *const text =
	"dpmfuzz-scenario 1\n"
	"variant seed\n"
	"fix all\n"
	"pm_async 1\n"
	"device root async suspend=50us\n"
	"device a parent=root\n"
	"device b parent=root async suspend=10us resume=50us\n"
	"device c parent=root async suspend=20us resume=50us\n";

static unsigned int search(const struct scenario *s, const struct run_opts *o,
			   enum explore_mode mode, uint64_t *schedules)
{
	struct explore_opts eo = { .mode = mode, .max_schedules = 200000 };
	struct explore_result r;
	char err[256];

	memset(&r, 0, sizeof(r));
	if (explore_scenario(s, o, &eo, &r, err, sizeof(err))) {
		printf("FAIL: %s search: %s\n", explore_mode_name(mode), err);
		failures++;
		return 0;
	}
	CHECK(!r.capped, "%s search capped", explore_mode_name(mode));
	*schedules = r.schedules;
	unsigned int v = r.violated;

	explore_result_free(&r);
	return v;
}

int main(int argc, char **argv)
{
	int id = inv_parse("OVERLAP");

	CHECK(id >= NR_INV_BUILTIN, "OVERLAP is not in the table (%d)", id);
	if (id < 0)
		return 1;
	CHECK(!strcmp(inv_name(id), "OVERLAP"), "its ID names %s", inv_name(id));

	struct scenario s;
	struct run_opts o;
	char err[256];

	memset(&o, 0, sizeof(o));
	const char *t = text;
	char *buf = NULL;
	size_t len = strlen(text);

	if (argc > 1 && dpm_read_file(argv[1], "scenario", &buf, &len, err, sizeof(err))) {
		printf("FAIL: %s\n", err);
		return 1;
	}
	if (buf)
		t = buf;
	if (scenario_parse(t, len, &s, err, sizeof(err)) ||
	    dpm_pick(&s, NULL, NULL, &o, err, sizeof(err))) {
		printf("FAIL: the scenario: %s\n", err);
		return 1;
	}

	uint64_t nd = 0;
	unsigned int dpor = search(&s, &o, EX_DPOR, &nd);

	/* After a run of the scenario (the oracle knows its devices), the
	 * derived dependence: a callback's start writes the run's
	 * state (OVERLAP's count), which the record alone only reads. */
	struct dpm_event ev = { .kind = EV_CB_START, .dev = 1, .phase = PH_SUSPEND };
	unsigned int r, w;

	oracle_footprint(&ev, false, &r, &w);
	CHECK(w & OS_GLOBAL, "EV_CB_START does not write OS_GLOBAL (writes %#x)", w);
	ev.kind = EV_CB_END;
	oracle_footprint(&ev, false, &r, &w);
	CHECK(w & OS_GLOBAL, "EV_CB_END does not write OS_GLOBAL (writes %#x)", w);

	printf("OVERLAP (ID %d): DPOR %llu schedules, violated %#x\n", id,
	       (unsigned long long)nd, dpor);
	CHECK(dpor & (1u << id), "DPOR missed a schedule breaking OVERLAP");
	CHECK(dpor == 1u << id, "other invariants broken too: %#x", dpor);
	if (failures)
		return 1;
	printf("PASS\n");
	return 0;
}
