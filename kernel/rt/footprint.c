// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explorable copy of a tree (kernel/CMakeLists.txt, DPMK_EXPLORE):
 * its main.c and kernel/rt are compiled with clang's ThreadSanitizer
 * instrumentation, which puts a call before every load, store and atomic
 * operation, and the build renames their memset/memcpy/memmove calls to
 * the ones below.  This file is compiled without it and is what those
 * calls reach: no race detection, only the address and size of what the
 * running task reads or writes, handed to kapi_mem_hook
 * (core/kapi/access.h), where the exhaustive search learns each step's
 * footprint.  The atomic operations are carried out here, sequentially
 * consistent whatever order the caller asked for (stronger is allowed).
 *
 * dpmk_footprint_locate() names the memory of a scenario device so that
 * the search keys it the same way in every run, from a table the runtime
 * keeps up to date as it allocates and frees (dpmk_fp_note()): it never
 * reads a device itself, which may be on its way to free().
 */
#include "rt.h"

#include "../../core/kapi/access.h"

#define HOOK_OF() __atomic_load_n(&kapi_mem_hook, __ATOMIC_RELAXED)

static int quiet;	/* DPMK_QUIET_BEGIN() depth */

static inline void note(const volatile void *p, unsigned long n, int write)
{
	void (*h)(const void *, unsigned long, int) = HOOK_OF();

	if (h && !quiet)
		h((const void *)p, n, write);
}

void dpmk_fp_quiet(int on)
{
	quiet += on ? 1 : -1;
}

void dpmk_fp_counted(const void *p, int last)
{
	/* The search keys plain memory by 4-byte words: p is one. */
	KAPI_ACCESS(p, last ? KACC_WRITE : KACC_ADD);
}

/* Called by the instrumented objects only: no prototypes elsewhere. */
#define PLAIN(n)                                                           \
	void __tsan_read##n(void *p);                                      \
	void __tsan_read##n(void *p) { note(p, n, 0); }                    \
	void __tsan_write##n(void *p);                                     \
	void __tsan_write##n(void *p) { note(p, n, 1); }                   \
	void __tsan_unaligned_read##n(void *p);                            \
	void __tsan_unaligned_read##n(void *p) { note(p, n, 0); }          \
	void __tsan_unaligned_write##n(void *p);                           \
	void __tsan_unaligned_write##n(void *p) { note(p, n, 1); }         \
	void __tsan_volatile_read##n(void *p);                             \
	void __tsan_volatile_read##n(void *p) { note(p, n, 0); }           \
	void __tsan_volatile_write##n(void *p);                            \
	void __tsan_volatile_write##n(void *p) { note(p, n, 1); }
PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)

void __tsan_read_range(void *p, unsigned long n);
void __tsan_read_range(void *p, unsigned long n) { note(p, n, 0); }
void __tsan_write_range(void *p, unsigned long n);
void __tsan_write_range(void *p, unsigned long n) { note(p, n, 1); }
void __tsan_init(void);
void __tsan_init(void) {}
void __tsan_func_entry(void *pc);
void __tsan_func_entry(void *pc) {}
void __tsan_func_exit(void);
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **p, void *v);
void __tsan_vptr_update(void **p, void *v) { note(p, sizeof(*p), 1); }

#define SC __ATOMIC_SEQ_CST
#define ATOMICS(n, T)                                                      \
	T __tsan_atomic##n##_load(const volatile T *a, int mo);            \
	T __tsan_atomic##n##_load(const volatile T *a, int mo)             \
	{ note(a, sizeof(T), 0); return __atomic_load_n(a, SC); }          \
	void __tsan_atomic##n##_store(volatile T *a, T v, int mo);         \
	void __tsan_atomic##n##_store(volatile T *a, T v, int mo)          \
	{ note(a, sizeof(T), 1); __atomic_store_n(a, v, SC); }             \
	RMW(n, T, exchange, __atomic_exchange_n)                           \
	RMW(n, T, fetch_add, __atomic_fetch_add)                           \
	RMW(n, T, fetch_sub, __atomic_fetch_sub)                           \
	RMW(n, T, fetch_and, __atomic_fetch_and)                           \
	RMW(n, T, fetch_or, __atomic_fetch_or)                             \
	RMW(n, T, fetch_xor, __atomic_fetch_xor)                           \
	RMW(n, T, fetch_nand, __atomic_fetch_nand)                         \
	CAS(n, T, strong)                                                  \
	CAS(n, T, weak)                                                    \
	T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, \
						  int mo, int f);          \
	T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, \
						  int mo, int f)           \
	{ note(a, sizeof(T), 1);                                           \
	  __atomic_compare_exchange_n(a, &c, v, 0, SC, SC); return c; }
/* Both compare-and-swap forms: the strong one (a weak one may fail
 * spuriously, never must). */
#define CAS(n, T, form)                                                    \
	int __tsan_atomic##n##_compare_exchange_##form(volatile T *a, T *c, \
						       T v, int mo, int f); \
	int __tsan_atomic##n##_compare_exchange_##form(volatile T *a, T *c, \
						       T v, int mo, int f) \
	{ note(a, sizeof(T), 1);                                           \
	  return __atomic_compare_exchange_n(a, c, v, 0, SC, SC); }
/* A read-modify-write is a write (the search does not tell apart the
 * increments whose result nobody reads here). */
#define RMW(n, T, op, builtin)                                             \
	T __tsan_atomic##n##_##op(volatile T *a, T v, int mo);             \
	T __tsan_atomic##n##_##op(volatile T *a, T v, int mo)              \
	{ note(a, sizeof(T), 1); return builtin(a, v, SC); }
ATOMICS(8, unsigned char)
ATOMICS(16, unsigned short)
ATOMICS(32, unsigned int)
ATOMICS(64, unsigned long long)

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo) { __atomic_thread_fence(SC); }
void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo) { __atomic_signal_fence(SC); }

/* The instrumented objects' memset, memcpy and memmove (renamed by the
 * build): a write of the destination, a read of the source. */
void *dpmk_fp_memset(void *d, int c, unsigned long n);
void *dpmk_fp_memset(void *d, int c, unsigned long n)
{
	note(d, n, 1);
	return __builtin_memset(d, c, n);
}

void *dpmk_fp_memcpy(void *d, const void *s, unsigned long n);
void *dpmk_fp_memcpy(void *d, const void *s, unsigned long n)
{
	note(s, n, 0);
	note(d, n, 1);
	return __builtin_memcpy(d, s, n);
}

void *dpmk_fp_memmove(void *d, const void *s, unsigned long n);
void *dpmk_fp_memmove(void *d, const void *s, unsigned long n)
{
	note(s, n, 0);
	note(d, n, 1);
	return __builtin_memmove(d, s, n);
}

/* ---- which device's memory ---- */

#define FP_PARTS 3

static const char *(*fp_base)[FP_PARTS];
static int fp_n;
/* The runtime's per-device arrays (part 3 of a device, at slot * 256). */
#define FP_ARRAYS 4
static struct { const char *base; unsigned long elem; } fp_array[FP_ARRAYS];

static const unsigned long fp_size[FP_PARTS] = {
	sizeof(struct dpmk_dev), sizeof(struct device_private),
	sizeof(struct wakeup_source),
};

/* Objects named by two device indexes: id (n + a * n + b) * 4. */
#define FP_OBJS 64
static struct { const char *base; unsigned long size; long id; } fp_obj[FP_OBJS];
static int fp_nobj;

void dpmk_fp_reset(int n)
{
	if (n <= 0) {
		for (int i = 0; i < FP_ARRAYS; i++)
			fp_array[i].base = NULL;
		fp_nobj = 0;
	}
	free(fp_base);
	fp_base = n > 0 ? calloc((unsigned long)n, sizeof(*fp_base)) : NULL;
	fp_n = fp_base ? n : 0;
	if (n > 0 && !fp_base)
		dpmk_host_bug("footprint: out of memory");
}

void dpmk_fp_note(int idx, int part, const void *base)
{
	if (idx >= 0 && idx < fp_n && part >= 0 && part < FP_PARTS)
		fp_base[idx][part] = base;
}

void dpmk_fp_note_array(int slot, const void *base, unsigned long elem)
{
	if (slot >= 0 && slot < FP_ARRAYS && elem > 0 && elem <= 256) {
		fp_array[slot].base = base;
		fp_array[slot].elem = elem;
	}
}

void dpmk_fp_note_obj(const void *base, unsigned long size, int a, int b)
{
	/* Past the table's room every such object is "the heap": the
	 * search then takes them all for one, which loses no conflict. */
	if (fp_nobj < FP_OBJS && fp_n > 0)
		fp_obj[fp_nobj++] = (typeof(fp_obj[0])){
			base, size, ((long)fp_n + (long)a * fp_n + b) * 4 };
}

void dpmk_fp_forget(const void *base)
{
	for (int i = 0; i < fp_nobj; i++)
		if (fp_obj[i].base == base) {
			fp_obj[i] = fp_obj[--fp_nobj];
			return;
		}
}

long dpmk_footprint_locate(const void *p, unsigned long *off)
{
	const char *c = p;

	for (int i = 0; i < fp_nobj; i++)
		if (c >= fp_obj[i].base && c < fp_obj[i].base + fp_obj[i].size) {
			*off = (unsigned long)(c - fp_obj[i].base);
			return fp_obj[i].id;
		}
	for (int a = 0; a < FP_ARRAYS; a++) {
		const char *b = fp_array[a].base;
		unsigned long e = fp_array[a].elem;

		if (b && c >= b && c < b + e * (unsigned long)fp_n) {
			unsigned long i = (unsigned long)(c - b) / e;

			*off = (unsigned long)a * 256 + (unsigned long)(c - b) % e;
			return (long)i * 4 + 3;
		}
	}
	for (int i = 0; i < fp_n; i++)
		for (int k = 0; k < FP_PARTS; k++) {
			const char *b = fp_base[i][k];

			if (b && c >= b && c < b + fp_size[k]) {
				*off = (unsigned long)(c - b);
				return (long)i * 4 + k;	/* kabi.h: index * 4 + part */
			}
		}
	return -1;
}
