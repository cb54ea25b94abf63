/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: atomic_t on the compiler's atomics. */
#ifndef _DPMSHIM_LINUX_ATOMIC_H
#define _DPMSHIM_LINUX_ATOMIC_H

#include <linux/types.h>

#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline void atomic_dec(atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline int atomic_inc_return(atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline int atomic_sub_return(int i, atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_dec_return(atomic_t *v)
{
	return atomic_sub_return(1, v);
}

/* Add a to v unless v is u; true if it added. */
static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (c == u)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + a, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}

#endif
