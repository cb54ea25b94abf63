/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For tests that run thousands of generated cases in one process: if a
 * case crashes it, or a sanitizer reports on it, say which case it was
 * (case_trap_set() before each) so it can be made again alone.
 */
#ifndef DPM_TESTS_CASE_TRAP_H
#define DPM_TESTS_CASE_TRAP_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char case_trap_line[512];

/* Sanitizer runtimes have it; without one it is NULL. */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void case_trap_report(void)
{
	(void)!write(2, case_trap_line, strlen(case_trap_line));
}

static void case_trap_signal(int sig)
{
	case_trap_report();
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void case_trap_install(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };

	if (__sanitizer_set_death_callback) {
		/* The sanitizer's own report first, then ours. */
		__sanitizer_set_death_callback(case_trap_report);
		return;
	}
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		signal(sigs[i], case_trap_signal);
}

/* What to print if the case about to run brings the process down. */
static inline void case_trap_set(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void case_trap_set(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(case_trap_line, sizeof(case_trap_line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n > sizeof(case_trap_line) - 2)
		n = (int)sizeof(case_trap_line) - 2;
	case_trap_line[n] = '\n';
	case_trap_line[n + 1] = '\0';
}

#endif
