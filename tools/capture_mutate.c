// SPDX-License-Identifier: GPL-2.0-only
/*
 * Corrupt copies of real captures (capture_mutate.h): for
 * tools/import_test.sh through import_mutate, and in-process for
 * tests/test_import_corrupt.c.  The same seed and case give the same
 * bytes either way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_mutate.h"
#include "util/xalloc.h"

#define MAX_OUT (4u << 20)

static uint64_t rng;

/* splitmix64: tiny and the same everywhere. */
static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

static void reserve(struct mutate_buf *b, size_t more)
{
	if (b->n + more <= b->cap)
		return;
	while (b->cap < b->n + more)
		b->cap = b->cap ? b->cap * 2 : 4096;
	b->p = dpm_xrealloc(b->p, b->cap, 1);
}

/* Open a gap of len bytes at pos. */
static unsigned char *gap(struct mutate_buf *b, size_t pos, size_t len)
{
	reserve(b, len);
	memmove(b->p + pos + len, b->p + pos, b->n - pos);
	b->n += len;
	return b->p + pos;
}

static const char *const tokens[] = {
	"calling  ", "call ", "+ @ ", " @ ", ", parent: ", ", cb: ",
	" returned ", " returned -71", " after ", " usecs", "PM: ",
	"late ", "noirq ", "early ", " of devices complete after ",
	"PM: suspend of devices complete after 1.5 msecs",
	"PM: noirq resume of devices complete after 0.001 msecs",
	" msecs", "device_pm_callback_start: ", "device_pm_callback_end: ",
	", err=", ", err=-5", "suspend_resume: ", "dpm_resume[16] begin",
	"dpm_suspend[2] end", "dpm_complete[16] begin",
	" x-1 [000] ....   1.000001: ", "-4122 ", "none", "(null)",
	"\n", "\r\n", "[", "]", "99999999999999999999999",
};

static const unsigned char interesting[] = {
	0, '\n', '\r', ' ', '+', '@', ',', ':', '[', ']', '-', '.', '=', '"',
	'#', '~', '\t', 0x7f, 0x80, 0xc3, 0xe2, 0xff,
};

static void insert_run(struct mutate_buf *b)
{
	/* A long line now and then; mostly short runs. */
	size_t len = below(50) ? 1 + below(64) : 1 + below(200000);
	unsigned char *p = gap(b, below(b->n + 1), len);
	int c = (int)below(4);

	for (size_t i = 0; i < len; i++)
		p[i] = c == 0 ? (unsigned char)next() : c == 1 ? 0 :
		       c == 2 ? '0' + (unsigned char)below(10) : 'A';
}

static void mutate_once(struct mutate_buf *b)
{
	size_t pos = below(b->n), len;
	const char *t;

	switch (below(7)) {
	case 0:
		if (b->n)
			b->p[pos] ^= (unsigned char)(1u << below(8));
		break;
	case 1:
		if (b->n)
			b->p[pos] = interesting[below(sizeof(interesting))];
		break;
	case 2:
		insert_run(b);
		break;
	case 3:
		t = tokens[below(sizeof(tokens) / sizeof(*tokens))];
		memcpy(gap(b, below(b->n + 1), strlen(t)), t, strlen(t));
		break;
	case 4:
		len = 1 + below(below(2) ? 16 : 4096);
		if (len > b->n - pos)
			len = b->n - pos;
		memmove(b->p + pos, b->p + pos + len, b->n - pos - len);
		b->n -= len;
		break;
	case 5:
		len = 1 + below(4096);
		if (len > b->n - pos)
			len = b->n - pos;
		if (len && b->n + len <= MAX_OUT) {
			size_t to = below(b->n + 1);

			gap(b, to, len);
			memmove(b->p + to, b->p + (pos >= to ? pos + len : pos), len);
		}
		break;
	default:
		if (b->n)
			b->p[pos] = (unsigned char)next();
		break;
	}
}

static void window(struct mutate_buf *b)
{
	size_t a = below(b->n), len = 1 + below(b->n - a);

	memmove(b->p, b->p + a, len);
	b->n = len;
}

int capture_mutate(uint64_t seed, uint64_t k, const struct mutate_src *src,
		   int nsrc, struct mutate_buf *b)
{
	int rounds, which;

	rng = seed * 0x100000001b3ULL ^ k;
	next();
	which = (int)below((size_t)nsrc);
	b->n = 0;
	reserve(b, src[which].len);
	memcpy(b->p, src[which].buf, src[which].len);
	b->n = src[which].len;
	if (b->n && !below(4))
		window(b);
	rounds = 1 + (int)below(below(3) ? 8 : 64);
	for (int i = 0; i < rounds && b->n < MAX_OUT; i++)
		mutate_once(b);
	if (b->n && !below(3))
		b->n = below(b->n);
	return which;
}
