// SPDX-License-Identifier: GPL-2.0-only
/* The run log: printk lines stamped with virtual time and task. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"
#include "../util/xalloc.h"

bool dpm_log_enabled;
static char *buf;
static size_t len, cap;

void dpm_log_reset(void)
{
	len = 0;
	if (buf)
		buf[0] = '\0';
}

const char *dpm_log_text(void)
{
	return buf ? buf : "";
}

static void reserve(size_t more)
{
	if (len + more + 1 <= cap)
		return;
	while (len + more + 1 > cap)
		cap = cap ? 2 * cap : 4096;
	buf = dpm_xrealloc(buf, cap, 1);
}

void pm_printk(const char *fmt, ...)
{
	char line[512];
	uint64_t t = dpm_eng->now();
	int n = snprintf(line, sizeof(line), "[%6llu.%06llu] %-24s ",
			 (unsigned long long)(t / 1000000000ULL),
			 (unsigned long long)(t / 1000ULL % 1000000ULL),
			 dpm_eng->current_name());
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	size_t l = strlen(line);
	static int log_lk;

	quiet_lock(&log_lk);
	reserve(l + 1);
	memcpy(buf + len, line, l);
	len += l;
	if (l && line[l - 1] != '\n')
		buf[len++] = '\n';
	buf[len] = '\0';
	quiet_unlock(&log_lk);
}

ktime_t ktime_get(void)
{
	return (ktime_t)dpm_eng->now();
}
