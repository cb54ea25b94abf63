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
#include <stddef.h>
#include <sys/types.h>

#include "../event/event.h"
#include "../kapi/kapi.h"

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
	/* The variant's own per-device state (struct model_ops.dev_state_size
	 * bytes, zeroed): what the kernel keeps in dev->power. */
	unsigned char pm_state[] __attribute__((aligned(16)));
};

/* The device whose variant state is at p. */
static inline struct device *device_of_pm_state(const void *p)
{
	return (struct device *)((char *)p - offsetof(struct device, pm_state));
}

static inline const char *dev_name(const struct device *dev)
{
	return dev->name;
}

/*
 * The hand-written models run on this driver core (core/variants/model.c
 * implements a run's struct variant_ops for them) and give it these
 * hooks; dpm_model is the one of the run in progress.
 */
struct model_ops {
	/* Bytes of per-device state the variant keeps (dev->pm_state). */
	size_t dev_state_size;
	/* Late and early callbacks run without the device lock, relying on
	 * no hotplug then (the tasks that do it are frozen): the window
	 * without hotplug starts at suspend_late, not suspend_noirq. */
	bool late_early_quiet;
	/* Reset the variant's globals before a run. */
	void (*reset)(void);
	/* Driver-core hooks (device_initialize, device_add, device_del). */
	void (*device_pm_init)(struct device *dev);
	void (*device_pm_add)(struct device *dev);
	void (*device_pm_remove)(struct device *dev);
	/* One system sleep transition: every device suspended, then resumed
	 * (or rolled back); the error the suspend entry point reported. */
	int (*suspend_resume)(void);
	/* What drivers call (and PCI does for all its devices). */
	void (*device_enable_async_suspend)(struct device *dev, bool enable);
	/* A user-space write to the device's power/async attribute. */
	ssize_t (*async_store)(struct device *dev, const char *buf, size_t n);
	/* A driver waits for another device (VF_PM_WAIT); returns the
	 * error the kernel's function returns. */
	int (*device_pm_wait_for_dev)(struct device *sub, struct device *dev);
	/* Describe obj if it is part of dev's variant state (a LIVENESS
	 * report), else NULL; *why: the device whose state explains why
	 * nobody releases obj, or -1. */
	const char *(*describe)(struct device *dev, const void *obj, char *buf,
				size_t n, int *why);
};

extern const struct model_ops *dpm_model;

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
 * where the variant's kernel does.  Publishes the start and the end; the
 * driver's behaviour (time taken, error, side action) applies only while
 * a driver is bound.
 */
int dpm_run_callback(struct device *dev, enum pm_phase phase);

/*
 * A phase of the PM core begins or ends (the kernel's
 * trace_suspend_resume() of the phase): published, and the window in
 * which hotplug is frozen opens at suspend_noirq (or suspend_late, for
 * variants whose late and early callbacks rely on it) and closes after
 * resume_noirq (resume_early).
 */
void pm_phase_begin(enum pm_phase p);
void pm_phase_end(enum pm_phase p);

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
 * The window without hotplug, from suspend_noirq's start to resume_noirq's
 * end (or suspend_late's to resume_early's): nothing but the PM thread
 * runs then (IRQs off, other tasks frozen), so a removal in progress waits
 * it out before it unbinds the driver.
 */
extern struct completion device_noirq_over;

/* Before a run of n devices: the registry and the hotplug window. */
void device_layer_reset(int n);

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
