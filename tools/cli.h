/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line of dpmrepro, dpmstress, dpmimport and dpmcheck: one
 * option table per program, from which getopt_long's table, --help and
 * --version are made, strict number and time parsers, and the old
 * spellings of renamed options (aliases).  Nothing here exits, and the
 * only thing printed is an alias's one-line note: a bad command line
 * comes back as one line in the caller's buffer, and the program says it
 * (cli_say()) and exits 2.  docs/options.md lists the option names the
 * programs share and their exit codes.
 * The end of the file: what the programs share about ending (cli_io.c):
 * signals, output files, standard output.
 *
 * tests/check_options.py reads a program's table from its source and
 * compares it with the switch that handles the options, with --help and
 * with the program's options table in docs/ (docs/fuzzing.md lists
 * where).  Keep one row per line in the form
 *	{ "name", KEY, "ARG" or NULL, "one line of help" },
 * and one alias per line in the form
 *	{ "old-name", "name" },
 */
#ifndef DPM_TOOLS_CLI_H
#define DPM_TOOLS_CLI_H

#include <getopt.h>	/* optind */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What cli_next() returns besides a table key. */
enum {
	CLI_END = -1,		/* no more options; positionals from *optind on */
	CLI_ERROR = -2,		/* bad command line: the reason in err */
	CLI_PRINTED = -3,	/* -h, --help or --version: printed on
				 * stdout; the program exits 0 */
	CLI_HELP = 1000,	/* -h or --help (every program has them) */
	CLI_VERSION,		/* --version (likewise) */
	CLI_FIRST_KEY		/* a program's long-only keys start here */
};

struct cli_option {
	const char *name;	/* the long name, without "--" */
	int key;		/* a short option's letter, or CLI_FIRST_KEY.. */
	const char *arg;	/* the argument's name in --help; NULL: none */
	const char *help;	/* one line */
};

/*
 * An old spelling of a renamed option: --OLD works as --NOW (NOW a row
 * of the table; the value, if any, is NOW's) after one line on stderr,
 * "PROG: --OLD is now --NOW".  --help and the docs list NOW only.
 */
struct cli_alias {
	const char *old;	/* without "--" */
	const char *now;	/* the row's long name */
};

struct cli_program {
	const char *name;
	const char *usage;	/* after "usage: NAME "; '\n' between forms */
	const char *about;	/* one line: what the program does */
	const struct cli_option *options;	/* ended by { NULL } */
	/* Printed after the options: the environment, where the docs are,
	 * and a line that starts "Exit: " with the exit codes. */
	const char *footer;
	const struct cli_alias *aliases;	/* ended by { NULL }; or NULL */
};

/*
 * getopt_long over p's table (and -h, --help, --version): the next
 * option's key, with its argument in *arg (NULL for a flag; an alias
 * gives its row's key, after its note on stderr); CLI_END at
 * the end, where getopt's optind says where the positionals start
 * (getopt_long moves them after the options); CLI_PRINTED once it printed
 * the help or the version (cli_help(), cli_version()); CLI_ERROR with a one-line
 * reason in err ("unknown option '--bogus' (dpmrepro --help lists the
 * options)").  Long options may be abbreviated while the abbreviation
 * is unique, as getopt_long allows.
 */
int cli_next(const struct cli_program *p, int argc, char **argv,
	     const char **arg, char *err, size_t errlen);

/* --help: usage, about, one line per option, footer. */
void cli_help(const struct cli_program *p, FILE *f);
/* --version: "NAME (dpmfuzz) VERSION", the project's version (CMake). */
void cli_version(const struct cli_program *p, FILE *f);

/*
 * A whole decimal number from lo to hi (an optional '-' only when lo is
 * negative; no sign, space or other character; no overflow).  0, or -1
 * with "--tail wants a number from 0 to 2147483647, not 'x'" in
 * err; opt names the option in the message.
 */
int cli_number(const char *opt, const char *text, long long lo, long long hi,
	       long long *out, char *err, size_t errlen);

/*
 * A time from lo to hi seconds: a whole decimal number of seconds, or
 * one followed by s, m or h (90, 90s, 2m, 1h; no sign, space, fraction
 * or overflow).  0, or -1 with "--time wants a time from 1s to 720h:
 * seconds, or with s, m or h (90, 90s, 2m, 1h), not '5x'" in err.
 */
int cli_duration(const char *opt, const char *text, long long lo, long long hi,
		 long long *out, char *err, size_t errlen);

/* A file or directory name: 0, or -1 with "--html wants a path,
 * not ''" in err (an empty one would write into /). */
int cli_path(const char *opt, const char *text, char *err, size_t errlen);

/* One of words (ended by NULL): its index, or -1 with "--engine is det
 * or threads, not 'x'" in err. */
int cli_choice(const char *opt, const char *text, const char *const *words,
	       char *err, size_t errlen);

/* ---- ending: signals, output files, standard output (cli_io.c) ---- */

/* Exit status of a write error on an output file or standard output. */
#define CLI_EXIT_WRITE 2

/* "PROG: MESSAGE" on stderr, the message made one printable line
 * (util/esc.h, dpm_one_line()). */
void cli_say(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* cli_say(), then exit 2: an error while running (bad input, a file
 * that cannot be read or written). */
void cli_die(const char *prog, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/*
 * SIGINT and SIGTERM ask the program to stop.  How it answers:
 *  CLI_SIG_STOP        the first one sets dpm_interrupt (engine/engine.h)
 *                      to its number, nothing else (an atomic store); the
 *                      engines end their run and the program stops at its
 *                      next safe point, says what it has and exits
 *                      cli_interrupt_status().  A second one ends the
 *                      program at once, as the signal does by default,
 *                      after removing the output file being written
 *                      (cli_out_open()).
 *  CLI_SIG_STOP_WORKER the same, but a second one only sets the flag
 *                      again (a worker process, which its parent passes
 *                      the signal on to, so it may get two).
 *  CLI_SIG_QUIT        at once: the output file being written removed,
 *                      "PROG: interrupted by SIGINT" on stderr, exit 130
 *                      (143); for a program with nothing to say half-way
 *                      (dpmimport).
 * A signal ignored when the program started (a shell's background job)
 * stays ignored.  System calls are restarted (SA_RESTART), but poll().
 */
enum cli_on_signal { CLI_SIG_STOP, CLI_SIG_STOP_WORKER, CLI_SIG_QUIT };

void cli_catch_signals(const char *prog, enum cli_on_signal how);
/* 128 + the signal that asked to stop (130 SIGINT, 143 SIGTERM), or 0. */
int cli_interrupt_status(void);
/* "SIGINT", "SIGTERM" (sig), for messages. */
const char *cli_signal_name(int sig);

/*
 * An output file written whole or not at all: cli_out_open() creates a
 * temporary file in PATH's directory (.NAME.PID-N.tmp, with the mode a
 * plain create gives), cli_out_commit() flushes, syncs and closes it,
 * then renames it to PATH (exclusive: links it, so an existing PATH is
 * an error, EEXIST), cli_out_abort() removes it.  Any failure removes
 * it too and puts "cannot write PATH: why" in err.  A PATH that exists
 * and is not a regular file (/dev/null, a pipe) is written in place; a
 * symbolic link's target is replaced, not the link.
 */
struct cli_out {
	FILE *f;
	char *path;		/* what is renamed to */
	char *tmp;		/* NULL: written in place */
	bool exclusive;
};

FILE *cli_out_open(struct cli_out *o, const char *path, bool exclusive,
		   char *err, size_t errlen);
int cli_out_commit(struct cli_out *o, char *err, size_t errlen);
void cli_out_abort(struct cli_out *o);
/* The three for len bytes at buf: 0, or -1 with err. */
int cli_write_file(const char *path, const void *buf, size_t len,
		   bool exclusive, char *err, size_t errlen);

/*
 * Standard output flushed; a write error on it so far (a full disk,
 * /dev/full, a closed descriptor) is one line on stderr, said once:
 * "PROG: cannot write to standard output: why".  true if there was one.
 */
bool cli_stdout_failed(const char *prog);
/* The end of main(): standard output flushed and closed; rc, or
 * CLI_EXIT_WRITE after a write error on it (said in one line). */
int cli_finish(const char *prog, int rc);

#endif
