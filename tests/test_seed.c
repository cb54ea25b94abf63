// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seed variant's own rules, beyond the oracle: power/async (006),
 * pm_async (005), pm_trace forcing sync resume, PCI devices async (011),
 * the phase-time lines (003) and async debug lines (004), and the knobs.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "variants/dpm_common.h"
#include "expect.h"
#include "run_text.h"

static struct run_result r;

static int run_text(const char *text, const char *fix, bool log)
{
	return run_scenario_text(text, fix, log, &r);
}

/* 006: the attribute's parsing and the "only while ON" rule. */
static void attr_main(void *arg)
{
	pm_variant = variant_find("seed");
	dpm_model = pm_variant->model;
	dpm_model->reset();
	struct device *d = device_create_model(0, "d");

	device_initialize(d);
	device_add(d);
	struct {
		const char *in;
		ssize_t ret;
		int flag;
	} cases[] = {
		{ "enabled", 7, 1 },
		{ "disabled\n", 9, 0 },
		{ "enabled\n", 8, 1 },
		{ "disabled\nrest", 13, 0 },	/* the newline ends the word */
		{ "enable", -EINVAL, 0 },
		{ "enabledx", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "Enabled", -EINVAL, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ssize_t ret = dpm_model->async_store(d, cases[i].in,
						      strlen(cases[i].in));

		EXPECT_EQ(ret, cases[i].ret);
		EXPECT_EQ(power(d)->async_suspend, cases[i].flag);
	}
	/* Not ON: the write is accepted but changes nothing. */
	power(d)->status = DPM_SUSPENDING;
	EXPECT_EQ(dpm_model->async_store(d, "enabled", 7), 7);
	EXPECT_EQ(power(d)->async_suspend, 0);
	power(d)->status = DPM_ON;
	device_unregister(d);
}

static void test_async_attr(void)
{
	const char *names[1] = { "d" };
	int parent[1] = { -1 };
	struct oracle_config cc = { 1, parent, names, false, false };
	struct det_config dc = { NULL, 0, 10000 };

	oracle_reset(&cc);
	dpm_listen_none();
	dpm_listen(oracle_listener, NULL);
	device_layer_reset(1);
	EXPECT_EQ(det_run(attr_main, NULL, &dc, NULL), DET_DONE);
	/* Through a scenario: a good write makes a device async. */
	static const char t[] =
		"dpmfuzz-scenario 1\ncycles 2\ndevice a\ndevice b parent=a\n"
		"action async b \"enabled\\n\" before-cycle=1\n";
	EXPECT_EQ(run_text(t, "all", true), -1);
	EXPECT_EQ(count(dpm_log_text(), "b: async suspend"), 1);
	EXPECT_CONTAINS(dpm_log_text(), "echo > b/power/async: 8");
}

static const char tree[] =
	"dpmfuzz-scenario 1\n"
	"pm_async %d\npm_trace %d\n"
	"device root\n"
	"device usb parent=root async suspend=2000us resume=500us\n"
	"device hub parent=usb async suspend=1000us\n"
	"device nic parent=root pci resume=100us\n"
	"device kbd parent=hub\n";

static const char *tree_with(int async, int trace)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), tree, async, trace);
	return buf;
}

static void test_switches(void)
{
	/* Async on: usb, hub and the PCI nic get threads both ways. */
	EXPECT_EQ(run_text(tree_with(1, 0), "all", true), -1);
	EXPECT_EQ(count(dpm_log_text(), ": async suspend"), 3);
	EXPECT_EQ(count(dpm_log_text(), ": async resume"), 3);
	EXPECT_CONTAINS(dpm_log_text(), "nic: async suspend");
	/* pm_async off (005): no async thread at all. */
	EXPECT_EQ(run_text(tree_with(0, 0), "all", true), -1);
	EXPECT_EQ(count(dpm_log_text(), "async/"), 0);
	EXPECT_EQ(r.stats.tasks, 1);
	/* pm_trace: suspend stays async, resume is synchronous. */
	EXPECT_EQ(run_text(tree_with(1, 1), "all", true), -1);
	EXPECT_EQ(count(dpm_log_text(), ": async suspend"), 3);
	EXPECT_EQ(count(dpm_log_text(), ": async resume"), 0);
}

static void test_times(void)
{
	/* 003: phase times from virtual time, ns >> 10 as "usecs".  Suspend:
	 * usb (2 ms) and hub (1 ms) run one after the other (usb waits for
	 * hub), so 3 ms = 3000000 ns, >> 10 = 2929 -> "2.929 msecs". */
	EXPECT_EQ(run_text(tree_with(1, 0), "all", true), -1);
	EXPECT_CONTAINS(dpm_log_text(), "PM: suspend of devices complete after 2.929 msecs");
	/* Resume: usb 0.5 ms, nic 0.1 ms in parallel: 500000 >> 10 = 488. */
	EXPECT_CONTAINS(dpm_log_text(), "PM: resume of devices complete after 0.488 msecs");
	EXPECT_CONTAINS(dpm_log_text(), "PM: late suspend of devices complete after 0.000 msecs");
	EXPECT_CONTAINS(dpm_log_text(), "PM: early resume of devices complete after 0.000 msecs");
	/* Sync: the same tree takes the sum on resume. */
	EXPECT_EQ(run_text(tree_with(0, 0), "all", true), -1);
	EXPECT_CONTAINS(dpm_log_text(), "PM: resume of devices complete after 0.585 msecs");
	/* A failed suspend prints no suspend time. */
	static const char fail[] =
		"dpmfuzz-scenario 1\ndevice a suspend=10us err=suspend:-16\n";
	EXPECT_EQ(run_text(fail, "all", true), -1);
	EXPECT_EQ(count(dpm_log_text(), "PM: suspend of devices complete"), 0);
	EXPECT_CONTAINS(dpm_log_text(), "PM: Device a failed to suspend: error -16");
	EXPECT_EQ(r.errors[0], -16);
}

static void test_noirq_failure(void)
{
	/* A noirq failure rolls back the noirq phase, then resumes all. */
	static const char t[] =
		"dpmfuzz-scenario 1\ndevice a\ndevice b parent=a\n"
		"device c parent=a err=suspend_noirq:-5\n";
	EXPECT_EQ(run_text(t, "all", true), -1);
	EXPECT_EQ(r.errors[0], -5);
	EXPECT_EQ(count(dpm_log_text(), "[resume_noirq]"), 0);	/* none got there */
	EXPECT_CONTAINS(dpm_log_text(), "PM: Device c failed to suspend late: error -5");
	EXPECT_EQ(count(dpm_log_text(), "calling  a+ [resume]"), 1);
}

static void test_async_failure(void)
{
	/* An async device's failure reaches the caller through async_error,
	 * with or without the fix, when no race intervenes (the default
	 * schedule lets the failing thread run on). */
	static const char t[] =
		"dpmfuzz-scenario 1\ndevice bus\ndevice disk parent=bus async err=suspend:-5\n";
	EXPECT_EQ(run_text(t, "completion-init,resume-deleted", true), -1);
	EXPECT_EQ(r.errors[0], -5);
	EXPECT_CONTAINS(dpm_log_text(), "PM: Device disk failed to suspend async: error -5");
	EXPECT_EQ(count(dpm_log_text(), "calling  bus+ [suspend]"), 0);
	EXPECT_EQ(run_text(t, "all", true), -1);
	EXPECT_EQ(r.errors[0], -5);
}

static void test_knobs(void)
{
	uint64_t m;
	const char *bad;
	size_t bl;
	char buf[256];

	EXPECT_EQ(knobs_parse(variant_find("seed"), "all", &m, &bad, &bl), 0);
	EXPECT_EQ(m, (1ULL << variant_find("seed")->nknobs) - 1);
	EXPECT_EQ(knobs_parse(variant_find("seed"), "resume-deleted,completion-init",
			      &m, &bad, &bl), 0);
	knobs_format(variant_find("seed"), m, buf, sizeof(buf));
	EXPECT_STR_EQ(buf, "completion-init,resume-deleted");
	EXPECT_EQ(knobs_parse(variant_find("seed"), "completion-init,nope", &m, &bad,
			      &bl), -1);
	EXPECT_EQ(bl, 4);
	EXPECT_TRUE(!strncmp(bad, "nope", 4));
	knobs_format(variant_find("seed"), 0, buf, sizeof(buf));
	EXPECT_STR_EQ(buf, "none");
	for (int k = 0; k < variant_find("seed")->nknobs; k++) {
		EXPECT_TRUE(strlen(variant_find("seed")->knobs[k].commit) >= 12);
		EXPECT_TRUE(strlen(variant_find("seed")->knobs[k].reason) > 20);
	}
}

/* The same scenario twice: the same log, byte for byte. */
static void test_deterministic(void)
{
	static const char t[] =
		"dpmfuzz-scenario 1\ncycles 2\ndevice a async\n"
		"device b parent=a async suspend=10us\n"
		"device c parent=a pci resume=20us\n"
		"action unregister c at=15us\nschedule 0102030405060708\n";
	char *first;

	run_text(t, "all", true);
	first = strdup(dpm_log_text());
	run_text(t, "all", true);
	EXPECT_STR_EQ(dpm_log_text(), first);
	EXPECT_TRUE(strlen(first) > 1000);
	free(first);
}

int main(void)
{
	test_async_attr();
	test_switches();
	test_times();
	test_noirq_failure();
	test_async_failure();
	test_knobs();
	test_deterministic();
	return test_summary("test_seed");
}
