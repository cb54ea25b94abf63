/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device objects with the driver core's rules that matter to the PM core:
 * a registered child holds a reference to its parent; the PM core holds a
 * device while it works on it; the memory is freed when the last
 * reference is dropped (so ASan sees any later use); children are kept on
 * a klist-like list whose iteration survives concurrent removal.
 */
#ifndef DPM_DEVICE_H
#define DPM_DEVICE_H

#include <stdbool.h>
#include <sys/types.h>

#include "../event/event.h"
#include "../kapi/kapi.h"

/* 2.6.33's dpm_state, in its order (the seed compares with < and >=). */
enum dpm_state {
	DPM_INVALID,
	DPM_ON,
	DPM_PREPARING,
	DPM_RESUMING,
	DPM_SUSPENDING,
	DPM_OFF,
	DPM_OFF_IRQ,
};

struct dev_pm_info {
	unsigned int async_suspend : 1;
	enum dpm_state status;		/* owned by the PM core */
	struct list_head entry;		/* on dpm_list */
	bool in_dpm_list;		/* later kernels' flag for "on dpm_list" */
	struct completion completion;
	struct rw_semaphore rwsem;	/* Linus's proposal */
	/* The modern kernel's per-device state (variant modern). */
	bool is_prepared;
	bool is_suspended;
	bool is_late_suspended;
	bool is_noirq_suspended;
	bool direct_complete;
	bool async_in_progress;
};

struct klist_node {
	struct list_head n;
	int refs;		/* iterators standing on this node */
	bool dead;		/* deleted while an iterator stood on it */
};

/* What the scenario says this device's driver does in each phase. */
struct dev_behaviour {
	unsigned int dur_us[NR_PHASES];
	int err[NR_PHASES];
	/* In this phase's callback, unregister the subtree rooted at
	 * remove_target (a descendant); -1: never.  Fires once. */
	int remove_phase;
	int remove_target;
	/* The device is runtime-suspended and its prepare callback says it
	 * may stay so (returns 1): a direct_complete candidate (modern). */
	bool rpm_suspended;
	/* The driver calls device_pm_wait_for_dev() on this device (id + 1;
	 * 0: never) in its suspend-side callbacks if that device comes later
	 * in the list, in its resume-side callbacks if it comes earlier. */
	int pm_wait_for;
};

struct device {
	struct device *parent;
	struct list_head klist_children;
	struct eng_lock klist_lock;	/* the klist's own lock */
	struct klist_node knode_parent;
	int refcount;
	struct semaphore sem;		/* 2.6.33's device lock */
	bool driver;			/* a driver is bound */
	struct dev_pm_info power;

	/* Model bookkeeping, not kernel state. */
	int id;				/* index in the scenario */
	bool creator_ref;		/* the registering code's reference */
	bool removing;			/* device_del() has been claimed */
	bool freed;			/* last reference dropped (quarantined) */
	struct completion removed;	/* device_del() has finished */
	int registered_children;
	bool pci;
	struct dev_behaviour beh;
	char name[40];
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->name;
}

struct device *device_create_model(int id, const char *name);
void device_initialize(struct device *dev);
void device_add(struct device *dev);
void device_del(struct device *dev);
void device_unregister(struct device *dev);
struct device *get_device(struct device *dev);
void put_device(struct device *dev);
int device_for_each_child(struct device *dev, void *data,
			  int (*fn)(struct device *dev, void *data));

/* kernel/power/main.c switches */
extern int pm_async_enabled;
extern int pm_trace_enabled;
static inline int pm_trace_is_enabled(void) { return pm_trace_enabled; }

/*
 * Run the device's PM callback for a phase: the bus, type and class
 * callbacks of the kernel, folded into one.  The caller holds dev->sem
 * where the variant's kernel does.  Reports start and end to the oracle;
 * the driver's behaviour (time taken, error, side action) applies only
 * while a driver is bound.
 */
int dpm_run_callback(struct device *dev, enum pm_phase phase);

/*
 * Device links (managed, supplier before consumer in registration
 * order, so never a cycle).  A link holds a reference to both ends; it
 * is dropped at the device_del() of either end, and the references go
 * when no reader is in a read-side section any more (SRCU in the
 * kernel), so a reader may still use link->supplier after the purge.
 */
struct device_link {
	struct device *supplier, *consumer;
	bool dead;		/* purged: device_del() of an end */
	bool released;		/* its references dropped */
};

void device_links_reset(void);
/* Called once per run after the devices are added: links i are
 * sup[i] -> con[i] (scenario ids). */
void device_links_setup(int n, const int *sup, const int *con);
int device_links_read_lock(void);
void device_links_read_unlock(int idx);
/* The i-th supplier / consumer link of dev (NULL past the end). */
struct device_link *device_supplier_link(struct device *dev, int i);
struct device_link *device_consumer_link(struct device *dev, int i);
bool device_link_dead(struct device_link *l);
/* References links hold on dev (for the end-of-run count). */
int device_link_refs(struct device *dev);

/*
 * The noirq window, from suspend_noirq's start to resume_noirq's end:
 * nothing but the PM thread runs then (IRQs off, other tasks frozen), so
 * a removal in progress waits it out before it unbinds the driver.
 */
extern struct completion device_noirq_over;
void device_noirq_reset(void);

/* Registry of live device objects, by scenario id (NULL once freed). */
void device_registry_reset(int n);
struct device *device_by_id(int id);
/* A reference to a live device by id, or NULL (kref_get_unless_zero). */
struct device *device_get_by_id(int id);
int device_registry_size(void);
void device_registry_free_all(void);	/* after an abandoned run */
/*
 * While on, a device whose last reference is dropped is kept (not freed)
 * until quarantine is turned off, and any kapi operation on its objects,
 * or get_device()/put_device() on it, is reported as REMOVED (a use after
 * free) in every build.  Turning it off frees the quarantined devices.
 */
void device_quarantine(bool on);

/*
 * Unregister the subtree rooted at dev, children first.  Whoever claims a
 * device's removal first does it; a second remover (a hotplug task and a
 * driver callback racing) leaves it alone, as bus code removes a device
 * once.  Returns false if dev was claimed already.
 */
bool device_unregister_subtree(struct device *dev);

#endif
