// SPDX-License-Identifier: GPL-2.0-only
/*
 * Corrupt copies of real captures (capture_mutate.h): for
 * tools/import_test.sh through import_mutate, and in-process for
 * tests/test_import_corrupt.c.  The same seed and case give the same
 * bytes either way.
 */
#define _GNU_SOURCE		/* memmem */
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
	": calling ", ": PM: calling ", "+0x0/0x80", " [snd_hda_intel]",
	"usb 1-1: usb_dev_suspend+0x0/0x20 returned -16 after 12 usecs",
	"i8042 kbd 00:04: calling pnp_bus_suspend+0x0/0x20 @ 1, parent: pnp0",
	"<div id=\"dmesglog\" style=\"display:none;\">", "</div>", "&lt", "&gt;",
	"&amp;", "<div id=\"ftracelog\">", "# suspend-061314-132459 skynet mem 6.12.0",
	"# suspend-010101-000000 x freeze 2.6.33", "dpm_prepare[2] begin",
	"PM: suspend of devices aborted after 3.1 msecs", ", [suspend]",
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

/* ---- the corrupt-capture cases of dpmimport's tests ---- */

const char *const corrupt_kind_name[NR_CK] = {
	"dmesg", "ftrace", "dmesg+ftrace", "4.x-6.x dmesg", "html", "two transitions",
};

static void add(struct mutate_buf *b, const void *p, size_t n)
{
	reserve(b, n);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void add_str(struct mutate_buf *b, const char *s)
{
	add(b, s, strlen(s));
}

static int read_whole(const char *path, struct mutate_buf *b, char *err,
		      size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	b->n = 0;
	if (!f) {
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		add(b, chunk, n);
	fclose(f);
	return 0;
}

/* One line, NUL-terminated, in a scratch buffer. */
static const char *line_at(const struct mutate_buf *b, size_t *at, size_t *len,
			   struct mutate_buf *scratch)
{
	size_t e = *at;

	while (e < b->n && b->p[e] != '\n')
		e++;
	scratch->n = 0;
	add(scratch, b->p + *at, e - *at);
	add(scratch, "", 1);
	*len = e - *at;
	*at = e < b->n ? e + 1 : e;
	return (const char *)scratch->p;
}

/* "DRIVER DEV" of DEV under PARENT as the ftrace prints it, or NULL. */
static const char *ftrace_who(const struct mutate_buf *f, const char *dev,
			      const char *parent, char *out, size_t n)
{
	static const char tag[] = "device_pm_callback_start: ";
	size_t dl = strlen(dev), pl = strlen(parent);
	const unsigned char *p = f->p, *end = f->p + f->n;

	while ((p = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1))) {
		const unsigned char *w = p + sizeof(tag) - 1;
		const unsigned char *c = memmem(w, (size_t)(end - w), ", parent: ", 10);
		size_t wl;

		p = w;
		if (!c)
			break;
		wl = (size_t)(c - w);
		if (wl > dl && wl < n && w[wl - dl - 1] == ' ' &&
		    !memcmp(w + wl - dl, dev, dl) && (size_t)(end - c) > 10 + pl &&
		    !memcmp(c + 10, parent, pl) && c[10 + pl] == ',') {
			memcpy(out, w, wl);
			out[wl] = '\0';
			return out;
		}
	}
	return NULL;
}

/*
 * The 3.x dmesg d with its callback lines as 4.x-6.x print them: every
 * third with 6.x's "PM: ", every fifth callback in a module.
 */
static void make_newdmesg(const struct mutate_buf *d, const struct mutate_buf *f,
			  struct mutate_buf *out)
{
	struct mutate_buf line = { 0 };
	char names[256][48], whos[256][96], who[96];
	int nnames = 0, n = 0;
	size_t at = 0, len;

	out->n = 0;
	while (at < d->n) {
		const char *l = line_at(d, &at, &len, &line);
		const char *c = strstr(l, "calling  "), *r = strstr(l, "call ");
		const char *plus, *tail, *par;
		char dev[48], func[64];

		snprintf(func, sizeof(func), "%s+0x0/0x80%s",
			 n % 2 ? "pci_pm_resume" : "platform_pm_suspend",
			 n % 5 ? "" : " [snd_hda_intel]");
		if (c && (plus = strstr(c, "+ @ ")) && (par = strstr(plus, ", parent: ")) &&
		    plus - c - 9 < (long)sizeof(dev)) {
			snprintf(dev, sizeof(dev), "%.*s", (int)(plus - c - 9), c + 9);
			if (!ftrace_who(f, dev, par + 10, who, sizeof(who)))
				snprintf(who, sizeof(who), "drv %s", dev);
			if (nnames < 256) {
				snprintf(names[nnames], sizeof(names[0]), "%s", dev);
				snprintf(whos[nnames++], sizeof(whos[0]), "%s", who);
			}
			add(out, l, (size_t)(c - l));
			add_str(out, who);
			add_str(out, n++ % 3 ? ": calling " : ": PM: calling ");
			add_str(out, func);
			add(out, plus + 1, strlen(plus + 1));
		} else if (r && (tail = strstr(r, "+ returned ")) && tail - r - 5 < (long)sizeof(dev)) {
			snprintf(dev, sizeof(dev), "%.*s", (int)(tail - r - 5), r + 5);
			snprintf(who, sizeof(who), "drv %s", dev);
			for (int i = nnames; i-- > 0;)
				if (!strcmp(names[i], dev)) {
					snprintf(who, sizeof(who), "%s", whos[i]);
					break;
				}
			add(out, l, (size_t)(r - l));
			add_str(out, who);
			add_str(out, n++ % 3 ? ": " : ": PM: ");
			add_str(out, func);
			add(out, tail + 1, strlen(tail + 1));
		} else {
			add(out, l, len);
		}
		add(out, "\n", 1);
	}
	free(line.p);
}

/* A page as sleepgraph writes one, with the logs embedded. */
static void make_html(const struct mutate_buf *d, const struct mutate_buf *f,
		      struct mutate_buf *out)
{
	out->n = 0;
	add_str(out, "<!DOCTYPE html>\n<html>\n<head>\n<title>skynet Suspend</title>\n</head>\n<body>\n"
		"<div id=\"dmesglog\" style=\"display:none;\">\n");
	for (size_t i = 0; i < d->n; i++) {
		if (d->p[i] == '<')
			add_str(out, "&lt");
		else if (d->p[i] == '>')
			add_str(out, "&gt");
		else
			add(out, &d->p[i], 1);
	}
	add_str(out, "</div>\n<div id=\"ftracelog\" style=\"display:none;\">\n");
	add(out, f->p, f->n);
	add_str(out, "</div>\n</body>\n</html>\n");
}

int corrupt_sources_load(const char *dir, struct corrupt_sources *s,
			 char *err, size_t errlen)
{
	static const char *const modes[CORRUPT_NSRC] = {
		"standby", "freeze", "mem", "disk",
	};
	char path[4096];

	memset(s, 0, sizeof(*s));
	for (int m = 0; m < CORRUPT_NSRC; m++) {
		snprintf(path, sizeof(path), "%s/skynet_%s_dmesg.txt", dir, modes[m]);
		if (read_whole(path, &s->dmesg[m], err, errlen))
			return -1;
		snprintf(path, sizeof(path), "%s/skynet_%s_ftrace.txt", dir, modes[m]);
		if (read_whole(path, &s->ftrace[m], err, errlen))
			return -1;
	}
	for (int m = 0; m < CORRUPT_NSRC; m++) {
		int next = (m + 1) % CORRUPT_NSRC;

		make_newdmesg(&s->dmesg[m], &s->ftrace[m], &s->newdmesg[m]);
		make_html(&s->dmesg[m], &s->ftrace[m], &s->html[m]);
		add(&s->multi_dmesg[m], s->dmesg[m].p, s->dmesg[m].n);
		add(&s->multi_dmesg[m], s->dmesg[next].p, s->dmesg[next].n);
		add(&s->multi_ftrace[m], s->ftrace[m].p, s->ftrace[m].n);
		add(&s->multi_ftrace[m], s->ftrace[next].p, s->ftrace[next].n);
	}
	return 0;
}

void corrupt_sources_free(struct corrupt_sources *s)
{
	for (int m = 0; m < CORRUPT_NSRC; m++) {
		free(s->dmesg[m].p);
		free(s->ftrace[m].p);
		free(s->newdmesg[m].p);
		free(s->html[m].p);
		free(s->multi_dmesg[m].p);
		free(s->multi_ftrace[m].p);
	}
	memset(s, 0, sizeof(*s));
}

static void corrupt_one(uint64_t seed, uint64_t k, const struct mutate_buf *src,
			struct mutate_buf *out)
{
	struct mutate_src one = { (const char *)src->p, src->n };

	capture_mutate(seed, k, &one, 1, out);
}

void corrupt_case_make(uint64_t seed, uint64_t k, const struct corrupt_sources *s,
		       struct corrupt_case *c)
{
	int run = (int)((k / NR_CK) % CORRUPT_NSRC);
	const struct mutate_buf *d = &s->dmesg[run], *f = &s->ftrace[run];

	c->kind = (enum corrupt_kind)(k % NR_CK);
	c->has_dmesg = c->kind == CK_DMESG || c->kind == CK_BOTH ||
		       c->kind == CK_NEWDMESG || c->kind == CK_MULTI;
	c->has_ftrace = c->kind == CK_FTRACE || c->kind == CK_BOTH ||
			c->kind == CK_MULTI;
	c->has_html = c->kind == CK_HTML;
	if (c->kind == CK_NEWDMESG)
		d = &s->newdmesg[run];
	if (c->kind == CK_MULTI) {
		d = &s->multi_dmesg[run];
		f = &s->multi_ftrace[run];
	}
	if (c->has_dmesg)
		corrupt_one(seed, k, d, &c->dmesg);
	if (c->has_ftrace)
		corrupt_one(seed + 1, k, f, &c->ftrace);
	if (c->has_html)
		corrupt_one(seed + 2, k, &s->html[run], &c->html);
}

void corrupt_case_free(struct corrupt_case *c)
{
	free(c->dmesg.p);
	free(c->ftrace.p);
	free(c->html.p);
	memset(c, 0, sizeof(*c));
}
