/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fibers for the det engine: a stack and a saved context.  On x86-64 a
 * hand-written switch saves the callee-saved registers and the stack
 * pointer (no system call); elsewhere, under ThreadSanitizer, or with
 * DPMFUZZ_UCONTEXT, ucontext is the portable fallback.  The sanitizers
 * are told about every switch so that ASan and TSan follow the stacks.
 */
#ifndef DPM_ENGINE_FIBER_H
#define DPM_ENGINE_FIBER_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPM_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define DPM_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define DPM_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define DPM_TSAN 1
#endif

#if !defined(__x86_64__) || defined(DPM_TSAN) || defined(DPMFUZZ_UCONTEXT)
#define DPM_FIBER_UCONTEXT 1
#include <ucontext.h>
#endif

struct fiber {
#ifdef DPM_FIBER_UCONTEXT
	ucontext_t uc;
#else
	void *sp;
#endif
	void *stack;		/* lowest usable address */
	size_t stack_size;
	void (*entry)(void);
	void *asan_fake;
	void *tsan_fiber;
};

int fiber_alloc(struct fiber *f);
void fiber_prepare(struct fiber *f, void (*entry)(void));
/* Save the running context in from and continue to. */
void fiber_switch(struct fiber *from, struct fiber *to, bool from_is_dying);
/* The fiber will never run again (it ended, or its run was abandoned):
 * make its stack fit for reuse. */
void fiber_reclaim(struct fiber *f);

#endif
