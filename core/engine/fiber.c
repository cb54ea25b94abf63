// SPDX-License-Identifier: GPL-2.0-only
#include "fiber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef DPM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define STACK_SIZE (512 * 1024)
#else
#define STACK_SIZE (128 * 1024)
#endif
#ifdef DPM_TSAN
#include <sanitizer/tsan_interface.h>
#endif

/* The fiber a switch came from, so its stack bounds can be learnt. */
static struct fiber *switch_from;
static struct fiber *starting;

int fiber_alloc(struct fiber *f)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = STACK_SIZE + page;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	/* A guard page below the stack turns an overflow into a crash. */
	if (mprotect(m, page, PROT_NONE))
		return -1;
	f->stack = m + page;
	f->stack_size = STACK_SIZE;
	return 0;
}

static void fiber_start(void)
{
	struct fiber *f = starting;

#ifdef DPM_ASAN
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(NULL, &bottom, &size);
	if (switch_from && !switch_from->stack) {
		switch_from->stack = (void *)bottom;
		switch_from->stack_size = size;
	}
#endif
	f->entry();
	abort();
}

#ifndef DPM_FIBER_UCONTEXT
void dpm_ctx_switch(void **save_sp, void *to_sp);
void dpm_fiber_trampoline(void);
__asm__(".text\n"
	".globl dpm_ctx_switch\n"
	".hidden dpm_ctx_switch\n"
	".type dpm_ctx_switch,@function\n"
	"dpm_ctx_switch:\n"
	"\tpushq %rbp\n"
	"\tpushq %rbx\n"
	"\tpushq %r12\n"
	"\tpushq %r13\n"
	"\tpushq %r14\n"
	"\tpushq %r15\n"
	"\tmovq %rsp, (%rdi)\n"
	"\tmovq %rsi, %rsp\n"
	"\tpopq %r15\n"
	"\tpopq %r14\n"
	"\tpopq %r13\n"
	"\tpopq %r12\n"
	"\tpopq %rbx\n"
	"\tpopq %rbp\n"
	"\tret\n"
	".size dpm_ctx_switch, .-dpm_ctx_switch\n"
	".globl dpm_fiber_trampoline\n"
	".hidden dpm_fiber_trampoline\n"
	".type dpm_fiber_trampoline,@function\n"
	"dpm_fiber_trampoline:\n"
	"\tcall dpm_fiber_start\n"
	"\tud2\n"
	".size dpm_fiber_trampoline, .-dpm_fiber_trampoline\n");

__attribute__((used, visibility("hidden"))) void dpm_fiber_start(void)
{
	fiber_start();
}
#endif

void fiber_prepare(struct fiber *f, void (*entry)(void))
{
	f->entry = entry;
	f->asan_fake = NULL;
#ifdef DPM_TSAN
	/* A new TSan fiber for every task that uses this stack. */
	if (f->tsan_fiber)
		__tsan_destroy_fiber(f->tsan_fiber);
	f->tsan_fiber = __tsan_create_fiber(0);
#endif
#ifdef DPM_FIBER_UCONTEXT
	getcontext(&f->uc);
	f->uc.uc_stack.ss_sp = f->stack;
	f->uc.uc_stack.ss_size = f->stack_size;
	f->uc.uc_link = NULL;
	makecontext(&f->uc, fiber_start, 0);
#else
	uintptr_t top = ((uintptr_t)f->stack + f->stack_size) & ~(uintptr_t)15;
	void **sp = (void **)(top - 72);

	/* Six callee-saved registers, then the return address. */
	for (int i = 0; i < 6; i++)
		sp[i] = NULL;
	sp[6] = (void *)dpm_fiber_trampoline;
	sp[7] = NULL;
	f->sp = sp;
#endif
}

void fiber_switch(struct fiber *from, struct fiber *to, bool from_is_dying)
{
	switch_from = from;
	starting = to;
#ifdef DPM_ASAN
	__sanitizer_start_switch_fiber(from_is_dying ? NULL : &from->asan_fake,
				       to->stack, to->stack_size);
#else
	(void)from_is_dying;
#endif
#ifdef DPM_TSAN
	if (!to->tsan_fiber)
		to->tsan_fiber = __tsan_get_current_fiber();
	if (!from->tsan_fiber)
		from->tsan_fiber = __tsan_get_current_fiber();
	__tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
#ifdef DPM_FIBER_UCONTEXT
	swapcontext(&from->uc, &to->uc);
#else
	dpm_ctx_switch(&from->sp, to->sp);
#endif
#ifdef DPM_ASAN
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(from->asan_fake, &bottom, &size);
#endif
}

void fiber_reclaim(struct fiber *f)
{
#ifdef DPM_ASAN
	/*
	 * The frames active when the fiber last switched away never
	 * returned, so their redzones are still poisoned in the shadow; a
	 * later fiber on this stack would trip over them.  They lie between
	 * the saved stack pointer and the top.
	 */
	char *top = (char *)f->stack + f->stack_size, *lo = f->stack;
#ifndef DPM_FIBER_UCONTEXT
	if ((char *)f->sp - 1024 > lo)
		lo = (char *)f->sp - 1024;
#endif
	__asan_unpoison_memory_region(lo, (size_t)(top - lo));
#endif
	(void)f;
}
