/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names copied and numbered on every execution (a device's, a task's):
 * what snprintf("%s") and snprintf("dev%d") did, without the format
 * parser, which a profile of the fuzz targets found in every run.
 */
#ifndef DPM_UTIL_STR_H
#define DPM_UTIL_STR_H

#include <stddef.h>
#include <string.h>

/* Copies src into dst (n > 0 bytes), cut to fit, always terminated. */
static inline void dpm_strlcpy(char *dst, const char *src, size_t n)
{
	size_t l = strnlen(src, n - 1);

	memcpy(dst, src, l);
	dst[l] = '\0';
}

/* dst (n > 0 bytes) = prefix followed by i in decimal (i >= 0), cut to
 * fit as snprintf would. */
static inline void dpm_name_index(char *dst, size_t n, const char *prefix, int i)
{
	char num[12];
	int k = (int)sizeof(num);
	unsigned int u = (unsigned int)i;

	do {
		num[--k] = (char)('0' + u % 10);
		u /= 10;
	} while (u && k > 0);
	size_t p = strnlen(prefix, n - 1);

	memcpy(dst, prefix, p);
	size_t d = (size_t)((int)sizeof(num) - k);

	if (d > n - 1 - p)
		d = n - 1 - p;
	memcpy(dst + p, num + k, d);
	dst[p + d] = '\0';
}

#endif
