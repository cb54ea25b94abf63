// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_mutate: a corrupt copy of a real capture, for tools/import_test.sh.
 *
 *   import_mutate SEED FIRST COUNT PREFIX FILE...
 *
 * For each case K from FIRST on, picks one FILE and writes to PREFIX<K>
 * a copy with bits flipped, bytes set, inserted, deleted and duplicated,
 * log keywords and NULs dropped in, sometimes a very long line,
 * sometimes only a window of the file, and sometimes truncated mid-line.
 * The same SEED and K give the same bytes on every machine; batches save
 * process starts.  Exit 0, or 2 with one line on stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OUT (4u << 20)

struct buf {
	unsigned char *p;
	size_t n, cap;
};

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

static void fail(const char *what, const char *arg)
{
	fprintf(stderr, "import_mutate: %s%s\n", what, arg);
	exit(2);
}

static void reserve(struct buf *b, size_t more)
{
	if (b->n + more <= b->cap)
		return;
	while (b->cap < b->n + more)
		b->cap = b->cap ? b->cap * 2 : 4096;
	b->p = realloc(b->p, b->cap);
	if (!b->p)
		fail("out of memory", "");
}

static void read_file(const char *path, struct buf *b)
{
	FILE *f = fopen(path, "rb");
	size_t r;

	if (!f)
		fail("cannot read ", path);
	do {
		reserve(b, 65536);
		r = fread(b->p + b->n, 1, b->cap - b->n, f);
		b->n += r;
	} while (r > 0);
	fclose(f);
}

/* Open a gap of len bytes at pos. */
static unsigned char *gap(struct buf *b, size_t pos, size_t len)
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

static void insert_run(struct buf *b)
{
	/* A long line now and then; mostly short runs. */
	size_t len = below(50) ? 1 + below(64) : 1 + below(200000);
	unsigned char *p = gap(b, below(b->n + 1), len);
	int c = (int)below(4);

	for (size_t i = 0; i < len; i++)
		p[i] = c == 0 ? (unsigned char)next() : c == 1 ? 0 :
		       c == 2 ? '0' + (unsigned char)below(10) : 'A';
}

static void mutate_once(struct buf *b)
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

static void window(struct buf *b)
{
	size_t a = below(b->n), len = 1 + below(b->n - a);

	memmove(b->p, b->p + a, len);
	b->n = len;
}

/* One corrupt copy, from the generator seeded with (seed, case). */
static void make_case(uint64_t seed, uint64_t k, const char *out,
		      char **files, int nfiles)
{
	struct buf b = { 0 };
	FILE *f;
	int rounds;

	rng = seed * 0x100000001b3ULL ^ k;
	next();
	read_file(files[below((size_t)nfiles)], &b);
	if (b.n && !below(4))
		window(&b);
	rounds = 1 + (int)below(below(3) ? 8 : 64);
	for (int i = 0; i < rounds && b.n < MAX_OUT; i++)
		mutate_once(&b);
	if (b.n && !below(3))
		b.n = below(b.n);
	f = fopen(out, "wb");
	if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f))
		fail("cannot write ", out);
	free(b.p);
}

int main(int argc, char **argv)
{
	uint64_t seed, first, count;
	char out[4096];

	if (argc < 6)
		fail("usage: import_mutate SEED FIRST COUNT PREFIX FILE...", "");
	seed = strtoull(argv[1], NULL, 0);
	first = strtoull(argv[2], NULL, 0);
	count = strtoull(argv[3], NULL, 0);
	for (uint64_t k = first; k < first + count; k++) {
		snprintf(out, sizeof(out), "%s%llu", argv[4],
			 (unsigned long long)k);
		make_case(seed, k, out, argv + 5, argc - 5);
	}
	return 0;
}
