/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scenario is everything one run needs: configuration, the device tree
 * with each driver's behaviour, concurrent actions, and the schedule.
 * scenario_decode() turns any byte string into a valid scenario;
 * scenario_print()/scenario_parse() are the canonical text format that
 * humans read, edit and commit (docs/scenario.md).
 */
#ifndef DPM_SCENARIO_H
#define DPM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../device/device.h"

#define SCN_NAME_MAX 39
#define SCN_VARIANT_MAX 63	/* "kernel-6.13.0-rc3-custom" fits */
#define SCN_FIXES_MAX 511
#define SCN_EXPECT_MAX 31
#define SCN_ATTR_MAX 15
#define SCN_SUP_MAX 4		/* suppliers per device */
#define SCN_DUR_MAX_US 100000000	/* PHASE=Nus: a callback's time, 100 s */
#define SCN_ERR_MAX 4095		/* err=PHASE:-N: the kernel's error range */

/*
 * What the kernel variants read of a scenario and the hand-written models
 * leave out (the registry says which variant has which feature, VF_* in
 * core/variants/variant.h; docs/scenario.md says what each stands for).
 */
enum scn_transition {
	TR_MEM,		/* suspend-to-RAM */
	TR_S2IDLE,	/* suspend-to-idle */
	TR_FREEZE,	/* hibernation: freeze, then thaw */
	TR_POWEROFF,	/* hibernation: power-off, which fails: restore */
	TR_RESTORE,	/* resume from an image: quiesce, then restore */
	NR_TRANSITIONS
};

/* The middle layer that supplies a device's callbacks, before its driver. */
enum scn_level {
	LVL_NONE, LVL_DOMAIN, LVL_TYPE, LVL_CLASS, LVL_BUS, LVL_LEGACY_BUS,
	NR_LEVELS
};

/* struct scn_kernel.flags */
#define SCN_NO_DRIVER	(1u << 0)	/* no driver bound */
#define SCN_NO_PM	(1u << 1)	/* device_set_pm_not_required() */
#define SCN_SYSCORE	(1u << 2)	/* handled by syscore ops, not dpm */
#define SCN_WAKEUP	(1u << 3)	/* a wakeup source, enabled */
#define SCN_WAKEUP_PATH_LATE (1u << 4)	/* its suspend_late callback calls
					 * device_set_wakeup_path() */
#define SCN_RPM_RESUME_PENDING (1u << 5) /* a runtime resume request is
					 * queued for it as each transition
					 * begins */
#define SCN_RPM_RESUME_RACING (1u << 6)	/* one arrives during its suspend
					 * step, after pm_runtime_barrier() */

/* struct scn_kernel.dpm_flags: the kernel's DPM_FLAG_* */
#define SCN_DPM_NO_DIRECT_COMPLETE	PMF_NO_DIRECT_COMPLETE
#define SCN_DPM_SMART_PREPARE		PMF_SMART_PREPARE
#define SCN_DPM_SMART_SUSPEND		PMF_SMART_SUSPEND
#define SCN_DPM_MAY_SKIP_RESUME		PMF_MAY_SKIP_RESUME
#define SCN_DPM_ALL			0xfu

/* struct scn_kernel.link_flags: the kernel's DL_FLAG_* a link has */
#define SCN_LINK_STATELESS		(1u << 0)
#define SCN_LINK_PM_RUNTIME		(1u << 1)
#define SCN_LINK_RPM_ACTIVE		(1u << 2)
#define SCN_LINK_SYNC_STATE_ONLY	(1u << 3)
#define SCN_LINK_ALL			0xfu

#define SCN_ALL_PHASES	((1u << NR_PHASES) - 1)

struct scn_kernel {
	unsigned int flags;		/* SCN_NO_DRIVER ... */
	unsigned int dpm_flags;		/* SCN_DPM_* */
	int level;			/* enum scn_level */
	unsigned int level_cbs;		/* bit p: the level has phase p's callback */
	unsigned int driver_cbs;	/* bit p: the driver has it */
	/* Registered during the transition by its parent's callback of this
	 * phase; -1: registered before the run. */
	int late_phase;
	/* Its release (last reference dropped) unregisters the subtree at
	 * this device; -1: none. */
	int release_unregisters;
	unsigned int link_flags[SCN_SUP_MAX];	/* per supplier link */
};

struct scn_device {
	char name[SCN_NAME_MAX + 1];
	int parent;			/* index of an earlier device, or -1 */
	bool async;			/* the driver enables async suspend */
	bool pci;			/* a PCI device: async since 011 */
	int nsup;			/* device links to earlier devices */
	int sup[SCN_SUP_MAX];
	struct dev_behaviour beh;
	struct scn_kernel k;
};

enum scn_action_kind {
	ACT_UNREGISTER,		/* a hotplug task unregisters a subtree */
	ACT_ASYNC_ATTR,		/* user space writes power/async */
	NR_ACT
};

struct scn_action {
	enum scn_action_kind kind;
	int dev;
	/* ACT_UNREGISTER: virtual time in microseconds from the start.
	 * ACT_ASYNC_ATTR: the write happens before this cycle (0-based),
	 * while user space runs. */
	uint64_t at;
	/* ACT_UNREGISTER: the task is not frozen for the transition (a
	 * kernel thread or work item that is not freezable): it does not
	 * wait out the late/noirq window.  Kernel variants only
	 * (VF_UNFROZEN_REMOVAL); the whole subtree has no driver bound. */
	bool unfrozen;
	char attr[SCN_ATTR_MAX + 1];
	int attr_len;
};

struct scenario {
	/* Header: which model it was found on (text format only). */
	char variant[SCN_VARIANT_MAX + 1];
	char fixes[SCN_FIXES_MAX + 1];	/* knob list as written, "" for none */
	char expect[SCN_EXPECT_MAX + 1];	/* regression files: expected outcome */

	bool pm_async;
	bool pm_trace;
	int cycles;
	unsigned int inline_every;
	unsigned int worker_limit;
	enum scn_transition transition;
	/* A wake-up event at this virtual time (microseconds from the run's
	 * start); -1: none. */
	int64_t wakeup_at_us;
	/* The platform asks for this many more rounds of the late and noirq
	 * phases in each suspend to RAM (suspend_ops->suspend_again()). */
	int suspend_again;

	int ndev;
	struct scn_device *dev;
	int nact;
	struct scn_action *act;
	size_t nsched;
	uint8_t *sched;
	/* The schedule bytes are read by task (core/sched/strategy.h,
	 * "keyed"), not by the position of a choice. */
	bool sched_by_task;
};

/* How an input's schedule bytes are read (DPMFUZZ_SCHEDULE_BY): by the
 * position of a choice, by task (core/sched/strategy.h, "keyed"), or
 * mixed: by task when the input has an odd number of schedule bytes (so
 * a mutation that inserts or erases one switches). */
enum scn_sched_mode { SCHED_BY_POSITION, SCHED_BY_TASK, SCHED_MIXED };

struct scn_limits {
	int max_devices;
	int max_actions;
	int max_cycles;
	bool no_worker_limit;	/* decode every worker limit as none */
	enum scn_sched_mode sched_mode;
};

void scenario_init(struct scenario *s);
/* A device's fields as a text line without attributes leaves them. */
void scn_device_init(struct scn_device *d);
const char *scn_transition_name(enum scn_transition t);
const char *scn_level_name(enum scn_level l);
void scenario_free(struct scenario *s);
/* Whether device d is below device anc in s's tree. */
bool scn_is_descendant(const struct scenario *s, int d, int anc);

/* Every byte string gives a valid scenario (docs/scenario.md). */
void scenario_decode(const uint8_t *data, size_t size,
		     const struct scn_limits *lim, struct scenario *s);

/*
 * The decoder's parts, for the structure-aware mutator (mutate.h): the
 * two configuration bytes, and device i's five bytes (s->ndev set, the
 * devices before i decoded).  scenario_decode_device() returns the side
 * action's victim selector (its flags byte's bits 5-7), which the whole
 * decode resolves once every device is there.
 */
void scenario_decode_config(struct scenario *s, uint8_t f, uint8_t wb,
			    const struct scn_limits *lim);
uint8_t scenario_decode_device(struct scenario *s, int i, const uint8_t b[5]);
/* An action from its three bytes (s->ndev and s->cycles set). */
void scenario_decode_action(const struct scenario *s, struct scn_action *a,
			    const uint8_t b[3]);

/*
 * The nearest scenario the byte format expresses under lim, in place:
 * device names dev<i>, one supplier among the 4 devices before or one
 * pm-wait on the 2 before or after, one error per device (its byte then
 * holds no other kernel field), a side action on one of the device's
 * first 8 descendants, actions and cycles within lim.  A structural edit
 * followed by this encodes exactly (scenario_encode(), not lossy).
 */
void scenario_canonicalize(struct scenario *s, const struct scn_limits *lim);

/*
 * The kernel variants' features drawn as the decoder reads them from
 * bytes (dpmstress's generator): the transition and a wake-up from
 * cfg_byte's bits 3-7, and for each device, when its entry of dev_bytes
 * (two bytes per device: the error byte's meaning, the parent byte's)
 * says so, a middle layer, DPM flags, a driverless, syscore or no-PM
 * device, a late registration, a release that unregisters, link flags.
 * Injected errors are left as they are.
 */
void scenario_add_kernel_features(struct scenario *s, uint8_t cfg_byte,
				  const uint8_t *dev_bytes);

/* The errors a device's error byte chooses from (-EIO, -EBUSY, -ENODEV,
 * -ENOMEM), which scenario_generate() draws from too. */
extern const int scn_err_table[4];

/*
 * The inverse of scenario_decode() as far as the byte format reaches:
 * bytes that decode (with limits at least as large) to this scenario,
 * with durations rounded to the byte format's table, one error per
 * device, and generated device names, for inputs decoded with schedule
 * mode mode (scn_limits.sched_mode): a schedule by position of an odd
 * length gets one more byte, 0, under SCHED_MIXED (which a run reads as
 * its bytes' end: the running task goes on, or the first in the queue).
 * Returns a malloc'd buffer and its length; *lossy is set when something
 * could not be expressed (a schedule by task of an even length under
 * SCHED_MIXED, or one read otherwise than the mode reads it).
 */
uint8_t *scenario_encode(const struct scenario *s, enum scn_sched_mode mode,
			 size_t *len, bool *lossy);

/* Whether s's schedule, encoded for mode, is read as s says (by task or
 * by position); scenario_encode() is lossy when not. */
bool scenario_sched_fits(const struct scenario *s, enum scn_sched_mode mode);

/* Text format.  Returns 0, or -1 with a one-line reason in err. */
int scenario_parse(const char *text, size_t len, struct scenario *s,
		   char *err, size_t errlen);
/* Appends the canonical text to a malloc'd string; returns it. */
char *scenario_print(const struct scenario *s);

/* Whether a device name may hold c (printable, no blank, '=', '"' or '#'). */
bool scenario_name_char_ok(unsigned char c);

/* Checks the structural rules (tree, ranges); -1 with a reason. */
int scenario_validate(const struct scenario *s, char *err, size_t errlen);

#endif
