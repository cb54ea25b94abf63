/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DPM_UTIL_RACE_SUMMARY_H
#define DPM_UTIL_RACE_SUMMARY_H

#include <sys/syscall.h>
#include <unistd.h>

/*
 * A sanitizer's SUMMARY line, for a program's own
 * __sanitizer_report_error_summary(): written to stderr, and counted in
 * *races when it is ThreadSanitizer's "data race".
 *
 * The runtime calls that hook while it holds its own locks.  Nothing on
 * the way may be instrumented: an instrumented function entry can make
 * ThreadSanitizer switch the thread's trace part, which waits for the
 * lock the report holds (dpmstress hung in CI so, with the host thread
 * waiting the same way), and an intercepted libc call (strstr(),
 * fprintf()) may take the runtime's locks too.  Hence no
 * instrumentation, a byte loop instead of strstr(), and raw write
 * system calls.
 */
#if defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define DPM_UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation))
#endif
#endif
#ifndef DPM_UNINSTRUMENTED
#define DPM_UNINSTRUMENTED __attribute__((no_sanitize("thread", "address", "undefined")))
#endif

DPM_UNINSTRUMENTED __attribute__((always_inline))
static inline void dpm_race_summary(const char *summary, volatile int *races)
{
	static const char want[] = "ThreadSanitizer: data race";
	static const char nl = '\n';
	size_t n = 0;

	for (size_t i = 0; summary[i]; i++) {
		size_t k = 0;

		while (want[k] && summary[i + k] == want[k])
			k++;
		if (!want[k]) {
			__atomic_add_fetch(races, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	while (summary[n])
		n++;
	(void)!syscall(SYS_write, 2, summary, n);
	(void)!syscall(SYS_write, 2, &nl, 1);
}

#endif
