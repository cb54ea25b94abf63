/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What dpmrepro does with a file before it runs it, and its schedule
 * search, as functions: dpmrepro, dpmstress --replay and the tests that
 * feed them corrupt input share them.  Bad input is one line in the
 * caller's buffer (no newline), never an exit.
 */
#ifndef DPM_REPLAY_H
#define DPM_REPLAY_H

#include "run.h"

/* Files past this are refused (a device file such as /dev/zero never ends). */
#define DPM_FILE_MAX (512UL << 20)

/*
 * A whole file, NUL-terminated (the NUL not counted in *len).  what says
 * what a directory is not ("a scenario or crash file").  0, or -1 with
 * the reason in err.
 */
int dpm_read_file(const char *path, const char *what, char **buf, size_t *len,
		  char *err, size_t errlen);

/*
 * A scenario text, by rule, not by luck: the header "dpmfuzz-scenario"
 * (in any case) in the first 4 KiB, a UTF-8 byte order mark, every byte
 * printable (tabs and line ends count), or nine bytes in ten of a file
 * of 16 bytes or more that has a line end.  Anything else is fuzz input bytes.  So a damaged
 * text is rejected in one line, never run as another scenario.
 */
bool dpm_looks_like_text(const char *buf, size_t len);

/*
 * buf as dpmrepro reads it: a scenario text (dpm_looks_like_text(); a
 * leading byte order mark is skipped), or anything else, or everything
 * with bytes set (--bytes), as fuzz input bytes decoded under lim
 * (which never fails).  *text says which.  0, or -1 with the parser's "line N: ..."
 * in err.
 */
int dpm_load(const char *buf, size_t len, const struct scn_limits *lim,
	     bool bytes, struct scenario *s, bool *text, char *err,
	     size_t errlen);

/* dpm_read_file() and dpm_load() of a path (crash files decoded under
 * lim: the DPMFUZZ_* limits, core/run/settings.h); a parse error reads
 * "PATH: line N: ...". */
int dpm_load_file(const char *path, const struct scn_limits *lim, bool bytes,
		  struct scenario *s, bool *text, char *err, size_t errlen);

/*
 * The model to run s on: the variant and knobs named (NULL: the ones in
 * s's header, else seed and none) into o->variant and o->fixes.  0, or
 * -1 with "no variant ..." or "no knob ..." in err.
 */
int dpm_pick(const struct scenario *s, const char *variant, const char *fix,
	     struct run_opts *o, char *err, size_t errlen);

/*
 * dpmrepro --schedules: run s as written, then up to max other schedules
 * (dpm_search_bound() of it)
 * (random schedule bytes from a fixed seed, the same sequence every
 * time) until a run shows want (an enum inv; -1: any violation).  Returns
 * the schedule that did (0: s's own, k: the search's k-th) with s->sched
 * set to it and its result in *r, or -1.  So "dpmrepro --schedules K" on
 * the same file and model shows it again, exactly.
 */
long dpm_schedule_search(struct scenario *s, const struct run_opts *o, long max,
			 int want, struct run_result *r);

/*
 * A schedule search runs at most this many devices' transitions in all
 * (a run of n devices and c cycles counts n * c): 20,000 schedules of
 * the fuzzers' largest scenarios, fewer of larger ones, so a search of a
 * million devices ends in seconds, not hours.  dpm_search_bound() is
 * the number of schedules max becomes for s; callers say when it cut.
 */
#define DPM_SEARCH_BUDGET 50000000L
long dpm_search_bound(const struct scenario *s, long max);

/* The invariant a scenario's 'expect' line names, or -1 ("clean", none). */
int dpm_expected(const struct scenario *s);

#endif
