/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The importer of tools/dpmimport, callable in-process: pm-graph/
 * sleepgraph captures held in memory to a scenario text.  The binary
 * reads the files, calls import_captures() and writes what it returns;
 * tests call it directly.  One import at a time (it keeps its tables in
 * static storage).
 */
#ifndef DPM_IMPORT_H
#define DPM_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "scenario/scenario.h"

#define IMPORT_BAD_INPUT 2	/* dpmimport's exit code for bad input */

struct import_capture {
	const char *path;	/* the file name: messages, the header comment */
	const char *buf;	/* the capture, NULs allowed; NULL: not given */
	size_t len;
};

struct import_request {
	struct import_capture dmesg, ftrace;
	FILE *summary;		/* per-phase figures (dpmimport --summary), or NULL */
};

/*
 * 0 with *text the scenario (malloc'd; "# imported by dpmimport from
 * FILE" lines, then the scenario, which parses back to itself), or
 * IMPORT_BAD_INPUT with *text NULL and the reason in err as one line
 * (no control characters).  Frees everything else it allocated either
 * way.
 */
int import_captures(const struct import_request *rq, char **text, char *err,
		    size_t errlen);

/* Control characters to '?', so a message stays one line. */
void import_one_line(char *msg);

#endif
