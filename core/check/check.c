// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracle's state per device and transition:
 *   lvl   how deep the device is suspended: 0 ON, 1 after suspend,
 *         2 after suspend_late, 3 after suspend_noirq.  A suspend
 *         callback that ends without error sets it to its phase's depth;
 *         a resume callback, when it ends, whatever its result, sets it
 *         to one less than the depth it undoes.
 *   gone  the device was unbound and taken off the PM list: exempt from
 *         every later ordering obligation.
 */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const inv_names[NR_INV] = {
	"SUSPEND-AFTER-CHILDREN", "RESUME-AFTER-PARENT", "ONCE", "ROLLBACK",
	"REMOVED", "LIVENESS", "PHASE-BARRIER", "SYNC-ORDER", "REFS",
};

const char *inv_name(enum inv id)
{
	return (unsigned)id < NR_INV ? inv_names[id] : "?";
}

int inv_parse(const char *name)
{
	for (int i = 0; i < NR_INV; i++)
		if (!strcmp(name, inv_names[i]))
			return i;
	return -1;
}

struct dstate {
	int lvl;
	bool gone;
	bool freed;
	bool prepared;
	int busy;		/* phase of the running callback, or -1 */
	unsigned int ran;	/* phases whose callback ran this transition */
};

static struct check_config cfg;
static struct dstate *st;
static int *child_start, *child_list;	/* children of i, CSR */
static struct check_result result;

static bool in_transition;
static bool suspend_failed;
/* Bit e: a suspend-side callback returned -e; e up to the kernel's
 * MAX_ERRNO, the text format's limit (EPROTO, 71, is in real logs). */
#define ERRNO_MAX 4095
static uint64_t failed_errs[ERRNO_MAX / 64 + 1];

static uint64_t *err_word(int error, uint64_t *bit)
{
	if (error >= 0 || error < -ERRNO_MAX)
		return NULL;
	*bit = 1ULL << (-error % 64);
	return &failed_errs[-error / 64];
}

static int first_fail_dev = -1, first_fail_phase, first_fail_err;
static int phase_active = -1;
static int running[NR_PHASES];
static int last_pos[NR_PHASES];		/* SYNC-ORDER: previous device */
static int running_total;
static uint64_t phase_start;
void (*check_noirq_hook)(bool open);
void (*check_event_hook)(enum check_event ev, int dev, int phase, int err);

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		kapi_bug("check: out of memory");
	return p;
}

void check_reset(const struct check_config *c)
{
	cfg = *c;
	free(st);
	free(child_start);
	free(child_list);
	st = xcalloc(cfg.ndev, sizeof(*st));
	child_start = xcalloc(cfg.ndev + 1, sizeof(int));
	child_list = xcalloc(cfg.ndev, sizeof(int));
	for (int i = 0; i < cfg.ndev; i++) {
		st[i].busy = -1;
		if (cfg.parent[i] >= 0)
			child_start[cfg.parent[i] + 1]++;
	}
	for (int i = 0; i < cfg.ndev; i++)
		child_start[i + 1] += child_start[i];
	int *fill = xcalloc(cfg.ndev, sizeof(int));

	for (int i = 0; i < cfg.ndev; i++) {
		int p = cfg.parent[i];

		if (p >= 0)
			child_list[child_start[p] + fill[p]++] = i;
	}
	free(fill);
	memset(&result, 0, sizeof(result));
	in_transition = false;
	phase_active = -1;
	running_total = 0;
	memset(running, 0, sizeof(running));
}

const struct check_result *check_result(void)
{
	return &result;
}

static void vrecord(enum inv id, const char *fmt, va_list ap)
{
	if (result.violated)
		return;
	result.violated = true;
	result.id = id;
	if (check_event_hook)
		check_event_hook(CEV_VIOLATION, -1, -1, id);
	vsnprintf(result.msg, sizeof(result.msg), fmt, ap);
	pr_info("dpmfuzz: VIOLATION %s: %s", inv_name(id), result.msg);
}

void check_fail(enum inv id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrecord(id, fmt, ap);
	va_end(ap);
	dpm_eng->stop();
}

static const char *nm(int dev)
{
	return cfg.names[dev];
}

/* Depth a suspend phase reaches, or a resume phase undoes. */
static int depth(enum pm_phase p)
{
	switch (p) {
	case PH_SUSPEND:
	case PH_RESUME:
		return 1;
	case PH_SUSPEND_LATE:
	case PH_RESUME_EARLY:
		return 2;
	case PH_SUSPEND_NOIRQ:
	case PH_RESUME_NOIRQ:
		return 3;
	default:
		return 0;
	}
}

/* Forward (list order) or backward (reverse list order) phase. */
static bool phase_forward(enum pm_phase p)
{
	return p == PH_PREPARE || p == PH_RESUME_NOIRQ ||
	       p == PH_RESUME_EARLY || p == PH_RESUME;
}

static bool phase_must_be_sync(enum pm_phase p)
{
	if (!cfg.async_possible)
		return true;
	return cfg.pm_trace && !pm_phase_is_suspend(p) && p != PH_COMPLETE;
}

static void do_check_transition_begin(void)
{
	result.transitions++;
	in_transition = true;
	suspend_failed = false;
	memset(failed_errs, 0, sizeof(failed_errs));
	first_fail_dev = -1;
	for (int i = 0; i < cfg.ndev; i++)
		st[i].ran = 0;
}

static void do_check_phase_begin(enum pm_phase p)
{
	pr_info("suspend_resume: %s begin", pm_phase_name(p));
	if (check_event_hook)
		check_event_hook(CEV_PHASE_BEGIN, -1, p, 0);
	if (phase_active >= 0)
		check_fail(INV_PHASE_BARRIER,
			   "phase %s began while phase %s had not returned",
			   pm_phase_name(p), pm_phase_name(phase_active));
	phase_active = p;
	last_pos[p] = -1;
	phase_start = dpm_eng->now();
}

static void do_check_phase_end(enum pm_phase p)
{
	pr_info("suspend_resume: %s end", pm_phase_name(p));
	if (check_event_hook)
		check_event_hook(CEV_PHASE_END, -1, p, 0);
	if (result.transitions == 1)
		result.phase_ns[p] += dpm_eng->now() - phase_start;
	if (running[p]) {
		for (int i = 0; i < cfg.ndev; i++)
			if (st[i].busy == (int)p)
				check_fail(INV_PHASE_BARRIER,
					   "%s returned while the %s callback of '%s' was still running",
					   pm_phase_name(p), pm_phase_name(p),
					   nm(i));
	}
	phase_active = -1;
}

static void check_suspend_start(int dev, enum pm_phase p)
{
	int d = depth(p);

	if (!d)
		return;
	for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
		int c = child_list[k];

		if (st[c].gone || st[c].lvl >= d)
			continue;
		check_fail(INV_SUSPEND_AFTER_CHILDREN,
			   "child '%s' had not %s when its parent '%s' started %s",
			   nm(c),
			   st[c].busy == (int)p ? "finished suspending (its callback is running)" :
						 "suspended",
			   nm(dev), pm_phase_name(p));
	}
}

static void check_resume_start(int dev, enum pm_phase p)
{
	int d = depth(p);

	if (!d)
		return;
	if (st[dev].lvl < d)
		check_fail(INV_RESUME_AFTER_PARENT,
			   "'%s' started %s but had not been suspended that deep",
			   nm(dev), pm_phase_name(p));
	int par = cfg.parent[dev];

	if (par >= 0 && !st[par].gone && st[par].lvl >= d)
		check_fail(INV_RESUME_AFTER_PARENT,
			   "parent '%s' had not %s when its child '%s' started %s",
			   nm(par),
			   st[par].busy == (int)p ? "finished resuming (its callback is running)" :
						   "resumed",
			   nm(dev), pm_phase_name(p));
}

static void do_check_callback_start(int dev, enum pm_phase p)
{
	struct dstate *s = &st[dev];

	pr_info("calling  %s+ [%s]%s%s", nm(dev), pm_phase_name(p),
		cfg.parent[dev] >= 0 ? ", parent: " : "",
		cfg.parent[dev] >= 0 ? nm(cfg.parent[dev]) : "");
	if (check_event_hook)
		check_event_hook(CEV_START, dev, p, 0);
	if (s->gone)
		check_fail(INV_REMOVED,
			   "the %s callback of '%s' started after the device was removed",
			   pm_phase_name(p), nm(dev));
	if (!in_transition || phase_active != (int)p)
		check_fail(INV_PHASE_BARRIER,
			   "the %s callback of '%s' started outside its phase (active: %s)",
			   pm_phase_name(p), nm(dev),
			   phase_active >= 0 ? pm_phase_name(phase_active) : "none");
	if (s->busy >= 0)
		check_fail(INV_ONCE,
			   "the %s callback of '%s' started while its %s callback was running",
			   pm_phase_name(p), nm(dev), pm_phase_name(s->busy));
	if (s->ran & (1u << p))
		check_fail(INV_ONCE,
			   "the %s callback of '%s' ran twice in one transition",
			   pm_phase_name(p), nm(dev));
	if (phase_must_be_sync(p)) {
		if (running_total)
			check_fail(INV_SYNC_ORDER,
				   "the %s callback of '%s' started while another callback was running, with async off",
				   pm_phase_name(p), nm(dev));
		if (last_pos[p] >= 0 &&
		    (phase_forward(p) ? dev < last_pos[p] : dev > last_pos[p]))
			check_fail(INV_SYNC_ORDER,
				   "with async off, %s ran '%s' after '%s', against %s list order",
				   pm_phase_name(p), nm(dev), nm(last_pos[p]),
				   phase_forward(p) ? "forward" : "reverse");
		last_pos[p] = dev;
	}
	if (p == PH_COMPLETE && !s->prepared)
		check_fail(INV_ROLLBACK,
			   "complete callback of '%s', which was not prepared",
			   nm(dev));
	if (pm_phase_is_suspend(p))
		check_suspend_start(dev, p);
	else
		check_resume_start(dev, p);
	s->ran |= 1u << p;
	s->busy = p;
	running[p]++;
	running_total++;
}

static void do_check_callback_end(int dev, enum pm_phase p, int error)
{
	struct dstate *s = &st[dev];
	uint64_t *w, bit;

	pr_info("call %s+ [%s] returned %d", nm(dev), pm_phase_name(p), error);
	if (check_event_hook)
		check_event_hook(CEV_END, dev, p, error);
	s->busy = -1;
	running[p]--;
	running_total--;
	if (pm_phase_is_suspend(p)) {
		if (error) {
			if (!suspend_failed) {
				first_fail_dev = dev;
				first_fail_phase = p;
				first_fail_err = error;
			}
			suspend_failed = true;
			if ((w = err_word(error, &bit)))
				*w |= bit;
			return;
		}
		if (p == PH_PREPARE)
			s->prepared = true;
		else
			s->lvl = depth(p);
	} else if (p == PH_COMPLETE) {
		s->prepared = false;
	} else {
		s->lvl = depth(p) - 1;
	}
}

static void do_check_device_gone(int dev)
{
	pr_info("device '%s' removed", nm(dev));
	st[dev].gone = true;
}

static void do_check_device_freed(int dev)
{
	st[dev].freed = true;
}

static void do_check_transition_end(int error)
{
	uint64_t *w, bit;

	pr_info("transition ends, suspend reported %d", error);
	in_transition = false;
	for (int i = 0; i < cfg.ndev; i++) {
		if (st[i].gone)
			continue;
		if (st[i].lvl)
			check_fail(INV_ROLLBACK,
				   "'%s' was still suspended (depth %d) when the transition ended",
				   nm(i), st[i].lvl);
		if (st[i].prepared)
			check_fail(INV_ROLLBACK,
				   "'%s' was prepared but never completed",
				   nm(i));
	}
	if (suspend_failed && !error)
		check_fail(INV_ROLLBACK,
			   "a suspend callback failed but the transition reported success");
	if (!suspend_failed && error)
		check_fail(INV_ROLLBACK,
			   "the transition reported error %d though no callback failed",
			   error);
	if (error && !((w = err_word(error, &bit)) && (*w & bit)))
		check_fail(INV_ROLLBACK,
			   "the transition reported error %d, which no callback returned",
			   error);
}

static void do_check_refs(void)
{
	for (int i = 0; i < cfg.ndev; i++) {
		struct device *dev = device_by_id(i);

		if (!dev) {
			if (!st[i].gone)
				check_fail(INV_REFS,
					   "'%s' was freed while still registered",
					   nm(i));
			continue;
		}
		int want = (dev->creator_ref ? 1 : 0) +
			   dev->registered_children;
		int have = __atomic_load_n(&dev->refcount, __ATOMIC_RELAXED);

		if (have != want)
			check_fail(INV_REFS,
				   "'%s' holds %d references at the end of the run, expected %d",
				   nm(i), have, want);
	}
}

static void do_check_all_freed(void)
{
	for (int i = 0; i < cfg.ndev; i++)
		if (!st[i].freed)
			check_fail(INV_REFS,
				   "'%s' was never freed: a reference leaked",
				   nm(i));
}

/* The public events: serialised, invisibly to TSan, on the threads engine. */
static int oracle_lk;

void check_transition_begin(void)
{
	quiet_lock(&oracle_lk);
	do_check_transition_begin();
	quiet_unlock(&oracle_lk);
}

void check_transition_end(int error)
{
	quiet_lock(&oracle_lk);
	do_check_transition_end(error);
	quiet_unlock(&oracle_lk);
}

void check_phase_begin(enum pm_phase p)
{
	quiet_lock(&oracle_lk);
	do_check_phase_begin(p);
	quiet_unlock(&oracle_lk);
	if (p == PH_SUSPEND_NOIRQ && check_noirq_hook)
		check_noirq_hook(true);
}

void check_phase_end(enum pm_phase p)
{
	quiet_lock(&oracle_lk);
	do_check_phase_end(p);
	quiet_unlock(&oracle_lk);
	if (p == PH_RESUME_NOIRQ && check_noirq_hook)
		check_noirq_hook(false);
}

void check_callback_start(int dev, enum pm_phase p)
{
	quiet_lock(&oracle_lk);
	do_check_callback_start(dev, p);
	quiet_unlock(&oracle_lk);
}

void check_callback_end(int dev, enum pm_phase p, int error)
{
	quiet_lock(&oracle_lk);
	do_check_callback_end(dev, p, error);
	quiet_unlock(&oracle_lk);
}

void check_device_gone(int dev)
{
	quiet_lock(&oracle_lk);
	do_check_device_gone(dev);
	quiet_unlock(&oracle_lk);
}

void check_device_freed(int dev)
{
	quiet_lock(&oracle_lk);
	do_check_device_freed(dev);
	quiet_unlock(&oracle_lk);
}

void check_refs(void)
{
	quiet_lock(&oracle_lk);
	do_check_refs();
	quiet_unlock(&oracle_lk);
}

void check_all_freed(void)
{
	quiet_lock(&oracle_lk);
	do_check_all_freed();
	quiet_unlock(&oracle_lk);
}

void check_explain(int dev, char *buf, size_t n)
{
	const struct dstate *s = &st[dev];

	if (dev < 0 || dev >= cfg.ndev) {
		snprintf(buf, n, "unknown device");
	} else if (s->gone) {
		snprintf(buf, n, "'%s' was removed", nm(dev));
	} else if (s->busy >= 0) {
		snprintf(buf, n, "the %s callback of '%s' is still running",
			 pm_phase_name(s->busy), nm(dev));
	} else if (!(s->ran & (1u << PH_SUSPEND)) && suspend_failed &&
		   first_fail_dev >= 0) {
		int at = snprintf(buf, n,
				  "'%s' was never visited by the suspend walk: suspend stopped at '%s' (its %s returned %d), so nobody resumes it",
				  nm(dev), nm(first_fail_dev),
				  pm_phase_name(first_fail_phase), first_fail_err);
		const char *sep = "; its suspended children wait to resume: ";

		for (int k = child_start[dev]; k < child_start[dev + 1]; k++) {
			int c = child_list[k];

			if (st[c].gone || !st[c].lvl || at < 0 || (size_t)at >= n)
				continue;
			at += snprintf(buf + at, n - (size_t)at, "%s'%s'", sep, nm(c));
			sep = ", ";
		}
	} else if (phase_active >= 0) {
		snprintf(buf, n, "no task is running the %s callback of '%s'",
			 pm_phase_name(phase_active), nm(dev));
	} else {
		snprintf(buf, n, "no phase is in progress");
	}
}
