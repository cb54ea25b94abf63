// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmimport: turn a pm-graph/sleepgraph capture into a dpmfuzz scenario.
 *
 *   dpmimport [--dmesg FILE] [--ftrace FILE] [-o OUT] [--summary]
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

#include "import.h"
#include "run/replay.h"

static const char usage[] =
	"usage: dpmimport [--dmesg FILE] [--ftrace FILE] [-o OUT] [--summary]";

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

struct opts {
	const char *dmesg, *ftrace, *out;
	bool summary;
};

/* "--opt FILE" or "--opt=FILE"; returns the value or NULL. */
static const char *opt_value(const char *opt, int argc, char **argv, int *i)
{
	size_t n = strlen(opt);
	const char *a = argv[*i];

	if (strncmp(a, opt, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc)
		die("%s needs a file name (%s)", opt, usage);
	return argv[++*i];
}

static void set_once(const char **slot, const char *val, const char *opt)
{
	if (*slot)
		die("%s given twice (%s)", opt, usage);
	if (!*val)
		die("%s needs a file name (%s)", opt, usage);
	*slot = val;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *v;

		if ((v = opt_value("--dmesg", argc, argv, &i))) {
			set_once(&o->dmesg, v, "--dmesg");
		} else if ((v = opt_value("--ftrace", argc, argv, &i))) {
			set_once(&o->ftrace, v, "--ftrace");
		} else if ((v = opt_value("-o", argc, argv, &i))) {
			set_once(&o->out, v, "-o");
		} else if (!strcmp(argv[i], "--summary")) {
			o->summary = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("%s\n", usage);
			exit(0);
		} else {
			die("unknown %s '%s' (%s)",
			    argv[i][0] == '-' ? "option" : "argument", argv[i],
			    usage);
		}
	}
	if (!o->dmesg && !o->ftrace)
		die("nothing to import: give --dmesg, --ftrace or both (%s)", usage);
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

	parse_args(argc, argv, &o);
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
