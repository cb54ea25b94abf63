// SPDX-License-Identifier: GPL-2.0-only
/*
 * 10,000 corrupt inputs, from a fixed seed, through dpmrepro's own input
 * step (core/run/replay.c: dpm_load(), which tells a scenario text from
 * fuzz bytes, then dpm_pick(), which reads the header's variant and
 * knobs), a tenth to a half of each kind:
 *   text     the shipped scenario texts with bytes flipped, inserted,
 *            deleted and truncated
 *   prefix   a text behind blank lines, tabs, CRs and comments, some of
 *            which swallow the header
 *   header   the header, whole or cut short, then binary bytes (NULs)
 *   tail     a text cut anywhere, then binary bytes
 *   crash    a shipped fuzz_seed input with bytes changed
 *   random   random bytes
 *   line     one line of a text changed as a harsh user would: deleted,
 *            doubled, a number made huge (20 digits), a name made long
 *            (300 bytes), a parent or supplier named before it exists (a
 *            cycle), a tab or a non-ASCII byte in a word
 *   frame    a whole text framed differently: a UTF-8 BOM, CRLF or
 *            CR-only line ends, the header upper-case, missing, or
 *            behind a NUL, a \v or a line; cut inside the header
 * and then, whatever the count, every text cut at every position (cut).
 * Each must be rejected with one non-empty line, or replay: run on the
 * model its header names (a violation's report, dpmrepro's output, must
 * show the same invariant again), and run clean with every fix on.  A case
 * of the line or frame kinds is never run as fuzz bytes (the
 * text-or-bytes rule, docs/robustness.md).  ASan builds check memory on every path.
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdlib.h>
#include <string.h>

#include "case_trap.h"
#include "util/xorshift.h"
#include "expect.h"
#include "run/replay.h"
#include "scenario/limits.h"

/* ctest's count; TEST_CORRUPT_CASES=N runs N (the 100,000). */
#define CASES 10000
#define MAX_SRC 64

enum kind { K_TEXT, K_PREFIX, K_HEADER, K_TAIL, K_CRASH, K_RANDOM, K_LINE,
	    K_FRAME, NR_KIND, K_CUT = NR_KIND, NR_KIND_ALL };

static const char *const kind_name[NR_KIND_ALL] = {
	"text", "prefix", "header", "tail", "crash", "random", "line", "frame",
	"cut",
};

/* A scenario text changed as an editor or a user would: never run as
 * fuzz bytes.  (Not the kinds with random bytes: a text cut inside its
 * first line, with no line end, and a binary byte in it may be fuzz
 * input by the rule.) */
static bool from_text(enum kind k)
{
	return k == K_LINE || k == K_FRAME;
}

static uint64_t rng = 0xd1b54a32d192ed03ULL;

static uint64_t next(void)
{
	return xorshift64(&rng);
}

struct src {
	char *buf;
	size_t len;
};

static struct src texts[MAX_SRC], crashes[MAX_SRC];
static int ntexts, ncrashes;

/* Up to m byte changes; b has room for m more bytes than n. */
static size_t mutate(char *b, size_t n, int m)
{
	for (; m > 0; m--) {
		size_t at = n ? next() % n : 0;

		switch (next() % 4) {
		case 0:	/* set a byte */
			if (n)
				b[at] = (char)next();
			break;
		case 1:	/* insert a byte */
			memmove(b + at + 1, b + at, n - at);
			b[at] = (char)next();
			n++;
			break;
		case 2:	/* delete a byte */
			if (n) {
				memmove(b + at, b + at + 1, n - at - 1);
				n--;
			}
			break;
		default: /* truncate */
			n = at;
			break;
		}
	}
	return n;
}

/* Binary bytes, mostly the ones a text reader trips on. */
static size_t junk(char *b, size_t n)
{
	static const char odd[] = { '\0', '\n', '\r', '\t', '#', '=', '"',
				    ' ', '\x7f', '\x80', '\xff' };

	for (size_t i = 0; i < n; i++)
		b[i] = next() % 2 ? odd[next() % sizeof(odd)] : (char)next();
	return n;
}

static const struct src *pick(const struct src *from, int n)
{
	return &from[next() % (uint64_t)n];
}

/* Case bytes into b (room for the largest source twice, and CASE_ROOM). */
#define CASE_ROOM 1024

/* The start and length of a random line of s, past its first. */
static size_t some_line(const struct src *s, size_t *len)
{
	size_t at = s->len ? next() % s->len : 0, end;

	while (at > 0 && s->buf[at - 1] != '\n')
		at--;
	if (at == 0) {
		const char *nl = memchr(s->buf, '\n', s->len);

		at = nl ? (size_t)(nl - s->buf) + 1 : s->len;
	}
	for (end = at; end < s->len && s->buf[end] != '\n'; end++)
		;
	*len = end - at;
	return at;
}

/* One line of a text changed (K_LINE), into b. */
static size_t line_case(char *b)
{
	const struct src *s = pick(texts, ntexts);
	size_t ll, at = some_line(s, &ll), n = 0, rest = at + ll;

	memcpy(b, s->buf, at);
	n = at;
	switch (next() % 6) {
	case 0:	/* deleted */
		rest += rest < s->len;
		break;
	case 1:	/* doubled */
		memcpy(b + n, s->buf + at, ll);
		n += ll;
		b[n++] = '\n';
		memcpy(b + n, s->buf + at, ll);
		n += ll;
		break;
	case 2: { /* its first number made 20 digits long */
		size_t d = 0;

		while (d < ll && !(s->buf[at + d] >= '0' && s->buf[at + d] <= '9'))
			d++;
		memcpy(b + n, s->buf + at, d);
		n += d;
		memcpy(b + n, "99999999999999999999", 20);
		n += 20;
		while (d < ll && s->buf[at + d] >= '0' && s->buf[at + d] <= '9')
			d++;
		memcpy(b + n, s->buf + at + d, ll - d);
		n += ll - d;
		break;
	}
	case 3: /* a device with a 300-byte name, or one named at random */
		n += (size_t)sprintf(b + n, "device ");
		for (int i = 0; i < 300; i++)
			b[n++] = (char)('a' + next() % 26);
		memcpy(b + n, s->buf + at, ll);
		n += ll;
		break;
	case 4: /* a parent and a supplier not declared yet: a cycle */
		n += (size_t)sprintf(b + n, "device cyc%u parent=cyc%u supplier=cyc%u\n",
				     (unsigned int)(next() % 4), (unsigned int)(next() % 4),
				     (unsigned int)(next() % 4));
		memcpy(b + n, s->buf + at, ll);
		n += ll;
		break;
	default: { /* a tab or a non-ASCII byte inside the line */
		size_t cut = ll ? next() % ll : 0;
		static const char odd[] = { '\t', '\x80', '\xc3', '\xff', '\x7f' };

		memcpy(b + n, s->buf + at, cut);
		n += cut;
		b[n++] = odd[next() % sizeof(odd)];
		memcpy(b + n, s->buf + at + cut, ll - cut);
		n += ll - cut;
		break;
	}
	}
	memcpy(b + n, s->buf + rest, s->len - rest);
	return n + s->len - rest;
}

/* A whole text framed differently (K_FRAME), into b. */
static size_t frame_case(char *b)
{
	const struct src *s = pick(texts, ntexts);
	const char *h = memmem(s->buf, s->len, "dpmfuzz-scenario", 16);
	size_t n = 0, hat = h ? (size_t)(h - s->buf) : 0;

	switch (next() % 8) {
	case 0:	/* a byte order mark */
		memcpy(b, "\xef\xbb\xbf", 3);
		memcpy(b + 3, s->buf, s->len);
		return s->len + 3;
	case 1:	/* CRLF */
	case 2:	/* CR only */ {
		bool crlf = next() % 2;

		for (size_t i = 0; i < s->len; i++) {
			if (s->buf[i] != '\n') {
				b[n++] = s->buf[i];
				continue;
			}
			b[n++] = '\r';
			if (crlf)
				b[n++] = '\n';
		}
		return n;
	}
	case 3:	/* the header upper-case */
		memcpy(b, s->buf, s->len);
		for (size_t i = hat; i < hat + 16 && i < s->len; i++)
			b[i] = (char)(b[i] >= 'a' && b[i] <= 'z' ? b[i] - 32 : b[i]);
		return s->len;
	case 4:	/* no header line */
		memcpy(b, s->buf, hat);
		n = hat;
		while (hat < s->len && s->buf[hat] != '\n')
			hat++;
		memcpy(b + n, s->buf + hat, s->len - hat);
		return n + s->len - hat;
	case 5:	/* a NUL or a \v before the header */
		b[0] = next() % 2 ? '\0' : '\v';
		memcpy(b + 1, s->buf, s->len);
		return s->len + 1;
	case 6:	/* the header not on the first line */
		n = (size_t)sprintf(b, "variant seed\n");
		memcpy(b + n, s->buf, s->len);
		return n + s->len;
	default: /* cut inside the header or a comment before it */
		n = hat + 1 + next() % 16;
		if (n > s->len)
			n = s->len;
		memcpy(b, s->buf, n);
		return n;
	}
}

static size_t make_case(enum kind k, char *b)
{
	static const char *const lead[] = {
		"\n", "  ", "\t", "\r\n", "# a comment\n", "#\r", "\n#\n",
		"# no newline, so the header is a comment too ",
	};
	static const char header[] = "dpmfuzz-scenario 1\n";
	const struct src *s;
	size_t n = 0;

	switch (k) {
	case K_TEXT:
		s = pick(texts, ntexts);
		memcpy(b, s->buf, s->len);
		return mutate(b, s->len, 1 + (int)(next() % 4));
	case K_PREFIX:
		for (int i = 1 + (int)(next() % 4); i > 0; i--) {
			const char *l = lead[next() % (sizeof(lead) / sizeof(*lead))];

			memcpy(b + n, l, strlen(l));
			n += strlen(l);
		}
		s = pick(texts, ntexts);
		memcpy(b + n, s->buf, s->len);
		return n + mutate(b + n, s->len, (int)(next() % 3));
	case K_HEADER:
		n = next() % 2 ? sizeof(header) - 1 : 1 + next() % (sizeof(header) - 1);
		memcpy(b, header, n);
		return n + junk(b + n, next() % 300);
	case K_TAIL:
		s = pick(texts, ntexts);
		n = s->len ? next() % s->len : 0;
		memcpy(b, s->buf, n);
		return n + junk(b + n, 1 + next() % 200);
	case K_LINE:
		return line_case(b);
	case K_FRAME:
		return frame_case(b);
	case K_CRASH:
		s = pick(crashes, ncrashes);
		memcpy(b, s->buf, s->len);
		return mutate(b, s->len, 1 + (int)(next() % 4));
	default:
		return junk(b, next() % 600);
	}
}

static bool one_line(const char *err)
{
	return err[0] && !strchr(err, '\n');
}

static int bad_cases;

static void bad(int it, enum kind k, const char *what, const char *detail)
{
	if (bad_cases++ < 10)
		fprintf(stderr, "case %d (%s): %s: %s\n", it, kind_name[k], what,
			detail);
}

static struct run_result r, again;
static FILE *devnull;
static int load_rejected, pick_rejected, decoded, ran, violations, too_big;

/* One case through dpmrepro's input step, and its runs. */
static void check_case(int it, enum kind k, const char *b, size_t n)
{
	char err[512];
	struct scenario s;
	struct run_opts o = { 0 };
	bool text;

	case_trap_set("test_corrupt: case %d (%s) brought the process down", it,
		      kind_name[k]);
	/* An exact-size copy, so ASan sees a read past the end. */
	char *exact = malloc(n ? n : 1);
	int rc;

	memcpy(exact, b, n);
	rc = dpm_load(exact, n, &fuzz_limits, false, &s, &text, err, sizeof(err));
	free(exact);
	if (from_text(k) && !text) {
		char d[64];

		snprintf(d, sizeof(d), "%zu bytes", n);
		bad(it, k, "a text read as fuzz bytes", d);
	}
	if (rc) {
		load_rejected++;
		if (!one_line(err))
			bad(it, k, "a rejection not one line", err);
		if (!text)
			bad(it, k, "fuzz bytes rejected", err);
		return;
	}
	decoded += !text;
	if (dpm_pick(&s, NULL, NULL, &o, err, sizeof(err))) {
		pick_rejected++;
		if (!one_line(err))
			bad(it, k, "a rejection not one line", err);
		scenario_free(&s);
		return;
	}
	if (s.ndev > 400 || s.cycles > 5) {
		too_big++;	/* valid, but slow to run 10,000 times */
		scenario_free(&s);
		return;
	}
	ran++;
	dpm_run(&s, &o, &r);
	if (r.violated) {
		/* What dpmrepro prints: the report replays it. */
		violations++;
		if (!dpm_report(&s, &o, devnull, 40, &again) ||
		    again.id != r.id)
			bad(it, k, "the report does not show it again",
			    inv_name(r.id));
	}
	o.fixes = (1ULL << o.variant->nknobs) - 1;
	dpm_run(&s, &o, &r);
	if (r.violated)
		bad(it, k, "a violation with every fix on", r.msg);
	scenario_free(&s);
}

int main(int argc, char **argv)
{
	size_t biggest = 600;
	char err[512];

	for (int i = 1; i < argc; i++) {
		struct src x;

		if (dpm_read_file(argv[i], "an input", &x.buf, &x.len, err, sizeof(err))) {
			fprintf(stderr, "test_corrupt: %s\n", err);
			return 1;
		}
		if (x.len > biggest)
			biggest = x.len;
		if (dpm_looks_like_text(x.buf, x.len) && ntexts < MAX_SRC)
			texts[ntexts++] = x;
		else if (ncrashes < MAX_SRC)
			crashes[ncrashes++] = x;
		else
			free(x.buf);
	}
	EXPECT_TRUE(ntexts > 0);
	EXPECT_TRUE(ncrashes > 0);
	if (!ntexts || !ncrashes)
		return test_summary("test_corrupt");

	char *b = malloc(2 * biggest + CASE_ROOM + 64);
	int count[NR_KIND_ALL] = { 0 };

	devnull = fopen("/dev/null", "w");

	EXPECT_TRUE(devnull && b);
	if (!devnull || !b)
		return test_summary("test_corrupt");
	const char *env = getenv("TEST_CORRUPT_CASES");
	int cases = env && atoi(env) > 0 ? atoi(env) : CASES;

	case_trap_install();
	for (int it = 0; it < cases; it++) {
		enum kind k = next() % 2 ? K_TEXT : (enum kind)(1 + next() % (NR_KIND - 1));
		size_t n = make_case(k, b);

		count[k]++;
		check_case(it, k, b, n);
	}
	/* Every text cut at every position: the sweep, whatever CASES. */
	int cuts = 0;

	for (int t = 0; t < ntexts; t++)
		for (size_t n = 0; n < texts[t].len; n++) {
			memcpy(b, texts[t].buf, n);
			count[K_CUT]++;
			check_case(cases + cuts++, K_CUT, b, n);
		}
	printf("test_corrupt: %d cases (", cases + cuts);
	for (int k = 0; k < NR_KIND_ALL; k++)
		printf("%s%s %d", k ? ", " : "", kind_name[k], count[k]);
	printf("): %d rejected by the parser, %d by the model's names; %d ran (%d decoded as fuzz bytes, %d violations replayed), %d too big to run\n",
	       load_rejected, pick_rejected, ran, decoded, violations, too_big);
	EXPECT_EQ(bad_cases, 0);
	EXPECT_EQ(load_rejected + pick_rejected + ran + too_big, cases + cuts);
	/* Every path is taken, and often. */
	for (int k = 0; k < NR_KIND; k++)
		EXPECT_TRUE(count[k] > 500);
	EXPECT_TRUE(load_rejected > 1000);
	EXPECT_TRUE(pick_rejected > 20);
	EXPECT_TRUE(ran > 2000);
	EXPECT_TRUE(decoded > 1000);
	EXPECT_TRUE(violations > 100);
	fclose(devnull);
	free(b);
	for (int i = 0; i < ntexts; i++)
		free(texts[i].buf);
	for (int i = 0; i < ncrashes; i++)
		free(crashes[i].buf);
	return test_summary("test_corrupt");
}
