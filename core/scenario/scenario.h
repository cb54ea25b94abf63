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
#define SCN_ATTR_MAX 15
#define SCN_SUP_MAX 4		/* suppliers per device */
#define SCN_DUR_MAX_US 100000000	/* PHASE=Nus: a callback's time, 100 s */
#define SCN_ERR_MAX 4095		/* err=PHASE:-N: the kernel's error range */

struct scn_device {
	char name[SCN_NAME_MAX + 1];
	int parent;			/* index of an earlier device, or -1 */
	bool async;			/* the driver enables async suspend */
	bool pci;			/* a PCI device: async since 011 */
	int nsup;			/* device links to earlier devices */
	int sup[SCN_SUP_MAX];
	struct dev_behaviour beh;
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
	char attr[SCN_ATTR_MAX + 1];
	int attr_len;
};

struct scenario {
	/* Header: which model it was found on (text format only). */
	char variant[16];
	char fixes[256];		/* knob list as written, "" for none */
	char expect[32];		/* regression files: expected outcome */

	bool pm_async;
	bool pm_trace;
	int cycles;
	unsigned int inline_every;
	unsigned int worker_limit;

	int ndev;
	struct scn_device *dev;
	int nact;
	struct scn_action *act;
	size_t nsched;
	uint8_t *sched;
};

struct scn_limits {
	int max_devices;
	int max_actions;
	int max_cycles;
	bool no_worker_limit;	/* decode every worker limit as none */
};

void scenario_init(struct scenario *s);
void scenario_free(struct scenario *s);

/* Every byte string gives a valid scenario (docs/scenario.md). */
void scenario_decode(const uint8_t *data, size_t size,
		     const struct scn_limits *lim, struct scenario *s);

/*
 * The inverse of scenario_decode() as far as the byte format reaches:
 * bytes that decode (with limits at least as large) to this scenario,
 * with durations rounded to the byte format's table, one error per
 * device, and generated device names.  Returns a malloc'd buffer and its
 * length; *lossy is set when something could not be expressed.
 */
uint8_t *scenario_encode(const struct scenario *s, size_t *len, bool *lossy);

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
