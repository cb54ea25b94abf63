/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: include/linux/pm.h as main.c, its base.h and
 * power.h, and the runtime use it.
 *
 * struct dev_pm_info keeps the kernel's one-bit fields as bit-fields, in
 * the kernel's groups and order, so neighbouring flags share a storage
 * unit as they do in the kernel and a plain write to one is a
 * read-modify-write of its neighbours (ThreadSanitizer sees main.c's real
 * accesses).  The groups are 6.12's; 6.1 declares some of them unsigned
 * int instead of bool and lacks async_in_progress and smart_suspend,
 * which changes neither the grouping nor the access width (one run of
 * one-bit fields is one storage unit for clang and gcc).  Fields only
 * runtime PM's timers and work items use are left out.
 */
#ifndef _DPMSHIM_LINUX_PM_H
#define _DPMSHIM_LINUX_PM_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/completion.h>

struct device;
struct wakeup_source;
struct wake_irq;
struct dev_pm_qos;
struct pm_subsys_data;

typedef struct pm_message {
	int event;
} pm_message_t;

struct dev_pm_ops {
	int (*prepare)(struct device *dev);
	void (*complete)(struct device *dev);
	int (*suspend)(struct device *dev);
	int (*resume)(struct device *dev);
	int (*freeze)(struct device *dev);
	int (*thaw)(struct device *dev);
	int (*poweroff)(struct device *dev);
	int (*restore)(struct device *dev);
	int (*suspend_late)(struct device *dev);
	int (*resume_early)(struct device *dev);
	int (*freeze_late)(struct device *dev);
	int (*thaw_early)(struct device *dev);
	int (*poweroff_late)(struct device *dev);
	int (*restore_early)(struct device *dev);
	int (*suspend_noirq)(struct device *dev);
	int (*resume_noirq)(struct device *dev);
	int (*freeze_noirq)(struct device *dev);
	int (*thaw_noirq)(struct device *dev);
	int (*poweroff_noirq)(struct device *dev);
	int (*restore_noirq)(struct device *dev);
	int (*runtime_suspend)(struct device *dev);
	int (*runtime_resume)(struct device *dev);
	int (*runtime_idle)(struct device *dev);
};

#define PM_EVENT_INVALID	(-1)
#define PM_EVENT_ON		0x0000
#define PM_EVENT_FREEZE		0x0001
#define PM_EVENT_SUSPEND	0x0002
#define PM_EVENT_HIBERNATE	0x0004
#define PM_EVENT_QUIESCE	0x0008
#define PM_EVENT_RESUME		0x0010
#define PM_EVENT_THAW		0x0020
#define PM_EVENT_RESTORE	0x0040
#define PM_EVENT_RECOVER	0x0080
#define PM_EVENT_USER		0x0100
#define PM_EVENT_REMOTE		0x0200
#define PM_EVENT_AUTO		0x0400
#define PM_EVENT_POWEROFF	0x0800	/* 7.x: for main.c's messages only */

#define PM_EVENT_SLEEP		(PM_EVENT_SUSPEND | PM_EVENT_HIBERNATE)

#define PMSG_INVALID	((struct pm_message){ .event = PM_EVENT_INVALID, })
#define PMSG_ON		((struct pm_message){ .event = PM_EVENT_ON, })
#define PMSG_FREEZE	((struct pm_message){ .event = PM_EVENT_FREEZE, })
#define PMSG_QUIESCE	((struct pm_message){ .event = PM_EVENT_QUIESCE, })
#define PMSG_SUSPEND	((struct pm_message){ .event = PM_EVENT_SUSPEND, })
#define PMSG_HIBERNATE	((struct pm_message){ .event = PM_EVENT_HIBERNATE, })
#define PMSG_RESUME	((struct pm_message){ .event = PM_EVENT_RESUME, })
#define PMSG_THAW	((struct pm_message){ .event = PM_EVENT_THAW, })
#define PMSG_RESTORE	((struct pm_message){ .event = PM_EVENT_RESTORE, })
#define PMSG_RECOVER	((struct pm_message){ .event = PM_EVENT_RECOVER, })

enum rpm_status {
	RPM_INVALID = -1,
	RPM_ACTIVE = 0,
	RPM_RESUMING,
	RPM_SUSPENDED,
	RPM_SUSPENDING,
	RPM_BLOCKED,
};

enum rpm_request {
	RPM_REQ_NONE = 0,
	RPM_REQ_IDLE,
	RPM_REQ_SUSPEND,
	RPM_REQ_AUTOSUSPEND,
	RPM_REQ_RESUME,
};

struct dev_pm_info {
	pm_message_t		power_state;
	/* first run of flags */
	bool			can_wakeup:1;
	bool			async_suspend:1;
	bool			in_dpm_list:1;
	bool			is_prepared:1;
	bool			is_suspended:1;
	bool			is_noirq_suspended:1;
	bool			is_late_suspended:1;
	bool			no_pm:1;
	bool			early_init:1;
	bool			direct_complete:1;
	u32			driver_flags;
	spinlock_t		lock;
	struct list_head	entry;
	struct completion	completion;
	struct wakeup_source	*wakeup;
	/* 7.x: async_in_progress became this, a whole bool of its own */
	bool			work_in_progress;
	/* second run (system sleep) */
	bool			wakeup_path:1;
	bool			syscore:1;
	bool			no_pm_callbacks:1;
	bool			async_in_progress:1;
	bool			smart_suspend:1;
	bool			must_resume:1;
	bool			may_skip_resume:1;
	bool			out_band_wakeup:1;	/* 7.x */
	bool			strict_midlayer:1;	/* 7.x */
	/* runtime PM */
	struct wake_irq		*wakeirq;
	atomic_t		usage_count;
	atomic_t		child_count;
	unsigned int		disable_depth:3;
	bool			idle_notification:1;
	bool			request_pending:1;
	bool			deferred_resume:1;
	bool			needs_force_resume:1;
	bool			runtime_auto:1;
	bool			ignore_children:1;
	bool			no_callbacks:1;
	bool			irq_safe:1;
	bool			use_autosuspend:1;
	bool			timer_autosuspends:1;
	bool			memalloc_noio:1;
	unsigned int		links_count;
	enum rpm_request	request;
	enum rpm_status		runtime_status;
	enum rpm_status		last_status;
	int			runtime_error;
	int			autosuspend_delay;
	u64			last_busy;
	u64			active_time;
	u64			suspended_time;
	u64			accounting_timestamp;
	struct pm_subsys_data	*subsys_data;
	void (*set_latency_tolerance)(struct device *, s32);
	struct dev_pm_qos	*qos;
};

struct dev_pm_domain {
	struct dev_pm_ops	ops;
	int (*start)(struct device *dev);
	void (*detach)(struct device *dev, bool power_off);
	int (*activate)(struct device *dev);
	void (*sync)(struct device *dev);
	void (*dismiss)(struct device *dev);
	int (*set_performance_state)(struct device *dev, unsigned int state);
};

#define DPM_FLAG_NO_DIRECT_COMPLETE	BIT(0)
#define DPM_FLAG_SMART_PREPARE		BIT(1)
#define DPM_FLAG_SMART_SUSPEND		BIT(2)
#define DPM_FLAG_MAY_SKIP_RESUME	BIT(3)
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 8, 0)
/* The same two bits under their first names (5.4's main.c uses them):
 * NEVER_SKIP became NO_DIRECT_COMPLETE, LEAVE_SUSPENDED became
 * MAY_SKIP_RESUME when may-skip-resume was reworked for 5.8. */
#define DPM_FLAG_NEVER_SKIP		BIT(0)
#define DPM_FLAG_LEAVE_SUSPENDED	BIT(3)
#endif

/* main.c's entry points and exports. */
void device_pm_lock(void);
void dpm_resume_start(pm_message_t state);
void dpm_resume_end(pm_message_t state);
void dpm_resume_noirq(pm_message_t state);
void dpm_resume_early(pm_message_t state);
void dpm_resume(pm_message_t state);
void dpm_complete(pm_message_t state);
void device_pm_unlock(void);
int dpm_suspend_end(pm_message_t state);
int dpm_suspend_start(pm_message_t state);
int dpm_suspend_noirq(pm_message_t state);
int dpm_suspend_late(pm_message_t state);
int dpm_suspend(pm_message_t state);
int dpm_prepare(pm_message_t state);
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 16, 0)
/* Up to 5.15 the report names the callback only, not the device. */
void __suspend_report_result(const char *function, void *fn, int ret);
#define suspend_report_result(fn, ret)				\
	do {							\
		__suspend_report_result(__func__, fn, ret);	\
	} while (0)
#else
void __suspend_report_result(const char *function, struct device *dev,
			     void *fn, int ret);
#define suspend_report_result(dev, fn, ret)			\
	do {							\
		__suspend_report_result(__func__, dev, fn, ret);	\
	} while (0)
#endif
int device_pm_wait_for_dev(struct device *sub, struct device *dev);
void dpm_for_each_dev(void *data, void (*fn)(struct device *, void *));
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 8, 0)
/* Their names before the 5.8 rework. */
bool dev_pm_may_skip_resume(struct device *dev);
bool dev_pm_smart_suspend_and_suspended(struct device *dev);
#else
bool dev_pm_skip_resume(struct device *dev);
bool dev_pm_skip_suspend(struct device *dev);
#endif

#endif
