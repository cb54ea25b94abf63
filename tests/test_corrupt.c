// SPDX-License-Identifier: GPL-2.0-only
/*
 * 10,000 corrupt inputs, from a fixed seed: the shipped scenario texts
 * with bytes flipped, inserted, deleted and truncated.  Each must either
 * be rejected with one non-empty line, or parse and run to the end on the
 * det engine (every fix on) without a crash; ASan builds check memory.
 * dpmrepro does exactly this with a file (tools/dpmrepro.c).
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "expect.h"

static uint64_t rng = 0xd1b54a32d192ed03ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = malloc(1 << 16);

	if (!f || !b)
		return NULL;
	*n = fread(b, 1, (1 << 16) - 1, f);
	fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	size_t len[16];
	char *src[16];
	int nsrc = 0;

	for (int i = 1; i < argc && nsrc < 16; i++) {
		src[nsrc] = slurp(argv[i], &len[nsrc]);
		EXPECT_TRUE(src[nsrc] != NULL);
		if (src[nsrc])
			nsrc++;
	}
	EXPECT_TRUE(nsrc > 0);
	int parsed = 0, rejected = 0, bad_errors = 0, violations = 0;
	struct run_opts o = { &variant_seed, (1ULL << variant_seed.nknobs) - 1, false };
	static struct run_result r;

	for (int it = 0; it < 10000 && nsrc; it++) {
		int k = (int)(next() % (uint64_t)nsrc);
		size_t n = len[k];
		char *b = malloc(n + 64);

		memcpy(b, src[k], n);
		for (int m = 1 + (int)(next() % 4); m > 0; m--) {
			size_t at = n ? next() % n : 0;

			switch (next() % 4) {
			case 0:	/* flip a byte */
				if (n)
					b[at] = (char)next();
				break;
			case 1:	/* insert a byte */
				if (n + 1 < len[k] + 64) {
					memmove(b + at + 1, b + at, n - at);
					b[at] = (char)next();
					n++;
				}
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
		struct scenario s;
		char err[256];

		if (scenario_parse(b, n, &s, err, sizeof(err))) {
			rejected++;
			bad_errors += !err[0] || strchr(err, '\n') != NULL;
		} else {
			parsed++;
			if (s.ndev <= 400 && s.cycles <= 5) {
				dpm_run(&s, &o, &r);
				/* Every fix on and a valid scenario: clean. */
				if (r.violated) {
					violations++;
					fprintf(stderr, "violation %s: %s\n",
						inv_name(r.id), r.msg);
				}
			}
			scenario_free(&s);
		}
		free(b);
	}
	printf("test_corrupt: %d parsed and ran, %d rejected\n", parsed, rejected);
	EXPECT_EQ(bad_errors, 0);
	EXPECT_EQ(violations, 0);
	EXPECT_EQ(parsed + rejected, 10000);
	EXPECT_TRUE(parsed > 100);	/* the mutations keep some texts valid */
	EXPECT_TRUE(rejected > 100);
	for (int i = 0; i < nsrc; i++)
		free(src[i]);
	return test_summary("test_corrupt");
}
