// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rwsem variant (Linus's proposal): who takes and releases which
 * device's power.rwsem, and that the locks order the callbacks as the
 * oracle demands over many schedules: a parent suspends after all its
 * children, a child resumes after its parent, a failed suspend rolls back
 * and leaves no lock behind, a device removed mid-transition is safe, and
 * both engines run it clean.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "util/xorshift.h"
#include "expect.h"
#include "run_text.h"

/* Every scenario here starts so. */
#define RWSEM "dpmfuzz-scenario 1\nvariant rwsem\n"

static struct run_result r;

static int run_text(const char *text, const char *fix, bool log)
{
	return run_scenario_text(text, fix, log, &r);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint8_t rnd(void)
{
	return (uint8_t)(xorshift64(&rng) >> 32);
}

/*
 * Run a scenario text under n schedules: its own, then n - 1 seeded
 * random ones (the same on every run of the test).  Returns the first
 * violated invariant, -1 if every run was clean.
 */
static int run_schedules(const char *text, const char *fix, int n)
{
	struct scenario s;
	struct run_opts o;

	if (parse_scenario_text(text, fix, false, &s, &o))
		return -2;
	int got = -1;

	for (int k = 0; k < n && got < 0; k++) {
		if (k) {
			size_t len = 8 + rnd() % 56;

			free(s.sched);
			s.sched = malloc(len);
			if (!s.sched)
				abort();
			for (size_t j = 0; j < len; j++)
				s.sched[j] = rnd();
			s.nsched = len;
		}
		dpm_run(&s, &o, &r);
		if (r.violated) {
			got = (int)r.id;
			fprintf(stderr, "schedule %d: VIOLATION %s: %s\n", k,
				inv_name(r.id), r.msg);
		}
	}
	scenario_free(&s);
	return got;
}

/* Does task run the step of device dev: the walk, or dev's async thread
 * ("async/N:dev")? */
static bool step_task(const char *task, const char *dev)
{
	size_t tl = strlen(task), dl = strlen(dev);

	return !strcmp(task, "pm") ||
	       (tl > dl && task[tl - dl - 1] == ':' && !strcmp(task + tl - dl, dev));
}

/*
 * The rwsem lines of a logged run, checked against the scheme: in
 * suspend the walk ('pm') read-locks each parent for the child, and a
 * device's step write-locks the device and releases it; in resume the
 * walk write-locks each device, and the device's step releases it.
 * Every lock taken in a suspend or resume phase is released before the
 * phase ends.  Returns the number of broken rules (each printed).
 */
static int check_lock_lines(const char *log)
{
	enum { NONE, SUSPEND, RESUME } phase = NONE;
	int bad = 0, reads = 0, writes = 0;
	char line[512];

	for (const char *l = log; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		char task[48], dev[48], op[16];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		l += len + (e ? 1 : 0);
		if (strstr(line, "suspend_resume: suspend begin") ||
		    strstr(line, "suspend_resume: resume begin")) {
			phase = strstr(line, "suspend begin") ? SUSPEND : RESUME;
			continue;
		}
		if (strstr(line, "suspend_resume: suspend end") ||
		    strstr(line, "suspend_resume: resume end")) {
			if (reads || writes) {
				fprintf(stderr, "%d read and %d write locks held at: %s\n",
					reads, writes, line);
				bad++;
			}
			phase = NONE;
			continue;
		}
		if (!strstr(line, "(power.rwsem)") ||
		    sscanf(line, "[%*[^]]] %47s %47[^:]: %15[^(]", task, dev, op) != 3)
			continue;
		bool ok = phase != NONE;

		if (!strcmp(op, "down_read")) {
			reads++;
			if (phase == SUSPEND)	/* the walk, for the child */
				ok = ok && !strcmp(task, "pm");
		} else if (!strcmp(op, "up_read")) {
			ok = ok && --reads >= 0;
		} else if (!strcmp(op, "down_write")) {
			writes++;
			ok = ok && (phase == RESUME ? !strcmp(task, "pm") :
				    step_task(task, dev));
		} else if (!strcmp(op, "up_write")) {
			ok = ok && --writes >= 0 && step_task(task, dev);
		}
		if (!ok) {
			fprintf(stderr, "lock rule broken: %s\n", line);
			bad++;
		}
	}
	return bad;
}

static const char tree[] =
	RWSEM
	"device bus\n"
	"device disk parent=bus async suspend=100us resume=50us\n"
	"device part parent=disk async suspend=300us\n"
	"device kbd parent=bus suspend=20us\n"
	"device nic parent=bus pci suspend=200us resume=400us\n";

/* The part of a log between "suspend_resume: NAME begin" and its end
 * (malloc'd; empty if the phase is not there). */
static char *section(const char *log, const char *name)
{
	char b[64], e[64];

	snprintf(b, sizeof(b), "suspend_resume: %s begin", name);
	snprintf(e, sizeof(e), "suspend_resume: %s end", name);
	const char *from = strstr(log, b), *to = from ? strstr(from, e) : NULL;

	return from && to ? strndup(from, (size_t)(to - from)) : strdup("");
}

/* Who locks what, on the default schedule. */
static void test_lock_placement(void)
{
	EXPECT_EQ(run_text(tree, "all", true), -1);
	const char *log = dpm_log_text();
	char *sus = section(log, "suspend"), *res = section(log, "resume");

	EXPECT_EQ(check_lock_lines(log), 0);
	/* Suspend: the walk read-locks bus for disk, kbd and nic, and disk
	 * for part; each device's step write-locks it. */
	EXPECT_EQ(count(sus, "pm                       bus: down_read(power.rwsem)"), 3);
	EXPECT_EQ(count(sus, "pm                       disk: down_read(power.rwsem)"), 1);
	EXPECT_EQ(count(sus, ": down_read(power.rwsem)"), 4);
	EXPECT_EQ(count(sus, ": down_write(power.rwsem)"), 5);
	EXPECT_EQ(count(sus, "async/2:part             part: down_write(power.rwsem)"), 1);
	/* The read lock the walk took for part is released by part's thread. */
	EXPECT_EQ(count(sus, "async/2:part             disk: up_read(power.rwsem)"), 1);
	EXPECT_EQ(count(sus, "pm                       kbd: down_write(power.rwsem)"), 1);
	/* Resume: the walk write-locks every device, each child's step
	 * read-locks its parent, part's thread releases its write lock. */
	EXPECT_EQ(count(res, "pm                       part: down_write(power.rwsem)"), 1);
	EXPECT_EQ(count(res, ": down_write(power.rwsem)"), 5);
	EXPECT_EQ(count(res, ": down_read(power.rwsem)"), 4);
	EXPECT_EQ(count(res, "async/5:part             disk: down_read(power.rwsem)"), 1);
	EXPECT_EQ(count(res, "async/5:part             part: up_write(power.rwsem)"), 1);
	/* No completion is involved. */
	EXPECT_EQ(count(log, "complete_all(power.completion)"), 0);
	free(sus);
	free(res);
}

/* Children suspend in parallel; the bus waits for the slowest branch. */
static void test_parallel_times(void)
{
	EXPECT_EQ(run_text(tree, "all", true), -1);
	/* The walk runs kbd (20 us, sync) inline before it starts part and
	 * disk: 20 + 300 + 100 us; nic (200 us) beside them.  420000 ns >> 10
	 * = 410 "usecs". */
	EXPECT_CONTAINS(dpm_log_text(), "PM: suspend of devices complete after 0.410 msecs");
	/* Resume: disk 50 us and nic 400 us in parallel after bus. */
	EXPECT_CONTAINS(dpm_log_text(), "PM: resume of devices complete after 0.390 msecs");
	static const char off[] =
		RWSEM "pm_async 0\n"
		"device bus\n"
		"device disk parent=bus async suspend=100us resume=50us\n"
		"device part parent=disk async suspend=300us\n"
		"device kbd parent=bus suspend=20us\n"
		"device nic parent=bus pci suspend=200us resume=400us\n";
	/* pm_async off: the sum, 620 us, one device at a time, no thread. */
	EXPECT_EQ(run_text(off, "all", true), -1);
	EXPECT_CONTAINS(dpm_log_text(), "PM: suspend of devices complete after 0.605 msecs");
	EXPECT_EQ(count(dpm_log_text(), "async/"), 0);
	EXPECT_EQ(check_lock_lines(dpm_log_text()), 0);
}

/* A parent's suspend never starts before all its children suspended, and
 * a child's resume never before its parent resumed, whatever the
 * schedule: async and sync children, a grandchild, one worker, and
 * async_schedule() running jobs inline. */
static void test_ordering_all_schedules(void)
{
	static const char t[] =
		RWSEM "cycles 2\n"
		"device root\n"
		"device bus parent=root async suspend=30us resume=30us\n"
		"device a parent=bus async suspend=100us resume=10us\n"
		"device b parent=bus async suspend=10us resume=100us\n"
		"device c parent=bus suspend=50us resume=50us\n"
		"device d parent=a async suspend=40us resume=40us\n"
		"device e parent=root pci resume=20us\n";
	EXPECT_EQ(run_schedules(t, "all", 400), -1);
	EXPECT_EQ(run_schedules(t, "none", 400), -1);
	static const char w[] =
		RWSEM "worker_limit 1\ninline_every 3\n"
		"device bus async\n"
		"device a parent=bus async suspend=100us\n"
		"device b parent=bus async resume=100us\n"
		"device d parent=a async suspend=40us resume=40us\n";
	EXPECT_EQ(run_schedules(w, "all", 300), -1);
	/* pm_trace: resume one device at a time, in list order. */
	static const char tr[] =
		RWSEM "pm_trace 1\n"
		"device bus async\n"
		"device a parent=bus async resume=100us\n"
		"device b parent=a async resume=10us\n";
	EXPECT_EQ(run_schedules(tr, "all", 100), -1);
	EXPECT_EQ(run_text(tr, "all", true), -1);
	EXPECT_EQ(count(dpm_log_text(), ": async suspend"), 3);
	EXPECT_EQ(count(dpm_log_text(), ": async resume"), 0);
}

/* A failed suspend stops the walk, is reported, and is rolled back; the
 * locks the walk took are all released, so later cycles run. */
static void test_failure(void)
{
	static const char t[] =
		RWSEM "cycles 3\n"
		"device bus\n"
		"device disk parent=bus async err=suspend:-5\n"
		"device part parent=disk async suspend=20us\n"
		"device kbd parent=bus suspend=10us\n";
	EXPECT_EQ(run_schedules(t, "all", 300), -1);
	EXPECT_EQ(run_text(t, "all", true), -1);
	EXPECT_EQ(r.errors[0], -5);
	EXPECT_EQ(r.errors[2], -5);
	EXPECT_EQ(count(dpm_log_text(), "calling  bus+ [suspend]"), 0);
	EXPECT_CONTAINS(dpm_log_text(), "PM: Device disk failed to suspend async: error -5");
	EXPECT_EQ(check_lock_lines(dpm_log_text()), 0);
	/* A sync failure in the middle of the walk. */
	static const char s[] =
		RWSEM "cycles 2\n"
		"device bus\n"
		"device a parent=bus async suspend=100us\n"
		"device b parent=bus err=suspend:-16\n"
		"device c parent=bus async suspend=10us\n";
	EXPECT_EQ(run_schedules(s, "all", 300), -1);
	EXPECT_EQ(run_text(s, "all", false), -1);
	EXPECT_EQ(r.errors[0], -16);
	EXPECT_EQ(r.errors[1], -16);
	/* The seed's hang (docs/findings.md#seed-1) cannot happen: a device
	 * the walk never reached holds no lock, so its children resume. */
	static const char hang[] =
		RWSEM "device bus pci\n"
		"device disk parent=bus err=suspend:-5\n"
		"device part parent=bus\n";
	EXPECT_EQ(run_schedules(hang, "none", 100), -1);
	/* The seed's async_error order (seed-2) is inherited: the failing
	 * child releases its locks, then stores the error. */
	static const char order[] =
		RWSEM "device bus\ndevice disk parent=bus async err=suspend:-5\n"
		"schedule 24e81024d6a9cd15\n";
	EXPECT_EQ(run_text(order, "none", false), INV_SUSPEND_AFTER_CHILDREN);
	EXPECT_EQ(run_text(order, "async-error-order", false), -1);
}

/* Devices unregistered while the transition runs: by a hotplug task or
 * by a callback, during suspend and during resume. */
static void test_removal(void)
{
	/* Resume (as docs/findings.md#seed-3): c's job, queued behind p's,
	 * read-locks p after p was unregistered and its own job ended. */
	static const char res[] =
		RWSEM "worker_limit 1\n"
		"device p async resume=2000000us\n"
		"device c parent=p async\n"
		"action unregister p at=100000us\n";
	EXPECT_EQ(run_schedules(res, "none", 300), -1);
	/* Suspend: the walk read-locks p for c, whose job waits behind z's
	 * for the one worker; x fails, so the walk never reaches p.  The
	 * hotplug task unregisters c and p meanwhile; c's job, when it
	 * runs, releases its read lock on p. */
	static const char sus[] =
		RWSEM "worker_limit 1\n"
		"device p\n"
		"device x err=suspend:-5\n"
		"device c parent=p async\n"
		"device z async suspend=2000000us\n"
		"action unregister p at=100000us\n";
	EXPECT_EQ(run_schedules(sus, "none", 300), -1);
	/* Callbacks unregistering a child, in suspend and in resume. */
	static const char cb[] =
		RWSEM "cycles 2\n"
		"device p async resume=1000us remove=resume:c\n"
		"device c parent=p async suspend=100us\n"
		"device g parent=c async\n"
		"device q remove=suspend:r\n"
		"device r parent=q async suspend=10us\n";
	EXPECT_EQ(run_schedules(cb, "all", 300), -1);
	EXPECT_EQ(run_text(cb, "all", true), -1);
	EXPECT_CONTAINS(dpm_log_text(), "p: callback unregisters 'c'");
	EXPECT_CONTAINS(dpm_log_text(), "q: callback unregisters 'r'");
}

static void on_fatal(const struct scenario *s, const struct run_result *res)
{
	(void)s;
	fprintf(stderr, "threads engine: VIOLATION %s: %s\n", inv_name(res->id),
		res->msg);
}

/* Both engines, every fix on: clean. */
static void test_engines(void)
{
	static const char t[] =
		RWSEM "cycles 3\n"
		"device root\n"
		"device pci0 parent=root pci suspend=50us resume=50us\n"
		"device usb parent=pci0 async suspend=200us resume=300us\n"
		"device hub parent=usb async suspend=100us\n"
		"device kbd parent=hub resume=20us\n"
		"device mouse parent=hub async\n"
		"device disk parent=pci0 async suspend=500us err=suspend:-5\n"
		"device part parent=disk async\n"
		"device nic parent=root async resume=100us remove=resume:phy\n"
		"device phy parent=nic async\n"
		"device gpu parent=root async suspend=1000us resume=2000us\n"
		"action unregister hub at=150us\n";
	struct scenario s;
	struct run_opts o;

	EXPECT_EQ(run_schedules(t, "all", 200), -1);
	EXPECT_EQ(parse_scenario_text(t, "all", false, &s, &o), 0);
	o.engine = ENGINE_THREADS;
	o.on_fatal = on_fatal;
	o.threads.perturb = 2;
	o.threads.ns_per_virtual_us = 1;
	o.threads.watchdog_ms = 20000;
	for (int k = 0; k < 20; k++) {
		o.threads.seed = (uint64_t)k + 1;
		dpm_run(&s, &o, &r);
		EXPECT_TRUE(!r.violated);
	}
	scenario_free(&s);
}

static const struct pm_variant no_knobs = { .name = "bare" };

static void test_knobs(void)
{
	uint64_t m;
	const char *bad;
	size_t bl;
	char buf[256];

	EXPECT_TRUE(variant_find("rwsem") == variant_find("rwsem"));
	EXPECT_CONTAINS(variant_names(), "rwsem");
	EXPECT_EQ(knobs_parse(variant_find("rwsem"), "all", &m, &bad, &bl), 0);
	knobs_format(variant_find("rwsem"), m, buf, sizeof(buf));
	EXPECT_STR_EQ(buf, "async-error-order,async-error-once");
	/* The seed's completion fixes have nothing to fix here. */
	EXPECT_EQ(knobs_parse(variant_find("rwsem"), "completion-init", &m, &bad, &bl), -1);
	EXPECT_EQ(knobs_parse(variant_find("rwsem"), "resume-deleted", &m, &bad, &bl), -1);
	for (int k = 0; k < variant_find("rwsem")->nknobs; k++) {
		EXPECT_TRUE(strlen(variant_find("rwsem")->knobs[k].commit) >= 12);
		EXPECT_TRUE(strlen(variant_find("rwsem")->knobs[k].reason) > 20);
	}
	/* A variant without knobs: "all" and "none" are the empty mask. */
	m = 7;
	EXPECT_EQ(knobs_parse(&no_knobs, "all", &m, &bad, &bl), 0);
	EXPECT_EQ(m, 0);
	EXPECT_EQ(knobs_parse(&no_knobs, "none", &m, &bad, &bl), 0);
	EXPECT_EQ(knobs_parse(&no_knobs, "x", &m, &bad, &bl), -1);
	knobs_format(&no_knobs, 0, buf, sizeof(buf));
	EXPECT_STR_EQ(buf, "none");
}

int main(void)
{
	test_lock_placement();
	test_parallel_times();
	test_ordering_all_schedules();
	test_failure();
	test_removal();
	test_engines();
	test_knobs();
	return test_summary("test_rwsem");
}
