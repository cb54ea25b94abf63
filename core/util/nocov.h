/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DPM_UTIL_NOCOV_H
#define DPM_UTIL_NOCOV_H

/*
 * The suite's own bookkeeping, kept out of the fuzzer's coverage: code
 * that runs on every lock or reference operation (quarantine lookups) or
 * between executions (the mutator's encoder) gives libFuzzer no signal,
 * only comparison callbacks to pay for.  clang only: gcc has no such
 * attribute for it, and no fuzzer.  No system header, so the kernel
 * runtime (-nostdinc) includes it too.
 */
#if defined(__clang__)
#define DPM_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define DPM_NO_COVERAGE
#endif

#endif
