/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the importer's files share (tools/import*.c); tools/import.h is
 * the interface to the rest of the project.  One import at a time: the
 * tables live in static storage, and die() jumps back to
 * import_captures(), which frees whatever is reachable from here.
 *
 *   import_lines.c   spans, numbers, interned strings and tuples, errors
 *   import_dmesg.c   dmesg: initcall_debug callback lines, phase lines
 *   import_ftrace.c  ftrace: device_pm_callback_* and suspend_resume events
 *   import_html.c    the logs sleepgraph embeds in its .html output
 *   import_tree.c    device identity, dpm_list order, parents, names
 *   import.c         cycles, the two logs together, the variant, output
 */
#ifndef DPM_IMPORT_INT_H
#define DPM_IMPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "import.h"

#define NPOS		SIZE_MAX
#define NUM_SAT		1000000000000000ULL	/* past it, "huge" is enough */

/* ---- errors and memory (import_lines.c) ---- */

/* Bad input: one line in the caller's buffer, then back to
 * import_captures() (out of memory too). */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xrealloc(void *p, size_t n);
/* Make room for need elements of an array; returns the array. */
void *grow(void *p, int *cap, int need, size_t size);
/* A remark for the output's header ("# note: ..."), e.g. how an
 * ambiguous name was read. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- spans: pieces of the input, which may hold NULs ---- */

struct span {
	const char *p;
	size_t n;
};

extern const struct span empty_span;

struct span sub(struct span s, size_t from, size_t to);
struct span cstr(const char *s);
size_t find(struct span s, size_t from, const char *lit);
size_t rfind(struct span s, const char *lit);
/* The index after lit if it is at i, else NPOS (which passes through). */
size_t skip(struct span s, size_t i, const char *lit);
bool span_is(struct span s, const char *lit);
bool is_digit(char c);
size_t digits(struct span s, size_t i);
bool is_blank(unsigned char c);
struct span strip(struct span s);
uint64_t to_u64(struct span s);
int64_t to_i64(struct span s);
double to_msecs(struct span s);
uint64_t sat_add(uint64_t a, uint64_t b);
/* " returned ERR after N usecs" at i (ERR may be negative). */
bool returned_tail(struct span l, size_t i, struct span *err, struct span *dur);
/* Calls fn on every line ("\n", "\r\n" and "\r" end one). */
void each_line(struct span text, void (*fn)(void *ctx, struct span line),
	       void *ctx);

/* ---- interned strings: names, parents, pids, pairing keys ---- */

struct strtab {
	struct span *str;
	int n, cap;
	int *slot;		/* open addressing, -1 empty */
	size_t nslot;		/* a power of two, more than twice n */
};

int st_intern(struct strtab *t, struct span s);
int st_find(const struct strtab *t, struct span s);
void st_free(struct strtab *t);

/* Every capture shares them, so a name is the same id in each. */
extern struct strtab strs;

/* ---- interned tuples of string ids (identities, devices) ---- */

#define TUPLE_MAX 3

struct tupletab {
	int (*v)[TUPLE_MAX];
	int n, cap;
	int *slot;
	size_t nslot;
};

int tt_intern(struct tupletab *t, int a, int b, int c);
void tt_free(struct tupletab *t);

/* ---- one capture ---- */

/*
 * One callback as logged.  ident is the device as the log names it:
 * (who, parent, with_drv), who being "DRIVER DEVICE" (ftrace, and dmesg
 * since 4.x) or DEVICE alone (dmesg of 3.x).
 */
struct call {
	int ident;
	int who;		/* pairs an end with its start */
	int pid;
	int pm_pid;		/* ftrace: who runs its phase, or -1 */
	int phase;		/* enum pm_phase; dmesg: -1 until its line */
	int cycle;		/* 0-based suspend/resume transition */
	int next;		/* the next unanswered call of this who */
	signed char hint;	/* dmesg: the phase the callback's name says, or -1 */
	bool async;
	uint64_t start_ns;	/* ftrace */
	uint64_t dur_us;
	int64_t err;
};

/* The log's own figures for one transition. */
struct cycle_log {
	double ms[NR_PHASES];	/* "complete after X msecs"; dpm_* end - begin */
	bool has[NR_PHASES];
	int verb[2];		/* suspend-side, resume-side: an index in verb_names */
};

extern const char *const verb_names[];	/* "suspend", "freeze", ... */

struct capture {
	const char *path;	/* the file name, for messages and the header */
	const char *kind;	/* "dmesg" or "ftrace" */
	struct span text;	/* may hold NULs */
	struct call *call;
	int ncall, call_cap;
	/* unanswered calls by who: FIFOs through call.next */
	int *head, *tail;
	int nhead;
	struct cycle_log *cyc;
	int ncyc, cyc_cap;	/* transitions seen so far */
	bool resume_seen;	/* a resume-side phase in the current one */
	int nphase_marks;	/* phase lines or events */
	/* "# suspend-MMDDYY-HHMMSS HOST MODE KERNEL", or "Linux version K" */
	struct span stamp, host, mode, kernel;
	/* dmesg: calls from here on wait for their phase line */
	int unassigned;
	int last_phase;
	struct span failed;	/* dmesg: "PM: ... of devices failed" */
	/* ftrace: the dpm_* phases in progress, innermost last (a failed
	 * dpm_suspend_noirq() runs dpm_resume_noirq() inside it), and who
	 * runs the phases */
	struct open_phase {
		int phase, pid;
		uint64_t begin;
	} open[4];
	int nopen;
	int *phase_pid;
	int nphase_pid, phase_pid_cap;
};

/* import_lines.c: the capture's bookkeeping */
int intern_pid(struct span d);
int add_call(struct capture *c, struct span who, bool with_drv,
	     struct span parent, struct span pid);
/* The oldest unanswered call of who (with pid >= 0, preferably on it). */
int pend_pop(struct capture *c, int who, int pid);
/* The current transition's log, starting one when a suspend-side phase
 * follows a resume-side one. */
struct cycle_log *cycle_at_phase(struct capture *c, int phase);
int verb_index(struct span verb);
bool is_suspend_verb(struct span verb);
/* "# suspend-061314-132459 skynet mem 3.15.0-latest" */
bool stamp_line(struct capture *c, struct span l);
void free_capture(struct capture *c);

/* import_dmesg.c, import_ftrace.c: parse c->text into c. */
void dmesg_load(struct capture *c);
void ftrace_load(struct capture *c);

/* import_html.c: the dmesg and ftrace logs of a sleepgraph page, decoded
 * into malloc'd buffers (each left NULL when the page has none);
 * dies when it has neither. */
void html_extract(const char *path, struct span page, char **dmesg,
		  size_t *dlen, char **ftrace, size_t *flen);

/* ---- devices (import_tree.c) ---- */

/* The identity table: (who, parent, with_drv) -> id */
extern struct tupletab idents;

/*
 * A device as the import sees it: driver (-1 unknown: a 3.x dmesg names
 * none), name and parent name, each a string id.  The first ones have
 * callbacks; those added after are parents only.
 */
struct tdev {
	int drv, name, parent_name;
	int parent;		/* index in devs, or -1 */
	bool async;		/* a callback ran off the PM thread */
	int ambiguous_parent;	/* devices named like its parent, if > 1 */
	unsigned char state;	/* placing: 0 new, 1 on the path, 2 placed */
	char base[40];		/* the name made fit for a scenario */
	char out[40];		/* the same, unique: the scenario's name */
};

struct tree {
	struct tdev *dev;
	int ndev, cap;
	int *ident_dev;		/* ident -> dev */
	int *order;		/* dev indices in dpm_list order, parents first */
	int norder;
};

/* Devices from the identities, then dpm_list order from calls (all the
 * calls of every capture and cycle), parents and unique names. */
void tree_build(struct tree *t, struct call *const *calls, const int *ncalls,
		int nlists);
void tree_free(struct tree *t);

#endif
