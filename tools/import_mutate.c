// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_mutate: corrupt copies of real captures, for tools/import_test.sh.
 *
 *   import_mutate SEED FIRST COUNT PREFIX FILE...
 *
 * For each case K from FIRST on, writes to PREFIX<K> case K of SEED as
 * capture_mutate() makes it from one of the FILEs (the same bytes that
 * tests/test_import_corrupt.c imports in-process); batches save process
 * starts.  Exit 0, or 2 with one line on stderr.
 */
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	struct mutate_buf b = { 0 };
	struct mutate_src *src;
	uint64_t seed, first, count;
	char out[4096], err[512];
	int nsrc = argc - 5;

	if (argc < 6)
		fail("usage: import_mutate SEED FIRST COUNT PREFIX FILE...");
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
		FILE *f;

		snprintf(out, sizeof(out), "%s%llu", argv[4], (unsigned long long)k);
		capture_mutate(seed, k, src, nsrc, &b);
		f = fopen(out, "wb");
		if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f)) {
			fprintf(stderr, "import_mutate: cannot write %s\n", out);
			exit(2);
		}
	}
	for (int i = 0; i < nsrc; i++)
		free((char *)src[i].buf);
	free(src);
	free(b.p);
	return 0;
}
