/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runtime's own declarations, shared by the files of kernel/rt.  The runtime
 * is the kernel around main.c that dpmfuzz provides (driver core, device
 * links, runtime PM, wake-up, the drivers' callbacks, the transitions)
 * and the tree's entry (struct dpmk_tree).  It is compiled per tree, in
 * the kernel world, with the tree's base.h and power.h.
 */
#ifndef DPMK_RT_H
#define DPMK_RT_H


#include <stdarg.h>

#include "../../core/util/nocov.h"

#include <linux/device.h>
#include <linux/pm_runtime.h>
#include <linux/suspend.h>
#include <dpmshim/host.h>

#include "base.h"
#include "power.h"

/* ---- a scenario device ---- */

/*
 * A device as its bus, driver and middle layers would build it: the
 * struct device main.c sees, the bus/type/class/domain and driver it
 * points to, their dev_pm_ops, and the runtime's bookkeeping.  Freed by
 * its release (the last put_device()).
 */
struct dpmk_dev {
	struct device		dev;
	int			idx;		/* scenario index */
	const struct dpmk_device *sd;
	char			name[40];
	int			list_pos;	/* on dpm_list, this cycle */
	bool			pos_pending;	/* registered, not numbered yet */
	bool			holds_parent;	/* DPMK_FIX_HOLD_PARENT */

	struct bus_type		bus;
	struct device_type	type;
	struct class		cls;
	struct dev_pm_domain	domain;
	struct device_driver	drv;
	struct dev_pm_ops	level_ops;
	struct dev_pm_ops	drv_ops;
	struct dev_pm_ops	lower_ops;	/* the layers under the first */

	/* driver core (core.c) */
	bool			added;		/* device_add() done */
	bool			dead;		/* device_del() started */
	int			remover;	/* 1 + the task inside device_pm_remove() of it, or 0 */
	int			lister;		/* atomic: inside device_pm_add() or
						 * device_pm_remove() of it (LOCKS) */
	spinlock_t		ev_lock;	/* dead vs a callback's start */
	bool			bound;		/* drv bound (dev->driver) */
	bool			probe_deferred;	/* bind at unblock */
	int			removal_claimed;	/* atomic: first remover */
	int			closing;	/* atomic: its subtree removal looks at the children */
	bool			unfrozen_removal; /* set by its remover before device_del():
						   * a task that is not frozen, which does
						   * not wait out the late/noirq window */
	struct completion	removed;	/* device_del() finished */
	struct mutex		sysfs_active;	/* power/async vs removal */
	bool			sysfs_gone;
	bool			creator_ref;	/* setup's reference held */
	int			link_refs;	/* atomic: links holding it */

	/* side actions, once per run (callbacks.c) */
	int			remove_done;	/* atomic */
	int			add_done;	/* atomic */

	/* what main.c did with the device in the phase in progress (events.c) */
	int			handled_inst;	/* phase instance taken in hand */
	int			done_inst;	/* ... and completed */
	int			ran_inst;	/* its callback ran in it */
	int			asked_inst;	/* its middle layer was called
						 * in it and skipped it */
	int			dc_mark_inst;	/* runtime PM disabled there */
	int			en_mark_inst;	/* runtime PM enabled there */
	bool			request_early;	/* its queued resume request
						 * was queued as the cycle began */
	int			set_active_inst; /* main.c called
						 * pm_runtime_set_active() on
						 * it in a noirq resume */
	int			depth;		/* suspended this deep (0-3) */
	bool			in_dc;		/* direct_complete taken */
	/* runtime-suspended when its early resume handling ended, the last
	 * moment main.c kept runtime PM off for it (events.c) */
	bool			early_rpm_suspended;
	int			prepared_inst;	/* transition it was prepared in */
};

void dpmk_tell_removed_rpm(struct dpmk_dev *d);
void dpmk_queue_resume_requests(void);
void dpmk_queue_racing_request(void);

static inline struct dpmk_dev *to_dpmk(struct device *dev)
{
	return container_of(dev, struct dpmk_dev, dev);
}

static inline const struct dpmk_dev *to_dpmk_const(const struct device *dev)
{
	return container_of(dev, const struct dpmk_dev, dev);
}

/* ---- the run ---- */

struct dpmk_run {
	const struct dpmk_scenario *s;
	struct dpmk_dev		**dev;		/* by index; NULL until created */
	int			ndev;
	int			cycle;		/* transition in progress, from 0 */
	bool			in_transition;
	long long		wakeup_ns;	/* -1: no wake-up event */
	bool			wakeup_told;	/* EV_WAKEUP_ABORT sent */
	bool			wakeup_cleared;	/* lost before this transition */
	int			phase;		/* enum pm_phase, -1: none */
	int			phase_inst;	/* counts phase beginnings */
	int			window_open;	/* suspend_late .. resume_early */
	void			*list_mtx;	/* main.c's dpm_list_mtx */
	int			listing;	/* atomic: devices with a lister */
	struct completion	window_closed;
	int			workers;	/* atomic: runtime tasks alive */
	struct completion	workers_done;
	bool			teardown;
};

extern struct dpmk_run dpmk_run;
extern int dpmk_spin_real;

/* events.c */
void dpmk_emit(int kind, int dev, int phase, int err, long long a,
	       long long b, const char *what);
void dpmk_events_reset(void);
void dpmk_phase_window_wait(void);
int dpmk_phase_now(void);
/* The device main.c handles on this task in the phase in progress (the
 * latest taken in hand and not yet done), or -1. */
int dpmk_in_hand_now(void);

void dpmk_rpm_disabled_hook(struct device *dev);
void dpmk_rpm_enabled_hook(struct device *dev);
void dpmk_device_pm_remove(struct device *dev);
void dpmk_callback_ended(struct dpmk_dev *d, int phase, int err);
void dpmk_trace_device(struct device *dev);

/* core.c */
struct dpmk_dev *dpmk_dev_get(int idx);	/* a reference, or NULL */
struct dpmk_dev *dpmk_dev_peek(int idx);	/* no reference */
void dpmk_dev_publish(struct dpmk_dev *d);
void dpmk_unregister_subtree(struct dpmk_dev *d, bool unfrozen);
/* main.c's device_pm_add() and device_pm_remove() of d, with d marked
 * for LOCKS' in_dpm_list check (events.c). */
void dpmk_device_pm_add(struct device *dev);
void dpmk_core_reset(void);
void dpmk_quarantine_free(void);
bool dpmk_is_quarantined(const void *obj, int *idx);
void dpmk_driver_bind(struct dpmk_dev *d);
int *dpmk_children_counts(void);
int dpmk_refs_expected(struct dpmk_dev *d, int children);
void dpmk_worker_start(void (*fn)(void *), void *arg, const char *name);
void dpmk_workers_abandon(void);
void dpmk_workers_wait(void);

/* links.c */
void dpmk_links_reset(void);
void dpmk_links_abandon(void);
void dpmk_links_add_for(int idx);
void device_links_purge(struct device *dev);
void device_links_unbind_consumers(struct device *dev);
void device_links_driver_cleanup(struct device *dev);
void device_links_driver_bound(struct device *dev);
bool device_links_busy(struct device *dev);
int dpmk_link_refs(struct device *dev);
const char *dpmk_links_describe(const void *obj);

/* runtime.c */
void pm_runtime_init(struct device *dev);
void pm_runtime_remove(struct device *dev);

/* wakeup.c */
void dpmk_wakeup_reset(void);
void dpmk_wakeup_transition(bool begin);

/* callbacks.c */
void dpmk_ops_init(struct dpmk_dev *d);
const char *dpmk_symbol(const void *fn);
/* Whether main.c would find a callback of d for phase p with the driver
 * bound as it is now (main.c's lookup order). */
bool dpmk_has_callback(struct dpmk_dev *d, int phase);

/* misc.c */
void dpmk_misc_reset(void);

/* transition.c */
int dpmk_cycle(int n);

/* printk.c */
int dpmk_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int dpmk_snprintf(char *buf, size_t size, const char *fmt, ...);
void dpmk_log(const char *fmt, ...);

/* state.c */
void dpmk_state_restore(void);
bool dpmk_state_owns(const void *obj);

/* Scenario index of a device, -1 if it is not a scenario device. */
int dpmk_index(const struct device *dev);

void dpmk_publish_list_order(void);
void dpmk_publish_rpm(int end);
long long dpmk_dev_facts(struct device *dev);

/* The explorable copy's footprint runtime (footprint.c): the memory of
 * scenario device idx, by part (0 its struct dpmk_dev, 1 its
 * device_private, 2 its wakeup source; NULL: freed), for the search's
 * keys; dpmk_fp_reset(n) forgets every part and makes room for n
 * devices; dpmk_fp_reset(0) at the end of a run, before anything is
 * freed, forgets the arrays too. */
/* Between DPMK_QUIET_BEGIN() and _END() (no scheduling point there) the
 * runtime's own bookkeeping, which the search must not take for state
 * main.c shares (the quarantine, which a device's release event stands
 * for; the order of reports): not reported. */
#ifdef DPMK_EXPLORE
void dpmk_fp_note(int idx, int part, const void *base);
void dpmk_fp_reset(int n);
/* An array of the runtime's with one element per scenario device
 * (slot 0 to 3; NULL: none), keyed with the device as its part 3. */
void dpmk_fp_note_array(int slot, const void *base, unsigned long elem);
/* Another object of the runtime's, named by two device indexes (a link:
 * its supplier and consumer), until dpmk_fp_forget(base) or the end. */
void dpmk_fp_note_obj(const void *base, unsigned long size, int a, int b);
void dpmk_fp_forget(const void *base);
long dpmk_footprint_locate(const void *p, unsigned long *off);
void dpmk_fp_quiet(int on);
/* The barriers keep the compiler from moving the accesses of a static
 * whose address never escapes across the calls. */
#define DPMK_QUIET_BEGIN()	do { dpmk_fp_quiet(1); barrier(); } while (0)
#define DPMK_QUIET_END()	do { barrier(); dpmk_fp_quiet(0); } while (0)
/* A count the step changes without reading the result (a reference, an
 * SRCU reader): such changes commute, unless last (the count that
 * reaches zero and acts on it), which is a write. */
void dpmk_fp_counted(const void *p, int last);
#define DPMK_COUNTED(p, last)	dpmk_fp_counted((p), (last))
#else
static inline void dpmk_fp_note(int idx, int part, const void *base) {}
static inline void dpmk_fp_reset(int n) {}
static inline void dpmk_fp_note_array(int slot, const void *base,
				      unsigned long elem) {}
static inline void dpmk_fp_note_obj(const void *base, unsigned long size,
				    int a, int b) {}
static inline void dpmk_fp_forget(const void *base) {}
#define DPMK_QUIET_BEGIN()	do { } while (0)
#define DPMK_QUIET_END()	do { } while (0)
#define DPMK_COUNTED(p, last)	do { } while (0)
#endif

#endif
