/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: completions are dpmfuzz's own (core/kapi), linked
 * by name, opaque here like struct mutex (all zero bytes: not done).
 *
 * complete_all() goes through the runtime first (kernel/rt/events.c):
 * main.c completes a device's power.completion when it is done with the
 * device in a suspend or resume phase, and the runtime uses that moment
 * to tell the oracle whether the device's callback ran, and if not, why.
 *
 * The kernel's completion is only usable once init_completion() has
 * linked its wait list to itself; kapi's works all zero.  So every
 * init_completion() here marks the completion set up, and main.c's
 * complete_all() and waits on one that is not are told to
 * the oracle (its SET-UP), where the kernel would oops.
 */
#ifndef _DPMSHIM_LINUX_COMPLETION_H
#define _DPMSHIM_LINUX_COMPLETION_H

#include <linux/types.h>
#include <dpmshim/host.h>

struct completion {
	unsigned long long __opaque[DPMK_SIZEOF_COMPLETION / sizeof(unsigned long long)];
	unsigned int dpmk_set_up;	/* init_completion() ran on it */
};

void init_completion(struct completion *x);
void reinit_completion(struct completion *x);
void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

void dpmk_complete_all(struct completion *x);
#define complete_all(x)		dpmk_complete_all(x)
void dpmk_init_completion(struct completion *x);
#define init_completion(x)	dpmk_init_completion(x)
/* main.c uses x, a device's power.completion: tell the oracle if it was
 * never set up. */
void dpmk_completion_used(struct completion *x, const char *op);

/* LOCKS: main.c waits only without dpm_list_mtx. */
#ifdef DPMK_IN_MAIN_C
#define wait_for_completion(x)						\
	(DPMK_MAIN_UNLOCKED("waits in wait_for_completion()"),		\
	 dpmk_completion_used((x), "wait_for_completion()"),		\
	 (wait_for_completion)(x))
#endif

#endif
