// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmimport: turn a pm-graph/sleepgraph capture into dpmfuzz scenarios.
 *
 *   dpmimport [--dmesg FILE] [--ftrace FILE] [--html FILE] [-o OUT]
 *             [--cycle K] [--summary]
 *
 * --dmesg FILE   sleepgraph's dmesg (kernel 3.x to 6.x): the callback
 *                lines initcall_debug prints,
 *                  calling  DEV+ @ PID, parent: PARENT            (3.x)
 *                  call DEV+ returned ERR after N usecs
 *                  DRIVER DEV: calling FUNC+0x../0x.. @ PID, parent: PARENT
 *                  DRIVER DEV: FUNC+0x../0x.. returned ERR after N usecs
 *                and the phase lines
 *                  PM: [late |noirq |early ]VERB of devices complete after X msecs
 *                (since 4.x sleepgraph's dmesg has the phase lines only)
 * --ftrace FILE  sleepgraph's trace (nop tracer) with the events
 *                  device_pm_callback_start: DRV DEV, parent: PARENT, INFO [VERB]
 *                  device_pm_callback_end: DRV DEV, err=N
 *                  suspend_resume: dpm_PHASE[N] begin|end
 *                With both files the ftrace gives the callbacks, the
 *                dmesg those of devices the ftrace lacks, and the two
 *                are cross-checked (the output's header says how).
 * --html FILE    sleepgraph's .html page, alone: it embeds the dmesg
 *                (and with -addlogs the ftrace) it was drawn from
 * -o OUT         write the scenario to OUT (default: stdout); a capture
 *                of several suspend/resume transitions (sleepgraph -x2,
 *                -multi) gives one scenario per transition, written to
 *                OUT-1, OUT-2, ... (before OUT's extension: mem.scenario
 *                gives mem-1.scenario)
 * --cycle K      only the scenario of transition K (from 1)
 * --summary      per transition, print to stdout per phase: callbacks
 *                and their sum as imported, the phase time each log
 *                itself reports ("complete after X msecs"; the dpm_*
 *                event's end - begin), and the phase's virtual time when
 *                the scenario runs on its variant with every fix on;
 *                then the device and async counts; the scenarios then go
 *                only to -o OUT, if given
 *
 * The import itself, and its rules, are tools/import*.c's
 * (docs/import.md); this reads the files and writes the result.  Exit: 0
 * done, 2 bad usage or input (one line on stderr).
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
	"usage: dpmimport [--dmesg FILE] [--ftrace FILE] [--html FILE] [-o OUT] [--cycle K] [--summary]";

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
	const char *dmesg, *ftrace, *html, *out, *cycle;
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
		die("%s needs a value (%s)", opt, usage);
	return argv[++*i];
}

static void set_once(const char **slot, const char *val, const char *opt)
{
	if (*slot)
		die("%s given twice (%s)", opt, usage);
	if (!*val)
		die("%s needs a value (%s)", opt, usage);
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
		} else if ((v = opt_value("--html", argc, argv, &i))) {
			set_once(&o->html, v, "--html");
		} else if ((v = opt_value("-o", argc, argv, &i))) {
			set_once(&o->out, v, "-o");
		} else if ((v = opt_value("--cycle", argc, argv, &i))) {
			set_once(&o->cycle, v, "--cycle");
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
	if (!o->dmesg && !o->ftrace && !o->html)
		die("nothing to import: give --dmesg, --ftrace, both, or --html (%s)",
		    usage);
	if (o->html && (o->dmesg || o->ftrace))
		die("--html holds its own dmesg and ftrace: give it alone (%s)", usage);
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

/* "--cycle K": 1 <= K <= n. */
static int cycle_number(const char *v, int n)
{
	char *end;
	long k = strtol(v, &end, 10);

	if (*end || end == v || k < 1 || k > IMPORT_MAX_CYCLES)
		die("--cycle '%s': a transition number from 1 (%s)", v, usage);
	if (k > n)
		die("--cycle %ld: the capture holds %d transition%s", k, n,
		    n > 1 ? "s" : "");
	return (int)k;
}

/* OUT with "-K" before its extension: mem.scenario -> mem-2.scenario. */
static char *numbered(const char *out, int k)
{
	const char *base = strrchr(out, '/'), *dot;
	size_t n = strlen(out) + 16;
	char *p = malloc(n);

	if (!p)
		die("out of memory");
	base = base ? base + 1 : out;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		snprintf(p, n, "%s-%d", out, k);
	else
		snprintf(p, n, "%.*s-%d%s", (int)(dot - out), out, k, dot);
	return p;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct import_request rq = { 0 };
	struct import_result res;
	char *dmesg = NULL, *ftrace = NULL, *html = NULL, err[512];

	parse_args(argc, argv, &o);
	read_capture(o.ftrace, "ftrace", &rq.ftrace, &ftrace);
	read_capture(o.dmesg, "dmesg", &rq.dmesg, &dmesg);
	read_capture(o.html, "sleepgraph html", &rq.html, &html);
	rq.summary = o.summary ? stdout : NULL;
	if (import_captures(&rq, &res, err, sizeof(err)))
		die("%s", err);
	free(dmesg);
	free(ftrace);
	free(html);
	if (o.cycle) {
		write_out(o.out, res.text[cycle_number(o.cycle, res.ncycle) - 1]);
	} else if (res.ncycle == 1) {
		if (o.out || !o.summary)
			write_out(o.out, res.text[0]);
	} else if (o.out) {
		for (int k = 0; k < res.ncycle; k++) {
			char *path = numbered(o.out, k + 1);

			write_out(path, res.text[k]);
			free(path);
		}
	} else if (!o.summary) {
		die("the capture holds %d suspend/resume transitions: give -o OUT (one file each, OUT-1 to OUT-%d) or --cycle K",
		    res.ncycle, res.ncycle);
	}
	import_result_free(&res);
	return 0;
}
