// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of invariants (invariant.h) as invariants.def lists them,
 * and what each event touches of the oracle's state: the record's own
 * access, which the built-in invariants share, and the declarations of
 * the others.
 */
#include "invariant.h"
#include "oracle.h"

#define INVARIANT(sym) extern const struct invariant sym;
#include "invariants.def"
#undef INVARIANT

const struct invariant *const oracle_invariants[] = {
#define INVARIANT(sym) &sym,
#include "invariants.def"
#undef INVARIANT
};
const int oracle_ninvariants =
	(int)(sizeof(oracle_invariants) / sizeof(oracle_invariants[0]));

_Static_assert(sizeof(oracle_invariants) / sizeof(oracle_invariants[0]) <= NR_INV,
	       "more invariants than NR_INV has room for");

/*
 * What the record (oracle.c's per-device and per-transition state, its
 * handlers, and the built-in invariants they judge) reads and writes at
 * each event.  A kind with no line reads and writes everything.  A
 * callback's start reads the phase, its device's depth and its
 * relatives' (the ordering rules), and writes its own record; its end
 * writes its depth and reads the depth of the device it waited for;
 * the phase's end reads every device (nothing running, SLEEP-COMPLETE).
 */
struct access { unsigned int reads, writes; bool serial, set; };

#define ACC(r, w, s) { (r), (w), (s), true }
static const struct access record_access[NR_EV_KINDS] = {
	[EV_CB_START] = ACC(OS_GLOBAL | OS_DEPTH | OS_RELATED, OS_SELF, true),
	[EV_CB_END] = ACC(OS_GLOBAL | OS_WAITED, OS_SELF | OS_DEPTH, true),
	[EV_DIRECT_COMPLETE] = ACC(OS_GLOBAL | OS_SELF | OS_RELATED, OS_DEPTH,
				   true),
	[EV_DIRECT_RESUME] = ACC(OS_GLOBAL, OS_DEPTH, false),
	[EV_HANDLED] = ACC(0, OS_SELF, false),
	[EV_GONE] = ACC(0, OS_DEPTH, false),
	[EV_FREED] = ACC(0, OS_SELF | OS_MEMORY, false),
	[EV_PHASE_BEGIN] = ACC(0, OS_GLOBAL, false),
	[EV_PHASE_END] = ACC(OS_ALL, OS_GLOBAL, false),
	/* Judged by their own invariants only (WAIT, SET-UP). */
	[EV_PM_WAIT] = ACC(0, 0, false),
	[EV_NOT_SET_UP] = ACC(0, 0, false),
};

#define OS_OF_DEVICE (OS_SELF | OS_DEPTH | OS_RELATED | OS_WAITED | OS_MEMORY)

/* Per event kind: the record's access and every checking invariant's
 * that consumes it, merged once. */
static struct access merged[NR_EV_KINDS];
static bool merged_done;

static void merge(void)
{
	for (int k = 0; k < NR_EV_KINDS; k++) {
		struct access m = record_access[k];

		if (!m.set)
			m = (struct access)ACC(0, OS_GLOBAL | OS_ALL, false);
		for (int i = 0; i < oracle_ninvariants; i++) {
			const struct invariant *v = oracle_invariants[i];

			if (!v->check || !(v->events & EVB(k)))
				continue;
			m.reads |= v->reads;
			m.writes |= v->writes;
			m.serial |= v->serial;
		}
		merged[k] = m;
	}
	merged_done = true;
}

void oracle_footprint(const struct dpm_event *ev, bool serial,
		      unsigned int *reads, unsigned int *writes)
{
	struct access m = ACC(0, OS_GLOBAL | OS_ALL, false);

	if (!merged_done)
		merge();
	if (ev->kind >= 0 && ev->kind < NR_EV_KINDS)
		m = merged[ev->kind];
	if ((serial && m.serial) ||
	    ((m.reads | m.writes) & OS_OF_DEVICE &&
	     (ev->dev < 0 || ev->dev >= oracle_ndev()))) {
		m.reads = 0;
		m.writes = OS_GLOBAL | OS_ALL;
	}
	*reads = m.reads & ~m.writes;
	*writes = m.writes;
}

_Static_assert(NR_EV_KINDS <= 64, "struct invariant.events has 64 bits");
