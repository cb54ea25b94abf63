// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenarios: the text round trip, the decoder's guarantees (every input
 * valid, limits kept), and one-line errors for bad text.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "util/xorshift.h"
#include "expect.h"

static const char sample[] =
	"# a hand-written scenario\n"
	"dpmfuzz-scenario 1\n"
	"variant seed\n"
	"fix completion-init\n"
	"expect clean\n"
	"pm_async 1\n"
	"pm_trace 0\n"
	"cycles 2\n"
	"inline_every 3\n"
	"worker_limit 2\n"
	"device pci0000:00\n"
	"device 0000:00:1f.2 parent=pci0000:00 pci suspend=820000us err=suspend_noirq:-5 remove=resume:host0\n"
	"device host0 parent=0000:00:1f.2 async resume=100us\n"
	"device sda parent=host0   async  # trailing comment\n"
	"action unregister sda at=1500us\n"
	"action async host0 \"enabled\\n\\x01\" before-cycle=1\n"
	"schedule 00ff10\n"
	"schedule 2a\n";

static void test_round_trip(void)
{
	struct scenario s, t;
	char err[256];

	EXPECT_EQ(scenario_parse(sample, strlen(sample), &s, err, sizeof(err)), 0);
	EXPECT_STR_EQ(err, "");
	EXPECT_EQ(s.ndev, 4);
	EXPECT_EQ(s.dev[1].parent, 0);
	EXPECT_TRUE(s.dev[1].pci);
	EXPECT_EQ(s.dev[1].beh.dur_us[PH_SUSPEND], 820000);
	EXPECT_EQ(s.dev[1].beh.err[PH_SUSPEND_NOIRQ], -5);
	EXPECT_EQ(s.dev[1].beh.remove_phase, PH_RESUME);
	EXPECT_EQ(s.dev[1].beh.remove_target, 2);
	EXPECT_EQ(s.nact, 2);
	EXPECT_EQ(s.act[0].at, 1500);
	EXPECT_EQ(s.act[1].attr_len, 9);
	EXPECT_EQ(s.act[1].attr[8], 1);
	EXPECT_EQ(s.nsched, 4);
	EXPECT_EQ(s.sched[3], 0x2a);
	EXPECT_EQ(s.cycles, 2);
	EXPECT_EQ(s.inline_every, 3);
	EXPECT_STR_EQ(s.fixes, "completion-init");
	char *a = scenario_print(&s);

	EXPECT_EQ(scenario_parse(a, strlen(a), &t, err, sizeof(err)), 0);
	char *b = scenario_print(&t);

	EXPECT_STR_EQ(a, b);
	EXPECT_CONTAINS(a, "action async host0 \"enabled\\n\\x01\" before-cycle=1\n");
	free(a);
	free(b);
	scenario_free(&s);
	scenario_free(&t);
}

static uint64_t rng = 88172645463325252ULL;

static uint8_t rbyte(void)
{
	return (uint8_t)xorshift64(&rng);
}

static void test_decode(void)
{
	struct scn_limits lim = { 16, 4, 3 };
	uint8_t buf[400];
	int bad = 0, over = 0, empty_ok;
	struct scenario s, t;
	char err[256];

	for (int i = 0; i < 3000; i++) {
		size_t n = rbyte() % sizeof(buf);

		for (size_t j = 0; j < n; j++)
			buf[j] = rbyte();
		scenario_decode(buf, n, &lim, &s);
		over += s.ndev > 16 || s.nact > 4 || s.cycles > 3 ||
			s.ndev < 1;
		bad += scenario_validate(&s, err, sizeof(err)) != 0;
		char *a = scenario_print(&s);

		if (scenario_parse(a, strlen(a), &t, err, sizeof(err))) {
			bad++;
		} else {
			char *b = scenario_print(&t);

			bad += strcmp(a, b) != 0;
			free(b);
			scenario_free(&t);
		}
		free(a);
		scenario_free(&s);
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(over, 0);
	/* The empty input is valid too: one device, defaults. */
	scenario_decode(NULL, 0, &lim, &s);
	empty_ok = s.ndev == 1 && s.pm_async && s.cycles == 1 && !s.nact;
	EXPECT_TRUE(empty_ok);
	scenario_free(&s);
	/* Removal side actions only ever target descendants. */
	int checked = 0;

	for (int i = 0; i < 3000; i++) {
		for (size_t j = 0; j < 200; j++)
			buf[j] = rbyte();
		scenario_decode(buf, 200, &lim, &s);
		for (int d = 0; d < s.ndev; d++) {
			if (s.dev[d].beh.remove_phase < 0)
				continue;
			int p = s.dev[s.dev[d].beh.remove_target].parent;

			while (p >= 0 && p != d)
				p = s.dev[p].parent;
			EXPECT_EQ(p, d);
			checked++;
		}
		scenario_free(&s);
	}
	EXPECT_TRUE(checked > 100);
}

struct bad_case {
	const char *text;
	const char *want;	/* a part of the one-line error */
};

static const struct bad_case bad_cases[] = {
	{ "", "line 1: expected the header" },
	{ "device a\n", "line 1: expected the header" },
	{ "dpmfuzz-scenario 2\n", "expected the header" },
	{ "dpmfuzz-scenario 1\n", "at least one device" },
	{ "dpmfuzz-scenario 1\ndevice a parent=b\n", "line 2: no device named 'b'" },
	{ "dpmfuzz-scenario 1\ndevice a\ndevice a\n", "declared twice" },
	{ "dpmfuzz-scenario 1\ndevice a frobnicate\n", "unknown word 'frobnicate'" },
	{ "dpmfuzz-scenario 1\ndevice a suspend=10\n", "ending in us" },
	{ "dpmfuzz-scenario 1\ndevice a suspend=99999999999999999999us\n", "larger than" },
	{ "dpmfuzz-scenario 1\ndevice a err=suspend:5\n", "must be negative" },
	{ "dpmfuzz-scenario 1\ndevice a err=sleep:-5\n", "PHASE:-ERRNO" },
	{ "dpmfuzz-scenario 1\ndevice a\ndevice b parent=a\ndevice c remove=resume:b\n", "must name a descendant" },
	{ "dpmfuzz-scenario 1\ndevice a remove=resume:zz\n", "no device named 'zz'" },
	{ "dpmfuzz-scenario 1\ndevice a\ndevice b parent=a\ndevice x parent=a remove=suspend_noirq:b\n", "descendant" },
	{ "dpmfuzz-scenario 1\ndevice a\ndevice b parent=a\n", NULL },
	{ "dpmfuzz-scenario 1\ncycles 0\ndevice a\n", "at least 1" },
	{ "dpmfuzz-scenario 1\npm_async 2\ndevice a\n", "larger than 1" },
	{ "dpmfuzz-scenario 1\nsleep 1\n", "unknown statement 'sleep'" },
	{ "dpmfuzz-scenario 1\ndevice a\naction explode a\n", "unknown kind" },
	{ "dpmfuzz-scenario 1\ndevice a\naction unregister a\n", "at=TIMEus" },
	{ "dpmfuzz-scenario 1\ndevice a\naction async a \"enabled before-cycle=0\n", "unterminated string" },
	{ "dpmfuzz-scenario 1\ndevice a\naction async a \"enabled\" before-cycle=1\n", "there are 1 cycles" },
	{ "dpmfuzz-scenario 1\ndevice a\naction async a \"\\q\" before-cycle=0\n", "unknown escape" },
	{ "dpmfuzz-scenario 1\ndevice a\naction async a \"0123456789abcdefg\" before-cycle=0\n", "longer than 15" },
	{ "dpmfuzz-scenario 1\ndevice a\nschedule 0g\n", "not hex" },
	{ "dpmfuzz-scenario 1\ndevice a\nschedule 012\n", "odd number" },
	{ "dpmfuzz-scenario 1\ndevice 0123456789012345678901234567890123456789\n", "longer than 39" },
	{ "dpmfuzz-scenario 1\ndevice a err=prepare:-11\n", "retry the device forever" },
};

static void check_bad(const struct bad_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bad_case *c = &cases[i];
		struct scenario s;
		char err[256];
		int rc = scenario_parse(c->text, strlen(c->text), &s, err,
					sizeof(err));

		if (!c->want) {
			EXPECT_EQ(rc, 0);
			scenario_free(&s);
			continue;
		}
		EXPECT_EQ(rc, -1);
		EXPECT_CONTAINS(err, c->want);
		EXPECT_TRUE(!strchr(err, '\n'));
	}
}

static void test_errors(void)
{
	check_bad(bad_cases, sizeof(bad_cases) / sizeof(bad_cases[0]));
	/* A NUL byte inside the text is an error, not a truncation. */
	static const char nul[] = "dpmfuzz-scenario 1\ndevice a\0b\n";
	struct scenario s;
	char err[256];

	EXPECT_EQ(scenario_parse(nul, sizeof(nul) - 1, &s, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "NUL");
}

/* The kernel variants' statements and attributes. */
static const char kernel_sample[] =
	"dpmfuzz-scenario 1\n"
	"transition freeze\n"
	"wakeup at=1200us\n"
	"device bus0 level=bus syscore\n"
	"device a parent=bus0 level=domain:suspend,resume driver-cbs=prepare,complete dpm-flags=smart-suspend,may-skip-resume wakeup\n"
	"device b parent=a no-driver late=resume release-unregisters=c supplier=bus0:stateless,pm-runtime\n"
	"device c no-pm driver-cbs=none level=legacy-bus supplier=a:sync-state-only\n";

static void test_kernel_text(void)
{
	struct scenario s, t;
	char err[256];

	EXPECT_EQ(scenario_parse(kernel_sample, strlen(kernel_sample), &s, err,
				 sizeof(err)), 0);
	EXPECT_STR_EQ(err, "");
	EXPECT_EQ(s.transition, TR_FREEZE);
	EXPECT_EQ(s.wakeup_at_us, 1200);
	EXPECT_EQ(s.dev[0].k.level, LVL_BUS);
	EXPECT_EQ(s.dev[0].k.level_cbs, SCN_ALL_PHASES);
	EXPECT_EQ(s.dev[0].k.flags, SCN_SYSCORE);
	EXPECT_EQ(s.dev[1].k.level, LVL_DOMAIN);
	EXPECT_EQ(s.dev[1].k.level_cbs, (1u << PH_SUSPEND) | (1u << PH_RESUME));
	EXPECT_EQ(s.dev[1].k.driver_cbs, (1u << PH_PREPARE) | (1u << PH_COMPLETE));
	EXPECT_EQ(s.dev[1].k.dpm_flags, SCN_DPM_SMART_SUSPEND | SCN_DPM_MAY_SKIP_RESUME);
	EXPECT_EQ(s.dev[1].k.flags, SCN_WAKEUP);
	EXPECT_EQ(s.dev[2].k.flags, SCN_NO_DRIVER);
	EXPECT_EQ(s.dev[2].k.late_phase, PH_RESUME);
	EXPECT_EQ(s.dev[2].k.release_unregisters, 3);
	EXPECT_EQ(s.dev[2].k.link_flags[0], SCN_LINK_STATELESS | SCN_LINK_PM_RUNTIME);
	EXPECT_EQ(s.dev[3].k.flags, SCN_NO_PM);
	EXPECT_EQ(s.dev[3].k.driver_cbs, 0);
	EXPECT_EQ(s.dev[3].k.level, LVL_LEGACY_BUS);
	EXPECT_EQ(s.dev[3].k.link_flags[0], SCN_LINK_SYNC_STATE_ONLY);
	char *a = scenario_print(&s);

	EXPECT_EQ(scenario_parse(a, strlen(a), &t, err, sizeof(err)), 0);
	char *b = scenario_print(&t);

	EXPECT_STR_EQ(a, b);
	EXPECT_CONTAINS(a, "transition freeze\nwakeup at=1200us\n");
	EXPECT_CONTAINS(a, " release-unregisters=c");
	free(a);
	free(b);
	scenario_free(&s);
	scenario_free(&t);
	/* A sync-state-only link may name a supplier declared later (KV-1's
	 * cycle: a child supplying its parent); it prints and parses back. */
	static const char later[] =
		"dpmfuzz-scenario 1\n"
		"device p no-driver supplier=c:sync-state-only\n"
		"device c parent=p async\n";

	EXPECT_EQ(scenario_parse(later, strlen(later), &s, err, sizeof(err)), 0);
	EXPECT_STR_EQ(err, "");
	EXPECT_EQ(s.dev[0].nsup, 1);
	EXPECT_EQ(s.dev[0].sup[0], 1);
	EXPECT_EQ(s.dev[0].k.link_flags[0], SCN_LINK_SYNC_STATE_ONLY);
	a = scenario_print(&s);
	EXPECT_CONTAINS(a, "device p supplier=c:sync-state-only no-driver\n");
	EXPECT_EQ(scenario_parse(a, strlen(a), &t, err, sizeof(err)), 0);
	b = scenario_print(&t);
	EXPECT_STR_EQ(a, b);
	free(a);
	free(b);
	scenario_free(&s);
	scenario_free(&t);
	/* Without them, a scenario prints as it always did. */
	EXPECT_EQ(scenario_parse(sample, strlen(sample), &s, err, sizeof(err)), 0);
	a = scenario_print(&s);
	EXPECT_TRUE(!strstr(a, "transition") && !strstr(a, "wakeup") &&
		    !strstr(a, "level=") && !strstr(a, "late="));
	free(a);
	scenario_free(&s);
}

/* The decoder reaches every kernel feature, from bits the models never
 * read, and the encoder writes them back. */
static void test_kernel_decode(void)
{
	struct scn_limits lim = { 16, 4, 3 };
	uint8_t buf[200];
	unsigned int seen_tr = 0, seen_lvl = 0, seen_flags = 0, seen_dpm = 0;
	int late = 0, release = 0, wake = 0, link = 0, lost = 0, back = 0;

	for (int i = 0; i < 3000; i++) {
		struct scenario s, t;

		for (size_t j = 0; j < sizeof(buf); j++)
			buf[j] = rbyte();
		scenario_decode(buf, sizeof(buf), &lim, &s);
		seen_tr |= 1u << s.transition;
		wake += s.wakeup_at_us >= 0;
		for (int d = 0; d < s.ndev; d++) {
			const struct scn_kernel *k = &s.dev[d].k;

			seen_lvl |= 1u << k->level;
			seen_flags |= k->flags;
			seen_dpm |= k->dpm_flags;
			late += k->late_phase >= 0;
			release += k->release_unregisters >= 0;
			link += s.dev[d].nsup && k->link_flags[0] != SCN_LINK_PM_RUNTIME;
		}
		size_t n;
		bool lossy;
		uint8_t *e = scenario_encode(&s, SCHED_BY_POSITION, &n, &lossy);

		scenario_decode(e, n, &lim, &t);
		free(e);
		if (lossy) {
			lost++;
		} else {
			char *a = scenario_print(&s), *b = scenario_print(&t);

			back += !strcmp(a, b);
			EXPECT_STR_EQ(a, b);
			free(a);
			free(b);
		}
		scenario_free(&s);
		scenario_free(&t);
	}
	EXPECT_EQ(seen_tr, (1u << NR_TRANSITIONS) - 1);
	EXPECT_EQ(seen_lvl, (1u << NR_LEVELS) - 1);
	EXPECT_EQ(seen_flags, SCN_NO_DRIVER | SCN_NO_PM | SCN_SYSCORE | SCN_WAKEUP);
	EXPECT_EQ(seen_dpm, SCN_DPM_ALL);
	EXPECT_TRUE(late > 100 && release > 100 && wake > 100 && link > 100);
	EXPECT_TRUE(back > 1000);
}

static const struct bad_case kernel_bad[] = {
	{ "dpmfuzz-scenario 1\ntransition hibernate\ndevice a\n", "one of mem, s2idle" },
	{ "dpmfuzz-scenario 1\nwakeup 5\ndevice a\n", "at=TIMEus" },
	{ "dpmfuzz-scenario 1\ndevice a late=resume\n", "late= needs a parent" },
	{ "dpmfuzz-scenario 1\ndevice a\ndevice b parent=a late=suspend\n", "out of contract" },
	{ "dpmfuzz-scenario 1\ndevice a release-unregisters=a\n", "another device" },
	{ "dpmfuzz-scenario 1\ndevice a level=pci\n", "unknown level 'pci'" },
	{ "dpmfuzz-scenario 1\ndevice a level=bus:sleep\n", "unknown 'sleep'" },
	{ "dpmfuzz-scenario 1\ndevice a dpm-flags=smart\n", "unknown 'smart'" },
	{ "dpmfuzz-scenario 1\ndevice a dpm-flags=smart-suspend,,may-skip-resume\n", "empty name" },
	{ "dpmfuzz-scenario 1\ndevice a\ndevice b supplier=a:forever\n", "unknown 'forever'" },
	{ "dpmfuzz-scenario 1\ndevice a release-unregisters=zz\n", "no device named 'zz'" },
	/* Only a sync-state-only link's supplier may come later. */
	{ "dpmfuzz-scenario 1\ndevice a supplier=b\ndevice b\n", "line 2: no device named 'b' before this line" },
	{ "dpmfuzz-scenario 1\ndevice a supplier=b:stateless\ndevice b\n", "no device named 'b' before this line" },
	{ "dpmfuzz-scenario 1\ndevice a supplier=zz:sync-state-only\n", "supplier: no device named 'zz'" },
	{ "dpmfuzz-scenario 1\ndevice a supplier=a:sync-state-only\n", "a supplier must come earlier" },
	{ "dpmfuzz-scenario 1\ndevice a supplier=b:sync-state-only supplier=b:sync-state-only\ndevice b\n", "named twice" },
};

int main(void)
{
	test_round_trip();
	test_kernel_text();
	test_kernel_decode();
	check_bad(kernel_bad, sizeof(kernel_bad) / sizeof(kernel_bad[0]));
	test_decode();
	test_errors();
	return test_summary("test_scenario");
}
