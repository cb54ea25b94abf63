/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmk_check, the kernel variants' development harness: random seeded
 * scenarios (kgen.c) run on each registered kernel tree, judged by a
 * small checker of basic invariants listening on the event bus
 * (kchecker.c).  The project's oracle (core/check) is being rewritten;
 * this checker is the kernel side's own.
 */
#ifndef DPMK_KCHECK_H
#define DPMK_KCHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../kabi.h"

#define KC_MAX_DEV	32
#define KC_MAX_LINKS	24
#define KC_MAX_ACT	4

/* A hotplug task's unregister, or a user-space power/async write. */
struct kc_action {
	int kind;		/* 0 unregister at at_us, 1 async write before cycle */
	int dev;
	long long at_us;
	int cycle;
	char text[16];
	int len;
};

struct kc_scenario {
	struct dpmk_scenario s;
	struct dpmk_device dev[KC_MAX_DEV];
	struct dpmk_link link[KC_MAX_LINKS];
	char names[KC_MAX_DEV][16];
	int cycles;
	unsigned int inline_every, worker_limit;
	int nact;
	struct kc_action act[KC_MAX_ACT];
	uint8_t sched[512];
	int nsched;
};

struct kc_gen_opts {
	int max_dev;
	bool no_removals;	/* neither hotplug nor side-action removals */
	bool sso_backward;	/* SYNC_STATE_ONLY links may point backwards */
	bool kv5;		/* removals of devices with children */
	bool kv6;		/* async no-PM devices */
};

void kc_generate(uint64_t seed, const struct kc_gen_opts *o, struct kc_scenario *k);
void kc_print(const struct kc_scenario *k, const char *tree, FILE *f);

/* The checker: reset before a run, then it listens. */
void kc_check_reset(const struct kc_scenario *k);
void kc_check_listen(void);
/* Whether the device of that name was removed in the run. */
bool kc_check_gone(const char *name);
/* The first violation of the run, or NULL. */
const char *kc_check_violation(void);
/* Counts over every run since start, for the summary. */
struct kc_stats {
	long callbacks, skips[NR_SKIP], direct_complete, direct_resume,
	     wakeup_aborts, gone, freed, transitions, failed_transitions, kv2, kv3, kv4;
};
/* Findings are violations too (--strict). */
extern bool kc_strict;
extern struct kc_stats kc_stats;
/* Events go to the run log too (--events). */
extern bool kc_print_events;
/* Set by the harness when the engine run ends badly. */
void kc_check_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
