/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Dependence hook of the exhaustive search (core/explore): called with the
 * shared state a task reads or writes where another task could see it
 * (a primitive's state, a reference count, a list, an unlocked shared
 * variable of a model), at the moment of the access, so the search knows
 * which steps commute.  idx tells apart the elements of a table (0 for a
 * single object).  KACC_ADD: an increment or decrement whose result the
 * step does not read (two of them commute).  KACC_MEM: the object's
 * memory is used (KAPI_CHECK: freed memory matters), not its state.  An
 * attempt that blocks touches nothing: to every other task it is the same
 * as an attempt made later.  The attempt that passes (KACC_PASS*) cannot
 * come before the write that let it through (KACC_WAKE); it could come
 * before the write that had closed the way (KACC_DISABLE): the search
 * tries that order instead; a task whose next step would block on a
 * lock taken (KACC_TAKE_NEXT) is not run then.  A mutex's own state is
 * reported as taken and released (KACC_LOCK, KACC_UNLOCK): what its
 * critical sections touch is reported as such, so the search may order
 * sections by what they share (docs/exhaustive.md).  NULL, its default,
 * costs a load and a branch.
 */
#ifndef DPM_KAPI_ACCESS_H
#define DPM_KAPI_ACCESS_H

enum kapi_acc {
	KACC_READ, KACC_WRITE, KACC_ADD, KACC_MEM,
	KACC_WAKE,	/* a write; a waiter could not pass before it */
	KACC_ADD_WAKE,	/* a count; a waiter could not pass before it */
	KACC_DISABLE,	/* a write; a waiter could pass before it, not after */
	KACC_PASS,	/* a waiter passes (reads what let it) */
	KACC_PASS_WRITE, /* a waiter passes and changes it */
	KACC_PASS_DISABLE, /* a waiter passes and takes it: others wait now */
	KACC_TAKE_NEXT,	/* the task's next step begins by taking it (a lock) */
	KACC_LOCK,	/* a mutex taken (after any wait) */
	KACC_UNLOCK,	/* a mutex released */
};
extern void (*kapi_access_hook)(const void *obj, long idx, enum kapi_acc acc);
#define KAPI_ACCESS_IDX(obj, idx, acc)                                  \
	do {                                                            \
		void (*_h)(const void *, long, enum kapi_acc) =         \
			__atomic_load_n(&kapi_access_hook,              \
					__ATOMIC_RELAXED);              \
		if (_h)                                                 \
			_h((obj), (idx), (acc));                        \
	} while (0)
#define KAPI_ACCESS(obj, acc) KAPI_ACCESS_IDX(obj, 0, acc)

/*
 * Plain memory: size bytes at p read (write 0) or written (1) by the
 * running task.  Only code compiled to report every load and store calls
 * it: the explorable copy of a kernel tree (kernel/rt/footprint.c), whose
 * main.c the search cannot read otherwise.  NULL when nobody listens.
 */
extern void (*kapi_mem_hook)(const void *p, unsigned long size, int write);

#endif
