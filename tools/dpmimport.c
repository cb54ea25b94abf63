// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmimport: turn a pm-graph/sleepgraph capture into dpmfuzz scenarios.
 *
 *   dpmimport [--dmesg FILE] [--ftrace FILE] [--html FILE] [-o OUT]
 *             [--cycle K] [--summary]
 *
 * The options are the table below (dpmimport --help prints it;
 * docs/import.md, "dpmimport options", lists them).
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
 * --variant NAME the scenarios' variant instead of the one the capture's
 *                kernel version picks; given again (up to 4 in all), the
 *                summary runs each and prints a column per model
 * --summary      per transition, print to stdout per phase: callbacks
 *                and their sum as imported, the phase time each log
 *                itself reports ("complete after X msecs"; the dpm_*
 *                event's end - begin), and the phase's virtual time when
 *                the scenario runs on its variant with every fix on;
 *                then the device and async counts; the scenarios then go
 *                only to -o OUT, if given
 *
 * The import itself, and its rules, are tools/import*.c's
 * (docs/import.md); this reads the files and writes the result, each
 * output file whole or not at all (cli_out_open(): several transitions,
 * each file so).  SIGINT or SIGTERM ends it at once, the file being
 * written removed.  Exit: 0 done, 2 bad usage or input, or a write error
 * (stdout, a file), one line on stderr; 130 (143) interrupted by SIGINT
 * (SIGTERM).
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
#include "util/esc.h"

enum { OPT_DMESG = CLI_FIRST_KEY, OPT_FTRACE, OPT_HTML, OPT_CYCLE, OPT_SUMMARY,
       OPT_VARIANT };

static const struct cli_option options[] = {
	{ "dmesg", OPT_DMESG, "FILE", "sleepgraph's dmesg, kernel 3.x to 6.x (callback lines, PM: phase lines)" },
	{ "ftrace", OPT_FTRACE, "FILE", "sleepgraph's ftrace (device_pm_callback_start/end, suspend_resume)" },
	{ "html", OPT_HTML, "FILE", "sleepgraph's .html page, alone: the dmesg and ftrace it embeds" },
	{ "out", 'o', "OUT", "write the scenario to OUT (default: stdout); several transitions: OUT-1, OUT-2 ..." },
	{ "cycle", OPT_CYCLE, "K", "only the scenario of transition K (from 1)" },
	{ "summary", OPT_SUMMARY, NULL, "print per-phase figures to stdout; the scenarios then go only to -o OUT" },
	{ "variant", OPT_VARIANT, "NAME", "the scenarios' variant instead of the capture's kernel's; again (up to 4): more models beside it in --summary" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_alias aliases[] = {
	{ "output", "out" },
	{ NULL, NULL }
};

static const struct cli_program program = {
	.name = "dpmimport",
	.usage = "[--dmesg FILE] [--ftrace FILE] [--html FILE] [-o OUT] [--cycle K] [--summary] [--variant NAME]...",
	.about = "Turn a pm-graph/sleepgraph capture (dmesg, ftrace, both, or an .html page) into dpmfuzz scenarios.",
	.options = options,
	.footer =
		"With both files the ftrace gives the callbacks, the dmesg those of devices the ftrace\n"
		"lacks, and the two are cross-checked (docs/import.md).\n"
		"Files are written whole or not at all (a temporary name, renamed).\n"
		"Exit: 0 done, 2 bad usage or input, or a write error (one line on stderr); 130 (143) interrupted by SIGINT (SIGTERM).\n",
	.aliases = aliases,
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
	const char *dmesg, *ftrace, *html, *out, *cycle;
	bool summary;
	const char *variants[IMPORT_VARIANTS_MAX];
	int nvariants;
};

/* A file option, given once and not empty: 0, or -1 with err. */
static int set_once(const char **slot, const char *val, const char *opt,
		    char *err, size_t errlen)
{
	if (*slot)
		snprintf(err, errlen, "%s given twice (dpmimport --help)", opt);
	else if (!*val)
		snprintf(err, errlen, "%s needs a value (dpmimport --help)", opt);
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
		case CLI_PRINTED:
			return 1;
		case OPT_DMESG:
			if (set_once(&o->dmesg, arg, "--dmesg", err, errlen))
				return -1;
			break;
		case OPT_FTRACE:
			if (set_once(&o->ftrace, arg, "--ftrace", err, errlen))
				return -1;
			break;
		case OPT_HTML:
			if (set_once(&o->html, arg, "--html", err, errlen))
				return -1;
			break;
		case 'o':
			if (set_once(&o->out, arg, "--out", err, errlen))
				return -1;
			break;
		case OPT_CYCLE:
			if (set_once(&o->cycle, arg, "--cycle", err, errlen))
				return -1;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_VARIANT:
			if (o->nvariants == IMPORT_VARIANTS_MAX) {
				snprintf(err, errlen, "--variant given more than %d times (dpmimport --help)",
					 IMPORT_VARIANTS_MAX);
				return -1;
			}
			o->variants[o->nvariants++] = arg;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unknown argument '%s' (dpmimport --help)",
			 DPM_ESC(argv[optind]));
		return -1;
	}
	if (!o->dmesg && !o->ftrace && !o->html) {
		snprintf(err, errlen, "nothing to import: give --dmesg, --ftrace, both, or --html (dpmimport --help)");
		return -1;
	}
	if (o->html && (o->dmesg || o->ftrace)) {
		snprintf(err, errlen, "--html holds its own dmesg and ftrace: give it alone (dpmimport --help)");
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

/* To OUT whole or not at all (cli_out_open()), or to stdout. */
static void write_out(const char *path, const char *text)
{
	char err[1024];

	if (!path) {
		fputs(text, stdout);
		if (cli_stdout_failed(program.name))
			exit(CLI_EXIT_WRITE);
		return;
	}
	if (cli_write_file(path, text, strlen(text), false, err, sizeof(err)))
		die("%s", err);
}

/* "--cycle K": 1 <= K <= n. */
static int cycle_number(const char *v, int n)
{
	char *end;
	long k = strtol(v, &end, 10);

	if (*end || end == v || k < 1 || k > IMPORT_MAX_CYCLES)
		die("--cycle '%s': a transition number from 1 (dpmimport --help)", DPM_ESC(v));
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
	int rc = parse_args(argc, argv, &o, err, sizeof(err));

	/* Nothing to say half-way: a signal ends it at once, the file
	 * being written removed. */
	cli_catch_signals(program.name, CLI_SIG_QUIT);
	if (rc > 0)
		return cli_finish(program.name, 0);
	if (rc < 0)
		die("%s", err);
	read_capture(o.ftrace, "ftrace", &rq.ftrace, &ftrace);
	read_capture(o.dmesg, "dmesg", &rq.dmesg, &dmesg);
	read_capture(o.html, "sleepgraph html", &rq.html, &html);
	rq.summary = o.summary ? stdout : NULL;
	memcpy(rq.variants, o.variants, sizeof(rq.variants));
	rq.nvariants = o.nvariants;
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
	return cli_finish(program.name, 0);
}
