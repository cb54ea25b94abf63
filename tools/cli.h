/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line of dpmrepro, dpmstress and dpmimport: one option
 * table per program, from which getopt_long's table, --help and
 * --version are made, and a strict number parser.  Nothing here prints
 * an error or exits: a bad command line comes back as one line in the
 * caller's buffer, and the program says it and exits 2.
 *
 * tests/check_options.py reads a program's table from its source and
 * compares it with the switch that handles the options, with --help and
 * with the program's options table in docs/ (docs/fuzzing.md lists
 * where).  Keep one row per line in the form
 *	{ "name", KEY, "ARG" or NULL, "one line of help" },
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

struct cli_program {
	const char *name;
	const char *usage;	/* after "usage: NAME "; '\n' between forms */
	const char *about;	/* one line: what the program does */
	const struct cli_option *options;	/* ended by { NULL } */
	/* Printed after the options: the environment, where the docs are,
	 * and a line that starts "Exit: " with the exit codes. */
	const char *footer;
};

/*
 * getopt_long over p's table (and -h, --help, --version): the next
 * option's key, with its argument in *arg (NULL for a flag); CLI_END at
 * the end, where getopt's optind says where the positionals start
 * (getopt_long moves them after the options); CLI_ERROR with a one-line
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

/* One of words (ended by NULL): its index, or -1 with "--engine is det
 * or threads, not 'x'" in err. */
int cli_choice(const char *opt, const char *text, const char *const *words,
	       char *err, size_t errlen);

#endif
