/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Values in messages: what a user gave (an option's value, a file name,
 * a word of a scenario or a capture, a variant's name) is echoed as one
 * printable line of bounded length, whatever its bytes.  Printable ASCII
 * stays as it is; a tab, a line end or a carriage return is shown as
 * \t, \n or \r, and every other byte (control, DEL, non-ASCII) as \xNN.
 * A value longer than DPM_ESC_MAX characters so shown keeps its start
 * and its end around "..." (a path's end names the file).
 */
#ifndef DPM_UTIL_ESC_H
#define DPM_UTIL_ESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Characters of a value shown at most: the first DPM_ESC_HEAD, "...",
 * and the last ones. */
#define DPM_ESC_MAX 72
#define DPM_ESC_HEAD 44
/* Room for one value so shown, NUL included. */
#define DPM_ESC_SIZE (DPM_ESC_MAX + 1)

/* The n bytes at s, shown as above, into out (DPM_ESC_SIZE bytes);
 * returns out. */
const char *dpm_esc(char *out, const char *s, size_t n);

/* For a printf argument: the value s (NUL-terminated) or its first n
 * bytes, shown as above, in a buffer that lasts to the end of the
 * enclosing block. */
#define DPM_ESC(s) dpm_esc((char[DPM_ESC_SIZE]){ 0 }, (s), strlen(s))
#define DPM_ESCN(s, n) dpm_esc((char[DPM_ESC_SIZE]){ 0 }, (s), (n))

/* A whole message made one printable line in place: its bytes shown as
 * above (not cut, but for the room: size bytes; then it ends in "...").
 * Every program passes its error line through this before printing it,
 * so no byte of a value that reached a message unshown can end it. */
void dpm_one_line(char *msg, size_t size);

/* s as a JSON string on f, quotes included: '"' and '\\' escaped, a line
 * end as \n, other control bytes as \u00XX; html: '<', '>' and '&' as
 * \u00XX too, so the string is safe inside a <script> element. */
void dpm_json_str(FILE *f, const char *s, bool html);

#endif
