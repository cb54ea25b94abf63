// SPDX-License-Identifier: GPL-2.0-only
/*
 * 10,000 corrupt captures through dpmimport's importer, in-process
 * (tools/import.c: import_captures(), what the binary runs between
 * reading the files and writing the scenario).
 *
 *   test_import_corrupt DATA_DIR
 *
 * Case K is what tools/import_test.sh runs as its case K: a corrupt copy
 * of one of the four skynet dmesg captures (capture_mutate(), seed
 * 20140613) and of one of the four ftrace captures (seed 20140614),
 * imported as dmesg (K % 3 == 0), ftrace (1) or both (2), with the
 * summary every 7th case.  Each must either
 *   - give a scenario: no error, the text starts with the "# imported
 *     by dpmimport" lines, scenario_parse() takes it, and it runs clean
 *     on the det engine with every fix on (as the real captures do;
 *     every 8th under ThreadSanitizer); a summary ends with its
 *     "devices" line; or
 *   - be rejected with one non-empty line and no text, never with an
 *     "internal error" (a scenario the importer cannot read back);
 * and never crash or leak (ASan, LeakSanitizer).  Exit 77 (skipped)
 * without the captures.
 */
#include <stdlib.h>
#include <string.h>

#include "capture_mutate.h"
#include "case_trap.h"
#include "expect.h"
#include "import.h"
#include "run/replay.h"

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

static const char *const modes[] = { "standby", "freeze", "mem", "disk" };

static struct mutate_src dmesgs[4], ftraces[4];

static int load_sources(const char *dir)
{
	char path[4096], err[512];
	char *buf;

	for (int m = 0; m < 4; m++) {
		for (int f = 0; f < 2; f++) {
			struct mutate_src *s = f ? &ftraces[m] : &dmesgs[m];

			snprintf(path, sizeof(path), "%s/skynet_%s_%s.txt", dir,
				 modes[m], f ? "ftrace" : "dmesg");
			if (dpm_read_file(path, "a capture", &buf, &s->len, err,
					  sizeof(err))) {
				printf("test_import_corrupt: %s, skipped\n", err);
				return -1;
			}
			s->buf = buf;
		}
	}
	return 0;
}

static int bad_cases;

static void bad(int k, const char *what, const char *detail)
{
	if (bad_cases++ < 10)
		fprintf(stderr, "case %d: %s: %.300s\n", k, what, detail);
}

static const char header[] = "# imported by dpmimport from ";

static int ran;

/* The imported text: it parses, and runs clean with every fix on. */
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
	if (k % RUN_EVERY) {
		scenario_free(&s);
		return;
	}
	ran++;
	o.variant = &variant_seed;
	o.fixes = (1ULL << variant_seed.nknobs) - 1;
	dpm_run(&s, &o, &r);
	if (r.violated)
		bad(k, inv_name(r.id), r.msg);
	scenario_free(&s);
}

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
	struct mutate_buf d = { 0 }, f = { 0 };
	int imported = 0, rejected = 0, summaries = 0;
	char dname[64], fname[64], err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: test_import_corrupt DATA_DIR\n");
		return 2;
	}
	if (load_sources(argv[1]))
		return 77;
	case_trap_install();
	for (int k = 0; k < CASES; k++) {
		struct import_request rq = { 0 };
		struct import_result res;
		char *sum = NULL, *dcopy, *fcopy;
		size_t sumlen = 0;
		int rc;

		case_trap_set("test_import_corrupt: case %d brought the process down; its inputs: import_mutate %llu %d 1 PREFIX (the four dmesg captures, standby freeze mem disk), seed %llu for the ftraces",
			      k, SEED, k, SEED + 1);
		capture_mutate(SEED, (uint64_t)k, dmesgs, 4, &d);
		capture_mutate(SEED + 1, (uint64_t)k, ftraces, 4, &f);
		snprintf(dname, sizeof(dname), "corrupt-%d-dmesg.txt", k);
		snprintf(fname, sizeof(fname), "corrupt-%d-ftrace.txt", k);
		/* Exact-size copies, so ASan sees a read past the end. */
		dcopy = exact_copy(&d);
		fcopy = exact_copy(&f);
		if (k % 3 != 1)
			rq.dmesg = (struct import_capture){ dname, dcopy, d.n };
		if (k % 3 != 0)
			rq.ftrace = (struct import_capture){ fname, fcopy, f.n };
		if (k % 7 == 0)
			rq.summary = open_memstream(&sum, &sumlen);
		rc = import_captures(&rq, &res, err, sizeof(err));
		if (rq.summary)
			fclose(rq.summary);
		if (rc == 0) {
			imported++;
			if (err[0])
				bad(k, "imported, with an error", err);
			if (res.ncycle < 1 || !res.text)
				bad(k, "imported, but no text", "");
			for (int c = 0; c < res.ncycle; c++)
				check_scenario(k, res.text[c]);
			import_result_free(&res);
			if (rq.summary) {
				summaries++;
				if (!sum || !strstr(sum, "\ndevices "))
					bad(k, "a summary without its devices line", sum ? sum : "");
			}
		} else if (rc == IMPORT_BAD_INPUT) {
			rejected++;
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
		free(dcopy);
		free(fcopy);
	}
	printf("test_import_corrupt: %d corrupt captures: %d imported (%d with a summary; %d ran clean with every fix on), %d rejected in one line\n",
	       CASES, imported, summaries, ran, rejected);
	EXPECT_EQ(bad_cases, 0);
	EXPECT_EQ(imported + rejected, CASES);
	/* Both outcomes, and often (import_test.sh's first 2000: 1947 and 53). */
	EXPECT_TRUE(imported > 5000);
	EXPECT_TRUE(rejected > 100);
	EXPECT_TRUE(summaries > 700);
	EXPECT_TRUE(ran > 5000 / RUN_EVERY);
	free(d.p);
	free(f.p);
	for (int m = 0; m < 4; m++) {
		free((char *)dmesgs[m].buf);
		free((char *)ftraces[m].buf);
	}
	return test_summary("test_import_corrupt");
}
