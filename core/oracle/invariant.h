/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oracle's invariants as a table (docs/oracle.md, "Adding an
 * invariant").  Each invariant is a struct invariant: its name (the ID
 * a report carries), one sentence of what it means, the events it
 * consumes, the oracle state it reads and writes, and its check.  The
 * table, core/oracle/table.c, lists them; an invariant's ID is its place
 * there.
 *
 * The exhaustive search (core/explore) derives what a step touches of
 * the oracle from these declarations (oracle_footprint()): two steps
 * whose events an invariant judges against each other are dependent, so
 * the search runs both orders.  A declaration that leaves out what a
 * check reads lets the search skip a schedule that breaks it.
 *
 * The state is named relative to the event's device D:
 */
#ifndef DPM_ORACLE_INVARIANT_H
#define DPM_ORACLE_INVARIANT_H

#include <stdbool.h>
#include <stdint.h>

#include "../event/event.h"

enum oracle_scope {
	OS_GLOBAL = 1u << 0,	/* the phase and transition in progress,
				 * failures, counts of running callbacks */
	OS_SELF = 1u << 1,	/* D's own record: its running callback,
				 * the phases that ran or took it in hand,
				 * prepared, freed */
	OS_DEPTH = 1u << 2,	/* how deep D is suspended, gone,
				 * direct_complete: what its relatives'
				 * checks read */
	OS_RELATED = 1u << 3,	/* the depth of D's parent, children,
				 * suppliers and consumers */
	OS_WAITED = 1u << 4,	/* the depth of the device D's driver waits
				 * for (device_pm_wait_for_dev()) */
	OS_ALL = 1u << 5,	/* every device's record and depth */
	OS_MEMORY = 1u << 6,	/* D's memory (its release) */
};

/* Bit of an event kind in struct invariant.events. */
#define EVB(kind) (1ULL << (kind))

struct invariant {
	const char *name;	/* upper case, '-' between words */
	const char *meaning;	/* one sentence */
	uint64_t events;	/* EVB() of each event kind it consumes */
	unsigned int reads;	/* OS_* it reads at those events */
	unsigned int writes;	/* OS_* it writes at those events */
	/* Its events are judged in list order when the run cannot go
	 * async (or pm_trace holds a resume phase synchronous): then they
	 * read and write every device's state. */
	bool serial;
	/* A new run begins (NULL: nothing to reset). */
	void (*reset)(void);
	/* An event of its kinds; id is its place in the table, for
	 * oracle_fail().  NULL for the built-in invariants, which the
	 * oracle's record judges (oracle.c, kernel_rules.c, skip.c): their
	 * lines declare what they consume and read, and the record's
	 * handlers do the rest. */
	void (*check)(int id, const struct dpm_event *ev);
};

/* The table (table.c): the built-in invariants at their enum inv
 * places, then the others. */
extern const struct invariant *const oracle_invariants[];
extern const int oracle_ninvariants;

/* For a check: report a violation of invariant id (the first of a run
 * counts) and stop the run. */
void oracle_fail(int id, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* For a check: a device's name, the scenario's device count, and how
 * deep a device is suspended (0 on, 1 suspended, 2 late, 3 noirq). */
const char *oracle_dev_name(int dev);
int oracle_ndev(void);
int oracle_depth(int dev);

/*
 * What event ev touches of the oracle's state: the OS_* it reads and
 * writes, by the record (table.c) and every invariant that consumes it.
 * serial: the run judges callbacks in list order (see .serial).  An
 * event whose device is out of range touches everything.
 */
void oracle_footprint(const struct dpm_event *ev, bool serial,
		      unsigned int *reads, unsigned int *writes);

#endif
