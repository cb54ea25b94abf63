/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test assertions that print the expression and both values.  EXPECT_*
 * records a failure and goes on; every test binary ends with
 * test_summary(), which prints "N passed, N failed" and sets the exit
 * code.  They survive NDEBUG.
 */
#ifndef DPM_TESTS_EXPECT_H
#define DPM_TESTS_EXPECT_H

#include <stdio.h>
#include <string.h>

static int expect_passed, expect_failed;

#define EXPECT_TRUE(c)                                                    \
	do {                                                              \
		if (c) {                                                  \
			expect_passed++;                                  \
		} else {                                                  \
			expect_failed++;                                  \
			fprintf(stderr, "%s:%d: expected %s\n", __FILE__, \
				__LINE__, #c);                            \
		}                                                         \
	} while (0)

#define EXPECT_EQ(a, b)                                                     \
	do {                                                                \
		long long _a = (long long)(a), _b = (long long)(b);         \
		if (_a == _b) {                                             \
			expect_passed++;                                    \
		} else {                                                    \
			expect_failed++;                                    \
			fprintf(stderr, "%s:%d: expected %s == %s, got %lld and %lld\n", \
				__FILE__, __LINE__, #a, #b, _a, _b);        \
		}                                                           \
	} while (0)

#define EXPECT_STR_EQ(a, b)                                                 \
	do {                                                                \
		const char *_a = (a), *_b = (b);                            \
		if (_a && _b && !strcmp(_a, _b)) {                          \
			expect_passed++;                                    \
		} else {                                                    \
			expect_failed++;                                    \
			fprintf(stderr, "%s:%d: expected %s == %s\n  got \"%s\"\n  and \"%s\"\n", \
				__FILE__, __LINE__, #a, #b, _a ? _a : "(null)", \
				_b ? _b : "(null)");                        \
		}                                                           \
	} while (0)

#define EXPECT_CONTAINS(hay, needle)                                        \
	do {                                                                \
		const char *_h = (hay), *_n = (needle);                     \
		if (_h && strstr(_h, _n)) {                                 \
			expect_passed++;                                    \
		} else {                                                    \
			expect_failed++;                                    \
			fprintf(stderr, "%s:%d: expected %s to contain \"%s\", it is:\n%s\n", \
				__FILE__, __LINE__, #hay, _n, _h ? _h : "(null)"); \
		}                                                           \
	} while (0)

static inline int test_summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, expect_passed, expect_failed);
	return expect_failed ? 1 : 0;
}

#endif
