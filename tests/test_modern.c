// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modern variant (core/variants/modern.c): device links, direct
 * complete, device_pm_wait_for_dev(), the late and noirq phases with
 * their rollback, async_schedule_dev_nocall(), sysfs_streq().  Each
 * scenario is built so that the kernel rule it checks, if the model
 * broke it, would show as a violation or a different log.
 */
#include <stdlib.h>

#include "expect.h"
#include "run_text.h"

static struct run_result r;

static int run_text(const char *body, const char *fix)
{
	static char t[4096];

	snprintf(t, sizeof(t), "dpmfuzz-scenario 1\nvariant modern\n%s", body);
	return run_scenario_text(t, fix, true, &r);
}

/* A supplier suspends after its consumer and resumes before it, though
 * neither is the other's ancestor: the async jobs, if they did not wait
 * through the link, would run the supplier first on suspend (it has no
 * delay) and the consumer first on resume. */
static void test_links(void)
{
	static const char t[] =
		"device sup async\n"
		"device con async supplier=sup suspend=1000us resume=0us\n"
		"device other async\n";
	static const char slow_sup[] =
		"device sup async resume=1000us\n"
		"device con async supplier=sup\n";

	EXPECT_EQ(run_text(t, "all"), -1);
	EXPECT_EQ(count(dpm_log_text(), "waits for con"), 3);
	EXPECT_EQ(run_text(slow_sup, "all"), -1);
	EXPECT_EQ(count(dpm_log_text(), "waits for sup"), 3);
	/* The seed has no device links: the same text runs without them. */
	static const char seed[] =
		"dpmfuzz-scenario 1\n"
		"device sup async\n"
		"device con async supplier=sup suspend=1000us\n";

	EXPECT_EQ(run_scenario_text(seed, "all", true, &r), -1);
	EXPECT_EQ(count(dpm_log_text(), "device link"), 0);
}

/* direct_complete: a runtime-suspended subtree skips every callback but
 * prepare and complete; a runtime-suspended parent with an active child
 * cannot be (runtime PM would not have suspended it) and runs them. */
static void test_direct_complete(void)
{
	static const char t[] =
		"device root\n"
		"device p parent=root rpm-suspended async\n"
		"device c parent=p rpm-suspended\n"
		"device q parent=root rpm-suspended\n"
		"device busy parent=q\n";

	EXPECT_EQ(run_text(t, "all"), -1);
	const char *log = dpm_log_text();

	EXPECT_EQ(count(log, "direct-complete: stays runtime-suspended"), 2);
	EXPECT_EQ(count(log, "direct-complete: leaves runtime suspend"), 2);
	EXPECT_EQ(count(log, "calling  p+ [suspend"), 0);
	EXPECT_EQ(count(log, "calling  c+ [resume"), 0);
	EXPECT_EQ(count(log, "calling  p+ [complete]"), 1);
	/* q has an active child: every phase runs for it. */
	for (int ph = PH_SUSPEND; ph < PH_COMPLETE; ph++) {
		char w[64];

		snprintf(w, sizeof(w), "calling  q+ [%s]", pm_phase_name(ph));
		EXPECT_EQ(count(log, w), 1);
	}
	/* Two cycles: the state is set up anew each time. */
	static char two[512];

	snprintf(two, sizeof(two), "cycles 2\n%s", t);
	EXPECT_EQ(run_text(two, "all"), -1);
	EXPECT_EQ(count(dpm_log_text(), "direct-complete: stays runtime-suspended"), 4);
}

/* device_pm_wait_for_dev(): a resume callback waiting for an earlier
 * unrelated device returns after it has resumed; a suspend callback
 * waiting for a later one, after it has suspended. */
static void test_pm_wait(void)
{
	static const char resume_wait[] =
		"device a async resume=2000us\n"
		"device e async pm-wait=a\n";
	static const char suspend_wait[] =
		"device d async pm-wait=z\n"
		"device z async suspend=2000us\n";

	EXPECT_EQ(run_text(resume_wait, "all"), -1);
	EXPECT_CONTAINS(dpm_log_text(), "async/");
	EXPECT_EQ(run_text(suspend_wait, "all"), -1);
	/* The callback returns what device_pm_wait_for_dev() does: the
	 * async_error of a failed suspend. */
	static const char failing[] =
		"device d async pm-wait=z\n"
		"device z async suspend=2000us err=suspend:-5\n";

	EXPECT_EQ(run_text(failing, "all"), -1);
	EXPECT_EQ(r.errors[0], -5);
}

/* Errors in the late and noirq phases roll back exactly what was done. */
static void test_late_noirq_errors(void)
{
	static const char late[] =
		"device a async\n"
		"device b parent=a async err=suspend_late:-16\n"
		"device c parent=a\n";
	static const char noirq[] =
		"device a async\n"
		"device b parent=a err=suspend_noirq:-5\n"
		"device c parent=a\n";

	EXPECT_EQ(run_text(late, "all"), -1);
	EXPECT_EQ(r.errors[0], -16);
	EXPECT_EQ(count(dpm_log_text(), "[resume_early]"), 2 * 1);
	EXPECT_EQ(count(dpm_log_text(), "[suspend_noirq]"), 0);
	EXPECT_EQ(run_text(noirq, "all"), -1);
	EXPECT_EQ(r.errors[0], -5);
	/* c suspended noirq (it comes after b in the list) and resumes. */
	EXPECT_EQ(count(dpm_log_text(), "calling  c+ [resume_noirq]"), 1);
	EXPECT_EQ(count(dpm_log_text(), "calling  a+ [suspend_noirq]"), 0);
	EXPECT_EQ(count(dpm_log_text(), "calling  a+ [resume_early]"), 1);
}

/* A job that cannot be queued: with the fix the walk runs it after
 * dropping dpm_list_mtx; before it, inline under the mutex. */
static void test_nocall(void)
{
	static const char t[] = "inline_every 1\ndevice a async\ndevice b parent=a async\n";

	EXPECT_EQ(run_text(t, "all"), -1);
	EXPECT_EQ(count(dpm_log_text(), "async/"), 0);
	EXPECT_EQ(run_text(t, "resume-deleted,async-error-once"), INV_LIVENESS);
	EXPECT_CONTAINS(r.msg, "it holds itself");
}

/* async-early: a finished child starts its parent at once, so the parent
 * runs beside a slow sync device the 6.12 walk would finish first. */
static void test_async_early_timing(void)
{
	static const char t[] =
		"device p async suspend=1000us\n"
		"device s suspend=1000us\n"
		"device c parent=p async\n";

	EXPECT_EQ(run_text(t, "all"), -1);
	EXPECT_EQ(r.phase_ns[PH_SUSPEND], 2000000);
	EXPECT_EQ(run_text(t, "all,async-early"), -1);
	EXPECT_EQ(r.phase_ns[PH_SUSPEND], 1000000);
	/* An async leaf earlier in the list than a slow sync device starts
	 * before the walk reaches it. */
	static const char leaf[] = "device a async suspend=1000us\ndevice s suspend=1000us\n";

	EXPECT_EQ(run_text(leaf, "all"), -1);
	EXPECT_EQ(r.phase_ns[PH_SUSPEND], 2000000);
	EXPECT_EQ(run_text(leaf, "all,async-early"), -1);
	EXPECT_EQ(r.phase_ns[PH_SUSPEND], 1000000);
	/* Resume: a root starts up front, before a slow sync device ahead
	 * of it... and so it does in 6.12, whose walk starts every async
	 * device up front: the same time. */
	static const char root[] = "device s resume=1000us\ndevice a async resume=1000us\n";

	EXPECT_EQ(run_text(root, "all"), -1);
	EXPECT_EQ(r.phase_ns[PH_RESUME], 1000000);
	EXPECT_EQ(run_text(root, "all,async-early"), -1);
	EXPECT_EQ(r.phase_ns[PH_RESUME], 1000000);
}

/* The knob names knobs_list() prints for variant name, one a line. */
static void knob_names(const char *name, char *buf, size_t n)
{
	char *list = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);

	knobs_list(variant_find(name), f);
	fclose(f);
	buf[0] = '\0';
	for (char *l = list; l && *l; l = strchr(l, '\n') + 1) {
		size_t at = strlen(buf);

		snprintf(buf + at, n - at, "%s%.*s", at ? "," : "",
			 (int)strcspn(l, "\t"), l);
		if (!strchr(l, '\n'))
			break;
	}
	free(list);
}

/* modern-6.16 is modern with async-early always on: it lists the six
 * fixes, "all" is those, and naming async-early changes nothing; modern
 * lists 6.12's four and still takes the three it gave away. */
static void test_modern_616(void)
{
	const struct pm_variant *v = variant_find("modern-6.16");
	const struct pm_variant *m = variant_find("modern");
	static const char six[] = "nocall,resume-deleted,async-error-once,"
				  "dc-is-suspended,complete-on-error,resume-children-lock";
	char buf[512];
	uint64_t a, b;
	const char *bad;
	size_t bl;

	EXPECT_TRUE(v && m && v->model == m->model);
	if (!v || !m)
		return;
	knob_names("modern-6.16", buf, sizeof(buf));
	EXPECT_STR_EQ(buf, six);
	knob_names("modern", buf, sizeof(buf));
	EXPECT_STR_EQ(buf, "nocall,resume-deleted,async-error-once,dc-is-suspended");
	EXPECT_EQ(knobs_parse(v, "all", &a, &bad, &bl), 0);
	knobs_format(v, a, buf, sizeof(buf));
	EXPECT_STR_EQ(buf, six);
	EXPECT_EQ(knobs_parse(v, "all,async-early", &b, &bad, &bl), 0);
	EXPECT_TRUE(a == b);
	EXPECT_EQ(knobs_parse(v, "async-early", &b, &bad, &bl), 0);
	EXPECT_TRUE(b == 0);
	/* modern's "all" is what it was: the six fixes, no scheme. */
	EXPECT_EQ(knobs_parse(m, "all", &a, &bad, &bl), 0);
	knobs_format(m, a, buf, sizeof(buf));
	EXPECT_STR_EQ(buf, six);
	EXPECT_EQ(knobs_parse(m, "all,async-early", &a, &bad, &bl), 0);
	knobs_format(m, a, buf, sizeof(buf));
	EXPECT_CONTAINS(buf, "async-early");

	/* The scheme runs: a finished child starts its parent at once (as
	 * in test_async_early_timing with async-early named). */
	static const char t[] =
		"dpmfuzz-scenario 1\nvariant modern-6.16\n"
		"device p async suspend=1000us\n"
		"device s suspend=1000us\n"
		"device c parent=p async\n";

	EXPECT_EQ(run_scenario_text(t, "all", true, &r), -1);
	EXPECT_EQ(r.phase_ns[PH_SUSPEND], 1000000);
	EXPECT_EQ(run_scenario_text(t, "", true, &r), -1);
	EXPECT_EQ(r.phase_ns[PH_SUSPEND], 1000000);
}

/* sysfs_streq(): one trailing newline, nothing after it. */
static void test_async_attr(void)
{
	static const char t[] =
		"cycles 3\ndevice a\n"
		"action async a \"enabled\\n\" before-cycle=1\n"
		"action async a \"disabled\\nx\" before-cycle=2\n";

	EXPECT_EQ(run_text(t, "all"), -1);
	EXPECT_CONTAINS(dpm_log_text(), "echo > a/power/async: 8");
	EXPECT_CONTAINS(dpm_log_text(), "echo > a/power/async: -22");
	/* Async in cycles 1 and 2 (the bad write changed nothing): a job
	 * in each of the six middle phases, twice, two log lines each. */
	EXPECT_EQ(count(dpm_log_text(), "async/"), 2 * 6 * 2);
}

int main(void)
{
	test_links();
	test_direct_complete();
	test_pm_wait();
	test_late_noirq_errors();
	test_nocall();
	test_async_attr();
	test_async_early_timing();
	test_modern_616();
	return test_summary("test_modern");
}
