/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: compiler attributes and access helpers. */
#ifndef _DPMSHIM_LINUX_COMPILER_H
#define _DPMSHIM_LINUX_COMPILER_H

#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __cold			__attribute__((cold))
#define __must_check		__attribute__((warn_unused_result))
#define __always_inline		inline __attribute__((always_inline))
#define noinline		__attribute__((noinline))
#define __maybe_unused		__attribute__((unused))
#define __always_unused		__attribute__((unused))
#define __noreturn		__attribute__((noreturn))
#define __weak			__attribute__((weak))
#define __packed		__attribute__((packed))
#define __aligned(x)		__attribute__((aligned(x)))
#define __section(s)		__attribute__((section(s)))
#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define __rcu
#define __iomem
#define __user
#define __force
#define fallthrough		__attribute__((fallthrough))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")

/*
 * READ_ONCE()/WRITE_ONCE(): one volatile access of the object's own size,
 * never torn, merged or re-read, as the kernel's asm-generic/rwonce.h
 * gives for scalars.  They are also relaxed atomics (a plain mov on
 * x86-64, the same code), so ThreadSanitizer judges them as the kernel's
 * memory model does: two marked accesses do not race, a marked and a
 * plain one do.  Scalars only: a tree that READ_ONCE()s a struct fails
 * to compile, and the shim grows.
 */
#define READ_ONCE(x) \
	__atomic_load_n((const volatile __typeof__(x) *)&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val) \
	__atomic_store_n((volatile __typeof__(x) *)&(x), (val), __ATOMIC_RELAXED)

#define offsetof(type, member)	__builtin_offsetof(type, member)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define container_of_const(ptr, type, member) container_of(ptr, type, member)

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#endif
