/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Corrupt copies of a capture: bits flipped, bytes set, inserted, deleted
 * and duplicated, log keywords and NULs dropped in, sometimes a very long
 * line, sometimes only a window of the file, sometimes truncated
 * mid-line.  Deterministic: the same seed and case give the same bytes on
 * every machine.
 *
 * And the cases dpmimport's corrupt-input tests run (tools/import_test.sh
 * through import_mutate, tests/test_import_corrupt.c in-process): case K
 * is one of six kinds of input, each made from the four skynet captures
 * (shared/data/pm-graph-skynet-2014) and then corrupted.
 */
#ifndef DPM_CAPTURE_MUTATE_H
#define DPM_CAPTURE_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mutate_src {
	const char *buf;
	size_t len;
};

/* Grows as needed; free(p) when done. */
struct mutate_buf {
	unsigned char *p;
	size_t n, cap;
};

/*
 * Case k of seed: picks one of the nsrc sources and writes a corrupt
 * copy of it to *out (replacing what it held).  Returns the source's
 * index.  Out of memory: dpm_out_of_memory() (core/util/xalloc.h), as
 * everywhere in the suite.
 */
int capture_mutate(uint64_t seed, uint64_t k, const struct mutate_src *src,
		   int nsrc, struct mutate_buf *out);

#define CORRUPT_NSRC 4		/* standby, freeze, mem, disk */

/*
 * What the cases are made from: the skynet captures as read, and inputs
 * in the other formats made from them when loaded (none is a file of
 * the repository):
 *  - newdmesg: the dmesg with its 3.x callback lines rewritten in the
 *    4.x-6.x form ("DRIVER DEV: [PM: ]calling FUNC+0x0/0x80 [MOD] @ PID,
 *    parent: P"), DRIVER DEV as the ftrace of the same run prints it;
 *  - html: a sleepgraph-like page embedding the dmesg (with '<' and '>'
 *    as "&lt" and "&gt") and the ftrace;
 *  - multi: the dmesg and the ftrace of run i followed by those of run
 *    i + 1: two transitions.
 */
struct corrupt_sources {
	struct mutate_buf dmesg[CORRUPT_NSRC], ftrace[CORRUPT_NSRC];
	struct mutate_buf newdmesg[CORRUPT_NSRC], html[CORRUPT_NSRC];
	struct mutate_buf multi_dmesg[CORRUPT_NSRC], multi_ftrace[CORRUPT_NSRC];
};

/* Reads DIR/skynet_{standby,freeze,mem,disk}_{dmesg,ftrace}.txt: 0, or
 * -1 with the reason in err. */
int corrupt_sources_load(const char *dir, struct corrupt_sources *s,
			 char *err, size_t errlen);
void corrupt_sources_free(struct corrupt_sources *s);

enum corrupt_kind {
	CK_DMESG,		/* a 3.x dmesg */
	CK_FTRACE,		/* an ftrace */
	CK_BOTH,		/* the dmesg and ftrace of one run */
	CK_NEWDMESG,		/* a 4.x-6.x dmesg */
	CK_HTML,		/* a sleepgraph page */
	CK_MULTI,		/* dmesg and ftrace of two transitions */
	NR_CK
};

extern const char *const corrupt_kind_name[NR_CK];

/* Case k: its kind, and corrupt copies of what it gives dpmimport. */
struct corrupt_case {
	enum corrupt_kind kind;
	bool has_dmesg, has_ftrace, has_html;
	struct mutate_buf dmesg, ftrace, html;	/* reused across cases */
};

/*
 * Case k of seed: kind k % NR_CK, run (k / NR_CK) % 4; the dmesg
 * corrupted with seed, the ftrace with seed + 1, the page with seed + 2.
 */
void corrupt_case_make(uint64_t seed, uint64_t k, const struct corrupt_sources *s,
		       struct corrupt_case *c);
void corrupt_case_free(struct corrupt_case *c);

#endif
