/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interface between one kernel tree's code and the rest of dpmfuzz.
 *
 * The kernel side is the tree's unmodified drivers/base/power/main.c and
 * our runtime (kernel/rt), compiled -nostdinc against our kernel-shaped
 * headers (kernel/shim).  The host side is dpmfuzz: the engines, kapi,
 * the event bus and the run.  The two sides' headers must never meet
 * (both define struct device, struct mutex, bool ...), so this file uses
 * plain C types only and both sides include it.
 *
 * A tree's object exports one symbol, a struct dpmk_tree named
 * dpmk_tree_<tag>; every other symbol of the tree is made local when the
 * object is built, so several trees link into one program.
 *
 * Besides dpm_publish() and the dpmk_host_* functions below, the kernel
 * side calls kapi's
 * primitives by their kernel names (mutex_init, mutex_lock, mutex_unlock,
 * init_completion, reinit_completion, complete_all, wait_for_completion,
 * async_schedule_dev_nocall, async_synchronize_full, ktime_get): the
 * shim's struct mutex and struct completion are opaque blobs of kapi's
 * size (DPMK_SIZEOF_*), all zero bytes when unlocked and not done, which
 * the host checks at build time.  While a run is in progress (setup() to
 * teardown()/abandon()) it also sets kapi's kapi_obj_check hook, to
 * report kapi operations on freed devices (EV_USE_AFTER_FREE).
 *
 * The events it publishes (docs/kernel.md, "Events"): every kind but
 * EV_TRANSITION_BEGIN/END, which the host publishes around cycle().
 * EV_CB_END of prepare has err 0 for a positive return and the return
 * value in a; EV_SKIP's b holds DPMK_SKIPF_* facts.
 */
#ifndef DPMK_ABI_H
#define DPMK_ABI_H

#include "../core/event/event.h"

#define DPMK_ABI_VERSION 5

#define DPMK_SIZEOF_MUTEX	64
#define DPMK_SIZEOF_COMPLETION	64

/* ---- the scenario, as the kernel side reads it ---- */

/*
 * The system transition one cycle runs, sequenced as kernel/power does it
 * (the device entry points of main.c and their error handling).
 */
enum dpmk_transition {
	DPMK_MEM,	/* suspend-to-RAM: SUSPEND, then RESUME (suspend.c) */
	DPMK_S2IDLE,	/* suspend-to-idle: the same events, no syscore step */
	DPMK_FREEZE,	/* hibernation image: FREEZE, then THAW after the
			 * image; RESTORE when freezing failed or a wake-up
			 * skipped the image, as in_suspend is still 0 then
			 * (hibernation_snapshot(), create_image()) */
	DPMK_POWEROFF,	/* hibernation power-off: HIBERNATE; the power-off
			 * fails or is tested, so RESTORE follows
			 * (hibernation_platform_enter()) */
	DPMK_RESTORE,	/* resume from an image: QUIESCE, then RESTORE, RECOVER
			 * on error (hibernation_restore(), resume_target_kernel()) */
	DPMK_NR_TRANSITIONS
};

/* Which level of a device supplies its callbacks: main.c asks the power
 * domain, the type, the class, then the bus, and falls back to the driver
 * where the level it found has no callback for the phase. */
enum dpmk_level {
	DPMK_LVL_NONE,		/* no middle layer: the driver's own */
	DPMK_LVL_DOMAIN,	/* dev->pm_domain->ops */
	DPMK_LVL_TYPE,		/* dev->type->pm */
	DPMK_LVL_CLASS,		/* dev->class->pm */
	DPMK_LVL_BUS,		/* dev->bus->pm */
	DPMK_LVL_LEGACY_BUS,	/* dev->bus->suspend/resume, no dev_pm_ops */
	DPMK_NR_LEVELS
};

/* struct dpmk_device.flags */
#define DPMK_DEV_ASYNC		(1u << 0)	/* device_enable_async_suspend() */
#define DPMK_DEV_NO_DRIVER	(1u << 1)	/* no driver bound */
#define DPMK_DEV_NO_PM		(1u << 2)	/* device_set_pm_not_required() */
#define DPMK_DEV_SYSCORE	(1u << 3)	/* dev_pm_syscore_device(dev, true) */
#define DPMK_DEV_RPM_SUSPENDED	(1u << 4)	/* runtime PM enabled, status
						 * suspended when a cycle starts */
#define DPMK_DEV_PREPARE_POS	(1u << 5)	/* ->prepare() returns 1: it may
						 * stay suspended (direct_complete) */
#define DPMK_DEV_WAKEUP		(1u << 6)	/* a wakeup source, enabled */
#define DPMK_DEV_LATE		(1u << 7)	/* not registered at setup: another
						 * device's callback adds it */
#define DPMK_DEV_IGNORE_CHILDREN (1u << 8)	/* pm_suspend_ignore_children() */
#define DPMK_DEV_WAKEUP_PATH_LATE (1u << 9)	/* its suspend_late callback
						 * calls device_set_wakeup_path() */
#define DPMK_DEV_RPM_RESUME_PENDING (1u << 10)	/* a runtime resume request
						 * queued as a cycle starts */
#define DPMK_DEV_RPM_RESUME_RACING (1u << 11)	/* one queued during its
						 * suspend step, as main.c asks
						 * pm_wakeup_pending() */

/* struct dpmk_device.dpm_flags: the kernel's DPM_FLAG_* meanings */
#define DPMK_DPM_NO_DIRECT_COMPLETE	(1u << 0)
#define DPMK_DPM_SMART_PREPARE		(1u << 1)
#define DPMK_DPM_SMART_SUSPEND		(1u << 2)
#define DPMK_DPM_MAY_SKIP_RESUME	(1u << 3)

struct dpmk_device {
	const char *name;
	int parent;			/* index of an earlier device, or -1 */
	unsigned int flags;		/* DPMK_DEV_* */
	unsigned int dpm_flags;		/* DPMK_DPM_* */
	int level;			/* enum dpmk_level */
	unsigned int level_phases;	/* bit p: the level has phase p's callback */
	unsigned int driver_phases;	/* bit p: the driver's dev_pm_ops has it */
	unsigned int dur_us[NR_PHASES];	/* how long each callback takes */
	int err[NR_PHASES];		/* what it returns */
	/* Side actions, once per run: in the callback of remove_phase,
	 * unregister the subtree at remove_target (a descendant); in the
	 * callback of add_phase, register add_target (a DPMK_DEV_LATE child
	 * of this device).  -1: never. */
	int remove_phase, remove_target;
	int add_phase, add_target;
	/* The driver calls device_pm_wait_for_dev() on this device in its
	 * callbacks where pm_wait_applies(); -1: never. */
	int pm_wait_for;
	/* This device's release (its last put_device()) unregisters the
	 * subtree at this device, as a driver's release may; -1: none. */
	int release_unregisters;
};

/* struct dpmk_link.flags: the kernel's DL_FLAG_* meanings */
#define DPMK_LINK_STATELESS		(1u << 0)
#define DPMK_LINK_AUTOREMOVE_CONSUMER	(1u << 1)
#define DPMK_LINK_PM_RUNTIME		(1u << 2)
#define DPMK_LINK_RPM_ACTIVE		(1u << 3)
#define DPMK_LINK_AUTOREMOVE_SUPPLIER	(1u << 4)
#define DPMK_LINK_AUTOPROBE_CONSUMER	(1u << 5)
#define DPMK_LINK_SYNC_STATE_ONLY	(1u << 7)
#define DPMK_LINK_DORMANT		(1u << 16)	/* not a DL_FLAG: the link
							 * stays DL_STATE_DORMANT */

/* EV_SKIP's b: facts an oracle may check the reason against. */
#define DPMK_SKIPF_RPM_SUSPENDED	1u	/* runtime status suspended */
#define DPMK_SKIPF_DIRECT_COMPLETE	2u	/* still in direct_complete */
#define DPMK_SKIPF_TOLD			4u	/* the two above are told */
#define DPMK_SKIPF_LAYER_ASKED		8u	/* main.c called its middle layer,
						 * which skipped the device */

struct dpmk_link {
	int supplier, consumer;		/* device indices */
	unsigned int flags;		/* DPMK_LINK_* */
};

/* struct dpmk_scenario.fixes: the harness stands in for a fix a finding
 * calls for (docs/kernel.md, "Findings"). */
#define DPMK_FIX_HOLD_PARENT	1u	/* KV-5: device_del() outside the
					 * resume phases keeps the parent's
					 * reference until the device's
					 * release */
#define DPMK_FIX_INIT_COMPLETE_ALL 4u	/* KV-7: a new device's completion
					 * is completed for every waiter, as
					 * complete_all() did before */
#define DPMK_FIX_HOLD_PARENT_RESUME 2u	/* 0552e05fdfea's bug: device_del()
					 * in a resume phase keeps the
					 * parent's reference until the
					 * device's release */
#define DPMK_FIX_SSO_DORMANT	8u	/* KV-1: SYNC_STATE_ONLY links stay
					 * DORMANT, so the PM core's waits
					 * skip them */

struct dpmk_scenario {
	int transition;			/* enum dpmk_transition */
	unsigned int fixes;		/* DPMK_FIX_* */
	int pm_async;			/* /sys/power/pm_async */
	int pm_trace;			/* pm_trace_is_enabled() */
	/* A wake-up event at this virtual time (microseconds from the run's
	 * start): from then on pm_wakeup_pending() is true until the
	 * transition ends.  -1: none. */
	long long wakeup_at_us;
	/* Suspend to RAM: suspend_ops->suspend_again() asks for this many
	 * more rounds of suspend_enter(). */
	int suspend_again;
	int ndev;
	const struct dpmk_device *dev;
	int nlinks;
	const struct dpmk_link *link;
};

/* ---- what a tree offers the host ---- */

/*
 * All calls run on a task of a det or threads engine run (the PM task
 * unless said otherwise), except abandon().
 */
struct dpmk_tree {
	int abi;			/* DPMK_ABI_VERSION */
	const char *version;		/* "6.12.118", from the tree's Makefile */
	const char *main_c;		/* path of the main.c it was built from */
	/* main.c queues its async jobs with async_schedule() or
	 * async_schedule_dev(), which run a job in the caller when no
	 * entry can be allocated (before 7839d0078e0d, "PM: sleep: Fix
	 * possible deadlocks in core system-wide PM code", 6.8 and the
	 * stable trees it went to); 0 when it uses
	 * async_schedule_dev_nocall().  The build reads it off main.c. */
	int inline_jobs;
	/* main.c starts a parent's (supplier's) async step when a child
	 * (consumer) is done, and a child's when its parent is (the 6.16+
	 * scheme: dpm_async_suspend_superior()); with a bounded async pool
	 * such steps can take every worker and wait for one still queued
	 * (finding KV-8; the kernel's pool has 512 workers). */
	int async_early;
	/* main.c's device_pm_sleep_init() sets a new device's completion
	 * with complete(), which lets one waiter through, not
	 * complete_all() (finding KV-7, the 7.1.5 tree). */
	int init_complete_once;
	/* The highest mutant id the main.c it was built from holds, when
	 * that is tools/dpmmutate's schemata (their dpmk_schemata_last);
	 * NULL for a plain main.c.  dpmk_tree_mutants() reads it. */
	const int *schemata_last;
	/* Restore main.c's and the runtime's state as it was at program
	 * start, then register the scenario's devices (not the DPMK_DEV_LATE
	 * ones) and links.  s stays valid until abandon().  0, or a negative
	 * errno. */
	int (*setup)(const struct dpmk_scenario *s);
	/* Cycle n of the scenario's transition: every entry point, in the
	 * kernel's order, with its error handling.  Returns what the kernel
	 * function returns: the error the first suspend entry point that
	 * failed returned, or the wake-up abort's (-EBUSY, -EAGAIN for the
	 * hibernation power-off); 0 if the system slept and woke, or if a
	 * wake-up made hibernation skip its image. */
	int (*cycle)(int n);
	/* From a hotplug task: unregister the subtree at dev, unless it is
	 * gone already, as a bus does on hot-unplug.  unfrozen: the task is
	 * not frozen during a transition, so it does not wait out the
	 * late/noirq window (the subtree has no driver bound). */
	void (*unregister)(int dev, int unfrozen);
	/* User space writes buf to dev's power/async: the store's return
	 * value, or -19 (ENODEV) when dev is no longer registered. */
	long (*async_store)(int dev, const char *buf, unsigned long n);
	/* End of the run: publish EV_REFS for every device still there,
	 * unregister everything, drop the last references (releases run),
	 * publish EV_TEARDOWN_DONE. */
	void (*teardown)(void);
	/* Outside any engine, after a run that was stopped or deadlocked:
	 * free whatever is left. */
	void (*abandon)(void);
	/* Name an object a blocked task waits on ("the power.completion of
	 * 'usb1'"), for LIVENESS reports: the length written, 0 if the
	 * object is not the tree's. */
	int (*describe)(const void *obj, char *buf, unsigned long n);
	/* The explorable copy of the tree only (kernel/rt/footprint.c;
	 * NULL in the tree's own object): which scenario device's memory p
	 * is in, freed or not, as device index * 4 + part (0 its struct
	 * device and the runtime's struct around it, 1 its device_private,
	 * 2 its wakeup source, 3 the runtime's per-device slots), the
	 * offset in *off; -1 if none. */
	long (*locate)(const void *p, unsigned long *off);
};

/* ---- what the host offers the kernel side ----
 * Events go to the host's bus with dpm_publish() (core/event/event.h). */

void dpmk_host_delay_us(unsigned long long us);	/* busy this long (virtual) */
void dpmk_host_sched_point(void);		/* another task may run here */
int dpmk_host_task_id(void);			/* 0: the PM task */
/* Runs fn and returns the first mutex it took, still held (NULL: none). */
void *dpmk_host_mutex_taken_by(void (*fn)(void));
/* The calling task holds mutex m. */
int dpmk_host_mutex_mine(void *m);
const char *dpmk_host_task_name(void);
unsigned long long dpmk_host_now_ns(void);
int dpmk_host_concurrent(void);			/* tasks are real threads */
/* The run log (a report's trace), one line without its newline. */
int dpmk_host_log_enabled(void);
void dpmk_host_log(const char *line);
/* A broken rule of the shim itself: not a finding of main.c. */
void dpmk_host_bug(const char *what) __attribute__((noreturn));
/* The run's freed devices (core/util/quarantine.h): n of size bytes,
 * each by its index; find returns the index of the device p lies in, or
 * -1; at the device idx freed, or NULL; release forgets them all (the
 * devices are the caller's to free). */
void dpmk_host_quarantine_init(unsigned long size, int n);
void dpmk_host_quarantine_add(int idx, void *obj);
int dpmk_host_quarantine_find(const void *p);
void *dpmk_host_quarantine_at(int idx);
void dpmk_host_quarantine_release(void);
/* Start fn(arg) as a new task (a hotplug or release worker). */
void dpmk_host_spawn(void (*fn)(void *), void *arg, const char *name);
/* The mutant switched on (tools/dpmmutate's schemata: a generated main.c
 * holding every mutant, each behind this id; 0: the unmutated code).
 * DPMFUZZ_MUTANT=ID in the environment sets it at start-up. */
int dpmk_host_mutant(void);
void dpmk_host_set_mutant(int id);
/* How many mutants tree holds (0: its main.c is not the schemata); an id
 * beyond it would silently run the unmutated code. */
int dpmk_tree_mutants(const struct dpmk_tree *tree);
/* When the mutant switched on is not one tree holds: one line, exit 2. */
void dpmk_host_check_mutant(const struct dpmk_tree *tree);

#endif
