/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The importer of tools/dpmimport, callable in-process: pm-graph/
 * sleepgraph captures held in memory (dmesg, ftrace, or the .html page
 * that embeds them) to scenario texts, one per suspend/resume transition
 * the capture holds.  The binary reads the files, calls
 * import_captures() and writes what it returns; tests call it directly.
 * One import at a time (it keeps its tables in static storage).
 * docs/import.md describes the formats and the rules.
 */
#ifndef DPM_IMPORT_H
#define DPM_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "scenario/scenario.h"

#define IMPORT_BAD_INPUT 2	/* dpmimport's exit code for bad input */
#define IMPORT_MAX_CYCLES 100	/* transitions in one capture */

struct import_capture {
	const char *path;	/* the file name: messages, the header comment */
	const char *buf;	/* the capture, NULs allowed; NULL: not given */
	size_t len;
};

#define IMPORT_VARIANTS_MAX 4

struct import_request {
	/* html: sleepgraph's page, whose embedded logs stand for dmesg and
	 * ftrace (give it alone) */
	struct import_capture dmesg, ftrace, html;
	FILE *summary;		/* per-phase figures (dpmimport --summary), or NULL */
	/* dpmimport --variant: the scenarios' variant instead of the one the
	 * kernel version picks, and the models the summary runs (each a
	 * column; none: the picked one).  Registered names (variant_find()). */
	const char *variants[IMPORT_VARIANTS_MAX];
	int nvariants;
};

struct import_result {
	int ncycle;		/* transitions in the capture, at least 1 */
	char **text;		/* text[k]: the scenario of transition k + 1 */
	char variant[SCN_VARIANT_MAX + 1];	/* the variant line they carry */
};

/*
 * 0 with the scenarios in *res (each malloc'd: "# imported by dpmimport
 * from FILE" lines, notes, then the scenario, which parses back to
 * itself; import_result_free() frees them), or IMPORT_BAD_INPUT with
 * *res empty and the reason in err as one line (no control characters).
 * Frees everything else it allocated either way.
 */
int import_captures(const struct import_request *rq, struct import_result *res,
		    char *err, size_t errlen);
void import_result_free(struct import_result *res);

/*
 * The variant to replay a capture of kernel `version` ("5.3.0-rc7+";
 * NULL or "" when the capture does not say) on, chosen among `names`
 * (variant_names(): "seed, modern, rwsem", later also kernel variants
 * "kernel-6.12.118"), into buf: the newest variant that fits.
 *  - a kernel variant of the capture's major.minor, the highest
 *    version of those if several;
 *  - else "seed" for 2.6.33 and older (the seed is 2.6.33's async
 *    suspend; before it every device ran synchronously, as the seed runs
 *    a tree without async devices);
 *  - else "modern" (6.12's main.c: the closest model to every later
 *    kernel, and to 2.6.34-6.11 too, whose ordering it keeps).
 * Returns buf; why (if not NULL) gets a few words for the output.
 */
const char *import_pick_variant(const char *version, const char *names,
				char *buf, size_t n, char *why, size_t whylen);

/* Control characters to '?', so a message stays one line. */
void import_one_line(char *msg);

#endif
