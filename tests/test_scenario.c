// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenarios: the text round trip, the decoder's guarantees (every input
 * valid, limits kept), and one-line errors for bad text.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "run/xorshift.h"
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

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
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
	/* A NUL byte inside the text is an error, not a truncation. */
	static const char nul[] = "dpmfuzz-scenario 1\ndevice a\0b\n";
	struct scenario s;
	char err[256];

	EXPECT_EQ(scenario_parse(nul, sizeof(nul) - 1, &s, err, sizeof(err)), -1);
	EXPECT_CONTAINS(err, "NUL");
}

int main(void)
{
	test_round_trip();
	test_decode();
	test_errors();
	return test_summary("test_scenario");
}
