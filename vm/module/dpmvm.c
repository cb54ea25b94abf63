// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmvm: a device tree for system sleep tests, built from module
 * parameters, and a record of what the PM core did with it.  Every
 * callback of the system sleep path logs one line:
 *
 *   dpmvm: DEV PHASE begin cpu=C t=NS mr=M
 *   dpmvm: DEV PHASE end ret=R t=NS
 *
 * and the record (debugfs: dpmvm/events, one event a line, in the order
 * a global sequence number gives them) holds, for the module's devices:
 *   PB/PE    a phase function begins or ends (the suspend_resume
 *            tracepoint: dpm_prepare ... dpm_complete; a = its event)
 *   CS/CE    the module's callback starts (a: power.wakeup_path) / ends
 *            (err: the error it was asked for; a: what it returns)
 *   MS/ME    the PM core runs a callback of the device, or a device's
 *            prepare or complete step (empty info): the
 *            device_pm_callback_start/end tracepoints
 *   DN       the PM core completes power.completion (complete_all(): the
 *            end of a device's step in a phase); a: the bits
 *            is_suspended 1, is_late_suspended 2, is_noirq_suspended 4,
 *            direct_complete 8, must_resume 16, runtime-suspended 32;
 *            64: bit 128 says whether the device has a callback for
 *            the phase (its level's, its legacy bus's, its bound
 *            driver's)
 *   RM       the module is about to device_del() the device (remove=)
 *   GO       device_pm_remove(): off dpm_list
 *   LK       a link made: a = the supplier, b = its status
 *   UB       the device's driver is unbound (its remove callback): the
 *            driver core does it to a consumer and to a supplier whose
 *            supplier goes, and a supplier's managed links go DORMANT
 *   FR       the device's release ran
 *   AD       a late device was registered (device_add())
 *   WA       pm_wakeup_pending() said yes for the first time in the
 *            transition (a = K): main.c aborts on it
 *   HP, WK   the action act=N (a) starts: a removal, a wake-up
 *   TB/TE    user space wrote "begin K" / "end K" to debugfs dpmvm/mark
 *            (a = K): where a test's transition K begins and ends
 * Every event line: SEQ NS CPU PID KIND DEV PHASE ERR A B (DEV a name,
 * PHASE a number, -1 for none).
 * Parameters (each an array; items separated by commas):
 *   dev=NAME[:parent=P][:async][:nodrv][:syscore][:nopm][:msr][:ssusp]
 *       [:sprep][:ndc][:rpms][:wakeup][:lvl=MASK][:drv=MASK]
 *                               one per device, parents first.  rpms:
 *                               left runtime-suspended, and its prepare
 *                               returns 1 (direct_complete may keep it
 *                               so); wakeup: device_init_wakeup();
 *                               lvl=MASK: a middle layer (a PM domain of
 *                               its own) with the callbacks of the
 *                               phases whose bits are set (bit 0
 *                               prepare ... bit 7 complete, in hex);
 *                               late=PHASE: not registered at load: its
 *                               parent's callback of PHASE registers it
 *                               (AD), its links made at the end of
 *                               that transition;
 *                               drv=MASK: the driver's phases (default
 *                               ff: all); leg=MASK: on a legacy bus
 *                               whose suspend/resume methods are those
 *                               of the suspend and resume bits
 *   cb=NAME:PHASE:US            the callback takes US microseconds
 *   err=NAME:PHASE:ERRNO        the callback returns ERRNO (e.g. -5)
 *   link=SUPPLIER:CONSUMER[:FLAG[+FLAG]...]   device_link_add() with the
 *                               flags stateless, sso (SYNC_STATE_ONLY),
 *                               pmrt (PM_RUNTIME), rpma (RPM_ACTIVE);
 *                               none: stateless
 *   wait=NAME:OTHER             the callbacks call device_pm_wait_for_dev()
 *                               on OTHER: the suspend-side ones if OTHER
 *                               is later on dpm_list, the resume-side ones
 *                               if it is earlier (the order prepare took
 *                               them in), as dpmfuzz's harness does
 *   remove=NAME:PHASE:VICTIM    the callback device_del()s VICTIM's subtree
 *   act=unreg:VICTIM:K:ANCHOR:PHASE:US | unreg:VICTIM:K:end
 *       | wake:K:ANCHOR:PHASE:US
 *                               a concurrent action of transition K: a
 *                               hotplug removal of VICTIM's subtree, or a
 *                               wake-up event (pm_system_wakeup()), US
 *                               microseconds after ANCHOR's PHASE
 *                               callback of transition K starts (on a
 *                               worker of its own), or right after
 *                               transition K ends ("end")
 *   watchdog=SECONDS            (not a list) if a transition's "end K"
 *                               mark does not come SECONDS after its
 *                               "begin K", report a hang on the console:
 *                               DPMVM-HANG, the blocked tasks' stacks
 *                               (SysRq-w), the record as DPMVM-REC lines,
 *                               DPMVM-HANG-END.  0 (default): off
 *
 * msr/ssusp/sprep/ndc are DPM_FLAG_MAY_SKIP_RESUME, _SMART_SUSPEND,
 * _SMART_PREPARE, _NO_DIRECT_COMPLETE, set with dev_pm_set_driver_flags().
 *
 * Every device sits on the bus dpmvm (or, with leg=, on a legacy bus of
 * the same match); unless nodrv, a driver of its bus
 * with exactly the device's drv= phases binds it (one driver per set of
 * phases).  A phase's callback is there in every transition's form
 * (suspend, freeze, poweroff; resume, thaw, restore ...).  A middle
 * layer's late, early and noirq callbacks do nothing for a device the
 * PM core lets skip the driver's (smart-suspend and runtime-suspended;
 * on resume, not must_resume, or on thaw the same test as on freeze), as
 * the PCI bus and ACPI's PM domain do.  Runtime PM is enabled on every
 * device, without runtime callbacks, as dpmfuzz's harness has it; a PM
 * QoS resume latency of 0 keeps the runtime PM core from suspending a
 * device by itself (the harness never does), so a device's runtime
 * status changes only where the PM core or the driver core changes it.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/pm.h>
#include <linux/pm_runtime.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/version.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/sysrq.h>
#include <linux/printk.h>
#include <linux/uaccess.h>
#include <linux/pm_qos.h>
#include <linux/pm_wakeup.h>
#include <linux/suspend.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define MATCH_CONST const	/* bus_type.match() takes a const driver */
#else
#define MATCH_CONST
#endif

#define MAXDEV 64
#define NPH 8

enum { PREPARE, SUSPEND, SUSPEND_LATE, SUSPEND_NOIRQ,
       RESUME_NOIRQ, RESUME_EARLY, RESUME, COMPLETE };

static const char *const phase_name[NPH] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

struct vdev {
	struct device dev;
	char name[40];
	int parent;
	int idx;
	bool async, nodrv, syscore, nopm, rpms, wakeup;
	int added;		/* registered; cleared by whoever removes it */
	u32 dpm_flags;
	u8 lvl_mask, drv_mask;	/* the phases of its middle layer, driver */
	u8 leg;			/* a legacy bus's methods: BIT(SUSPEND), BIT(RESUME) */
	struct dev_pm_domain dom;	/* the middle layer, if lvl_mask */
	struct dev_pm_qos_request qos;
	unsigned int us[NPH];
	int err[NPH];
	int wait_for;		/* index of a device to wait for, or -1 */
	int list_pos;		/* its place in this transition's prepare */
	int late_ph;		/* late=: its parent's callback of this phase
				 * registers it; -1: registered at load */
	int late_done;
	int remove_ph, victim;	/* remove=: in that phase, device_del() */
};

static struct vdev *vdevs[MAXDEV];
static int nvdev;

static int register_dev(struct vdev *v);
static int runtime_setup(struct vdev *v);
static void make_links(void);

/* The record. */
struct rec {
	u64 seq, t;
	s64 a, b;
	int err;
	u32 cpu, pid;
	s16 dev;
	s8 phase;
	char kind[3];
};

#define NREC 65536
static struct rec *recs;
static unsigned int nrec;
static u64 rec_seq;
static DEFINE_SPINLOCK(rec_lock);
static int cur_phase = -1;
static int cur_event;		/* the phase's PM_EVENT_* (the tracepoint's) */
static int prepare_pos;		/* the next place dpm_prepare() gives */

static void record(const char *kind, int d, int ph, int err, s64 a, s64 b)
{
	unsigned long fl;
	struct rec *r;

	spin_lock_irqsave(&rec_lock, fl);
	if (recs && nrec < NREC) {
		r = &recs[nrec++];
		r->seq = ++rec_seq;
		r->t = ktime_get_ns();
		r->cpu = raw_smp_processor_id();
		r->pid = current->pid;
		r->dev = d;
		r->phase = ph;
		r->err = err;
		r->a = a;
		r->b = b;
		memcpy(r->kind, kind, 3);
	}
	spin_unlock_irqrestore(&rec_lock, fl);
}

static char *dev[MAXDEV];
static int ndev_arg;
module_param_array(dev, charp, &ndev_arg, 0444);
MODULE_PARM_DESC(dev, "NAME[:parent=P][:async][:nodrv][:syscore][:nopm][:msr][:ssusp][:sprep][:ndc][:rpms][:wakeup][:lvl=MASK][:drv=MASK]");

static char *cb[MAXDEV * NPH];
static int ncb_arg;
module_param_array(cb, charp, &ncb_arg, 0444);
MODULE_PARM_DESC(cb, "NAME:PHASE:US");

static char *err[MAXDEV];
static int nerr_arg;
module_param_array(err, charp, &nerr_arg, 0444);
MODULE_PARM_DESC(err, "NAME:PHASE:ERRNO");

static char *link[MAXDEV * 4];
static int nlink_arg;
module_param_array(link, charp, &nlink_arg, 0444);
MODULE_PARM_DESC(link, "SUPPLIER:CONSUMER[:FLAG[+FLAG]...] (stateless, sso, pmrt, rpma)");

static char *wait[MAXDEV];
static int nwait_arg;
module_param_array(wait, charp, &nwait_arg, 0444);
MODULE_PARM_DESC(wait, "NAME:PHASE:OTHER");

static char *remove[MAXDEV];
static int nremove_arg;
module_param_array(remove, charp, &nremove_arg, 0444);
MODULE_PARM_DESC(remove, "NAME:PHASE:VICTIM");

static char *act[MAXDEV];
static int nact_arg;
module_param_array(act, charp, &nact_arg, 0444);
MODULE_PARM_DESC(act, "unreg:VICTIM:K:ANCHOR:PHASE:US | unreg:VICTIM:K:end | wake:K:ANCHOR:PHASE:US");

static unsigned int watchdog;
module_param(watchdog, uint, 0444);
MODULE_PARM_DESC(watchdog, "seconds a transition may take before a hang report (0: off)");

static int find_dev(const char *name)
{
	int i;

	for (i = 0; i < nvdev; i++)
		if (!strcmp(vdevs[i]->name, name))
			return i;
	return -1;
}

static int find_phase(const char *name)
{
	int i;

	for (i = 0; i < NPH; i++)
		if (!strcmp(phase_name[i], name))
			return i;
	return -1;
}

static bool in_subtree(int i, int top)
{
	for (; i >= 0; i = vdevs[i]->parent)
		if (i == top)
			return true;
	return false;
}

/* Children first; the module keeps its reference until it unloads. */
static void del_subtree(int top)
{
	int i;

	for (i = nvdev - 1; i >= top; i--)
		if (in_subtree(i, top) && xchg(&vdevs[i]->added, 0)) {
			pr_info("dpmvm: device_del(%s)\n", vdevs[i]->name);
			record("RM", i, READ_ONCE(cur_phase), 0, 0, 0);
			device_del(&vdevs[i]->dev);
		}
}

/* A concurrent action (act=): where it is anchored, and its worker. */
struct vact {
	bool wake;		/* else a removal of victim's subtree */
	int victim;
	int k;			/* the transition, 1 ... */
	int anchor, ph;		/* its device and phase, or -1: at the end */
	unsigned int us;
	int fired;
	struct work_struct work;
};

static struct vact vacts[MAXDEV];
static int nvact;
static int cur_transition;	/* the K of the last "begin K" */

static void act_do(struct vact *a)
{
	int n = a - vacts;

	if (a->wake) {
		pr_info("dpmvm: act %d: a wake-up event\n", n);
		record("WK", -1, READ_ONCE(cur_phase), 0, n, 0);
		pm_system_wakeup();
	} else {
		pr_info("dpmvm: act %d: hotplug removes %s\n", n,
			vdevs[a->victim]->name);
		record("HP", -1, READ_ONCE(cur_phase), 0, n, 0);
		del_subtree(a->victim);
	}
}

/* On a worker of the unbound pool, which the transition leaves running. */
static void act_work(struct work_struct *w)
{
	struct vact *a = container_of(w, struct vact, work);

	if (a->us >= 20000)
		msleep(a->us / 1000);
	else if (a->us)
		usleep_range(a->us, a->us + 10);
	act_do(a);
}

/* The actions anchored to the start of v's callback of phase ph. */
static void acts_at_callback(int d, int ph)
{
	int i;

	for (i = 0; i < nvact; i++) {
		struct vact *a = &vacts[i];

		if (a->anchor == d && a->ph == ph &&
		    a->k == READ_ONCE(cur_transition) && !xchg(&a->fired, 1))
			queue_work(system_unbound_wq, &a->work);
	}
}

/* The actions of the end of transition k, in its writer's context. */
static void acts_at_end(int k)
{
	int i;

	for (i = 0; i < nvact; i++)
		if (vacts[i].anchor < 0 && vacts[i].k == k &&
		    !xchg(&vacts[i].fired, 1))
			act_do(&vacts[i]);
}

/*
 * Whether v's callback of phase ph waits for its other device: a later
 * one on dpm_list in the suspend phases, an earlier one in the resume
 * phases, never in prepare or complete, so that waits never cycle.
 */
static bool wait_applies(const struct vdev *v, int ph)
{
	const struct vdev *o;

	if (v->wait_for < 0 || ph == PREPARE || ph == COMPLETE)
		return false;
	o = vdevs[v->wait_for];
	if (!READ_ONCE(o->added))
		return false;
	return ph < RESUME_NOIRQ ? o->list_pos > v->list_pos :
				   o->list_pos < v->list_pos;
}

/* late=: the children v's callback of phase ph registers (during a
 * transition their drivers bind when probing is unblocked again). */
static void add_late_children(struct vdev *v, int ph)
{
	int i;

	for (i = v->idx + 1; i < nvdev; i++) {
		struct vdev *c = vdevs[i];

		if (c->parent != v->idx || c->late_ph != ph || xchg(&c->late_done, 1))
			continue;
		pr_info("dpmvm: %s %s registers %s\n", v->name, phase_name[ph], c->name);
		if (register_dev(c) || runtime_setup(c))
			continue;
		record("AD", c->idx, READ_ONCE(cur_phase), 0, 0, 0);
	}
}

/* Whether the PM core lets the device skip its suspend-side late and
 * noirq callbacks (smart-suspend and runtime-suspended). */
static bool skips_suspend(struct device *d)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	bool smart = dev_pm_smart_suspend(d);
#else
	bool smart = dev_pm_test_driver_flags(d, DPM_FLAG_SMART_SUSPEND);
#endif
	return smart && pm_runtime_status_suspended(d);
}

/* The same on the resume side: never on restore, the suspend-side test
 * on thaw, else unless the PM core says it must resume. */
static bool skips_resume(struct device *d)
{
	int ev = READ_ONCE(cur_event);

	if (ev == PM_EVENT_RESTORE)
		return false;
	if (ev == PM_EVENT_THAW)
		return skips_suspend(d);
	return !d->power.must_resume;
}

/* A middle layer's callback that does nothing for such a device. */
static bool level_skips(struct device *d, int ph)
{
	switch (ph) {
	case SUSPEND_LATE:
	case SUSPEND_NOIRQ:
		return skips_suspend(d);
	case RESUME_NOIRQ:
	case RESUME_EARLY:
		return skips_resume(d);
	default:
		return false;
	}
}

/* The one behaviour every callback shares. */
static int run_cb(struct device *d, int ph, bool lvl)
{
	struct vdev *v = container_of(d, struct vdev, dev);
	s64 t0 = ktime_to_ns(ktime_get());
	int ret = v->err[ph], err;

	if (lvl && level_skips(d, ph))
		return 0;
	/* As dpmfuzz's harness: a device being removed does no more PM
	 * work (its driver is going away). */
	if (!READ_ONCE(v->added))
		return 0;
	record("CS", v->idx, ph, 0, d->power.wakeup_path, 0);
	acts_at_callback(v->idx, ph);
	pr_info("dpmvm: %s %s begin cpu=%d t=%lld mr=%d rpm_susp=%d\n",
		v->name, phase_name[ph], raw_smp_processor_id(), t0,
		d->power.must_resume, pm_runtime_status_suspended(d));
	if (v->us[ph] >= 20000)
		msleep(v->us[ph] / 1000);
	else if (v->us[ph])
		usleep_range(v->us[ph], v->us[ph] + 10);
	if (v->remove_ph == ph && v->victim >= 0) {
		int victim = v->victim;

		v->victim = -1;
		pr_info("dpmvm: %s %s removes %s\n", v->name, phase_name[ph],
			vdevs[victim]->name);
		del_subtree(victim);
	}
	add_late_children(v, ph);
	/* As dpmfuzz's harness: the wait only when no error is injected. */
	if (!ret && wait_applies(v, ph)) {
		pr_info("dpmvm: %s %s waits for %s\n", v->name,
			phase_name[ph], vdevs[v->wait_for]->name);
		ret = device_pm_wait_for_dev(d, &vdevs[v->wait_for]->dev);
	}
	/* The error it was asked for; what it returns (a runtime-suspended
	 * device's prepare: 1, it may stay suspended). */
	err = ph == COMPLETE ? 0 : ret;
	if (ph == PREPARE && !ret && v->rpms)
		ret = 1;
	pr_info("dpmvm: %s %s end ret=%d cpu=%d t=%lld\n", v->name,
		phase_name[ph], ret, raw_smp_processor_id(),
		ktime_to_ns(ktime_get()));
	record("CE", v->idx, ph, err, ret, 0);
	return ret;
}

#define VM_CB(name, ph)							\
	static int lvl_##name(struct device *d) { return run_cb(d, ph, true); } \
	static int drv_##name(struct device *d) { return run_cb(d, ph, false); }
VM_CB(prepare, PREPARE)
VM_CB(suspend, SUSPEND)
VM_CB(suspend_late, SUSPEND_LATE)
VM_CB(suspend_noirq, SUSPEND_NOIRQ)
VM_CB(resume_noirq, RESUME_NOIRQ)
VM_CB(resume_early, RESUME_EARLY)
VM_CB(resume, RESUME)
static void lvl_complete(struct device *d) { run_cb(d, COMPLETE, true); }
static void drv_complete(struct device *d) { run_cb(d, COMPLETE, false); }

/* The dev_pm_ops of the phases in mask: lvl_* or drv_* callbacks, each in
 * every transition's form. */
#define FILL_OPS(o, mask, pre) do {					\
	memset(o, 0, sizeof(*(o)));					\
	if ((mask) & BIT(PREPARE))					\
		(o)->prepare = pre##_prepare;				\
	if ((mask) & BIT(SUSPEND))					\
		(o)->suspend = (o)->freeze = (o)->poweroff = pre##_suspend; \
	if ((mask) & BIT(SUSPEND_LATE))					\
		(o)->suspend_late = (o)->freeze_late =			\
			(o)->poweroff_late = pre##_suspend_late;	\
	if ((mask) & BIT(SUSPEND_NOIRQ))				\
		(o)->suspend_noirq = (o)->freeze_noirq =		\
			(o)->poweroff_noirq = pre##_suspend_noirq;	\
	if ((mask) & BIT(RESUME_NOIRQ))					\
		(o)->resume_noirq = (o)->thaw_noirq =			\
			(o)->restore_noirq = pre##_resume_noirq;	\
	if ((mask) & BIT(RESUME_EARLY))					\
		(o)->resume_early = (o)->thaw_early =			\
			(o)->restore_early = pre##_resume_early;	\
	if ((mask) & BIT(RESUME))					\
		(o)->resume = (o)->thaw = (o)->restore = pre##_resume;	\
	if ((mask) & BIT(COMPLETE))					\
		(o)->complete = pre##_complete;				\
} while (0)

static void vm_release(struct device *d)
{
	struct vdev *v = container_of(d, struct vdev, dev);

	pr_info("dpmvm: %s released\n", v->name);
	record("FR", v->idx, cur_phase, 0, 0, 0);
	kfree(v);
}

static struct device_type vm_type = {
	.name = "dpmvm",
	.release = vm_release,
};

/* A driver of a bus: one per bus and set of phases the devices'
 * drivers have. */
struct vdrv {
	struct device_driver drv;
	struct dev_pm_ops ops;
	char name[24];
	u8 mask;
};

static struct vdrv *vdrvs[MAXDEV];
static int nvdrv;

static int vm_match(struct device *d, MATCH_CONST struct device_driver *drv)
{
	const struct vdev *v = container_of(d, struct vdev, dev);

	return !v->nodrv && v->drv_mask == container_of(drv, struct vdrv, drv)->mask;
}

static struct bus_type vm_bus = {
	.name = "dpmvm",
	.match = vm_match,
};

/* The legacy buses: no dev_pm_ops, the old suspend/resume methods, so
 * main.c calls them instead of a driver's suspend and resume; one bus
 * per set of the two methods (leg=). */
static int legacy_suspend(struct device *d, pm_message_t state)
{
	return run_cb(d, SUSPEND, true);
}

static int legacy_resume(struct device *d)
{
	return run_cb(d, RESUME, true);
}

static struct bus_type leg_bus[3] = {
	{ .name = "dpmvm-ls", .match = vm_match, .suspend = legacy_suspend },
	{ .name = "dpmvm-lr", .match = vm_match, .resume = legacy_resume },
	{ .name = "dpmvm-lsr", .match = vm_match, .suspend = legacy_suspend,
	  .resume = legacy_resume },
};
static bool leg_registered[3];

/* The bus of a device: vm_bus, or the legacy bus of its methods. */
static struct bus_type *bus_of(const struct vdev *v)
{
	switch (v->leg & (BIT(SUSPEND) | BIT(RESUME))) {
	case BIT(SUSPEND):
		return &leg_bus[0];
	case BIT(RESUME):
		return &leg_bus[1];
	case BIT(SUSPEND) | BIT(RESUME):
		return &leg_bus[2];
	default:
		return &vm_bus;
	}
}

static int vm_probe(struct device *d)
{
	struct vdev *v = container_of(d, struct vdev, dev);

	dev_pm_set_driver_flags(d, v->dpm_flags);
	return 0;
}

static int dev_idx(const struct device *dev);

static int vm_remove(struct device *d)
{
	int i = dev_idx(d);

	if (i >= 0)
		record("UB", i, READ_ONCE(cur_phase), 0, 0, 0);
	return 0;
}

/* The bus of v, and on it the driver with v's phases, registered the
 * first time a device needs them. */
static int need_driver(const struct vdev *v)
{
	struct bus_type *bus = bus_of(v);
	struct vdrv *r;
	int i, ret;

	if (bus != &vm_bus && !leg_registered[bus - leg_bus]) {
		ret = bus_register(bus);
		if (ret)
			return ret;
		leg_registered[bus - leg_bus] = true;
	}
	if (v->nodrv)
		return 0;
	for (i = 0; i < nvdrv; i++)
		if (vdrvs[i]->mask == v->drv_mask && vdrvs[i]->drv.bus == bus)
			return 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->mask = v->drv_mask;
	snprintf(r->name, sizeof(r->name), "dpmvm-drv-%02x", r->mask);
	FILL_OPS(&r->ops, r->mask, drv);
	r->drv.name = r->name;
	r->drv.bus = bus;
	r->drv.probe = vm_probe;
	r->drv.remove = vm_remove;
	r->drv.pm = &r->ops;
	ret = driver_register(&r->drv);
	if (ret) {
		kfree(r);
		return ret;
	}
	vdrvs[nvdrv++] = r;
	return 0;
}

static void drivers_unregister(void)
{
	int i;

	while (nvdrv > 0) {
		struct vdrv *r = vdrvs[--nvdrv];

		driver_unregister(&r->drv);
		kfree(r);
	}
	for (i = 0; i < ARRAY_SIZE(leg_bus); i++)
		if (leg_registered[i]) {
			bus_unregister(&leg_bus[i]);
			leg_registered[i] = false;
		}
}

/* Split S at ':' into at most N fields, in place. */
static int split(char *s, char **f, int n)
{
	int i = 0;

	while (s && i < n)
		f[i++] = strsep(&s, ":");
	return i;
}

static int parse_dev(char *spec)
{
	char *f[12];
	int i, n = split(spec, f, 12);
	struct vdev *v;

	if (nvdev >= MAXDEV || !n || !*f[0] || strlen(f[0]) >= 40)
		return -EINVAL;
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	strscpy(v->name, f[0], sizeof(v->name));
	v->idx = nvdev;
	v->drv_mask = 0xff;
	v->parent = -1;
	v->victim = -1;
	v->wait_for = -1;
	v->late_ph = -1;
	vdevs[nvdev++] = v;
	for (i = 1; i < n; i++) {
		if (!strncmp(f[i], "parent=", 7)) {
			v->parent = find_dev(f[i] + 7);
			if (v->parent < 0)
				return -EINVAL;
		} else if (!strcmp(f[i], "async")) {
			v->async = true;
		} else if (!strcmp(f[i], "nodrv")) {
			v->nodrv = true;
		} else if (!strcmp(f[i], "syscore")) {
			v->syscore = true;
		} else if (!strcmp(f[i], "nopm")) {
			v->nopm = true;
		} else if (!strcmp(f[i], "msr")) {
			v->dpm_flags |= DPM_FLAG_MAY_SKIP_RESUME;
		} else if (!strcmp(f[i], "ssusp")) {
			v->dpm_flags |= DPM_FLAG_SMART_SUSPEND;
		} else if (!strcmp(f[i], "sprep")) {
			v->dpm_flags |= DPM_FLAG_SMART_PREPARE;
		} else if (!strcmp(f[i], "ndc")) {
			v->dpm_flags |= DPM_FLAG_NO_DIRECT_COMPLETE;
		} else if (!strcmp(f[i], "rpms")) {
			v->rpms = true;
		} else if (!strcmp(f[i], "wakeup")) {
			v->wakeup = true;
		} else if (!strncmp(f[i], "lvl=", 4)) {
			if (kstrtou8(f[i] + 4, 16, &v->lvl_mask))
				return -EINVAL;
			FILL_OPS(&v->dom.ops, v->lvl_mask, lvl);
		} else if (!strncmp(f[i], "late=", 5)) {
			v->late_ph = find_phase(f[i] + 5);
			if (v->late_ph < 0 || v->parent < 0)
				return -EINVAL;
		} else if (!strncmp(f[i], "leg=", 4)) {
			if (kstrtou8(f[i] + 4, 16, &v->leg))
				return -EINVAL;
		} else if (!strncmp(f[i], "drv=", 4)) {
			if (kstrtou8(f[i] + 4, 16, &v->drv_mask))
				return -EINVAL;
		} else {
			pr_err("dpmvm: unknown device word '%s'\n", f[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* act=: unreg:VICTIM:K:ANCHOR:PHASE:US, unreg:VICTIM:K:end,
 * wake:K:ANCHOR:PHASE:US */
static int parse_act(char *spec)
{
	char *f[6];
	int n = split(spec, f, 6), at;
	struct vact *a;
	long k;

	if (nvact >= MAXDEV || n < 3)
		return -EINVAL;
	a = &vacts[nvact];
	a->wake = !strcmp(f[0], "wake");
	if (!a->wake && strcmp(f[0], "unreg"))
		return -EINVAL;
	at = a->wake ? 1 : 2;
	a->victim = a->wake ? -1 : find_dev(f[1]);
	if ((!a->wake && a->victim < 0) || kstrtol(f[at], 10, &k) || k < 1)
		return -EINVAL;
	a->k = k;
	a->anchor = -1;
	if (n == at + 2 && !strcmp(f[at + 1], "end") && !a->wake) {
		/* after the transition */
	} else if (n == at + 4) {
		a->anchor = find_dev(f[at + 1]);
		a->ph = find_phase(f[at + 2]);
		if (a->anchor < 0 || a->ph < 0 || kstrtouint(f[at + 3], 10, &a->us))
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	INIT_WORK(&a->work, act_work);
	nvact++;
	return 0;
}

/* NAME:OTHER for wait= */
static int parse_wait(char *spec)
{
	char *f[2];
	int d, o;

	if (split(spec, f, 2) != 2)
		return -EINVAL;
	d = find_dev(f[0]);
	o = find_dev(f[1]);
	if (d < 0 || o < 0 || d == o)
		return -EINVAL;
	vdevs[d]->wait_for = o;
	return 0;
}

/* NAME:PHASE:VALUE for cb=, err= and remove= */
static int parse_triple(char *spec, int kind)
{
	char *f[3];
	int d, ph, o;
	long val;

	if (split(spec, f, 3) != 3)
		return -EINVAL;
	d = find_dev(f[0]);
	ph = find_phase(f[1]);
	if (d < 0 || ph < 0)
		return -EINVAL;
	if (kind == 3) {
		o = find_dev(f[2]);
		if (o < 0)
			return -EINVAL;
		vdevs[d]->remove_ph = ph;
		vdevs[d]->victim = o;
		return 0;
	}
	if (kstrtol(f[2], 10, &val))
		return -EINVAL;
	if (kind == 0)
		vdevs[d]->us[ph] = val;
	else if (ph != COMPLETE)
		vdevs[d]->err[ph] = val;
	return 0;
}

/* The links (link=), made once both ends are registered: at load, or
 * for a late device at the end of the transition that registered it (as
 * the harness does when probing is unblocked). */
struct vlink {
	int s, c;
	u32 flags;
	bool made;
};

static struct vlink vlinks[MAXDEV * 4];
static int nvlink;

static int parse_link(char *spec)
{
	char *f[3], *fl;
	int n = split(spec, f, 3);
	struct vlink *l = &vlinks[nvlink];

	if (n < 2 || nvlink >= ARRAY_SIZE(vlinks))
		return -EINVAL;
	l->s = find_dev(f[0]);
	l->c = find_dev(f[1]);
	if (l->s < 0 || l->c < 0)
		return -EINVAL;
	l->flags = n == 3 ? 0 : DL_FLAG_STATELESS;
	/* The flags, joined by '+'; device_link_add() judges the mix. */
	while (n == 3 && (fl = strsep(&f[2], "+"))) {
		if (!strcmp(fl, "sso"))
			l->flags |= DL_FLAG_SYNC_STATE_ONLY;
		else if (!strcmp(fl, "pmrt"))
			l->flags |= DL_FLAG_PM_RUNTIME;
		else if (!strcmp(fl, "rpma"))
			l->flags |= DL_FLAG_RPM_ACTIVE;
		else if (!strcmp(fl, "stateless"))
			l->flags |= DL_FLAG_STATELESS;
		else
			return -EINVAL;
	}
	nvlink++;
	return 0;
}

static void make_links(void)
{
	int i;

	for (i = 0; i < nvlink; i++) {
		struct vlink *l = &vlinks[i];
		struct device_link *dl;

		if (l->made || !READ_ONCE(vdevs[l->s]->added) ||
		    !READ_ONCE(vdevs[l->c]->added))
			continue;
		l->made = true;
		dl = device_link_add(&vdevs[l->c]->dev, &vdevs[l->s]->dev, l->flags);
		if (dl)
			record("LK", l->c, -1, 0, l->s, dl->status);
		pr_info("dpmvm: link %s -> %s flags=%#x: %s status=%d\n",
			vdevs[l->s]->name, vdevs[l->c]->name, l->flags,
			dl ? "made" : "refused", dl ? (int)dl->status : -1);
	}
}

/* Which of the module's devices dev is, or -1: the tracepoints fire for
 * every device of the machine, so the others are told apart by their
 * type at once, not by a search. */
static int dev_idx(const struct device *dev)
{
	if (dev->type != &vm_type)
		return -1;
	return container_of(dev, struct vdev, dev)->idx;
}

static const char *const phase_fn[NPH] = {
	"dpm_prepare", "dpm_suspend", "dpm_suspend_late", "dpm_suspend_noirq",
	"dpm_resume_noirq", "dpm_resume_early", "dpm_resume", "dpm_complete",
};

static void probe_suspend_resume(void *data, const char *action, int val,
				 bool start)
{
	int p;

	for (p = 0; p < NPH; p++)
		if (!strcmp(action, phase_fn[p]))
			break;
	if (p == NPH)
		return;
	if (start && p == PREPARE)
		prepare_pos = 0;
	if (start) {
		WRITE_ONCE(cur_event, val);
		WRITE_ONCE(cur_phase, p);
	}
	record(start ? "PB" : "PE", -1, p, 0, val, 0);
	if (!start && READ_ONCE(cur_phase) == p)
		WRITE_ONCE(cur_phase, -1);
}

static void probe_cb_start(void *data, struct device *dev,
			   const char *pm_ops, int event)
{
	int i = dev_idx(dev), ph = READ_ONCE(cur_phase);

	if (i < 0)
		return;
	/* dpm_prepare() walks dpm_list in order: the places for wait=. */
	if (ph == PREPARE && !(pm_ops && *pm_ops))
		vdevs[i]->list_pos = prepare_pos++;
	record("MS", i, ph, 0, pm_ops && *pm_ops, event);
}

static void probe_cb_end(void *data, struct device *dev, int error)
{
	int i = dev_idx(dev);

	if (i >= 0)
		record("ME", i, READ_ONCE(cur_phase), error, 0, 0);
}

/* DN's a: whether the PM core found a callback of the device for the
 * phase (DN_HAS_CB), told (DN_TOLD) so that the judge need not guess it
 * from the scenario: a late device's driver binds only after the
 * transition. */
#define DN_TOLD 64
#define DN_HAS_CB 128

static bool has_callback(const struct vdev *v, int ph)
{
	if (v->lvl_mask & BIT(ph))
		return true;
	if ((ph == SUSPEND || ph == RESUME) && (v->leg & BIT(ph)))
		return true;
	return READ_ONCE(v->dev.driver) && (v->drv_mask & BIT(ph));
}

static int pre_complete_all(struct kprobe *kp, struct pt_regs *regs)
{
	struct completion *x = (struct completion *)regs->di;
	struct dev_pm_info *pi;
	int i, ph;

	for (i = 0; i < nvdev; i++)
		if (x == &vdevs[i]->dev.power.completion)
			break;
	if (i == nvdev)
		return 0;
	pi = &vdevs[i]->dev.power;
	ph = READ_ONCE(cur_phase);
	record("DN", i, ph, 0,
	       (pi->is_suspended ? 1 : 0) | (pi->is_late_suspended ? 2 : 0) |
	       (pi->is_noirq_suspended ? 4 : 0) | (pi->direct_complete ? 8 : 0) |
	       (pi->must_resume ? 16 : 0) |
	       (pi->runtime_status == RPM_SUSPENDED ? 32 : 0) |
	       DN_TOLD | (ph >= 0 && has_callback(vdevs[i], ph) ? DN_HAS_CB : 0), 0);
	return 0;
}

static int pre_pm_remove(struct kprobe *kp, struct pt_regs *regs)
{
	int i = dev_idx((struct device *)regs->di);

	if (i >= 0)
		record("GO", i, READ_ONCE(cur_phase), 0, 0, 0);
	return 0;
}

/* pm_wakeup_pending()'s first yes in a transition: WA. */
static int wake_told;

static int ret_wakeup_pending(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* A bool: %al; the rest of the register is not part of it. */
	if ((regs_return_value(regs) & 0xff) && !xchg(&wake_told, 1))
		record("WA", -1, READ_ONCE(cur_phase), -EBUSY,
		       READ_ONCE(cur_transition), 0);
	return 0;
}

static struct kretprobe krp_wakeup_pending = {
	.kp.symbol_name = "pm_wakeup_pending",
	.handler = ret_wakeup_pending,
	.maxactive = 8,
};

static struct kprobe kp_complete_all = {
	.symbol_name = "complete_all", .pre_handler = pre_complete_all,
};
static struct kprobe kp_pm_remove = {
	.symbol_name = "device_pm_remove", .pre_handler = pre_pm_remove,
};

static struct {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} tps[] = {
	{ "suspend_resume", probe_suspend_resume },
	{ "device_pm_callback_start", probe_cb_start },
	{ "device_pm_callback_end", probe_cb_end },
};

static void find_tp(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(tps); i++)
		if (!strcmp(tp->name, tps[i].name))
			tps[i].tp = tp;
}

/* How many events are recorded: those below it no longer change. */
static unsigned int rec_count(void)
{
	unsigned long fl;
	unsigned int n;

	spin_lock_irqsave(&rec_lock, fl);
	n = nrec;
	spin_unlock_irqrestore(&rec_lock, fl);
	return n;
}

/* Room for the longest line: eight numbers, the kind and a name (165). */
#define REC_LINE 192

/* One event as a line of the record, without the newline. */
static void rec_line(char *buf, size_t len, const struct rec *r)
{
	snprintf(buf, len, "%llu %llu %u %u %.2s %s %d %d %lld %lld",
		 r->seq, r->t, r->cpu, r->pid, r->kind,
		 r->dev >= 0 ? vdevs[r->dev]->name : "-", r->phase,
		 r->err, r->a, r->b);
}

static int events_show(struct seq_file *m, void *unused)
{
	char line[REC_LINE];
	unsigned int i, n = rec_count();

	for (i = 0; i < n; i++) {
		rec_line(line, sizeof(line), &recs[i]);
		seq_printf(m, "%s\n", line);
	}
	if (n == NREC)
		seq_puts(m, "# full\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(events);

/*
 * The watchdog fired: a transition did not end in time.  The task that
 * started it is stuck, and the rest of user space is frozen, so nothing
 * can read the record from debugfs: it goes to the console instead,
 * after the stacks of the blocked tasks (SysRq-w), framed by markers the
 * host looks for.  SysRq-w prints its task dumps as info messages, below
 * a quiet console's level: the console is made verbose first, as an oops
 * does, and stays so (the host ends the guest after the report).  Runs
 * on system_unbound_wq, which is not frozen during the transition.
 */
static void hang_report(struct work_struct *work)
{
	char line[REC_LINE];
	unsigned int i, n = rec_count();

	console_verbose();
	pr_emerg("DPMVM-HANG\n");
	handle_sysrq('w');
	for (i = 0; i < n; i++) {
		rec_line(line, sizeof(line), &recs[i]);
		pr_emerg("DPMVM-REC %s\n", line);
	}
	if (n == NREC)
		pr_emerg("DPMVM-REC # full\n");
	pr_emerg("DPMVM-HANG-END\n");
}
static DECLARE_DELAYED_WORK(hang_work, hang_report);

/*
 * dpmvm/mark: user space brackets each transition with "begin K" and
 * "end K" (K its number), which the record keeps as TB and TE, so that
 * every event can be told to belong to a transition.  "begin" arms the
 * watchdog, "end" disarms it (waiting for a report under way).
 */
/*
 * RP: every registered device's runtime PM as the transition begins
 * (end 0) and ends (1): its disable depth and whether it is
 * runtime-suspended, read under power.lock (the oracle's RUNTIME-PM:
 * main.c's disables and enables match).
 */
static void record_rpm(int end)
{
	int i;

	for (i = 0; i < nvdev; i++) {
		struct vdev *v = vdevs[i];
		unsigned int depth;
		bool suspended;

		if (!v || !READ_ONCE(v->added))
			continue;
		spin_lock_irq(&v->dev.power.lock);
		depth = v->dev.power.disable_depth;
		suspended = v->dev.power.runtime_status == RPM_SUSPENDED;
		spin_unlock_irq(&v->dev.power.lock);
		record("RP", i, -1, end, depth, suspended);
	}
}

static ssize_t mark_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	char buf[32];
	size_t skip;
	bool begin;
	s64 k;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	skip = str_has_prefix(buf, "begin ");
	begin = skip != 0;
	if (!begin)
		skip = str_has_prefix(buf, "end ");
	if (!skip || kstrtos64(buf + skip, 10, &k))
		return -EINVAL;
	if (begin) {
		WRITE_ONCE(cur_transition, (int)k);
		WRITE_ONCE(wake_told, 0);
		record("TB", -1, -1, 0, k, 0);
		record_rpm(0);
		if (watchdog)
			mod_delayed_work(system_unbound_wq, &hang_work,
					 (unsigned long)watchdog * HZ);
	} else {
		record_rpm(1);
		record("TE", -1, -1, 0, k, 0);
		cancel_delayed_work_sync(&hang_work);
		make_links();	/* a late device's, as probing is unblocked */
		acts_at_end((int)k);
	}
	return len;
}

static const struct file_operations mark_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = mark_write,
	.llseek = noop_llseek,
};

static struct dentry *dbg;

static int probes_start(void)
{
	int i, ret;

	recs = vzalloc(sizeof(*recs) * NREC);
	if (!recs)
		return -ENOMEM;
	for_each_kernel_tracepoint(find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(tps); i++) {
		if (!tps[i].tp) {
			pr_err("dpmvm: no tracepoint %s\n", tps[i].name);
			return -ENOENT;
		}
		ret = tracepoint_probe_register(tps[i].tp, tps[i].probe, NULL);
		if (ret)
			return ret;
	}
	ret = register_kprobe(&kp_complete_all);
	if (ret)
		return ret;
	ret = register_kprobe(&kp_pm_remove);
	if (ret)
		return ret;
	ret = register_kretprobe(&krp_wakeup_pending);
	if (ret)
		return ret;
	dbg = debugfs_create_dir("dpmvm", NULL);
	debugfs_create_file("events", 0444, dbg, NULL, &events_fops);
	debugfs_create_file("mark", 0200, dbg, NULL, &mark_fops);
	return 0;
}

static void probes_stop(void)
{
	int i;

	debugfs_remove_recursive(dbg);
	cancel_delayed_work_sync(&hang_work);	/* no more marks to arm it */
	if (krp_wakeup_pending.kp.addr)
		unregister_kretprobe(&krp_wakeup_pending);
	if (kp_pm_remove.addr)
		unregister_kprobe(&kp_pm_remove);
	if (kp_complete_all.addr)
		unregister_kprobe(&kp_complete_all);
	for (i = 0; i < ARRAY_SIZE(tps); i++)
		if (tps[i].tp)
			tracepoint_probe_unregister(tps[i].tp, tps[i].probe, NULL);
	tracepoint_synchronize_unregister();
}

/* device_add() and what goes with it at once. */
static int register_dev(struct vdev *v)
{
	int ret = device_add(&v->dev);

	if (ret) {
		pr_err("dpmvm: device_add(%s): %d\n", v->name, ret);
		return ret;
	}
	WRITE_ONCE(v->added, 1);
	if (v->wakeup)
		device_init_wakeup(&v->dev, true);
	pr_info("dpmvm: added %s parent=%s async=%d driver=%s flags=%#x\n",
		v->name, v->parent >= 0 ? vdevs[v->parent]->name : "none",
		v->async, v->dev.driver ? "bound" : "none",
		v->dev.power.driver_flags);
	return 0;
}

/* Runtime PM as the harness leaves it: the QoS request first (no idle
 * check may suspend the device), active unless rpms, enabled. */
static int runtime_setup(struct vdev *v)
{
	int ret = dev_pm_qos_add_request(&v->dev, &v->qos,
					 DEV_PM_QOS_RESUME_LATENCY, 0);

	if (ret < 0) {
		pr_err("dpmvm: PM QoS request for %s: %d\n", v->name, ret);
		return ret;
	}
	if (!v->rpms && pm_runtime_set_active(&v->dev))
		pr_info("dpmvm: %s stays runtime-suspended under a suspended parent\n",
			v->name);
	pm_runtime_enable(&v->dev);
	return 0;
}

static void remove_all(void)
{
	int i;

	for (i = nvdev - 1; i >= 0; i--) {
		if (xchg(&vdevs[i]->added, 0))
			device_del(&vdevs[i]->dev);
		put_device(&vdevs[i]->dev);
	}
	nvdev = 0;
}

static int __init dpmvm_init(void)
{
	int i, ret = 0;

	for (i = 0; i < ndev_arg && !ret; i++)
		ret = parse_dev(dev[i]);
	for (i = 0; i < ncb_arg && !ret; i++)
		ret = parse_triple(cb[i], 0);
	for (i = 0; i < nerr_arg && !ret; i++)
		ret = parse_triple(err[i], 1);
	for (i = 0; i < nwait_arg && !ret; i++)
		ret = parse_wait(wait[i]);
	for (i = 0; i < nremove_arg && !ret; i++)
		ret = parse_triple(remove[i], 3);
	for (i = 0; i < nact_arg && !ret; i++)
		ret = parse_act(act[i]);
	for (i = 0; i < nlink_arg && !ret; i++)
		ret = parse_link(link[i]);
	if (ret) {
		pr_err("dpmvm: bad parameters\n");
		goto free;
	}
	ret = probes_start();
	if (ret) {
		pr_err("dpmvm: cannot watch the PM core: %d\n", ret);
		goto probes;
	}
	ret = bus_register(&vm_bus);
	if (ret)
		goto probes;
	for (i = 0; i < nvdev && !ret; i++)
		ret = need_driver(vdevs[i]);
	if (ret)
		goto bus;
	for (i = 0; i < nvdev; i++)
		device_initialize(&vdevs[i]->dev);
	for (i = 0; i < nvdev; i++) {
		struct vdev *v = vdevs[i];

		v->dev.type = &vm_type;
		v->dev.bus = bus_of(v);
		if (v->lvl_mask)
			v->dev.pm_domain = &v->dom;
		pm_runtime_no_callbacks(&v->dev);
		if (v->parent >= 0)
			v->dev.parent = &vdevs[v->parent]->dev;
		dev_set_name(&v->dev, "%s", v->name);
		if (v->nopm)
			device_set_pm_not_required(&v->dev);
		if (v->syscore)
			dev_pm_syscore_device(&v->dev, true);
		if (v->async)
			device_enable_async_suspend(&v->dev);
		if (v->late_ph < 0) {
			ret = register_dev(v);
			if (ret)
				goto devs;
		}
	}
	/*
	 * Runtime PM as the harness leaves it after probe: active (unless
	 * rpms) and enabled, one device after the other, parents first, so
	 * an active child under a runtime-suspended parent is refused
	 * (-EBUSY) and stays suspended, there too.  After every device is
	 * registered: a driver's probe would otherwise runtime-resume the
	 * parent, which the harness does not.  The QoS request comes first:
	 * no idle check may suspend a device.
	 */
	for (i = 0; i < nvdev; i++)
		if (vdevs[i]->late_ph < 0) {
			ret = runtime_setup(vdevs[i]);
			if (ret)
				goto devs;
		}
	make_links();
	pr_info("dpmvm: %d devices ready\n", nvdev);
	return 0;
devs:
	remove_all();	/* the releases free the devices */
bus:
	drivers_unregister();
	bus_unregister(&vm_bus);
probes:
	probes_stop();
	vfree(recs);
free:
	for (i = 0; i < nvdev; i++)
		kfree(vdevs[i]);
	nvdev = 0;
	return ret;
}

static void __exit dpmvm_exit(void)
{
	int i;

	for (i = 0; i < nvact; i++)
		flush_work(&vacts[i].work);
	remove_all();
	probes_stop();
	vfree(recs);
	drivers_unregister();
	bus_unregister(&vm_bus);
}

module_init(dpmvm_init);
module_exit(dpmvm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dpmvm: a parametrised device tree for system sleep tests");
