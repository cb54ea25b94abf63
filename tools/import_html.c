// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleepgraph's .html output (tools/import_int.h).  Since 2015 sleepgraph
 * (then analyze_suspend.py) can embed the logs a timeline was drawn from
 * as hidden blocks near the end of the page,
 *
 *   <div id="dmesglog" style="display:none;">
 *   ...the dmesg...
 *   </div>
 *   <div id="ftracelog" style="display:none;">
 *   ...the ftrace...
 *   </div>
 *
 * the dmesg with '<' and '>' written as "&lt" and "&gt" (no semicolon;
 * since late 2016), the ftrace as it is.  Current sleepgraph embeds the
 * dmesg by default and the ftrace with -addlogs or -ftracelog.  A page a
 * browser saved again has every block escaped properly ("&lt;",
 * "&amp;"), so both forms are decoded.  The timeline's own boxes are not
 * read: the logs hold everything they were drawn from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

static const struct {
	const char *ent;
	char c;
} entities[] = {
	{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' },
	{ "&#39;", '\'' }, { "&#x27;", '\'' }, { "&lt", '<' }, { "&gt", '>' },
};

/* The block's text with the entities above decoded, NUL-terminated. */
static char *decode(struct span s, size_t *len)
{
	char *out = xrealloc(NULL, s.n + 1);
	size_t n = 0;

	for (size_t i = 0; i < s.n;) {
		size_t k = 0, e = NPOS;

		if (s.p[i] == '&')
			for (; k < sizeof(entities) / sizeof(*entities); k++)
				if ((e = skip(s, i, entities[k].ent)) != NPOS)
					break;
		if (e == NPOS) {
			out[n++] = s.p[i++];
		} else {
			out[n++] = entities[k].c;
			i = e;
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}

/* The text of <div id="ID" ...> up to the next </div>, or false. */
static bool block(struct span page, const char *id, struct span *text)
{
	char open[32];
	size_t a, b, e;

	snprintf(open, sizeof(open), "<div id=\"%s\"", id);
	a = find(page, 0, open);
	if (a == NPOS)
		return false;
	b = find(page, a, ">");
	if (b == NPOS)
		return false;
	e = find(page, b + 1, "</div>");
	*text = sub(page, b + 1, e == NPOS ? page.n : e);
	return true;
}

void html_extract(const char *path, struct span page, char **dmesg,
		  size_t *dlen, char **ftrace, size_t *flen)
{
	struct span d, f;
	bool hd = block(page, "dmesglog", &d), hf = block(page, "ftracelog", &f);

	if (!hd && !hf)
		die("%s: no dmesg or ftrace log in this page (sleepgraph embeds them with -addlogs, or -dmesglog and -ftracelog)",
		    path);
	if (hd)
		*dmesg = decode(d, dlen);
	if (hf)
		*ftrace = decode(f, flen);
}
