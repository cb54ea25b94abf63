// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenario's drivers and middle layers: each device's dev_pm_ops.
 *
 * A device has at most one middle layer (enum dpmk_level: its power
 * domain, type, class or bus, or a bus with the legacy suspend/resume
 * pair) and, unless DPMK_DEV_NO_DRIVER, a driver.  level_phases and
 * driver_phases say which phases each has a callback for; a phase's
 * callback exists in every transition's form (suspend, freeze and
 * poweroff for PH_SUSPEND; resume, thaw and restore for PH_RESUME; the
 * late/early/noirq forms alike), so main.c's own lookup order (domain,
 * type, class, bus, legacy bus, then the driver where the middle layer
 * has none) picks which one runs.  A middle layer's callback does the
 * device's work itself; it does not call the driver's.
 *
 * Every callback: a scheduling point, EV_CB_START with the scenario
 * index and the phase, dur_us of virtual time, the side actions
 * (a late callback of a DPMK_DEV_WAKEUP_PATH_LATE device:
 * device_set_wakeup_path())
 * (unregister the subtree at remove_target; register the DPMK_DEV_LATE
 * child add_target), device_pm_wait_for_dev() on pm_wait_for where
 * pm_wait_applies() (EV_PM_WAIT with what it returned), EV_CB_END with
 * what the callback returns, a scheduling point.
 * It returns err[phase] (or the wait's error); prepare returns 1 with
 * DPMK_DEV_PREPARE_POS when err is 0.  Once device_del() has started on
 * its device, a callback does nothing and returns 0: a driver does no
 * more PM work for a device that is going away.  A middle layer's late,
 * early and noirq callbacks do nothing for a device main.c would let
 * skip the driver's (see level_skips()).
 */
#include "rt.h"

struct dpmk_dev *dpmk_dev_add_late(int idx);

static void side_actions(struct dpmk_dev *d, int phase)
{
	const struct dpmk_device *sd = d->sd;

	if (sd->remove_phase == phase &&
	    !__atomic_exchange_n(&d->remove_done, 1, __ATOMIC_RELAXED)) {
		struct dpmk_dev *t = dpmk_dev_get(sd->remove_target);

		if (t) {
			dpmk_log("'%s' %s: unregisters '%s'", d->name,
				 pm_phase_name(phase), t->name);
			dpmk_unregister_subtree(t, false);
			put_device(&t->dev);
		}
	}
	if (sd->add_phase == phase &&
	    !__atomic_exchange_n(&d->add_done, 1, __ATOMIC_RELAXED)) {
		struct dpmk_dev *c = dpmk_dev_add_late(sd->add_target);

		if (c) {
			dpmk_log("'%s' %s: registered '%s'", d->name,
				 pm_phase_name(phase), c->name);
			put_device(&c->dev);
		}
	}
}

static int pm_wait(struct dpmk_dev *d, int phase)
{
	int t = d->sd->pm_wait_for, err = 0;
	struct dpmk_dev *other;

	if (t < 0)
		return 0;
	/* The driver knows the other device and holds a reference to it.
	 * It waits for one later in dpm_list's order (which links change)
	 * on suspend, an earlier one on resume, so waits never cycle. */
	other = dpmk_dev_get(t);
	if (other) {
		if (pm_wait_applies(d->list_pos, other->list_pos, phase)) {
			err = device_pm_wait_for_dev(&d->dev, &other->dev);
			dpmk_emit(EV_PM_WAIT, d->idx, phase, err, other->idx, 0, NULL);
		}
		put_device(&other->dev);
	}
	return err;
}

/*
 * A middle layer that lets main.c skip the driver (smart suspend,
 * may-skip-resume) honours the same decision in its own late/noirq
 * callbacks, as the PCI bus and the ACPI PM domain do: it does nothing
 * for a device dev_pm_skip_suspend() or dev_pm_skip_resume() says stays
 * suspended.  Before the 5.8 rework the questions had other names
 * (dev_pm_smart_suspend_and_suspended(), dev_pm_may_skip_resume()), and
 * the middle layers asked the resume one in their noirq callback only:
 * main.c itself then made the early and resume phases pass the device
 * over (a device whose suspend aborted before its noirq suspend gets its
 * early callback in full).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 8, 0)
#define dev_pm_skip_suspend	dev_pm_smart_suspend_and_suspended
#define dev_pm_skip_resume	dev_pm_may_skip_resume
#define LEVEL_SKIPS_EARLY	false
#else
#define LEVEL_SKIPS_EARLY	true
#endif
static bool level_skips(struct device *dev, int phase)
{
	switch (phase) {
	case PH_SUSPEND_LATE:
	case PH_SUSPEND_NOIRQ:
		return dev_pm_skip_suspend(dev);
	case PH_RESUME_NOIRQ:
		return dev_pm_skip_resume(dev);
	case PH_RESUME_EARLY:
		return LEVEL_SKIPS_EARLY && dev_pm_skip_resume(dev);
	default:
		return false;
	}
}

/* from: EV_CB_FROM_LAYER, _DRIVER or _LOWER (a middle layer under the
 * device's first one: main.c's lookup never reaches it). */
static int dpmk_callback_from(struct device *dev, int phase, int from, int *ret)
{
	bool level = from != EV_CB_FROM_DRIVER;
	long long facts;
	struct dpmk_dev *d = to_dpmk(dev);
	const struct dpmk_device *sd = d->sd;
	int err;

	dpmk_main_lock_rule(d->idx, level ? "calls the middle layer's callback" :
			    "calls the driver's callback", 0);
	dpmk_host_sched_point();
	if (level && level_skips(dev, phase)) {
		d->asked_inst = __atomic_load_n(&dpmk_run.phase_inst, __ATOMIC_RELAXED);
		*ret = 0;
		return 0;
	}
	facts = dpmk_dev_facts(dev);
	/* Checked and published as one step, against device_del(). */
	spin_lock(&d->ev_lock);
	if (__atomic_load_n(&d->dead, __ATOMIC_ACQUIRE)) {
		spin_unlock(&d->ev_lock);
		*ret = 0;
		return 0;
	}
	d->ran_inst = __atomic_load_n(&dpmk_run.phase_inst, __ATOMIC_RELAXED);
	/* What main.c left in dev_pm_info for the oracle (its WAKEUP). */
	dpmk_emit(EV_CB_START, d->idx, phase, 0, facts, from, NULL);
	spin_unlock(&d->ev_lock);
	if (sd->dur_us[phase])
		dpmk_host_delay_us(sd->dur_us[phase]);
	side_actions(d, phase);
	/* A wake-up path only its late callback knows of (a PM domain's
	 * users' wake-up settings, say). */
	if (phase == PH_SUSPEND_LATE && sd->flags & DPMK_DEV_WAKEUP_PATH_LATE)
		device_set_wakeup_path(dev);
	err = sd->err[phase];
	if (!err)
		err = pm_wait(d, phase);
	if (phase == PH_COMPLETE)
		err = 0;
	*ret = err;
	if (phase == PH_PREPARE && !err && sd->flags & DPMK_DEV_PREPARE_POS)
		*ret = 1;
	dpmk_callback_ended(d, phase, err);
	dpmk_emit(EV_CB_END, d->idx, phase, err, *ret, 0, NULL);
	dpmk_host_sched_point();
	return *ret;
}

/* One callback of a phase as found in one place (EV_CB_FROM_*): the
 * device's first middle layer (lvl_), its driver (drv_), or a middle
 * layer under the first one (low_). */
#define DPMK_CB_FROM(place, name, phase, from)				\
	static int place##_##name(struct device *dev)			\
	{								\
		int r;							\
		return dpmk_callback_from(dev, phase, from, &r);	\
	}
#define DPMK_CB(name, phase)						\
	DPMK_CB_FROM(lvl, name, phase, EV_CB_FROM_LAYER)		\
	DPMK_CB_FROM(drv, name, phase, EV_CB_FROM_DRIVER)		\
	DPMK_CB_FROM(low, name, phase, EV_CB_FROM_LOWER)

DPMK_CB(prepare, PH_PREPARE)
DPMK_CB(suspend, PH_SUSPEND)
DPMK_CB(freeze, PH_SUSPEND)
DPMK_CB(poweroff, PH_SUSPEND)
DPMK_CB(suspend_late, PH_SUSPEND_LATE)
DPMK_CB(freeze_late, PH_SUSPEND_LATE)
DPMK_CB(poweroff_late, PH_SUSPEND_LATE)
DPMK_CB(suspend_noirq, PH_SUSPEND_NOIRQ)
DPMK_CB(freeze_noirq, PH_SUSPEND_NOIRQ)
DPMK_CB(poweroff_noirq, PH_SUSPEND_NOIRQ)
DPMK_CB(resume_noirq, PH_RESUME_NOIRQ)
DPMK_CB(thaw_noirq, PH_RESUME_NOIRQ)
DPMK_CB(restore_noirq, PH_RESUME_NOIRQ)
DPMK_CB(resume_early, PH_RESUME_EARLY)
DPMK_CB(thaw_early, PH_RESUME_EARLY)
DPMK_CB(restore_early, PH_RESUME_EARLY)
DPMK_CB(resume, PH_RESUME)
DPMK_CB(thaw, PH_RESUME)
DPMK_CB(restore, PH_RESUME)

/* complete returns nothing. */
#define DPMK_COMPLETE_FROM(place, from)					\
	static void place##_complete(struct device *dev)		\
	{								\
		int r;							\
		dpmk_callback_from(dev, PH_COMPLETE, from, &r);		\
	}
DPMK_COMPLETE_FROM(lvl, EV_CB_FROM_LAYER)
DPMK_COMPLETE_FROM(drv, EV_CB_FROM_DRIVER)
DPMK_COMPLETE_FROM(low, EV_CB_FROM_LOWER)

/* The legacy bus pair, used by main.c when the bus has no dev_pm_ops
 * (legacy_bus_); under a class (dpmk_ops_init()) it is never called
 * (low_legacy_). */
#define DPMK_LEGACY_FROM(place, from)					\
	static int place##_suspend(struct device *dev, pm_message_t state) \
	{								\
		int r;							\
		return dpmk_callback_from(dev, PH_SUSPEND, from, &r);	\
	}								\
	static int place##_resume(struct device *dev)			\
	{								\
		int r;							\
		return dpmk_callback_from(dev, PH_RESUME, from, &r);	\
	}
DPMK_LEGACY_FROM(legacy_bus, EV_CB_FROM_LAYER)
DPMK_LEGACY_FROM(low_legacy, EV_CB_FROM_LOWER)

#define SYM(fn)	{ (const void *)fn, #fn }
static const struct {
	const void *fn;
	const char *name;
} symbols[] = {
	SYM(lvl_prepare), SYM(lvl_suspend), SYM(lvl_freeze), SYM(lvl_poweroff),
	SYM(lvl_suspend_late), SYM(lvl_freeze_late), SYM(lvl_poweroff_late),
	SYM(lvl_suspend_noirq), SYM(lvl_freeze_noirq), SYM(lvl_poweroff_noirq),
	SYM(lvl_resume_noirq), SYM(lvl_thaw_noirq), SYM(lvl_restore_noirq),
	SYM(lvl_resume_early), SYM(lvl_thaw_early), SYM(lvl_restore_early),
	SYM(lvl_resume), SYM(lvl_thaw), SYM(lvl_restore), SYM(lvl_complete),
	SYM(drv_prepare), SYM(drv_suspend), SYM(drv_freeze), SYM(drv_poweroff),
	SYM(drv_suspend_late), SYM(drv_freeze_late), SYM(drv_poweroff_late),
	SYM(drv_suspend_noirq), SYM(drv_freeze_noirq), SYM(drv_poweroff_noirq),
	SYM(drv_resume_noirq), SYM(drv_thaw_noirq), SYM(drv_restore_noirq),
	SYM(drv_resume_early), SYM(drv_thaw_early), SYM(drv_restore_early),
	SYM(drv_resume), SYM(drv_thaw), SYM(drv_restore), SYM(drv_complete),
	SYM(legacy_bus_suspend), SYM(legacy_bus_resume),
	SYM(low_prepare), SYM(low_suspend), SYM(low_freeze), SYM(low_poweroff),
	SYM(low_suspend_late), SYM(low_freeze_late), SYM(low_poweroff_late),
	SYM(low_suspend_noirq), SYM(low_freeze_noirq), SYM(low_poweroff_noirq),
	SYM(low_resume_noirq), SYM(low_thaw_noirq), SYM(low_restore_noirq),
	SYM(low_resume_early), SYM(low_thaw_early), SYM(low_restore_early),
	SYM(low_resume), SYM(low_thaw), SYM(low_restore), SYM(low_complete),
	SYM(low_legacy_suspend), SYM(low_legacy_resume),
};

/* Every callback of every transition, each one main.c must never call:
 * the middle layers under a device's first one (dpmk_ops_init()). */
static void fill_lower(struct dev_pm_ops *o)
{
	memset(o, 0, sizeof(*o));
	o->prepare = low_prepare;
	o->suspend = low_suspend;
	o->freeze = low_freeze;
	o->poweroff = low_poweroff;
	o->suspend_late = low_suspend_late;
	o->freeze_late = low_freeze_late;
	o->poweroff_late = low_poweroff_late;
	o->suspend_noirq = low_suspend_noirq;
	o->freeze_noirq = low_freeze_noirq;
	o->poweroff_noirq = low_poweroff_noirq;
	o->resume_noirq = low_resume_noirq;
	o->thaw_noirq = low_thaw_noirq;
	o->restore_noirq = low_restore_noirq;
	o->resume_early = low_resume_early;
	o->thaw_early = low_thaw_early;
	o->restore_early = low_restore_early;
	o->resume = low_resume;
	o->thaw = low_thaw;
	o->restore = low_restore;
	o->complete = low_complete;
}

/* %ps in a kernel message: the name of one of these, else NULL. */
const char *dpmk_symbol(const void *fn)
{
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++)
		if (symbols[i].fn == fn)
			return symbols[i].name;
	return NULL;
}

static void fill_level(struct dev_pm_ops *o, unsigned int phases)
{
	memset(o, 0, sizeof(*o));
	if (phases & 1u << PH_PREPARE)
		o->prepare = lvl_prepare;
	if (phases & 1u << PH_SUSPEND) {
		o->suspend = lvl_suspend;
		o->freeze = lvl_freeze;
		o->poweroff = lvl_poweroff;
	}
	if (phases & 1u << PH_SUSPEND_LATE) {
		o->suspend_late = lvl_suspend_late;
		o->freeze_late = lvl_freeze_late;
		o->poweroff_late = lvl_poweroff_late;
	}
	if (phases & 1u << PH_SUSPEND_NOIRQ) {
		o->suspend_noirq = lvl_suspend_noirq;
		o->freeze_noirq = lvl_freeze_noirq;
		o->poweroff_noirq = lvl_poweroff_noirq;
	}
	if (phases & 1u << PH_RESUME_NOIRQ) {
		o->resume_noirq = lvl_resume_noirq;
		o->thaw_noirq = lvl_thaw_noirq;
		o->restore_noirq = lvl_restore_noirq;
	}
	if (phases & 1u << PH_RESUME_EARLY) {
		o->resume_early = lvl_resume_early;
		o->thaw_early = lvl_thaw_early;
		o->restore_early = lvl_restore_early;
	}
	if (phases & 1u << PH_RESUME) {
		o->resume = lvl_resume;
		o->thaw = lvl_thaw;
		o->restore = lvl_restore;
	}
	if (phases & 1u << PH_COMPLETE)
		o->complete = lvl_complete;
}

static void fill_driver(struct dev_pm_ops *o, unsigned int phases)
{
	memset(o, 0, sizeof(*o));
	if (phases & 1u << PH_PREPARE)
		o->prepare = drv_prepare;
	if (phases & 1u << PH_SUSPEND) {
		o->suspend = drv_suspend;
		o->freeze = drv_freeze;
		o->poweroff = drv_poweroff;
	}
	if (phases & 1u << PH_SUSPEND_LATE) {
		o->suspend_late = drv_suspend_late;
		o->freeze_late = drv_freeze_late;
		o->poweroff_late = drv_poweroff_late;
	}
	if (phases & 1u << PH_SUSPEND_NOIRQ) {
		o->suspend_noirq = drv_suspend_noirq;
		o->freeze_noirq = drv_freeze_noirq;
		o->poweroff_noirq = drv_poweroff_noirq;
	}
	if (phases & 1u << PH_RESUME_NOIRQ) {
		o->resume_noirq = drv_resume_noirq;
		o->thaw_noirq = drv_thaw_noirq;
		o->restore_noirq = drv_restore_noirq;
	}
	if (phases & 1u << PH_RESUME_EARLY) {
		o->resume_early = drv_resume_early;
		o->thaw_early = drv_thaw_early;
		o->restore_early = drv_restore_early;
	}
	if (phases & 1u << PH_RESUME) {
		o->resume = drv_resume;
		o->thaw = drv_thaw;
		o->restore = drv_restore;
	}
	if (phases & 1u << PH_COMPLETE)
		o->complete = drv_complete;
}

void dpmk_dev_release(struct device *dev);

/* Build the device's bus, middle layer and driver from the scenario. */
void dpmk_ops_init(struct dpmk_dev *d)
{
	const struct dpmk_device *sd = d->sd;
	struct device *dev = &d->dev;

	fill_level(&d->level_ops, sd->level_phases);
	fill_driver(&d->drv_ops, sd->driver_phases);
	d->bus.name = "dpmk";
	/* A device with no driver and no middle layer but maybe a class is
	 * on no bus, as class devices are (main.c tests dev->bus before it
	 * reads the bus's callbacks). */
	if (!(sd->flags & DPMK_DEV_NO_DRIVER &&
	      (sd->level == DPMK_LVL_NONE || sd->level == DPMK_LVL_CLASS)))
		dev->bus = &d->bus;
	switch (sd->level) {
	case DPMK_LVL_DOMAIN:
		d->domain.ops = d->level_ops;
		dev->pm_domain = &d->domain;
		break;
	case DPMK_LVL_TYPE:
		d->type.name = "dpmk-type";
		d->type.pm = &d->level_ops;
		d->type.release = dpmk_dev_release;
		dev->type = &d->type;
		break;
	case DPMK_LVL_CLASS:
		d->cls.name = "dpmk-class";
		d->cls.pm = &d->level_ops;
		d->cls.dev_release = dpmk_dev_release;
		dev->class = &d->cls;
		break;
	case DPMK_LVL_BUS:
		d->bus.pm = &d->level_ops;
		break;
	case DPMK_LVL_LEGACY_BUS:
		if (sd->level_phases & 1u << PH_SUSPEND)
			d->bus.suspend = legacy_bus_suspend;
		if (sd->level_phases & 1u << PH_RESUME)
			d->bus.resume = legacy_bus_resume;
		break;
	default:
		break;
	}
	/* Under a PM domain, a type or a class that has callbacks, every
	 * lower middle layer too, with callbacks main.c must never call
	 * (CALLBACK: the lookup takes the first layer the device has, and
	 * the driver where that one lacks the phase).  Not under an empty
	 * one: device_pm_check_callbacks() would no longer find the device
	 * without callbacks. */
	if (sd->level_phases && (sd->level == DPMK_LVL_DOMAIN ||
				 sd->level == DPMK_LVL_TYPE || sd->level == DPMK_LVL_CLASS)) {
		fill_lower(&d->lower_ops);
		if (sd->level == DPMK_LVL_DOMAIN) {
			d->type.name = "dpmk-type";
			d->type.pm = &d->lower_ops;
			dev->type = &d->type;
		}
		if (sd->level != DPMK_LVL_CLASS) {
			d->cls.name = "dpmk-class";
			d->cls.pm = &d->lower_ops;
			dev->class = &d->cls;
		}
		/* Under a class a legacy bus: main.c's bus test falls
		 * through to the class's when the bus has dev_pm_ops, but
		 * calls a legacy bus's at once. */
		if (dev->bus && sd->level == DPMK_LVL_CLASS) {
			d->bus.suspend = low_legacy_suspend;
			d->bus.resume = low_legacy_resume;
		} else if (dev->bus) {
			d->bus.pm = &d->lower_ops;
		}
	}
	/* The release main.c's core would find first: the device's own,
	 * unless the type or class provides it. */
	if (sd->level != DPMK_LVL_TYPE && sd->level != DPMK_LVL_CLASS)
		dev->release = dpmk_dev_release;
	d->drv.name = "dpmk-drv";
	d->drv.bus = &d->bus;
	d->drv.pm = &d->drv_ops;
}

/* The callback of ops for phase p (its suspend/resume form: the scenario
 * gives every transition's form together). */
static bool ops_has(const struct dev_pm_ops *o, int p)
{
	switch (p) {
	case PH_PREPARE:	return o->prepare;
	case PH_SUSPEND:	return o->suspend;
	case PH_SUSPEND_LATE:	return o->suspend_late;
	case PH_SUSPEND_NOIRQ:	return o->suspend_noirq;
	case PH_RESUME_NOIRQ:	return o->resume_noirq;
	case PH_RESUME_EARLY:	return o->resume_early;
	case PH_RESUME:		return o->resume;
	case PH_COMPLETE:	return o->complete;
	default:		return false;
	}
}

bool dpmk_has_callback(struct dpmk_dev *d, int p)
{
	struct device *dev = &d->dev;
	const struct dev_pm_ops *mid = NULL;
	struct device_driver *drv;

	if (dev->pm_domain)
		mid = &dev->pm_domain->ops;
	else if (dev->type && dev->type->pm)
		mid = dev->type->pm;
	else if (dev->class && dev->class->pm)
		mid = dev->class->pm;
	else if (dev->bus && dev->bus->pm)
		mid = dev->bus->pm;
	else if (dev->bus && ((p == PH_SUSPEND && dev->bus->suspend) ||
			      (p == PH_RESUME && dev->bus->resume)))
		return true;
	if (mid && ops_has(mid, p))
		return true;
	drv = READ_ONCE(dev->driver);
	return drv && drv->pm && ops_has(drv->pm, p);
}
