// SPDX-License-Identifier: GPL-2.0-only
/* Values in messages, as one printable line (esc.h). */
#include "esc.h"

#include <stdbool.h>
#include <stdlib.h>

#include "xalloc.h"

/* How byte c is shown, into u (room for 5); its length. */
static size_t unit(unsigned char c, char *u)
{
	static const char hex[] = "0123456789abcdef";

	if (c >= 0x20 && c < 0x7f) {
		u[0] = (char)c;
		return 1;
	}
	u[0] = '\\';
	if (c == '\t' || c == '\n' || c == '\r') {
		u[1] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
		return 2;
	}
	u[1] = 'x';
	u[2] = hex[c >> 4];
	u[3] = hex[c & 15];
	return 4;
}

/* The bytes of s from i on, shown, while they fit in room characters:
 * appended at out + *at; returns where it stopped. */
static size_t show(char *out, size_t *at, const char *s, size_t i, size_t n,
		   size_t room)
{
	char u[5];
	size_t used = 0;

	for (; i < n; i++) {
		size_t k = unit((unsigned char)s[i], u);

		if (used + k > room)
			break;
		memcpy(out + *at, u, k);
		*at += k;
		used += k;
	}
	return i;
}

const char *dpm_esc(char *out, const char *s, size_t n)
{
	char u[5];
	size_t at = 0, total = 0, tail = 0, from = n;

	for (size_t i = 0; i < n && total <= DPM_ESC_MAX; i++)
		total += unit((unsigned char)s[i], u);
	if (total <= DPM_ESC_MAX) {
		show(out, &at, s, 0, n, DPM_ESC_MAX);
		out[at] = '\0';
		return out;
	}
	show(out, &at, s, 0, n, DPM_ESC_HEAD);
	memcpy(out + at, "...", 3);
	at += 3;
	/* The end: as many whole bytes, shown, as fill the rest. */
	while (from > 0) {
		size_t k = unit((unsigned char)s[from - 1], u);

		if (tail + k > DPM_ESC_MAX - DPM_ESC_HEAD - 3)
			break;
		tail += k;
		from--;
	}
	show(out, &at, s, from, n, tail);
	out[at] = '\0';
	return out;
}

void dpm_one_line(char *msg, size_t size)
{
	size_t n = strlen(msg), at = 0, stop;
	bool plain = true;

	for (size_t i = 0; i < n && plain; i++)
		plain = (unsigned char)msg[i] >= 0x20 && (unsigned char)msg[i] < 0x7f;
	if (plain || size < 4)
		return;
	char *copy = dpm_xmemdup(msg, n, 1);

	stop = show(msg, &at, copy, 0, n, size - 1);
	if (stop < n) {
		/* Cut to the room: end in "..." on a whole byte. */
		at = 0;
		show(msg, &at, copy, 0, n, size - 4);
		memcpy(msg + at, "...", 3);
		at += 3;
	}
	msg[at] = '\0';
	free(copy);
}

void dpm_json_str(FILE *f, const char *s, bool html)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&')))
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
