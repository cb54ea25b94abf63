/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: completions are dpmfuzz's own (core/kapi), linked
 * by name, opaque here like struct mutex (all zero bytes: not done).
 *
 * complete_all() goes through the runtime first (kernel/rt/events.c):
 * main.c completes a device's power.completion when it is done with the
 * device in a suspend or resume phase, and the runtime uses that moment
 * to tell the oracle whether the device's callback ran, and if not, why.
 */
#ifndef _DPMSHIM_LINUX_COMPLETION_H
#define _DPMSHIM_LINUX_COMPLETION_H

#include <linux/types.h>
#include <dpmshim/host.h>

struct completion {
	unsigned long long __opaque[DPMK_SIZEOF_COMPLETION / sizeof(unsigned long long)];
};

void init_completion(struct completion *x);
void reinit_completion(struct completion *x);
void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

void dpmk_complete_all(struct completion *x);
#define complete_all(x)		dpmk_complete_all(x)

/* LOCKS: main.c waits only without dpm_list_mtx. */
#ifdef DPMK_IN_MAIN_C
#define wait_for_completion(x)						\
	(DPMK_MAIN_UNLOCKED("waits in wait_for_completion()"),		\
	 (wait_for_completion)(x))
#endif

#endif
