// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_mutate: corrupt copies of real captures, for tools/import_test.sh.
 *
 *   import_mutate SEED FIRST COUNT PREFIX FILE...
 *   import_mutate --cases SEED FIRST COUNT PREFIX DATA_DIR
 *
 * The first form writes to PREFIX<K>, for each case K from FIRST on, case
 * K of SEED as capture_mutate() makes it from one of the FILEs.  The
 * second writes dpmimport's corrupt-input test cases, made from the
 * skynet captures in DATA_DIR (capture_mutate.h: corrupt_case_make(), the
 * same bytes tests/test_import_corrupt.c imports in-process): for case K
 * the files it gives dpmimport, PREFIX<K>-dmesg.txt, PREFIX<K>-ftrace.txt
 * and PREFIX<K>.html as its kind has them.  Batches save process starts.
 * Exit 0, or 2 with one line on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_mutate.h"
#include "run/replay.h"

static void fail(const char *msg)
{
	fprintf(stderr, "import_mutate: %s\n", msg);
	exit(2);
}

static uint64_t number(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end || *s == '-')
		fail("SEED, FIRST and COUNT are numbers");
	return v;
}

static void write_buf(const char *path, const struct mutate_buf *b)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
		fprintf(stderr, "import_mutate: cannot write %s\n", path);
		exit(2);
	}
}

static int cases(uint64_t seed, uint64_t first, uint64_t count,
		 const char *prefix, const char *dir)
{
	struct corrupt_sources src;
	struct corrupt_case c = { 0 };
	char out[4096], err[512];

	if (corrupt_sources_load(dir, &src, err, sizeof(err)))
		fail(err);
	for (uint64_t k = first; k < first + count; k++) {
		corrupt_case_make(seed, k, &src, &c);
		if (c.has_dmesg) {
			snprintf(out, sizeof(out), "%s%llu-dmesg.txt", prefix,
				 (unsigned long long)k);
			write_buf(out, &c.dmesg);
		}
		if (c.has_ftrace) {
			snprintf(out, sizeof(out), "%s%llu-ftrace.txt", prefix,
				 (unsigned long long)k);
			write_buf(out, &c.ftrace);
		}
		if (c.has_html) {
			snprintf(out, sizeof(out), "%s%llu.html", prefix,
				 (unsigned long long)k);
			write_buf(out, &c.html);
		}
	}
	corrupt_case_free(&c);
	corrupt_sources_free(&src);
	return 0;
}

int main(int argc, char **argv)
{
	struct mutate_buf b = { 0 };
	struct mutate_src *src;
	uint64_t seed, first, count;
	char out[4096], err[512];
	int nsrc = argc - 5;

	if (argc == 7 && !strcmp(argv[1], "--cases"))
		return cases(number(argv[2]), number(argv[3]), number(argv[4]),
			     argv[5], argv[6]);
	if (argc < 6)
		fail("usage: import_mutate SEED FIRST COUNT PREFIX FILE... | --cases SEED FIRST COUNT PREFIX DATA_DIR");
	seed = number(argv[1]);
	first = number(argv[2]);
	count = number(argv[3]);
	src = calloc((size_t)nsrc, sizeof(*src));
	if (!src)
		fail("out of memory");
	for (int i = 0; i < nsrc; i++) {
		char *buf;

		if (dpm_read_file(argv[5 + i], "a capture", &buf, &src[i].len,
				  err, sizeof(err)))
			fail(err);
		src[i].buf = buf;
	}
	for (uint64_t k = first; k < first + count; k++) {
		snprintf(out, sizeof(out), "%s%llu", argv[4], (unsigned long long)k);
		capture_mutate(seed, k, src, nsrc, &b);
		write_buf(out, &b);
	}
	for (int i = 0; i < nsrc; i++)
		free((char *)src[i].buf);
	free(src);
	free(b.p);
	return 0;
}
