/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Corrupt copies of a capture: bits flipped, bytes set, inserted, deleted
 * and duplicated, log keywords and NULs dropped in, sometimes a very long
 * line, sometimes only a window of the file, sometimes truncated
 * mid-line.  Deterministic: the same seed and case give the same bytes on
 * every machine.
 */
#ifndef DPM_CAPTURE_MUTATE_H
#define DPM_CAPTURE_MUTATE_H

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

#endif
