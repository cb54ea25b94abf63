// SPDX-License-Identifier: GPL-2.0-only
/* The programs' command lines (cli.h): getopt_long from one table. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/esc.h"

#ifndef DPMFUZZ_VERSION
#error "DPMFUZZ_VERSION (CMake's PROJECT_VERSION) must be defined"
#endif

#define CLI_MAX_OPTIONS 64

static const struct cli_option builtin[] = {
	{ "help", CLI_HELP, NULL, "print this help and exit" },
	{ "version", CLI_VERSION, NULL, "print the program's name and dpmfuzz's version and exit" },
	{ NULL, 0, NULL, NULL }
};

/* The program's rows, then the built-in ones; NULL after the last. */
static const struct cli_option *row(const struct cli_program *p, int i)
{
	int n = 0;

	while (p->options[n].name)
		n++;
	if (i < n)
		return &p->options[i];
	i -= n;
	return builtin[i].name ? &builtin[i] : NULL;
}

static const struct cli_option *by_key(const struct cli_program *p, int key)
{
	const struct cli_option *o;

	for (int i = 0; (o = row(p, i)); i++)
		if (o->key == key || (key == 'h' && o->key == CLI_HELP))
			return o;
	return NULL;
}

/* p's aliases: the i-th, or NULL after the last. */
static const struct cli_alias *alias(const struct cli_program *p, int i)
{
	return p->aliases && p->aliases[i].old ? &p->aliases[i] : NULL;
}

static const struct cli_option *by_name(const struct cli_program *p,
					const char *name)
{
	const struct cli_option *o;

	for (int i = 0; (o = row(p, i)); i++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* getopt_long's tables for p, made once: the rows, then the aliases,
 * each with its row's key (nrows: where the aliases start). */
static const struct cli_program *made_for;
static struct option longopts[CLI_MAX_OPTIONS + 1];
static char shortopts[2 * CLI_MAX_OPTIONS + 3];
static int nrows;

static void make_tables(const struct cli_program *p)
{
	const struct cli_option *o;
	const struct cli_alias *a;
	size_t at = 0;
	int i, k;

	if (made_for == p)
		return;
	made_for = p;
	/* ':' first: a missing value is ':', not '?'; no message of
	 * getopt's own (opterr = 0). */
	shortopts[at++] = ':';
	shortopts[at++] = 'h';
	for (i = 0; (o = row(p, i)) && i < CLI_MAX_OPTIONS; i++) {
		longopts[i] = (struct option){ o->name,
			o->arg ? required_argument : no_argument, NULL, o->key };
		if (o->key > 0 && o->key < 128) {
			shortopts[at++] = (char)o->key;
			if (o->arg)
				shortopts[at++] = ':';
		}
	}
	if (o)
		abort();	/* a program with more options than fit */
	nrows = i;
	for (k = 0; (a = alias(p, k)); k++, i++) {
		o = by_name(p, a->now);
		/* an alias of no row, one that is a row, or too many */
		if (!o || by_name(p, a->old) || i >= CLI_MAX_OPTIONS)
			abort();
		longopts[i] = (struct option){ a->old,
			o->arg ? required_argument : no_argument, NULL, o->key };
	}
	longopts[i] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[at] = '\0';
}

/*
 * Whether the first len characters of text begin the names of two or
 * more options (a row and the aliases of that row are one option, which
 * getopt_long takes).
 */
static bool ambiguous(const struct cli_program *p, const char *text, int len)
{
	int keys[CLI_MAX_OPTIONS + 1], n = 0;

	make_tables(p);
	for (int i = 0; len > 0 && longopts[i].name; i++) {
		bool seen = false;

		if (strncmp(longopts[i].name, text, (size_t)len))
			continue;
		for (int j = 0; j < n; j++)
			seen |= keys[j] == longopts[i].val;
		if (!seen)
			keys[n++] = longopts[i].val;
	}
	return n > 1;
}

int cli_next(const struct cli_program *p, int argc, char **argv,
	     const char **arg, char *err, size_t errlen)
{
	const struct cli_option *o;
	int c, at = -1;

	make_tables(p);
	opterr = 0;
	*arg = NULL;
	c = getopt_long(argc, argv, shortopts, longopts, &at);
	if (c == -1)
		return CLI_END;
	if (c != ':' && c != '?' && at >= nrows)
		cli_say(p->name, "--%s is now --%s", longopts[at].name,
			by_key(p, c)->name);
	if (c == ':') {
		const char *t = optind > 0 && optind <= argc ? argv[optind - 1] : "";

		o = by_key(p, optopt);
		if (!strncmp(t, "--", 2) || optopt >= 128)
			snprintf(err, errlen, "--%s needs a value (%s)",
				 o ? o->name : "?", o && o->arg ? o->arg : "?");
		else
			snprintf(err, errlen, "-%c needs a value (%s)", optopt,
				 o && o->arg ? o->arg : "?");
		return CLI_ERROR;
	}
	if (c == '?') {
		const char *t = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		int len = (int)strcspn(t, "=");

		if (optopt && !strncmp(t, "--", 2) && (o = by_key(p, optopt)))
			snprintf(err, errlen, "--%s takes no value, not '%s' (%s --help lists the options)",
				 o->name, DPM_ESC(t), p->name);
		else if (optopt)
			snprintf(err, errlen, "unknown option '-%s' (%s --help lists the options)",
				 DPM_ESCN(&(char){ (char)optopt }, 1), p->name);
		else
			snprintf(err, errlen, "%s option '%s' (%s --help lists the options)",
				 ambiguous(p, t + 2, len - 2) ? "ambiguous" : "unknown",
				 DPM_ESCN(t, (size_t)len), p->name);
		return CLI_ERROR;
	}
	if (c == 'h' || c == CLI_HELP) {
		cli_help(p, stdout);
		return CLI_PRINTED;
	}
	if (c == CLI_VERSION) {
		cli_version(p, stdout);
		return CLI_PRINTED;
	}
	*arg = optarg;
	return c;
}

void cli_help(const struct cli_program *p, FILE *f)
{
	const struct cli_option *o;
	const char *u = p->usage;

	/* Each form of the usage on a line of its own. */
	while (*u) {
		size_t n = strcspn(u, "\n");

		fprintf(f, "%s %s%s%.*s\n", u == p->usage ? "usage:" : "      ",
			p->name, n ? " " : "", (int)n, u);
		u += n + (u[n] == '\n');
	}
	fprintf(f, "%s\n\nOptions:\n", p->about);
	for (int i = 0; (o = row(p, i)); i++) {
		char spec[96];
		int w;

		if (o->key == CLI_HELP)
			w = snprintf(spec, sizeof(spec), "-h, --%s", o->name);
		else if (o->key > 0 && o->key < 128)
			w = snprintf(spec, sizeof(spec), "-%c, --%s", o->key, o->name);
		else
			w = snprintf(spec, sizeof(spec), "    --%s", o->name);
		if (o->arg)
			w += snprintf(spec + w, sizeof(spec) - (size_t)w, " %s", o->arg);
		fprintf(f, "  %s%*s%s\n", spec, w <= 26 ? 28 - w : 2, "", o->help);
	}
	if (p->footer && *p->footer)
		fprintf(f, "\n%s", p->footer);
}

void cli_version(const struct cli_program *p, FILE *f)
{
	fprintf(f, "%s (dpmfuzz) %s\n", p->name, DPMFUZZ_VERSION);
}

int cli_number(const char *opt, const char *text, long long lo, long long hi,
	       long long *out, char *err, size_t errlen)
{
	const char *digits = text[0] == '-' && lo < 0 ? text + 1 : text;
	char *end;
	long long x;

	errno = 0;
	x = *digits >= '0' && *digits <= '9' ? strtoll(text, &end, 10) : 0;
	if (!(*digits >= '0' && *digits <= '9') || *end || errno ||
	    x < lo || x > hi) {
		snprintf(err, errlen, "%s wants a number from %lld to %lld, not '%s'",
			 opt, lo, hi, DPM_ESC(text));
		return -1;
	}
	*out = x;
	return 0;
}

/* "90s", "2m", "1h": x seconds in the largest unit that divides them. */
static void spell_time(char *buf, size_t len, long long x)
{
	if (x && x % 3600 == 0)
		snprintf(buf, len, "%lldh", x / 3600);
	else if (x && x % 60 == 0)
		snprintf(buf, len, "%lldm", x / 60);
	else
		snprintf(buf, len, "%llds", x);
}

int cli_duration(const char *opt, const char *text, long long lo, long long hi,
		 long long *out, char *err, size_t errlen)
{
	const char *p = text;
	long long x = 0, unit = 1;
	char from[32], to[32];

	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (LLONG_MAX - 9) / 10)
			goto bad;
		x = x * 10 + (*p - '0');
	}
	if (p == text)
		goto bad;
	switch (*p) {
	case 'h':
		unit *= 60;
		/* fall through */
	case 'm':
		unit *= 60;
		/* fall through */
	case 's':
		p++;
		break;
	}
	if (*p || x > hi / unit || x * unit < lo)
		goto bad;
	*out = x * unit;
	return 0;
bad:
	spell_time(from, sizeof(from), lo);
	spell_time(to, sizeof(to), hi);
	snprintf(err, errlen, "%s wants a time from %s to %s: seconds, or with s, m or h (90, 90s, 2m, 1h), not '%s'",
		 opt, from, to, DPM_ESC(text));
	return -1;
}

int cli_path(const char *opt, const char *text, char *err, size_t errlen)
{
	if (*text)
		return 0;
	snprintf(err, errlen, "%s wants a path, not ''", opt);
	return -1;
}

int cli_choice(const char *opt, const char *text, const char *const *words,
	       char *err, size_t errlen)
{
	size_t at;
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(text, words[i]))
			return i;
	at = (size_t)snprintf(err, errlen, "%s is ", opt);
	for (i = 0; words[i] && at < errlen; i++)
		at += (size_t)snprintf(err + at, errlen - at, "%s%s",
				       i == 0 ? "" : words[i + 1] ? ", " : " or ",
				       words[i]);
	if (at < errlen)
		snprintf(err + at, errlen - at, ", not '%s'", DPM_ESC(text));
	return -1;
}
