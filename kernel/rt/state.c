// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c's writable statics, restored before every run.
 *
 * The build renames the sections of main.c's object that hold them
 * (.data, .bss, .data.rel.local, .data.rel: whichever the compiler made)
 * to dpmk_<tag>_data, _bss, _drl and _dr (kernel/CMakeLists.txt), so the
 * linker marks each with __start_/__stop_ symbols, whatever main.c names
 * its statics (dpm_list and the phase lists, dpm_list_mtx, pm_transition,
 * async_error, 6.1's suspend_stats, ...).  The first setup takes a copy;
 * every later one writes it back.  The copy is byte by byte through
 * volatile pointers in a function no sanitizer instruments: the sections
 * hold ASan's redzones too, which are copied as they are.
 */
#include "rt.h"

#define CAT3_(a, b, c)	a##b##c
#define CAT3(a, b, c)	CAT3_(a, b, c)
#define SEC_START(s)	CAT3(__start_dpmk_, DPMK_TAG, s)
#define SEC_STOP(s)	CAT3(__stop_dpmk_, DPMK_TAG, s)

#define DECLARE_SEC(s)						\
	extern char SEC_START(s)[] __attribute__((weak));	\
	extern char SEC_STOP(s)[] __attribute__((weak))

DECLARE_SEC(_data);
DECLARE_SEC(_bss);
DECLARE_SEC(_drl);
DECLARE_SEC(_dr);

static struct {
	char *start, *stop;
	char *copy;
} secs[4];
static bool saved;

#if defined(__clang__)
#define NO_SANITIZE __attribute__((no_sanitize("address", "thread", "memory", "undefined")))
#else
#define NO_SANITIZE __attribute__((no_sanitize_address, no_sanitize_thread, no_sanitize_undefined))
#endif

static NO_SANITIZE noinline
void raw_copy(char *dst, const char *src, size_t n)
{
	volatile char *d = dst;
	const volatile char *s = src;

	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

void dpmk_state_restore(void)
{
	if (!saved) {
		secs[0].start = SEC_START(_data);
		secs[0].stop = SEC_STOP(_data);
		secs[1].start = SEC_START(_bss);
		secs[1].stop = SEC_STOP(_bss);
		secs[2].start = SEC_START(_drl);
		secs[2].stop = SEC_STOP(_drl);
		secs[3].start = SEC_START(_dr);
		secs[3].stop = SEC_STOP(_dr);
		for (int i = 0; i < 4; i++) {
			size_t n = secs[i].stop - secs[i].start;

			if (!secs[i].start || !n)
				continue;
			secs[i].copy = malloc(n);
			if (!secs[i].copy)
				dpmk_host_bug("state: out of memory");
			raw_copy(secs[i].copy, secs[i].start, n);
		}
		saved = true;
		return;
	}
	for (int i = 0; i < 4; i++)
		if (secs[i].copy)
			raw_copy(secs[i].start, secs[i].copy,
				 secs[i].stop - secs[i].start);
}

/* Whether obj lies in main.c's statics (its only mutex is dpm_list_mtx). */
bool dpmk_state_owns(const void *obj)
{
	const char *o = obj;

	for (int i = 0; i < 4; i++)
		if (secs[i].start && o >= secs[i].start && o < secs[i].stop)
			return true;
	return false;
}

unsigned long dpmk_state_size(void)
{
	unsigned long n = 0;

	for (int i = 0; i < 4; i++)
		n += secs[i].stop - secs[i].start;
	return n;
}
