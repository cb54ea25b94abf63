/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oracle on a real kernel's run (tools/dpmvm, dpmrepro --judge):
 * the record vm/module/dpmvm.c keeps of what the PM core did with a
 * scenario's devices, judged as the kernel variant's run of the same
 * scenario is.  docs/vm.md, "The judge".
 */
#ifndef DPM_JUDGE_H
#define DPM_JUDGE_H

#include <stdio.h>

#include "run.h"

struct judge_opts {
	bool log;		/* keep the run log (the report's trace) */
	dpm_listener_fn hook;	/* a listener besides the oracle, or NULL */
	void *hook_ctx;
};

/*
 * Judge the record rec as the real run of s (o: the kernel variant of
 * s's version, for the oracle's view of s, and its knobs on as waivers
 * of the findings they tolerate; the harness's stand-ins do not apply to
 * a real kernel).  The verdict goes to *r (a record marked "# hung":
 * LIVENESS, unless an invariant broke before).  0, or -1 with one line
 * in err: a record that cannot be read (a line of another form, a device
 * the scenario does not have, sequence numbers out of order, an
 * overflowed record).
 */
int dpm_judge_record(const struct scenario *s, const struct run_opts *o,
		     FILE *rec, const struct judge_opts *jo,
		     struct run_result *r, char *err, size_t errlen);

/* A bus listener writing one line per event to out->f:
 *   KIND DEV PHASE ERR A B US
 * (KIND a name such as cb-start, DEV a device's name or '-', PHASE a
 * phase's name or '-', US the run's clock in microseconds): the events
 * of a variant's run or of a judged record, for tools/dpmvm's
 * comparison and its anchoring of timed actions. */
struct events_out {
	FILE *f;
	const char *const *names;
	int ndev;
};

void dpm_events_write(const struct dpm_event *ev, void *ctx);

#endif
