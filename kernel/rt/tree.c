// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree's entry: struct dpmk_tree (kernel/kabi.h), the one symbol the
 * tree's object exports, named dpmk_tree_<tag> by the build.
 */
#include <linux/pm_wakeup.h>

#include "rt.h"

#define CAT_(a, b)	a##b
#define CAT(a, b)	CAT_(a, b)

struct dpmk_run dpmk_run;

unsigned long dpmk_state_size(void);
void dpmk_dev_release(struct device *dev);

/* ---- checking a scenario ---- */

static bool is_descendant(const struct dpmk_scenario *s, int d, int of)
{
	for (int p = s->dev[d].parent; p >= 0; p = s->dev[p].parent)
		if (p == of)
			return true;
	return false;
}

static bool side_phase_ok(int p)
{
	/* The phases in which main.c holds the device lock around the
	 * callback and other tasks may run: a driver may (un)register a
	 * child there.  In the late and noirq phases it may not. */
	return p == -1 || p == PH_PREPARE || p == PH_SUSPEND || p == PH_RESUME ||
	       p == PH_COMPLETE;
}

static int check_scenario(const struct dpmk_scenario *s)
{
	if (s->ndev < 0 || (s->ndev && !s->dev) || s->nlinks < 0 ||
	    (s->nlinks && !s->link) ||
	    (unsigned)s->transition >= DPMK_NR_TRANSITIONS)
		return -EINVAL;
	for (int i = 0; i < s->ndev; i++) {
		const struct dpmk_device *d = &s->dev[i];

		if (!d->name || d->parent >= i || d->parent < -1 ||
		    (unsigned)d->level >= DPMK_NR_LEVELS ||
		    !side_phase_ok(d->remove_phase) || !side_phase_ok(d->add_phase))
			return -EINVAL;
		/* A driver that always asks to retry its prepare makes
		 * dpm_prepare() loop for ever: out of the drivers' contract. */
		if (d->err[PH_PREPARE] == -EAGAIN)
			return -EINVAL;
		if (d->remove_phase >= 0 &&
		    (d->remove_target < 0 || d->remove_target >= s->ndev ||
		     !is_descendant(s, d->remove_target, i)))
			return -EINVAL;
		if (d->add_phase >= 0 &&
		    (d->add_target < 0 || d->add_target >= s->ndev ||
		     s->dev[d->add_target].parent != i ||
		     !(s->dev[d->add_target].flags & DPMK_DEV_LATE)))
			return -EINVAL;
		if (d->pm_wait_for >= s->ndev || d->release_unregisters >= s->ndev)
			return -EINVAL;
		/* A late device's parent must be there to add it; a device
		 * registered at setup cannot have a late parent. */
		if (d->flags & DPMK_DEV_LATE ? d->parent < 0 :
		    d->parent >= 0 && s->dev[d->parent].flags & DPMK_DEV_LATE)
			return -EINVAL;
	}
	for (int i = 0; i < s->nlinks; i++)
		if (s->link[i].supplier < 0 || s->link[i].supplier >= s->ndev ||
		    s->link[i].consumer < 0 || s->link[i].consumer >= s->ndev)
			return -EINVAL;
	return 0;
}

/* ---- creating devices ---- */

static struct dpmk_dev *dev_create(int idx)
{
	const struct dpmk_device *sd = &dpmk_run.s->dev[idx];
	struct dpmk_dev *d = calloc(1, sizeof(*d));
	struct device *dev;

	if (!d)
		dpmk_host_bug("device: out of memory");
	dpmk_fp_note(idx, 0, d);
	d->idx = idx;
	d->sd = sd;
	dpmk_snprintf(d->name, sizeof(d->name), "%s", sd->name);
	dev = &d->dev;
	dev->kobj.name = d->name;
	dev->id = idx;
	init_completion(&d->removed);
	mutex_init(&d->sysfs_active);
	spin_lock_init(&d->ev_lock);
	d->creator_ref = true;
	dpmk_ops_init(d);
	device_initialize(dev);
	if (sd->parent >= 0)
		dev->parent = &dpmk_dev_peek(sd->parent)->dev;
	/* What the bus and the driver do before and at registration. */
	pm_runtime_no_callbacks(dev);
	if (sd->flags & DPMK_DEV_NO_PM)
		device_set_pm_not_required(dev);
	if (sd->flags & DPMK_DEV_SYSCORE)
		dev_pm_syscore_device(dev, true);
	if (sd->flags & DPMK_DEV_ASYNC)
		device_enable_async_suspend(dev);
	if (sd->flags & DPMK_DEV_IGNORE_CHILDREN)
		pm_suspend_ignore_children(dev, true);
	if (sd->flags & DPMK_DEV_WAKEUP)
		device_init_wakeup(dev, true);
	/* A late device is published once registered (dpmk_dev_add_late()):
	 * other tasks find it as they would on a bus's list, complete. */
	if (!(sd->flags & DPMK_DEV_LATE))
		dpmk_dev_publish(d);
	return d;
}

/* Runtime PM as the driver leaves it after probe: active and enabled, or
 * (DPMK_DEV_RPM_SUSPENDED) enabled in the suspended state it starts in. */
static void dev_runtime_pm(struct dpmk_dev *d)
{
	if (!(d->sd->flags & DPMK_DEV_RPM_SUSPENDED))
		pm_runtime_set_active(&d->dev);
	pm_runtime_enable(&d->dev);
}

/* dpm_list's order, as main.c keeps it (links reorder it), for the
 * oracle's list-order rule: EV_LIST_POS for every device on it.  Only
 * between transitions: during one, devices are on the phase lists. */
static void list_pos(struct device *dev, void *data)
{
	int *pos = data;
	struct dpmk_dev *d = container_of(dev, struct dpmk_dev, dev);
	struct dpm_event ev = { EV_LIST_POS, d->idx, -1, 0, *pos, 0, NULL };

	d->list_pos = (*pos)++;
	dpm_publish(&ev);
}

/* The next place at dpm_list's tail, for a device registered now. */
static int list_tail_pos;

/* Under dpm_list_mtx (dpm_for_each_dev()): the devices registered since
 * they were last numbered, in dpm_list's order. */
static void late_pos(struct device *dev, void *data)
{
	struct dpmk_dev *d = container_of(dev, struct dpmk_dev, dev);

	(void)data;
	if (!d->pos_pending)
		return;
	d->pos_pending = false;
	d->list_pos = __atomic_fetch_add(&list_tail_pos, 1, __ATOMIC_RELAXED);
	struct dpm_event ev = { EV_LIST_POS, d->idx, -1, 0, d->list_pos, 0, NULL };

	dpm_publish(&ev);
}

static void rpm_state(struct device *dev, void *data)
{
	long long depth;
	bool suspended;

	/* dpm_for_each_dev() calls its function holding dpm_list_mtx. */
	dpmk_main_lock_rule(to_dpmk(dev)->idx, "calls dpm_for_each_dev()'s function", 1);
	spin_lock_irq(&dev->power.lock);
	depth = dev->power.disable_depth;
	suspended = dev->power.runtime_status == RPM_SUSPENDED;
	spin_unlock_irq(&dev->power.lock);
	dpmk_emit(EV_RPM_STATE, to_dpmk(dev)->idx, -1, *(int *)data, depth, suspended, NULL);
}

/* Every listed device's runtime PM, as the transition starts (0) and
 * ends (1): the oracle's RUNTIME-PM. */
void dpmk_publish_rpm(int end)
{
	dpm_for_each_dev(&end, rpm_state);
}

void dpmk_publish_list_order(void)
{
	int pos = 0;

	dpm_for_each_dev(&pos, list_pos);
	list_tail_pos = pos;
}

/* A DPMK_DEV_LATE device, registered by its parent's callback; a
 * reference for the caller, or NULL if the parent is gone. */
struct dpmk_dev *dpmk_dev_add_late(int idx)
{
	const struct dpmk_device *sd = &dpmk_run.s->dev[idx];
	struct dpmk_dev *parent = dpmk_dev_get(sd->parent);
	struct dpmk_dev *d;

	if (!parent)
		return NULL;
	if (dpmk_dev_peek(idx) || __atomic_load_n(&parent->dead, __ATOMIC_ACQUIRE)) {
		put_device(&parent->dev);
		return NULL;
	}
	d = dev_create(idx);
	get_device(&d->dev);
	d->pos_pending = true;
	device_add(&d->dev);
	dev_runtime_pm(d);
	dpmk_dev_publish(d);
	/*
	 * A removal of the parent's subtree that has already looked at its
	 * children takes the new one too: the adder removes it, before
	 * anything walks its ancestors (the parent's own parent may be gone
	 * once the parent is deleted), as a driver's remove() unregisters the
	 * children its driver made.  closing is set before that removal looks,
	 * and read after device_add() put the child on the klist: one of the
	 * two sees the other.
	 */
	bool orphan = __atomic_load_n(&parent->closing, __ATOMIC_SEQ_CST);

	if (!d->probe_deferred && !orphan)
		dpmk_links_add_for(idx);
	dpm_emit(EV_ADDED, idx, -1, 0);
	/* device_add() put it at dpm_list's tail; devices registered at the
	 * same time on other threads take their places in the list's order,
	 * under dpm_list_mtx, whoever gets there first. */
	dpm_for_each_dev(NULL, late_pos);
	/* Not on dpm_list (a device that needs no PM): a place all the same,
	 * after every device on it. */
	if (d->pos_pending)
		late_pos(&d->dev, NULL);
	if (orphan) {
		dpmk_log("'%s' registered under '%s', whose removal is under way: removed with it",
			 d->name, parent->name);
		dpmk_unregister_subtree(d, false);
	}
	put_device(&parent->dev);
	return d;
}

/* ---- the entry points ---- */

static int tree_setup(const struct dpmk_scenario *s)
{
	int err = check_scenario(s);

	if (err)
		return err;
	dpmk_state_restore();
	memset(&dpmk_run, 0, sizeof(dpmk_run));
	dpmk_run.s = s;
	dpmk_run.ndev = s->ndev;
	dpmk_run.cycle = -1;
	dpmk_run.dev = calloc(s->ndev ? s->ndev : 1, sizeof(*dpmk_run.dev));
	if (!dpmk_run.dev)
		dpmk_host_bug("setup: out of memory");
	dpmk_fp_note_array(2, dpmk_run.dev, sizeof(*dpmk_run.dev));
	init_completion(&dpmk_run.workers_done);
	(complete_all)(&dpmk_run.workers_done);
	dpmk_spin_real = dpmk_host_concurrent();
	dpmk_log_on = dpmk_host_log_enabled();
	dpmk_misc_reset();
	/* main.c's dpm_list_mtx (static there): what device_pm_lock() takes. */
	dpmk_run.list_mtx = dpmk_host_mutex_taken_by(device_pm_lock);
	if (dpmk_run.list_mtx)
		mutex_unlock(dpmk_run.list_mtx);
	dpmk_events_reset();
	dpmk_wakeup_reset();
	dpmk_links_reset();
	dpmk_core_reset();
	dpmk_log("kernel %s: %d devices, main.c state %lu bytes restored",
		 DPMK_VERSION, s->ndev, dpmk_state_size());
	for (int i = 0; i < s->ndev; i++) {
		struct dpmk_dev *d;

		if (s->dev[i].flags & DPMK_DEV_LATE)
			continue;
		d = dev_create(i);
		device_add(&d->dev);
		dev_runtime_pm(d);
	}
	dpmk_links_add_for(-1);
	return 0;
}

static int tree_cycle(int n)
{
	/* Between transitions every device is on dpm_list, in the order the
	 * next one walks it (late devices and links have moved some). */
	int err;

	dpmk_publish_list_order();
	dpmk_queue_resume_requests();
	dpmk_publish_rpm(0);
	err = dpmk_cycle(n);
	dpmk_publish_rpm(1);
	return err;
}

static void tree_unregister(int idx, int unfrozen)
{
	struct dpmk_dev *d = dpmk_dev_get(idx);

	if (!d)
		return;
	if (d->added && !__atomic_load_n(&d->removal_claimed, __ATOMIC_ACQUIRE)) {
		dpmk_log("hotplug%s: unregistering '%s' and its children",
			 unfrozen ? " (not frozen)" : "", d->name);
		dpmk_unregister_subtree(d, unfrozen);
	}
	put_device(&d->dev);
}

/* sysfs_streq(): equal, but for one trailing newline on either side. */
static bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	if (*s1 == '\n' && !s1[1] && !*s2)
		return true;
	return false;
}

/* drivers/base/power/sysfs.c: async_store() on power/async. */
static long tree_async_store(int idx, const char *buf, unsigned long n)
{
	struct dpmk_dev *d = dpmk_dev_get(idx);
	char word[64];
	long ret;

	if (!d)
		return -ENODEV;
	if (n >= sizeof(word))
		n = sizeof(word) - 1;
	memcpy(word, buf, n);
	word[n] = '\0';
	mutex_lock(&d->sysfs_active);
	if (d->sysfs_gone || d->dev.power.no_pm) {
		ret = -ENODEV;	/* no power/ directory (any more) */
	} else if (sysfs_streq(word, "enabled")) {
		device_enable_async_suspend(&d->dev);
		ret = n;
	} else if (sysfs_streq(word, "disabled")) {
		device_disable_async_suspend(&d->dev);
		ret = n;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&d->sysfs_active);
	put_device(&d->dev);
	return ret;
}

static void tree_abandon(void)
{
	dpmk_fp_reset(0);
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_run.dev[i];

		if (!d)
			continue;
		free(d->dev.power.wakeup);
		free(d->dev.p);
		free(d);
		dpmk_run.dev[i] = NULL;
	}
	dpmk_quarantine_free();
	dpmk_links_abandon();
	dpmk_workers_abandon();
	free(dpmk_run.dev);
	dpmk_run.dev = NULL;
	dpmk_run.ndev = 0;
}

static void tree_teardown(void)
{
	dpmk_workers_wait();
	int *kids = dpmk_children_counts();

	if (!kids)
		dpmk_host_bug("teardown: out of memory");
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_run.dev[i];

		if (!d || !d->added || __atomic_load_n(&d->dead, __ATOMIC_ACQUIRE))
			continue;
		/* A transition leaves runtime PM as it found it (enabled). */
		if (d->dev.power.disable_depth)
			dev_warn(&d->dev, "runtime PM left disabled (depth %u) after the run\n",
				 d->dev.power.disable_depth);
		dpmk_emit(EV_REFS, i, -1, 0, kref_read(&d->dev.kobj.kref),
			  dpmk_refs_expected(d, kids[i]), NULL);
	}
	free(kids);
	dpmk_run.teardown = true;
	for (int i = dpmk_run.ndev - 1; i >= 0; i--) {
		struct dpmk_dev *d = dpmk_dev_get(i);

		if (!d)
			continue;
		if (d->added && !__atomic_load_n(&d->removal_claimed, __ATOMIC_ACQUIRE))
			dpmk_unregister_subtree(d, false);
		put_device(&d->dev);
	}
	dpmk_workers_wait();
	dpmk_emit(EV_TEARDOWN_DONE, -1, -1, 0, 0, 0, NULL);
	/* Whatever a reference leak kept (the oracle has seen it): free. */
	tree_abandon();
}

static int tree_describe(const void *obj, char *buf, unsigned long n)
{
	const char *what = dpmk_links_describe(obj);
	int idx;

	if (what)
		return dpmk_snprintf(buf, n, "%s", what);
	if (obj == &dpmk_run.window_closed)
		return dpmk_snprintf(buf, n, "the end of the late/noirq window (removals wait for it)");
	if (obj == &dpmk_run.workers_done)
		return dpmk_snprintf(buf, n, "the runtime's worker tasks (link and device releases)");
	if (dpmk_is_quarantined(obj, &idx))
		return dpmk_snprintf(buf, n, "memory of '%s', freed", dpmk_run.s->dev[idx].name);
	if (dpmk_state_owns(obj))
		return dpmk_snprintf(buf, n, "main.c's dpm_list_mtx");
	for (int i = 0; i < dpmk_run.ndev; i++) {
		struct dpmk_dev *d = dpmk_run.dev[i];

		if (!d)
			continue;
		if (obj == &d->dev.power.completion)
			return dpmk_snprintf(buf, n, "the power.completion of '%s'", d->name);
		if (obj == &d->dev.mutex)
			return dpmk_snprintf(buf, n, "the device lock of '%s'", d->name);
		if (obj == &d->removed)
			return dpmk_snprintf(buf, n, "the end of the removal of '%s'", d->name);
		if (obj == &d->sysfs_active)
			return dpmk_snprintf(buf, n, "the power/ sysfs directory of '%s'", d->name);
	}
	return 0;
}

/* Defined by tools/dpmmutate's schemata only (tools/mutate/schemata.py). */
extern const int dpmk_schemata_last __attribute__((weak));

const struct dpmk_tree CAT(dpmk_tree_, DPMK_TAG) = {
	.abi = DPMK_ABI_VERSION,
	.version = DPMK_VERSION,
	.main_c = DPMK_MAIN_C,
	.inline_jobs = DPMK_INLINE_JOBS,
	.async_early = DPMK_ASYNC_EARLY,
	.init_complete_once = DPMK_INIT_COMPLETE_ONCE,
	.schemata_last = &dpmk_schemata_last,
	.setup = tree_setup,
	.cycle = tree_cycle,
	.unregister = tree_unregister,
	.async_store = tree_async_store,
	.teardown = tree_teardown,
	.abandon = tree_abandon,
	.describe = tree_describe,
#ifdef DPMK_EXPLORE
	.locate = dpmk_footprint_locate,
#endif
};
