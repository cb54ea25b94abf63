// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmrepro's input step and schedule search (replay.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "replay.h"
#include "../util/rng.h"
#include "scenario/limits.h"
#include "util/esc.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	dpm_one_line(err, errlen);
	return -1;
}

int dpm_read_file(const char *path, const char *what, char **buf, size_t *len,
		  char *err, size_t errlen)
{
	struct stat st;
	size_t cap = 1 << 16, n = 0, r;
	char *b, *nb;
	FILE *f;

	*buf = NULL;
	*len = 0;
	if (stat(path, &st))
		return fail(err, errlen, "cannot read %s: %s", DPM_ESC(path),
			    strerror(errno));
	if (S_ISDIR(st.st_mode))
		return fail(err, errlen, "%s is a directory, not %s", DPM_ESC(path),
			    what);
	f = fopen(path, "rb");
	if (!f)
		return fail(err, errlen, "cannot read %s: %s", DPM_ESC(path),
			    strerror(errno));
	b = malloc(cap + 1);
	while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n < cap)
			continue;
		if (cap >= DPM_FILE_MAX) {
			fclose(f);
			free(b);
			return fail(err, errlen, "%s: larger than %lu MiB",
				    DPM_ESC(path), DPM_FILE_MAX >> 20);
		}
		cap *= 2;
		nb = realloc(b, cap + 1);
		if (!nb)
			free(b);
		b = nb;
	}
	if (!b || ferror(f)) {
		fclose(f);
		free(b);
		return fail(err, errlen, "cannot read %s: %s", DPM_ESC(path),
			    b ? "read error" : "out of memory");
	}
	fclose(f);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* How far into a file the header is looked for. */
#define HEADER_SEARCH 4096

static bool text_byte(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' ||
	       c == '\r' || c == '\v' || c == '\f';
}

bool dpm_looks_like_text(const char *b, size_t n)
{
	static const char header[] = "dpmfuzz-scenario";
	size_t hl = sizeof(header) - 1, printable = 0;

	/* The header, in any case, anywhere near the start: a text, even
	 * behind a byte order mark, a NUL or a stray line. */
	for (size_t i = 0; i + hl <= n && i < HEADER_SEARCH; i++)
		if (!strncasecmp(b + i, header, hl))
			return true;
	if (n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
		return true;
	for (size_t i = 0; i < n; i++)
		printable += text_byte((unsigned char)b[i]);
	/* Every byte printable, or nine in ten of a longer file with lines:
	 * a text (cut, or missing its header), never fuzz input (whose runs
	 * of one printable byte have no line ends) by accident. */
	return n && (printable == n ||
		     (n >= 16 && memchr(b, '\n', n) && printable * 10 >= n * 9));
}

int dpm_load(const char *buf, size_t len, const struct scn_limits *lim,
	     bool bytes, struct scenario *s, bool *text, char *err,
	     size_t errlen)
{
	*text = !bytes && dpm_looks_like_text(buf, len);
	if (!*text) {
		scenario_decode((const uint8_t *)buf, len, lim, s);
		return 0;
	}
	/* A byte order mark is an editor's, not the text's. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	if (!scenario_parse(buf, len, s, err, errlen))
		return 0;
	if (strstr(err, "expected the header")) {
		size_t at = strlen(err);

		snprintf(err + at, errlen - at,
			 " (a crash file that happens to be text? --bytes reads it as fuzz input)");
	}
	return -1;
}

int dpm_load_file(const char *path, const struct scn_limits *lim, bool bytes,
		  struct scenario *s, bool *text, char *err, size_t errlen)
{
	char *buf, why[256];
	size_t len;
	int rc;

	scenario_init(s);
	*text = false;
	if (dpm_read_file(path, "a scenario or crash file", &buf, &len, err, errlen))
		return -1;
	rc = dpm_load(buf, len, lim, bytes, s, text, why, sizeof(why));
	free(buf);
	if (rc)
		return fail(err, errlen, "%s: %s", DPM_ESC(path), why);
	return 0;
}

int dpm_pick(const struct scenario *s, const char *variant, const char *fix,
	     struct run_opts *o, char *err, size_t errlen)
{
	const char *name = variant ? variant : s->variant[0] ? s->variant : "seed";
	const struct pm_variant *v = variant_find(name);
	const char *bad;
	size_t bl;

	if (!v)
		return fail(err, errlen, "no variant '%s' (variants: %s)",
			    DPM_ESC(name), variant_names());
	if (knobs_parse(v, fix ? fix : s->fixes, &o->fixes, &bad, &bl) < 0)
		return fail(err, errlen, "no knob '%s' in variant %s",
			    DPM_ESCN(bad, bl), v->name);
	o->variant = v;
	return 0;
}

static uint8_t next_byte(uint64_t *r)
{
	return (uint8_t)(dpm_rng_next(r) >> 24);
}

static bool shows(const struct run_result *r, int want)
{
	return r->violated && (want < 0 || (int)r->id == want);
}

long dpm_search_bound(const struct scenario *s, long max)
{
	long cap = DPM_SEARCH_BUDGET / ((long)s->ndev * s->cycles + 1);

	return max > cap ? (cap ? cap : 1) : max;
}

long dpm_schedule_search(struct scenario *s, const struct run_opts *o, long max,
			 int want, struct run_result *r)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;

	max = dpm_search_bound(s, max);
	dpm_run(s, o, r);
	if (shows(r, want))
		return 0;
	for (long k = 1; k <= max && !r->interrupted; k++) {
		size_t n = 8 + next_byte(&rng) % 64;

		s->sched = dpm_xrealloc(s->sched, n, 1);
		for (size_t j = 0; j < n; j++)
			s->sched[j] = next_byte(&rng);
		s->nsched = n;
		dpm_run(s, o, r);
		if (shows(r, want))
			return k;
	}
	return -1;
}

int dpm_expected(const struct scenario *s)
{
	return s->expect[0] ? inv_parse(s->expect) : -1;
}
