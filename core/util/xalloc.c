// SPDX-License-Identifier: GPL-2.0-only
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void dpm_out_of_memory(void)
{
	static const char msg[] = "dpmfuzz: out of memory\n";

	/* No stdio: it may need memory itself. */
	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

void *dpm_xrealloc(void *p, size_t n, size_t size)
{
	if (!n)
		n = 1;
	if (size && n > (size_t)-1 / size)
		dpm_out_of_memory();
	p = realloc(p, n * size);
	if (!p)
		dpm_out_of_memory();
	return p;
}

void *dpm_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		dpm_out_of_memory();
	return p;
}

void *dpm_xmemdup(const void *src, size_t n, size_t size)
{
	void *p = dpm_xrealloc(NULL, n, size);

	if (n)
		memcpy(p, src, n * size);
	return p;
}
