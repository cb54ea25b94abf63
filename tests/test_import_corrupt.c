// SPDX-License-Identifier: GPL-2.0-only
/*
 * 10,000 corrupt captures through dpmimport's importer, in-process
 * (tools/import.c: import_captures(), what the binary runs between
 * reading the files and writing the scenarios).
 *
 *   test_import_corrupt DATA_DIR
 *
 * Case K is what tools/import_test.sh runs as its case K
 * (corrupt_case_make(), seed 20140613): kind K % 6 of input made from
 * skynet run (K / 6) % 4 and corrupted -- a 3.x dmesg, an ftrace, the
 * dmesg and ftrace of one run, a 4.x-6.x dmesg, a sleepgraph page, or
 * the dmesg and ftrace of two transitions -- with the summary every 7th
 * case.  Each must either
 *   - give its scenarios (one per transition): no error, each text
 *     starts with the "# imported by dpmimport" lines, scenario_parse()
 *     takes it, and it runs clean on the det engine on its variant with
 *     every fix on (as the real captures do; every 8th under
 *     ThreadSanitizer); a summary ends with its "devices" line; or
 *   - be rejected with one non-empty line and no text, never with an
 *     "internal error" (a scenario the importer cannot read back);
 * and never crash or leak (ASan, LeakSanitizer).  Every kind must both
 * import and be rejected often, and some inputs must give two
 * transitions.  Exit 77 (skipped) without the captures.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_mutate.h"
#include "case_trap.h"
#include "expect.h"
#include "import.h"
#include "run/replay.h"

/* ctest's count; TEST_IMPORT_CASES=N runs N (the 20,000). */
#define CASES 10000
#define SEED 20140613ULL

/*
 * ThreadSanitizer has nothing to look at in these single-threaded det
 * runs and makes each some ten times slower: under it, every 8th
 * imported scenario runs (all 10,000 are still imported and parsed).
 */
#if defined(__SANITIZE_THREAD__)
#define RUN_EVERY 8
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RUN_EVERY 8
#endif
#endif
#ifndef RUN_EVERY
#define RUN_EVERY 1
#endif

static int bad_cases;

static void bad(int k, const char *what, const char *detail)
{
	if (bad_cases++ < 10)
		fprintf(stderr, "case %d: %s: %.300s\n", k, what, detail);
}

static const char header[] = "# imported by dpmimport from ";

static int ran;

/* The imported text: it parses, and runs clean on its variant with
 * every fix on. */
static void check_scenario(int k, const char *text)
{
	static struct run_result r;
	struct run_opts o = { 0 };
	struct scenario s;
	char err[256];

	if (strncmp(text, header, sizeof(header) - 1))
		bad(k, "the text does not start with the import lines", text);
	if (scenario_parse(text, strlen(text), &s, err, sizeof(err))) {
		bad(k, "the scenario does not parse", err);
		return;
	}
	if (dpm_pick(&s, NULL, "all", &o, err, sizeof(err)))
		bad(k, "no such variant", err);
	else if (k % RUN_EVERY == 0) {
		ran++;
		dpm_run(&s, &o, &r);
		if (r.violated)
			bad(k, inv_name(r.id), r.msg);
	}
	scenario_free(&s);
}

/* An exact-size copy, so ASan sees a read past the end. */
static char *exact_copy(const struct mutate_buf *b)
{
	char *c = malloc(b->n ? b->n : 1);

	if (!c)
		abort();
	memcpy(c, b->p, b->n);
	return c;
}

static bool one_line(const char *err)
{
	return err[0] && !strchr(err, '\n');
}

int main(int argc, char **argv)
{
	struct corrupt_sources src;
	struct corrupt_case c = { 0 };
	int imported[NR_CK] = { 0 }, rejected[NR_CK] = { 0 };
	int summaries = 0, multi = 0;
	char err[512];
	const char *env = getenv("TEST_IMPORT_CASES");
	int cases = env && atoi(env) > 0 ? atoi(env) : CASES;

	if (argc != 2) {
		fprintf(stderr, "usage: test_import_corrupt DATA_DIR\n");
		return 2;
	}
	if (corrupt_sources_load(argv[1], &src, err, sizeof(err))) {
		printf("test_import_corrupt: %s, skipped\n", err);
		return 77;
	}
	case_trap_install();
	for (int k = 0; k < cases; k++) {
		struct import_request rq = { 0 };
		struct import_result res;
		char *sum = NULL, *d = NULL, *f = NULL, *h = NULL;
		size_t sumlen = 0;
		int rc;

		case_trap_set("test_import_corrupt: case %d brought the process down; its inputs: import_mutate --cases %llu %d 1 PREFIX %s\n",
			      k, SEED, k, argv[1]);
		corrupt_case_make(SEED, (uint64_t)k, &src, &c);
		if (c.has_dmesg)
			rq.dmesg = (struct import_capture){ "corrupt-dmesg.txt",
				d = exact_copy(&c.dmesg), c.dmesg.n };
		if (c.has_ftrace)
			rq.ftrace = (struct import_capture){ "corrupt-ftrace.txt",
				f = exact_copy(&c.ftrace), c.ftrace.n };
		if (c.has_html)
			rq.html = (struct import_capture){ "corrupt.html",
				h = exact_copy(&c.html), c.html.n };
		if (k % 7 == 0)
			rq.summary = open_memstream(&sum, &sumlen);
		rc = import_captures(&rq, &res, err, sizeof(err));
		if (rq.summary)
			fclose(rq.summary);
		if (rc == 0) {
			imported[c.kind]++;
			multi += res.ncycle > 1;
			if (err[0])
				bad(k, "imported, with an error", err);
			if (res.ncycle < 1 || !res.text)
				bad(k, "imported, but no text", "");
			for (int t = 0; t < res.ncycle; t++)
				check_scenario(k, res.text[t]);
			import_result_free(&res);
			if (rq.summary) {
				summaries++;
				if (!sum || !strstr(sum, "\ndevices "))
					bad(k, "a summary without its devices line", sum ? sum : "");
			}
		} else if (rc == IMPORT_BAD_INPUT) {
			rejected[c.kind]++;
			if (!one_line(err))
				bad(k, "a rejection not one line", err);
			/* Not the capture's fault: the importer wrote a
			 * scenario it cannot read back. */
			if (strstr(err, "internal error"))
				bad(k, "rejected its own scenario", err);
			if (res.ncycle || res.text)
				bad(k, "rejected, but a text", res.text ? res.text[0] : "");
		} else {
			bad(k, "an import returned", rc == 1 ? "1" : "neither 0 nor 2");
		}
		free(sum);
		free(d);
		free(f);
		free(h);
	}
	for (int kind = 0; kind < NR_CK; kind++) {
		printf("test_import_corrupt: %-16s %5d imported, %4d rejected in one line\n",
		       corrupt_kind_name[kind], imported[kind], rejected[kind]);
		/* Both outcomes, often, for every kind of input. */
		EXPECT_TRUE(imported[kind] > cases / NR_CK / 2);
		EXPECT_TRUE(rejected[kind] > 10);
		EXPECT_EQ(imported[kind] + rejected[kind], (cases + NR_CK - 1 - kind) / NR_CK);
	}
	printf("test_import_corrupt: %d corrupt captures, %d with a summary, %d gave two or more transitions, %d scenarios ran clean with every fix on\n",
	       cases, summaries, multi, ran);
	EXPECT_EQ(bad_cases, 0);
	EXPECT_TRUE(summaries > cases / 14);
	EXPECT_TRUE(multi > cases / NR_CK / 2);
	EXPECT_TRUE(ran > cases / 2 / RUN_EVERY);
	corrupt_case_free(&c);
	corrupt_sources_free(&src);
	return test_summary("test_import_corrupt");
}
