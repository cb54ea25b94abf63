// SPDX-License-Identifier: GPL-2.0-only
/*
 * core/util/quarantine.c on its own: every byte of every freed object is
 * found with the object's index, and no byte outside them is, both while
 * a lookup scans the first few objects and once it goes through the
 * index by address; objects of a size that is not a power of two, packed
 * next to each other, so that each meets two blocks of the index.
 */
#include <stdlib.h>

#include "util/quarantine.h"
#include "expect.h"

#define SIZE 200	/* not a power of two: an object spans two blocks */

static void check(struct quarantine *q, char *mem, int nobj, int freed)
{
	int bad_in = 0, bad_out = 0, bad_idx = 0;

	for (int i = 0; i < nobj; i++)
		for (int b = 0; b < SIZE; b++) {
			int idx = -1;
			bool hit = quarantine_find(q, mem + i * SIZE + b, &idx);

			/* Objects 0, 2, 4 ... are the freed ones. */
			bool want = i % 2 == 0 && i / 2 < freed;

			if (want && !hit)
				bad_in++;
			if (!want && hit)
				bad_out++;
			if (want && hit && idx != i)
				bad_idx++;
		}
	EXPECT_EQ(bad_in, 0);
	EXPECT_EQ(bad_out, 0);
	EXPECT_EQ(bad_idx, 0);
	EXPECT_TRUE(!quarantine_find(q, mem - 1, NULL));
	EXPECT_TRUE(!quarantine_find(q, mem + nobj * SIZE, NULL));
}

int main(void)
{
	enum { NOBJ = 400 };
	char *mem = malloc((size_t)NOBJ * SIZE);
	struct quarantine q;

	quarantine_init(&q, SIZE, NOBJ);
	EXPECT_EQ(quarantine_count(&q), 0);
	EXPECT_TRUE(!quarantine_find(&q, mem, NULL));
	/* Free every other object, checking after each of the first
	 * (scanned) ones and then at a few counts of the index's. */
	for (int k = 0; k < NOBJ / 2; k++) {
		quarantine_add(&q, 2 * k, mem + 2 * k * SIZE);
		if (k < QUARANTINE_SCAN + 2 || k == 50 || k == NOBJ / 2 - 1)
			check(&q, mem, NOBJ, k + 1);
	}
	EXPECT_EQ(quarantine_count(&q), NOBJ / 2);
	EXPECT_TRUE(quarantine_at(&q, 2) == mem + 2 * SIZE);
	EXPECT_TRUE(quarantine_at(&q, 1) == NULL);
	quarantine_release(&q);
	EXPECT_EQ(quarantine_count(&q), 0);
	EXPECT_TRUE(!quarantine_find(&q, mem, NULL));
	free(mem);
	return test_summary("test_quarantine");
}
