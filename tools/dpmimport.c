// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmimport: turn a pm-graph/sleepgraph capture into a dpmfuzz scenario.
 *
 *   dpmimport [--dmesg FILE] [--ftrace FILE] [-o OUT] [--summary]
 *
 * The options are the table below (dpmimport --help prints it;
 * docs/import.md, "Options", lists them).
 *
 * --dmesg FILE   a dmesg taken with initcall_debug:
 *                  calling  DEV+ @ PID, parent: PARENT[, cb: FN]
 *                  call DEV+ returned ERR after N usecs
 *                  PM: [late |noirq |early ]VERB of devices complete after X msecs
 * --ftrace FILE  sleepgraph's trace (nop tracer) with the events
 *                  device_pm_callback_start: DRV DEV, parent: PARENT, INFO [VERB]
 *                  device_pm_callback_end: DRV DEV, err=N
 *                  suspend_resume: dpm_PHASE[N] begin|end
 *                With both files the ftrace gives the devices, phases
 *                and durations; the dmesg adds only devices it lacks.
 * -o OUT         write the scenario to OUT (default: stdout)
 * --summary      print per-phase figures to stdout: callbacks and their
 *                sum as imported, and the phase time each log itself
 *                reports ("complete after X msecs"; the dpm_* event's end
 *                - begin), then the device and async counts; the
 *                scenario then goes only to -o OUT, if given
 *
 * The import itself, and its rules, are tools/import.c's; this reads the
 * files and writes the result.  Exit: 0 done, 2 bad usage or input (one
 * line on stderr).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "import.h"
#include "run/replay.h"

enum { OPT_DMESG = CLI_FIRST_KEY, OPT_FTRACE, OPT_SUMMARY };

static const struct cli_option options[] = {
	{ "dmesg", OPT_DMESG, "FILE", "a dmesg taken with initcall_debug (calling/call lines, PM: phase lines)" },
	{ "ftrace", OPT_FTRACE, "FILE", "sleepgraph's ftrace (device_pm_callback_start/end, suspend_resume)" },
	{ "output", 'o', "OUT", "write the scenario to OUT (default: stdout)" },
	{ "summary", OPT_SUMMARY, NULL, "print per-phase figures to stdout; the scenario then goes only to -o OUT" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_program program = {
	.name = "dpmimport",
	.usage = "[--dmesg FILE] [--ftrace FILE] [-o OUT] [--summary]",
	.about = "Turn a pm-graph/sleepgraph capture (dmesg, ftrace or both) into a dpmfuzz scenario.",
	.options = options,
	.footer =
		"With both files the ftrace gives the devices, phases and durations; the dmesg adds\n"
		"only the devices it lacks (docs/import.md).\n"
		"Exit: 0 done, 2 bad usage or input (one line on stderr).\n",
};

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* File names and log text end up in here: keep it to one line. */
	import_one_line(msg);
	fprintf(stderr, "dpmimport: %s\n", msg);
	exit(IMPORT_BAD_INPUT);
}

/* What a run of dpmimport does, from its command line. */
struct opts {
	const char *dmesg, *ftrace, *out;
	bool summary;
};

/* A file option, given once and not empty: 0, or -1 with err. */
static int set_once(const char **slot, const char *val, const char *opt,
		    char *err, size_t errlen)
{
	if (*slot)
		snprintf(err, errlen, "%s given twice (dpmimport --help)", opt);
	else if (!*val)
		snprintf(err, errlen, "%s needs a file name (dpmimport --help)", opt);
	else
		*slot = val;
	return *slot == val ? 0 : -1;
}

/* 0 to import, 1 to exit 0 (--help, --version), -1 bad usage (err). */
static int parse_args(int argc, char **argv, struct opts *o, char *err,
		      size_t errlen)
{
	const char *arg;
	int c;

	while ((c = cli_next(&program, argc, argv, &arg, err, errlen)) != CLI_END) {
		switch (c) {
		case CLI_ERROR:
			return -1;
		case CLI_HELP:
			cli_help(&program, stdout);
			return 1;
		case CLI_VERSION:
			cli_version(&program, stdout);
			return 1;
		case OPT_DMESG:
			if (set_once(&o->dmesg, arg, "--dmesg", err, errlen))
				return -1;
			break;
		case OPT_FTRACE:
			if (set_once(&o->ftrace, arg, "--ftrace", err, errlen))
				return -1;
			break;
		case 'o':
			if (set_once(&o->out, arg, "-o", err, errlen))
				return -1;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unknown argument '%.200s' (dpmimport --help)",
			 argv[optind]);
		return -1;
	}
	if (!o->dmesg && !o->ftrace) {
		snprintf(err, errlen, "nothing to import: give --dmesg, --ftrace or both (dpmimport --help)");
		return -1;
	}
	return 0;
}

static void read_capture(const char *path, const char *kind,
			 struct import_capture *c, char **owned)
{
	char what[32], err[512];

	c->path = path;
	if (!path)
		return;
	snprintf(what, sizeof(what), "a %s capture", kind);
	if (dpm_read_file(path, what, owned, &c->len, err, sizeof(err)))
		die("%s", err);
	c->buf = *owned;
}

static void write_out(const char *path, const char *text)
{
	FILE *f = path ? fopen(path, "w") : stdout;
	bool bad;

	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	bad = fputs(text, f) == EOF;
	bad |= path ? fclose(f) != 0 : fflush(f) != 0;
	if (bad)
		die("cannot write %s: %s", path ? path : "stdout", strerror(errno));
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct import_request rq = { 0 };
	char *dmesg = NULL, *ftrace = NULL, *text, err[512];
	int rc = parse_args(argc, argv, &o, err, sizeof(err));

	if (rc > 0)
		return 0;
	if (rc < 0)
		die("%s", err);
	read_capture(o.ftrace, "ftrace", &rq.ftrace, &ftrace);
	read_capture(o.dmesg, "dmesg", &rq.dmesg, &dmesg);
	rq.summary = o.summary ? stdout : NULL;
	if (import_captures(&rq, &text, err, sizeof(err)))
		die("%s", err);
	free(dmesg);
	free(ftrace);
	if (o.out || !o.summary)
		write_out(o.out, text);
	free(text);
	return 0;
}
